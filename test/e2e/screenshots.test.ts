// The table, the TV and History for every game at 1920×1080, 1280×720 and 390×844 (a phone) and a
// phone on its side: pictures saved under test-results/screenshots (CI keeps them), and a failure
// when anything is wider than the viewport or drawn over something else. The TV besides with eight
// players, in large type, and at every way a game ends (./endings.ts), where text must also stay
// inside its row or card and never be smaller than the TV's smallest text.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, SCREENSHOTS, settled, startHost, type RunningHost } from './support'
import { ScreenClient } from '@test/kit/screen-client'
import type { GameId } from '@shared/games'
import type { Move } from '@shared/games/types'
import { ENDINGS, EIGHT_PLAYERS, playToTheEnd } from './endings'
import { layoutProblems, textsSmallerThanTv } from './layout'
import { cameraPhotos, installFakeCamera, showPhoto } from './fake-camera'

const VIEWPORTS = [
  { name: '1920x1080', width: 1920, height: 1080 },
  { name: '1280x720', width: 1280, height: 720 },
  { name: '390x844', width: 390, height: 844 },
  { name: '844x390', width: 844, height: 390 }
]
const PLAYERS = ['Maximilian Alexander', 'Ann', 'Cy']

const GAMES: Array<{ game: GameId; rules?: Record<string, unknown>; moves: Move[] }> = [
  { game: 'foursies', rules: { match: 'tour', tour: 'four-rounds' }, moves: [{ roll: [4, 2, 3, 3] }, { roll: [4, 4, 3, 5] }, { roll: [2, 2, 5, 6] }] },
  { game: 'farkle', moves: [{ roll: [1, 1, 1, 5, 2, 3] }, { keep: [1, 1, 1] }] },
  { game: 'fouche', moves: [{ roll: [1, 1, 1, 5, 2, 3] }, { keep: [1, 1, 1] }] },
  { game: 'four-plus', moves: [{ roll: [2, 2, 2, 6] }, { roll: [3, 3, 2, 5] }, { roll: [2, 3, 5, 6] }] }
]

let browser: Browser
let running: RunningHost
let api: ScreenClient

beforeAll(async () => {
  browser = await launchBrowser()
  running = await startHost(mkdtempSync(join(tmpdir(), 'dice-referee-shots-')))
  api = await ScreenClient.open(running.url)
}, 120_000)

afterAll(async () => {
  api?.close()
  await browser?.close()
  await running?.stop()
})

async function check(page: Page, picture: string): Promise<string[]> {
  // The fonts loaded and any entrance animation ended; a sticky bar over scrolled content is no overlap.
  await page.evaluate(() => window.scrollTo(0, 0))
  await settled(page)
  await page.screenshot({ path: join(SCREENSHOTS, `${picture}.png`) })
  return (await layoutProblems(page)).map((problem) => `${picture}: ${problem.kind}: ${problem.what}`)
}

/** A TV picture: nothing off-screen, overlapping or cut, no text out of its row or card, none under the TV's smallest size. */
async function checkTv(page: Page, picture: string): Promise<string[]> {
  await page.evaluate(() => window.scrollTo(0, 0))
  await settled(page)
  await page.screenshot({ path: join(SCREENSHOTS, `${picture}.png`), fullPage: true })
  return [
    ...(await layoutProblems(page, { panels: true })).map((problem) => `${picture}: ${problem.kind}: ${problem.what}`),
    ...(await textsSmallerThanTv(page)).map((small) => `${picture}: small: ${small}`)
  ]
}

/** The TV at every size, in large type with `large`; `ready` is what it shows once it has the game. */
async function tvShots(picture: string, ready: string, large = false, viewports = VIEWPORTS): Promise<string[]> {
  const problems: string[] = []
  for (const viewport of viewports) {
    const context = await browser.newContext({ viewport })
    if (large) await context.addInitScript(() => localStorage.setItem('dice-referee.preferences', JSON.stringify({ largeType: true })))
    const tv = await context.newPage()
    await tv.goto(`${running.url}scoreboard`)
    await tv.locator(ready).first().waitFor()
    problems.push(...(await checkTv(tv, `${picture}-tv-${viewport.name}`)))
    await context.close()
  }
  return problems
}

/** The History tab once it lists every game the host has (or says there is none). */
async function historyShown(page: Page): Promise<void> {
  const listed = await api.call('listHistory')
  const count = listed.ok ? listed.games.length : 0
  await page.getByTestId(count > 0 ? `history-entry-${count - 1}` : 'history-empty').waitFor()
}

/**
 * The Players tab once it shows everyone's statistics and the player list the host has (before its
 * answers come, it shows no player: the same as after them when there is none).
 */
async function playersShown(page: Page): Promise<void> {
  await page.getByTestId('players-screen').waitFor()
  const statistics = await api.call('playerStatistics')
  const rows = statistics.ok ? statistics.players.length : 0
  if (rows > 0) await page.getByTestId('players-row').nth(rows - 1).waitFor()
  const people = await api.call('listPeople')
  if (people.ok && people.people.length > 1) await page.getByTestId('rename-from').waitFor()
}

async function shots(game: string, state: string): Promise<string[]> {
  const problems: string[] = []
  for (const viewport of VIEWPORTS) {
    const table = await browser.newPage({ viewport })
    await table.goto(running.url)
    await table.getByTestId('table-screen').waitFor()
    problems.push(...(await check(table, `${game}-${state}-table-${viewport.name}`)))
    await table.getByTestId('tab-history').click()
    await historyShown(table)
    problems.push(...(await check(table, `${game}-${state}-history-${viewport.name}`)))
    if ((await table.getByTestId('history-entry-0').count()) > 0) {
      await table.getByTestId('history-entry-0').click()
      await table.getByTestId('history-replay').waitFor()
      problems.push(...(await check(table, `${game}-${state}-replay-${viewport.name}`)))
    }
    await table.getByTestId('tab-players').click()
    await playersShown(table)
    problems.push(...(await check(table, `${game}-${state}-players-${viewport.name}`)))
    await table.close()
    const tv = await browser.newPage({ viewport })
    await tv.goto(`${running.url}scoreboard`)
    await tv.locator('[data-testid=scores], [data-testid=winner-screen]').first().waitFor()
    problems.push(...(await check(tv, `${game}-${state}-tv-${viewport.name}`)))
    await tv.close()
  }
  return problems
}

async function typeNames(page: Page, names: string[]): Promise<void> {
  for (let i = 0; i < names.length; i++) {
    if ((await page.getByTestId(`player-name-${i}`).count()) === 0) await page.getByTestId('add-player').click()
    await page.getByTestId(`player-name-${i}`).fill(names[i])
  }
}

describe('screens at TV, laptop and phone sizes', () => {
  for (const { game, rules, moves } of GAMES) {
    it(`${game}: nothing off-screen, nothing drawn over something else`, async () => {
      expect(await api.call('newGame', { game, players: PLAYERS, ...(rules ? { rules } : {}) })).toEqual({ ok: true })
      await api.play(moves)
      const problems = await shots(game, 'playing')
      // The game goes to the history for the next game's History pictures.
      await api.call('abandon')
      expect(problems).toEqual([])
    }, 180_000)
  }

  it('foursies at its end: the final standings on the TV and the table', async () => {
    expect(await api.call('newGame', { game: 'foursies', players: PLAYERS })).toEqual({ ok: true })
    await api.play([{ roll: [4, 4, 4, 4] }, { roll: [3, 5, 6, 6] }, { roll: [4, 2, 3, 3] }])
    const problems = await shots('foursies', 'over')
    expect(problems).toEqual([])
  }, 180_000)

  it('five players at the end: the TV shows the standings and the whole score chart on one screen', async () => {
    const players = ['Ann', 'Bob', 'Maximilian-Alexander the', 'Zoë', 'Cy']
    expect(await api.call('newGame', { game: 'foursies', players })).toEqual({ ok: true })
    // A quiet round for all five, then Bob throws four 4s.
    for (let move = 0; move < 20; move++) {
      const summary = (await api.getState()).current!.summary
      if (summary.finished) break
      await api.play([move >= 5 && summary.toPlay === 'Bob' ? { roll: [4, 4, 4, 4] } : { roll: [3, 5, 6, 6] }])
    }
    expect((await api.getState()).current?.summary.finished).toBe(true)
    // The chart is a canvas: cut by the TV's frame (which does not scroll), it is reported.
    const problems = await shots('five-players', 'over')
    expect(problems).toEqual([])
  }, 180_000)

  it('large type and high contrast on the TV, the light theme on the table: still nothing off-screen or overlapping', async () => {
    expect(await api.call('newGame', { game: 'farkle', players: PLAYERS })).toEqual({ ok: true })
    await api.play([{ roll: [1, 1, 1, 5, 2, 3] }, { keep: [1, 1, 1] }])
    const problems: string[] = []
    for (const viewport of VIEWPORTS.slice(0, 3)) {
      const context = await browser.newContext({ viewport })
      await context.addInitScript(() =>
        localStorage.setItem('dice-referee.preferences', JSON.stringify({ largeType: true, highContrast: true, light: true }))
      )
      const table = await context.newPage()
      await table.goto(running.url)
      await table.getByTestId('table-screen').waitFor()
      expect(await table.evaluate(() => document.documentElement.dataset.theme)).toBe('light')
      problems.push(...(await check(table, `options-light-table-${viewport.name}`)))
      const tv = await context.newPage()
      await tv.goto(`${running.url}scoreboard`)
      await tv.getByTestId('scores').waitFor()
      expect(await tv.getByTestId('scoreboard').getAttribute('class')).toContain('tv--contrast')
      problems.push(...(await check(tv, `options-large-contrast-tv-${viewport.name}`)))
      await context.close()
    }
    await api.call('abandon')
    expect(problems).toEqual([])
  }, 180_000)

  it('eight players on the TV at every size, in normal and large type, a computer seat among them: every row fits, nothing under TV text', async () => {
    const problems: string[] = []
    const playing: Array<{ game: GameId; rules?: Record<string, unknown>; computers?: number[]; moves: Move[] }> = [
      { game: 'foursies', rules: { match: 'tour', tour: 'four-rounds' }, computers: [7], moves: [{ roll: [4, 2, 3, 3] }, { roll: [4, 4, 3, 5] }, { roll: [2, 2, 5, 6] }] },
      { game: 'farkle', moves: [{ roll: [1, 1, 1, 5, 2, 3] }, { keep: [1, 1, 1] }] },
      // Seat 0 throws four 1s and is out; seat 1's three 1s cost a throw next round (a note under the name).
      { game: 'four-plus', rules: { rounds: 2 }, moves: [{ roll: [1, 1, 1, 1] }, { roll: [3, 3, 3, 6] }, { roll: [1, 1, 1, 5] }, { roll: [2, 3, 5, 6] }] }
    ]
    for (const { game, rules, computers, moves } of playing) {
      expect(await api.call('newGame', { game, players: EIGHT_PLAYERS, ...(rules ? { rules } : {}), ...(computers ? { computers } : {}) })).toEqual({ ok: true })
      await api.play(moves)
      problems.push(...(await tvShots(`eight-${game}`, '[data-testid=scores]')))
      problems.push(...(await tvShots(`eight-${game}-large`, '[data-testid=scores]', true)))
      await api.call('abandon')
    }
    expect(problems).toEqual([])
  }, 240_000)

  for (const ending of ENDINGS) {
    // (Large type changes the scores while playing, not the winner screen.)
    it(`the TV at the end of ${ending.name}, eight players, every size: it says how it ended, the winner and the standings with their reasons`, async () => {
      const game = await playToTheEnd(api, ending)
      expect(game.summary.finished).toBe(true)
      const problems = await tvShots(`end-${ending.name}`, '[data-testid=winner-screen]')
      const tv = await browser.newPage({ viewport: VIEWPORTS[0] })
      await tv.goto(`${running.url}scoreboard`)
      // What decided the game is on the winner screen, in the log's words.
      expect(await tv.getByTestId('ending').textContent()).toContain(ending.says)
      expect(await tv.getByTestId('standing-name').allTextContents()).toEqual(game.standings.map((standing) => standing.name))
      // A shared place reads as one, with its reason.
      const places = await tv.getByTestId('standing-place').allTextContents()
      game.standings.forEach((standing, index) => {
        const shared = game.standings.filter((other) => other.place === standing.place).length > 1
        expect(places[index].endsWith(' =')).toBe(shared)
        if (shared) expect(standing.why).toBeTruthy()
      })
      await tv.getByTestId('game-score-chart').waitFor()
      expect(await tv.getByTestId('game-score-chart').getAttribute('data-counts')).toBe(ending.game === 'foursies' && ending.rules ? 'rounds' : 'points')
      await tv.close()
      expect(problems).toEqual([])
    }, 180_000)
  }

  it('sixteen players (the most a game has) on a TV: two columns of scores, and at the end the standings across the width', async () => {
    const sixteen = [...EIGHT_PLAYERS, 'Hal', 'Ivy', 'Jo', 'Kim', 'Lou', 'Mo', 'Ned', 'Oli']
    const problems: string[] = []
    expect(await api.call('newGame', { game: 'foursies', players: sixteen, rules: { match: 'tour' } })).toEqual({ ok: true })
    await api.play([{ roll: [4, 2, 3, 3] }, { roll: [4, 4, 3, 5] }, { roll: [2, 2, 5, 6] }])
    problems.push(...(await tvShots('sixteen-foursies', '[data-testid=scores]', false, VIEWPORTS.slice(0, 2))))
    await api.call('abandon')
    for (const ending of ENDINGS.filter((one) => one.name === 'foursies-tour' || one.name === 'farkle-farkle')) {
      await playToTheEnd(api, ending, sixteen)
      problems.push(...(await tvShots(`sixteen-end-${ending.name}`, '[data-testid=winner-screen]', false, VIEWPORTS.slice(0, 2))))
    }
    expect(problems).toEqual([])
  }, 120_000)

  it('the connection banner over the TV is TV text', async () => {
    const problems: string[] = []
    for (const viewport of VIEWPORTS) {
      // A host of its own, stopped under the TV.
      const lost = await startHost(mkdtempSync(join(tmpdir(), 'dice-referee-lost-')))
      const tv = await browser.newPage({ viewport })
      try {
        await tv.goto(`${lost.url}scoreboard`)
        await tv.getByTestId('waiting').waitFor()
        await lost.stop()
        await tv.getByTestId('reconnecting').waitFor()
        problems.push(...(await checkTv(tv, `connection-lost-tv-${viewport.name}`)))
      } finally {
        await tv.close()
        await lost.stop()
      }
    }
    expect(problems).toEqual([])
  }, 120_000)

  it('Setup with the names typed: every name field shows its whole name', async () => {
    const problems: string[] = []
    for (const viewport of VIEWPORTS) {
      const page = await browser.newPage({ viewport })
      await page.goto(running.url)
      await page.getByTestId('tab-setup').click()
      await typeNames(page, PLAYERS)
      problems.push(...(await check(page, `setup-${viewport.name}`)))
      await page.close()
    }
    expect(problems).toEqual([])
  }, 60_000)

  it('the Camera screen with a test throw drawn over the picture, at TV, laptop and phone sizes', async () => {
    expect(await api.call('newGame', { game: 'farkle', players: PLAYERS })).toEqual({ ok: true })
    // The tray as the rendered photos show it, kept for the fake camera.
    expect(await api.call('setCameraCalibration', 'Tray camera (test)', { polygon: [[233.4, 88.9], [1046.6, 88.9], [1046.6, 631.1], [233.4, 631.1]], width: 1280, height: 720 })).toEqual({ ok: true })
    const problems: string[] = []
    for (const viewport of VIEWPORTS.slice(0, 3)) {
      const page = await browser.newPage({ viewport })
      await page.addInitScript(installFakeCamera, cameraPhotos(['three-one-leaning']))
      await page.goto(`${running.url}camera`)
      await showPhoto(page, 'three-one-leaning')
      await page.getByTestId('camera-start').click()
      await page.locator('[data-testid="camera-status"][data-status="watching"]').waitFor({ timeout: 60_000 })
      await page.getByTestId('camera-test-throw').click()
      await page.getByTestId('camera-tested').waitFor()
      await page.getByTestId('overlay-tray').waitFor()
      problems.push(...(await check(page, `camera-${viewport.name}`)))
      await page.close()
    }
    await api.call('abandon')
    expect(problems).toEqual([])
  }, 180_000)

  it('the replay’s score chart follows the window when it narrows', async () => {
    // A game of three turns to chart.
    expect(await api.call('newGame', { game: 'foursies', players: PLAYERS })).toEqual({ ok: true })
    await api.play([{ roll: [4, 2, 3, 3] }, { roll: [4, 4, 3, 5] }, { roll: [2, 2, 5, 6] }])
    await api.call('abandon')
    const problems: string[] = []
    const page = await browser.newPage({ viewport: VIEWPORTS[1] })
    await page.goto(running.url)
    await page.getByTestId('tab-history').click()
    await page.getByTestId('history-entry-0').click()
    await page.getByTestId('game-score-chart').waitFor()
    await page.setViewportSize(VIEWPORTS[2])
    problems.push(...(await check(page, `replay-narrowed-${VIEWPORTS[2].name}`)))
    await page.close()
    expect(problems).toEqual([])
  }, 60_000)

  it('Start at the foot of a scrolled Setup opens the Table at its top: the message and whose turn it is in sight', async () => {
    const page = await browser.newPage({ viewport: VIEWPORTS[1] })
    await page.goto(running.url)
    await page.getByTestId('tab-setup').click()
    await typeNames(page, PLAYERS)
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
    await page.getByTestId('start-game').click()
    await page.getByTestId('table-screen').waitFor()
    await settled(page)
    await page.screenshot({ path: join(SCREENSHOTS, 'started-from-setup-1280x720.png') })
    const top = async (testId: string): Promise<number> => (await page.getByTestId(testId).boundingBox())?.y ?? -1
    const barBottom = await page.locator('.control__bar').evaluate((bar) => bar.getBoundingClientRect().bottom)
    expect(await top('message')).toBeGreaterThanOrEqual(barBottom)
    expect(await top('to-play')).toBeGreaterThanOrEqual(barBottom)
    await page.close()
    await api.call('abandon')
  }, 60_000)
})
