// The table, the TV, History, Players, Setup and the Camera screen for every game at 1920×1080,
// 1280×720, 390×844 (a phone) and a phone on its side: pictures saved under
// test-results/screenshots (CI keeps them), and a failure when anything is wider than the viewport
// or drawn over something else (./screenshot-kit.ts). The TV with many players and at every way a
// game ends is in screenshots-tv.test.ts (its own host, so both files run side by side).
import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import type { GameId } from '@shared/games'
import type { Move } from '@shared/games/types'
import { SCREENSHOTS, settled } from './support'
import { cameraPhotos, installFakeCamera, showPhoto } from './fake-camera'
import { check, leave, newPageAt, pageAt, PLAYERS, shots, shotsHost, typeNames, useShotsHost, VIEWPORTS } from './screenshot-kit'

const GAMES: Array<{ game: GameId; rules?: Record<string, unknown>; moves: Move[] }> = [
  { game: 'foursies', rules: { match: 'tour', tour: 'four-rounds' }, moves: [{ roll: [4, 2, 3, 3] }, { roll: [4, 4, 3, 5] }, { roll: [2, 2, 5, 6] }] },
  { game: 'farkle', moves: [{ roll: [1, 1, 1, 5, 2, 3] }, { keep: [1, 1, 1] }] },
  { game: 'fouche', moves: [{ roll: [1, 1, 1, 5, 2, 3] }, { keep: [1, 1, 1] }] },
  { game: 'four-plus', moves: [{ roll: [2, 2, 2, 6] }, { roll: [3, 3, 2, 5] }, { roll: [2, 3, 5, 6] }] }
]

useShotsHost()

describe('screens at TV, laptop and phone sizes', () => {
  for (const { game, rules, moves } of GAMES) {
    it(`${game}: nothing off-screen, nothing drawn over something else`, async () => {
      expect(await shotsHost.api.call('newGame', { game, players: PLAYERS, ...(rules ? { rules } : {}) })).toEqual({ ok: true })
      await shotsHost.api.play(moves)
      const problems = await shots(game, 'playing')
      // The game goes to the history for the next game's History pictures.
      await shotsHost.api.call('abandon')
      expect(problems).toEqual([])
    }, 180_000)
  }

  it('foursies at its end: the final standings on the TV and the table', async () => {
    expect(await shotsHost.api.call('newGame', { game: 'foursies', players: PLAYERS })).toEqual({ ok: true })
    await shotsHost.api.play([{ roll: [4, 4, 4, 4] }, { roll: [3, 5, 6, 6] }, { roll: [4, 2, 3, 3] }])
    const problems = await shots('foursies', 'over')
    expect(problems).toEqual([])
  }, 180_000)

  it('five players at the end: the TV shows the standings and the whole score chart on one screen', async () => {
    const players = ['Ann', 'Bob', 'Maximilian-Alexander the', 'Zoë', 'Cy']
    expect(await shotsHost.api.call('newGame', { game: 'foursies', players })).toEqual({ ok: true })
    // A quiet round for all five, then Bob throws four 4s.
    for (let move = 0; move < 20; move++) {
      const summary = (await shotsHost.api.getState()).current!.summary
      if (summary.finished) break
      await shotsHost.api.play([move >= 5 && summary.toPlay === 'Bob' ? { roll: [4, 4, 4, 4] } : { roll: [3, 5, 6, 6] }])
    }
    expect((await shotsHost.api.getState()).current?.summary.finished).toBe(true)
    // The chart is a canvas: cut by the TV's frame (which does not scroll), it is reported.
    const problems = await shots('five-players', 'over')
    expect(problems).toEqual([])
  }, 180_000)

  it('large type and high contrast on the TV, the light theme on the table: still nothing off-screen or overlapping', async () => {
    expect(await shotsHost.api.call('newGame', { game: 'farkle', players: PLAYERS })).toEqual({ ok: true })
    await shotsHost.api.play([{ roll: [1, 1, 1, 5, 2, 3] }, { keep: [1, 1, 1] }])
    const problems: string[] = []
    for (const viewport of VIEWPORTS.slice(0, 3)) {
      const context = await shotsHost.browser.newContext({ viewport })
      await context.addInitScript(() =>
        localStorage.setItem('dice-referee.preferences', JSON.stringify({ largeType: true, highContrast: true, light: true }))
      )
      const table = await context.newPage()
      await table.goto(shotsHost.running.url)
      await table.getByTestId('table-screen').waitFor()
      expect(await table.evaluate(() => document.documentElement.dataset.theme)).toBe('light')
      problems.push(...(await check(table, `options-light-table-${viewport.name}`)))
      const tv = await context.newPage()
      await tv.goto(`${shotsHost.running.url}scoreboard`)
      await tv.getByTestId('scores').waitFor()
      expect(await tv.getByTestId('scoreboard').getAttribute('class')).toContain('tv--contrast')
      problems.push(...(await check(tv, `options-large-contrast-tv-${viewport.name}`)))
      await context.close()
    }
    await shotsHost.api.call('abandon')
    expect(problems).toEqual([])
  }, 180_000)

  it('Setup with the names typed: every name field shows its whole name', async () => {
    const problems: string[] = []
    for (const viewport of VIEWPORTS) {
      const page = await pageAt(viewport)
      await page.goto(shotsHost.running.url)
      await page.getByTestId('tab-setup').click()
      await typeNames(page, PLAYERS)
      problems.push(...(await check(page, `setup-${viewport.name}`)))
      await leave(page)
    }
    expect(problems).toEqual([])
  }, 60_000)

  it('the Camera screen with a test throw drawn over the picture, at TV, laptop and phone sizes', async () => {
    expect(await shotsHost.api.call('newGame', { game: 'farkle', players: PLAYERS })).toEqual({ ok: true })
    // The tray as the rendered photos show it, kept for the fake camera.
    expect(await shotsHost.api.call('setCameraCalibration', 'Tray camera (test)', { polygon: [[233.4, 88.9], [1046.6, 88.9], [1046.6, 631.1], [233.4, 631.1]], width: 1280, height: 720 })).toEqual({ ok: true })
    const problems: string[] = []
    for (const viewport of VIEWPORTS.slice(0, 3)) {
      const page = await newPageAt(viewport)
      await page.addInitScript(installFakeCamera, cameraPhotos(['three-one-leaning']))
      await page.goto(`${shotsHost.running.url}camera`)
      await showPhoto(page, 'three-one-leaning')
      await page.getByTestId('camera-start').click()
      await page.locator('[data-testid="camera-status"][data-status="watching"]').waitFor({ timeout: 60_000 })
      await page.getByTestId('camera-test-throw').click()
      await page.getByTestId('camera-tested').waitFor()
      await page.getByTestId('overlay-tray').waitFor()
      problems.push(...(await check(page, `camera-${viewport.name}`)))
      await page.close()
    }
    await shotsHost.api.call('abandon')
    expect(problems).toEqual([])
  }, 180_000)

  it('the replay’s score chart follows the window when it narrows', async () => {
    // A game of three turns to chart.
    expect(await shotsHost.api.call('newGame', { game: 'foursies', players: PLAYERS })).toEqual({ ok: true })
    await shotsHost.api.play([{ roll: [4, 2, 3, 3] }, { roll: [4, 4, 3, 5] }, { roll: [2, 2, 5, 6] }])
    await shotsHost.api.call('abandon')
    const problems: string[] = []
    const page = await newPageAt(VIEWPORTS[1])
    await page.goto(shotsHost.running.url)
    await page.getByTestId('tab-history').click()
    await page.getByTestId('history-entry-0').click()
    await page.getByTestId('game-score-chart').waitFor()
    await page.setViewportSize(VIEWPORTS[2])
    problems.push(...(await check(page, `replay-narrowed-${VIEWPORTS[2].name}`)))
    await page.close()
    expect(problems).toEqual([])
  }, 60_000)

  it('Start at the foot of a scrolled Setup opens the Table at its top: the message and whose turn it is in sight', async () => {
    const page = await pageAt(VIEWPORTS[1])
    await page.goto(shotsHost.running.url)
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
    await leave(page)
    await shotsHost.api.call('abandon')
  }, 60_000)
})
