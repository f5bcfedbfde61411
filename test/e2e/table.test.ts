// End to end: the whole app in Chromium against the headless host, as a table would use it.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, recordTv, SCREENSHOTS, startHost, tvBanners, type RunningHost } from './support'

let browser: Browser
const hosts: RunningHost[] = []

beforeAll(async () => {
  browser = await launchBrowser()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  for (const host of hosts) await host.stop()
})

async function host(dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-e2e-')), port = 0): Promise<RunningHost> {
  const started = await startHost(dataDir, port)
  hosts.push(started)
  return started
}

async function openPage(url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(error.message))
  await page.goto(url)
  ;(page as Page & { problems: string[] }).problems = problems
  return page
}

async function setUpGame(page: Page, game: string, players: string[]): Promise<void> {
  await page.getByTestId(`game-${game}`).click()
  for (let i = 0; i < players.length; i++) {
    if ((await page.getByTestId(`player-name-${i}`).count()) === 0) await page.getByTestId('add-player').click()
    await page.getByTestId(`player-name-${i}`).fill(players[i])
  }
  await page.getByTestId('start-game').click()
  await page.getByTestId('table-screen').waitFor()
}

/** Types on the keyboard as a numeric keypad would. */
async function typeKeys(page: Page, keys: string): Promise<void> {
  await page.locator('body').click({ position: { x: 5, y: 5 } })
  for (const key of keys.split(' ')) {
    if (key === '') continue
    if (['Enter', 'Backspace'].includes(key) || key.length === 1) await page.keyboard.press(key)
    else for (const digit of key) await page.keyboard.press(digit)
  }
}

async function score(page: Page, name: string): Promise<string | null> {
  return page.getByTestId(`score-${name}`).first().getAttribute('data-score')
}

async function expectScore(page: Page, name: string, value: number): Promise<void> {
  await expect.poll(() => score(page, name)).toBe(String(value))
}

describe('playing at the table in a browser', () => {
  it('plays a whole Foursies round by keypad alone, with a false four, a bust, an undo and a winner, while the scoreboard follows live', async () => {
    const running = await host()
    const table = await openPage(running.url)
    const scoreboard = await openPage(`${running.url}scoreboard`)
    await scoreboard.getByTestId('waiting').waitFor()
    await recordTv(scoreboard)

    await setUpGame(table, 'foursies', ['Ann', 'Bob'])
    await expect.poll(() => scoreboard.getByTestId('to-play').textContent()).toContain('Ann')

    // A 9 is no die face: refused with a message, nothing changes.
    await typeKeys(table, '9')
    await expect.poll(() => table.getByTestId('message').textContent()).toContain('9 is not a die face')
    await expect.poll(() => table.getByTestId('keypad-buffer').textContent()).not.toContain('9')

    // Ann: 4 4 5 6 scores two fresh 4s; nothing can be re-rolled.
    await typeKeys(table, '4456 Enter')
    await expectScore(scoreboard, 'Ann', 2)
    await expect.poll(() => scoreboard.getByTestId('to-play').textContent()).toContain('Bob')

    // Bob: 2 2 5 6 offers the false fours 2+2 and 6-2; he re-rolls the 2s and throws two 4s.
    await typeKeys(table, '2256 Enter')
    await expect.poll(() => table.getByTestId('decision-0').textContent()).toContain('2+2')
    await typeKeys(table, '22 Enter')
    await typeKeys(table, '44 Enter')
    await expectScore(scoreboard, 'Bob', 2)

    // Ann: 4 4 4 6 would make 5: bust, she stays on 2.
    await typeKeys(table, '4446 Enter')
    await expect.poll(async () => (await tvBanners(scoreboard)).join(' | ')).toContain('Bust')
    await expectScore(scoreboard, 'Ann', 2)

    // Bob mistypes his throw, undoes it with the keypad's /, and enters it again.
    await typeKeys(table, '4566 Enter')
    await expectScore(scoreboard, 'Bob', 3)
    await typeKeys(table, '/')
    await expectScore(scoreboard, 'Bob', 2)
    await expect.poll(() => scoreboard.getByTestId('to-play').textContent()).toContain('Bob')
    await table.screenshot({ path: join(SCREENSHOTS, 'table.png') })
    await scoreboard.screenshot({ path: join(SCREENSHOTS, 'scoreboard.png') })

    // Bob: 4 4 5 6 brings him to exactly 4; he is the last of the lap, so he wins the round.
    await typeKeys(table, '4456 Enter')
    await scoreboard.getByTestId('winner-screen').waitFor()
    await expect.poll(() => scoreboard.getByTestId('winner-names').textContent()).toContain('Bob')
    await table.getByTestId('game-over').waitFor()
    await scoreboard.screenshot({ path: join(SCREENSHOTS, 'scoreboard-winner.png') })

    const logText = await table.getByTestId('log').textContent()
    expect(logText).toContain('Bust')
    const problems = [table, scoreboard].flatMap((page) => (page as Page & { problems: string[] }).problems)
    expect(problems).toEqual([])
    await table.close()
    await scoreboard.close()
  })

  it('resumes a game exactly after the host is killed mid-game', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-e2e-'))
    const first = await host(dataDir)
    const page = await openPage(first.url)
    await setUpGame(page, 'farkle', ['Ann', 'Bob'])
    await typeKeys(page, '111523 Enter')
    await typeKeys(page, '111 Enter')
    await typeKeys(page, '254 Enter')
    await expect.poll(() => page.getByTestId('log').textContent()).toContain('Ann throws 2 4 5')
    const before = {
      log: await page.getByTestId('log').textContent(),
      dice: await page.getByTestId('table-dice').innerHTML(),
      turn: await page.getByTestId('turn-points').first().textContent()
    }
    await first.stop('SIGKILL')

    const port = Number(new URL(first.url).port)
    const second = await host(dataDir, port)
    await page.reload()
    await page.getByTestId('table-screen').waitFor()
    expect(await page.getByTestId('log').textContent()).toBe(before.log)
    expect(await page.getByTestId('table-dice').innerHTML()).toBe(before.dice)
    expect(await page.getByTestId('turn-points').first().textContent()).toBe(before.turn)
    // And play goes on from there: keep the 5, bank 1,050.
    await typeKeys(page, '5 Enter')
    await typeKeys(page, '*')
    await expectScore(page, 'Ann', 1050)
    await page.close()
    await second.stop()
  })

  it('refuses a broken import with its line and reason, and keeps the game', async () => {
    const running = await host()
    const page = await openPage(running.url)
    await setUpGame(page, 'four-plus', ['Ann', 'Bob'])
    await typeKeys(page, '3332 Enter')
    await expectScore(page, 'Ann', 3)
    await page.getByTestId('import-input').setInputFiles({
      name: 'broken.jsonl',
      mimeType: 'application/json',
      buffer: Buffer.from('{"game":"four-plus","players":["A","B"]}\n{"roll":[1,2,3]}\n')
    })
    // A game is in progress: the import asks first.
    await page.getByTestId('import-confirm-yes').click()
    await expect.poll(() => page.getByTestId('message').textContent()).toContain('line 2')
    await expectScore(page, 'Ann', 3)
    await page.close()
  })
})
