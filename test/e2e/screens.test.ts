// End to end (issue 12): play to each state the screens got wrong, in Chromium against the real
// host, and check what the table, the TV and History show.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { recordTv, SCREENSHOTS, startHost, tvBanners, tvDrawnAfter, useBrowserAndHosts } from './support'
import { ScreenClient } from '@test/kit/screen-client'

const kept = useBrowserAndHosts()

async function table(): Promise<{ url: string; api: ScreenClient }> {
  const running = await startHost(mkdtempSync(join(tmpdir(), 'dice-referee-screens-')))
  kept.keep(running)
  const api = await ScreenClient.open(running.url)
  kept.keep(api)
  return { url: running.url, api }
}

async function openPage(url: string, viewport = { width: 1920, height: 1080 }): Promise<Page> {
  const page = await kept.browser.newPage({ viewport })
  await page.goto(url)
  return page
}

async function typeKeys(page: Page, keys: string[]): Promise<void> {
  await page.locator('body').click({ position: { x: 5, y: 5 } })
  for (const key of keys) await page.keyboard.press(key)
}

const text = (page: Page, testId: string) => () => page.getByTestId(testId).first().textContent()
const QUIET = { roll: [3, 5, 6, 6] }
const FOUR_FOURS = { roll: [4, 4, 4, 4] }

describe('what the screens show', () => {
  it('Foursies four-round tour: round and tour in every header, the duel prompt, the thrower’s name, and the standings in the game’s order', async () => {
    const { url, api } = await table()
    await api.call('newGame', { game: 'foursies', players: ['Ann', 'Bob', 'Cy'], rules: { match: 'tour', tour: 'four-rounds' } })
    const control = await openPage(url)
    const tv = await openPage(`${url}scoreboard`)
    // Bob wins rounds 1 and 4, Ann 2 and 3: whoever wins throws four 4s on their turn, the others nothing.
    const roundWinners = ['Bob', 'Ann', 'Ann', 'Bob']
    for (let guard = 0; guard < 40; guard++) {
      const state = await api.getState()
      const game = state.current!
      if (game.summary.toPlay === null) break
      const round = Number(/Round (\d)/.exec(game.table.phase)?.[1])
      if (round === 4 && game.table.phase.includes('Final lap')) {
        await expect.poll(text(tv, 'phase')).toBe('Round 4 of 4 · Tour 1 · Final lap')
        await expect.poll(text(control, 'phase')).toBe('Round 4 of 4 · Tour 1 · Final lap')
      }
      await api.play([game.summary.toPlay === roundWinners[round - 1] ? FOUR_FOURS : QUIET])
    }
    // Two round wins each: a duel with the tour at stake; the keypad says whose digit comes first.
    await expect.poll(text(tv, 'phase')).toBe('Tie-break duel: tour 1 at stake')
    await expect.poll(text(control, 'keypad-hint')).toBe('Type one die each, in this order: 1st Ann, 2nd Bob; then Enter')
    // The dice beside the duel are Cy's, from before: labelled as his, not as just thrown.
    await expect.poll(text(tv, 'throw-caption')).toBe('Cy’s last throw')
    await typeKeys(control, ['1', '2', 'Enter'])
    await expect.poll(text(tv, 'throw-caption')).toBe('Duel throw: Ann 1 · Bob 2')
    await typeKeys(control, ['3', '4', 'Enter'])
    await tv.getByTestId('winner-screen').waitFor()
    expect(await tv.getByTestId('standing-name').allTextContents()).toEqual(['Bob', 'Ann', 'Cy'])
    expect(await tv.getByTestId('standing-shown').allTextContents()).toEqual(['1 tour · 2 rounds', '0 tours · 2 rounds', '0 tours · 0 rounds'])
    expect(await tv.getByTestId('standing-why').allTextContents()).toEqual(['won the tie-break duel'])
    expect(await control.getByTestId('standing-name').allTextContents()).toEqual(['Bob', 'Ann', 'Cy'])
    await expect.poll(text(control, 'throw-caption')).toBe('Last duel throw: Ann 3 · Bob 4')
    await tv.screenshot({ path: join(SCREENSHOTS, 'issue12-foursies-standings-tv.png') })

    // Rematch: one action; the same players and options, the tab passed on (Bob starts).
    await control.getByTestId('rematch').click()
    await expect.poll(text(tv, 'to-play')).toBe('Bob')
    await expect.poll(text(tv, 'phase')).toBe('Round 1 of 4 · Tour 1')
    await control.close()
    await tv.close()
  }, 120_000)

  it('4-PLU$: the flash-round winner stands above the player with the same total', async () => {
    const { url, api } = await table()
    await api.call('newGame', { game: 'four-plus', players: ['Ann', 'Bob'], rules: { rounds: 1 } })
    await api.play([{ roll: [2, 2, 2, 6] }, { roll: [2, 3, 5, 6] }, { roll: [2, 3, 5, 6] }, { roll: [2, 2, 2, 6] }, { roll: [2, 3, 5, 6] }])
    const tv = await openPage(`${url}scoreboard`)
    await api.play([{ roll: [2, 3, 5, 6] }])
    // A flash round: Ann throws nothing, Bob four of a kind.
    await expect.poll(text(tv, 'phase')).toBe('Flash round')
    await api.play([{ roll: [2, 3, 5, 6] }])
    // Ann's throw stays beside the scores with her name while Bob is to play.
    await expect.poll(text(tv, 'throw-caption')).toBe('Ann’s last throw')
    await expect.poll(text(tv, 'to-play')).toBe('Bob')
    await api.play([{ roll: [5, 5, 5, 5] }])
    // Bob raised the standing score: Ann owes a reply, and throws nothing again.
    await api.play([{ roll: [2, 3, 5, 6] }])
    await tv.getByTestId('winner-screen').waitFor()
    expect(await tv.getByTestId('standing-name').allTextContents()).toEqual(['Bob', 'Ann'])
    expect(await tv.getByTestId('standing-why').allTextContents()).toEqual(['won the flash rounds'])
    await tv.close()
  }, 120_000)

  it('Farkle with a computer seat: the TV gets the moves but no reasons or odds; hot dice ends with the turn; sounds when switched on', async () => {
    const { url, api } = await table()
    await api.call('setShowOdds', true)
    await api.call('newGame', { game: 'farkle', players: ['Ann', 'Cy'], computers: [1] })
    const control = await openPage(url)
    const tv = await kept.browser.newPage({ viewport: { width: 1920, height: 1080 } })
    await tv.addInitScript(() => {
      const counter = window as unknown as { oscillators: number }
      counter.oscillators = 0
      const original = AudioContext.prototype.createOscillator
      AudioContext.prototype.createOscillator = function (this: AudioContext) {
        counter.oscillators++
        return original.call(this)
      }
    })
    await tv.goto(`${url}scoreboard`)
    await tv.getByTestId('scores').waitFor()
    await recordTv(tv)
    // Sound is off until switched on; then a short sound made in the page for each event.
    await tv.mouse.move(500, 500)
    await tv.getByTestId('tv-options').click()
    await tv.getByTestId('tv-sound').check()
    const oscillators = () => tv.evaluate(() => (window as unknown as { oscillators: number }).oscillators)
    const before = await oscillators()

    await api.play([{ roll: [1, 1, 1, 1, 5, 5] }, { keep: [1, 1, 1, 1, 5, 5] }])
    await expect.poll(() => tvBanners(tv)).toContain('Hot dice!')
    await expect.poll(() => tv.getByTestId('scoreboard').getAttribute('data-last-sound')).toBe('hotDice')
    expect(await oscillators()).toBeGreaterThan(before)
    const beforeTheBank = (await api.getState()).version
    await api.play([{ bank: true }])
    // The announcement ends with the turn, at once (not seconds later, into Cy's turn): the first
    // state the TV draws after the bank has the banner gone or on its way out, under Ann's last throw.
    await expect.poll(() => tvDrawnAfter(tv, beforeTheBank)).toMatchObject({ caption: 'Ann’s last throw' })
    const drawn = (await tvDrawnAfter(tv, beforeTheBank))!
    expect(drawn.banner === '' || drawn.leaving, `banner ${JSON.stringify(drawn.banner)} still up`).toBe(true)

    // Cy, the computer, plays; its reasons are in the table's log, never on the TV. Its dice are
    // virtual: a first throw that farkles (1 in 43) ends its turn before any decision, so Ann plays
    // another turn until Cy has decided something.
    const decided = (): Promise<number> => control.locator('[data-testid=log-entry][data-kind=computer]').count()
    for (let turn = 0; turn < 10 && (await decided()) === 0; turn++) {
      const before = (await api.getState()).version
      await expect
        .poll(async () => (await decided()) > 0 || ((await api.getState()).current?.summary.toPlay === 'Ann' && (await api.getState()).version > before), { timeout: 15_000 })
        .toBe(true)
      if ((await decided()) === 0) await api.play([{ roll: [2, 2, 3, 4, 6, 5] }, { keep: [5] }, { bank: true }])
    }
    await expect.poll(decided, { timeout: 15_000 }).toBeGreaterThan(0)
    const reason = (await control.locator('[data-testid=log-entry][data-kind=computer]').first().textContent())!.trim()
    expect(reason).toContain('Cy')
    await expect.poll(() => control.getByTestId('odds').count()).toBeGreaterThan(0)
    const tvText = await tv.locator('body').textContent()
    expect(tvText).not.toContain('%')
    expect(tvText).not.toContain(reason.replace(/^\d+\s*/, ''))
    expect(await tv.getByTestId('odds').count()).toBe(0)
    await control.close()
    await tv.close()
  }, 120_000)

  it('the keypad: Esc clears and is listed, a refused entry clears, + is described per game', async () => {
    const { url, api } = await table()
    await api.call('newGame', { game: 'foursies', players: ['Ann', 'Bob'] })
    const control = await openPage(url, { width: 390, height: 844 })
    await control.getByTestId('keypad-legend').waitFor()
    expect(await control.getByTestId('keypad-legend').textContent()).toMatch(/\+\s*largest re-roll.*\.\s*or Esc\s*clear/s)
    await typeKeys(control, ['1', '2'])
    await expect.poll(text(control, 'keypad-buffer')).toBe('12')
    await typeKeys(control, ['Escape'])
    await expect.poll(text(control, 'keypad-buffer')).toBe('—')
    await typeKeys(control, ['1', '2', '3', 'Enter'])
    await expect.poll(text(control, 'message')).toContain('4 dice are due, not 3')
    await expect.poll(text(control, 'keypad-buffer')).toBe('—')
    // Keys of the same width on a phone.
    const widths = await control.locator('.keypad__grid button').evaluateAll((keys) => keys.map((key) => Math.round(key.getBoundingClientRect().width)))
    expect(new Set(widths).size).toBe(1)
    expect(widths[0]).toBeGreaterThanOrEqual(70)
    await api.call('newGame', { game: 'farkle', players: ['Ann', 'Bob'] })
    await expect.poll(text(control, 'keypad-legend')).toMatch(/\+\s*keep the most/)
    await control.close()
  }, 120_000)

  it('Setup: a problem shown goes once it is fixed', async () => {
    const { url } = await table()
    const control = await openPage(url)
    await control.getByTestId('game-farkle').click()
    await control.getByTestId('start-game').click()
    await expect.poll(text(control, 'setup-error')).toBe('Add at least one player')
    await control.getByTestId('player-name-0').fill('Ann')
    await expect.poll(() => control.getByTestId('setup-error').count()).toBe(0)
    if ((await control.getByTestId('player-name-1').count()) === 0) await control.getByTestId('add-player').click()
    await control.getByTestId('player-name-1').fill('ann')
    await control.getByTestId('start-game').click()
    await expect.poll(text(control, 'setup-error')).toContain('Two players are called ann')
    await control.getByTestId('player-name-1').fill('Bob')
    await expect.poll(() => control.getByTestId('setup-error').count()).toBe(0)
    await control.close()
  }, 60_000)

  it('import asks before replacing a game in progress; the replaced game resumes from History; a game already there is not imported twice', async () => {
    const { url, api } = await table()
    await api.call('newGame', { game: 'four-plus', players: ['Ann', 'Bob'] })
    await api.play([{ roll: [3, 3, 3, 2] }])
    const exported = await api.call('exportRecord')
    if (!exported.ok) throw new Error(exported.error)
    await api.play([{ roll: [2, 3, 5, 6] }])
    const control = await openPage(url)
    const importFile = () =>
      control.getByTestId('import-input').setInputFiles({ name: 'saved.jsonl', mimeType: 'application/json', buffer: Buffer.from(exported.record) })

    await importFile()
    await expect.poll(text(control, 'import-confirm')).toContain('Replace the game in progress with saved.jsonl?')
    await control.getByTestId('import-confirm-no').click()
    expect((await api.getState()).current?.moveCount).toBe(2)
    await importFile()
    await control.getByTestId('import-confirm-yes').click()
    await expect.poll(async () => (await api.getState()).current?.moveCount).toBe(1)

    // The game that was replaced is in History, abandoned, with its scores; its steps are numbered as the record's lines.
    await control.getByTestId('tab-history').click()
    await expect.poll(text(control, 'history-status')).toContain('Abandoned')
    expect(await control.getByTestId('history-scores').first().textContent()).toBe('Ann 3 · Bob 0')
    await control.getByTestId('history-entry-0').click()
    await expect.poll(text(control, 'history-position')).toContain('Line 2 · step 1 of 2')
    expect(await control.getByTestId('history-first').locator('svg').count()).toBe(1)
    // The imported game is in progress: Resume asks first.
    await control.getByTestId('history-resume').click()
    await expect.poll(text(control, 'resume-confirm')).toContain('in place of the game in progress?')
    await control.getByTestId('resume-confirm-yes').click()
    await expect.poll(async () => (await api.getState()).current?.moveCount).toBe(2)
    await expect.poll(text(control, 'message')).toContain('Resumed 4-PLU$')
    await control.getByTestId('table-screen').waitFor()

    // The imported game (one line) went to History when the other came back: importing it again is refused.
    await importFile()
    await control.getByTestId('import-confirm-yes').click()
    await expect.poll(text(control, 'import-error')).toContain('already in the history')
    expect((await api.getState()).current?.moveCount).toBe(2)
    await control.close()
  }, 120_000)
})
