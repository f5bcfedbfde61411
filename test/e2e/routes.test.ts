// Every screen has an address (vue-router, HTML5 history): in Chromium against the real host, each
// opens its screen directly and again on a reload, Back and Forward go through the screens visited,
// and a paired screen's token goes with every connection the page opens.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordText } from '@shared/game'
import { playRandomGame, seededRandom } from '@shared/random-play'
import { launchBrowser, startHost, type RunningHost } from './support'
import { ScreenClient } from '@test/kit/screen-client'

let browser: Browser
let running: RunningHost
let api: ScreenClient
const pages: Page[] = []

beforeAll(async () => {
  browser = await launchBrowser()
  // A finished game in the history (Ann has a player's page) and a game on at the table.
  const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-routes-'))
  mkdirSync(join(dataDir, 'history'))
  const finished = playRandomGame({ game: 'foursies', players: ['Ann', 'Bob'], meta: { startedAt: Date.UTC(2026, 0, 2) } }, seededRandom(7)).game
  writeFileSync(join(dataDir, 'history', 'seed.jsonl'), recordText(finished))
  running = await startHost(dataDir)
  api = await ScreenClient.open(running.url)
  expect(await api.call('newGame', { game: 'farkle', players: ['Ann', 'Cy'] })).toEqual({ ok: true })
}, 120_000)

afterAll(async () => {
  api?.close()
  await browser?.close()
  await running?.stop()
})

async function newPage(): Promise<Page & { problems: string[]; sockets: string[] }> {
  const page = (await browser.newPage({ viewport: { width: 1280, height: 720 } })) as Page & { problems: string[]; sockets: string[] }
  page.problems = []
  page.sockets = []
  page.on('pageerror', (error) => page.problems.push(error.message))
  page.on('websocket', (socket) => page.sockets.push(socket.url()))
  pages.push(page)
  return page
}

/** The page's address from its path on (`/history?pair=1`). */
const address = (page: Page): string => {
  const url = new URL(page.url())
  return url.pathname + url.search
}

const SCREENS: Array<[path: string, testId: string]> = [
  ['setup', 'setup-screen'],
  ['table', 'table-screen'],
  ['devices', 'devices-screen'],
  ['history', 'history-screen'],
  ['players', 'players-screen'],
  ['players/Ann', 'player-page'],
  ['scoreboard', 'scoreboard']
]

describe('the screens’ addresses in a browser', () => {
  it.each(SCREENS)('/%s opens %s directly, and a reload stays there', async (path, testId) => {
    const page = await newPage()
    const response = await page.goto(`${running.url}${path}`)
    expect(response?.status()).toBe(200)
    await page.getByTestId(testId).waitFor()
    expect(address(page)).toBe(`/${path}`)
    await page.reload()
    await page.getByTestId(testId).waitFor()
    expect(address(page)).toBe(`/${path}`)
    // One connection per load; only the TV's page asks for the TV's state.
    expect(page.sockets).toHaveLength(2)
    expect(page.sockets.every((url) => url.includes('screen=scoreboard') === (path === 'scoreboard'))).toBe(true)
    expect(page.problems).toEqual([])
    await page.close()
  }, 60_000)

  it('/ opens the Table while a game is on; the tabs are links to the screens’ addresses', async () => {
    const page = await newPage()
    await page.goto(running.url)
    await page.getByTestId('table-screen').waitFor()
    expect(address(page)).toBe('/table')
    for (const tab of ['setup', 'table', 'devices', 'history', 'players']) {
      expect(await page.getByTestId(`tab-${tab}`).getAttribute('href')).toBe(`/${tab}`)
    }
    expect(await page.getByTestId('tab-table').getAttribute('aria-selected')).toBe('true')
    await page.close()
  }, 60_000)

  it('Back and Forward go through the screens visited, each shown again', async () => {
    const page = await newPage()
    await page.goto(`${running.url}table`)
    await page.getByTestId('table-screen').waitFor()
    await page.getByTestId('tab-history').click()
    await page.getByTestId('history-screen').waitFor()
    await page.getByTestId('tab-players').click()
    await page.getByTestId('player-Ann').click()
    await page.getByTestId('player-page').waitFor()
    expect(address(page)).toBe('/players/Ann')

    await page.goBack()
    await page.getByTestId('players-screen').waitFor()
    expect(address(page)).toBe('/players')
    await page.goBack()
    await page.getByTestId('history-screen').waitFor()
    expect(address(page)).toBe('/history')
    expect(await page.getByTestId('tab-history').getAttribute('aria-selected')).toBe('true')
    await page.goBack()
    await page.getByTestId('table-screen').waitFor()
    expect(address(page)).toBe('/table')
    await page.goForward()
    await page.getByTestId('history-screen').waitFor()
    await page.goForward()
    await page.getByTestId('players-screen').waitFor()
    await page.goForward()
    await page.getByTestId('player-page').waitFor()
    expect(address(page)).toBe('/players/Ann')
    // Within the page: one document all along, one connection to the host.
    expect(page.sockets).toHaveLength(1)
    expect(page.problems).toEqual([])
    await page.close()
  }, 60_000)

  it('a paired screen’s token (kept by the page) goes with every connection it opens, from screen to screen and through a reload', async () => {
    const page = await newPage()
    await page.addInitScript(() => localStorage.setItem('dice-referee.screen-token', 'a-paired-token'))
    await page.goto(`${running.url}history`)
    await page.getByTestId('history-screen').waitFor()
    await page.getByTestId('tab-players').click()
    await page.getByTestId('players-screen').waitFor()
    expect(address(page)).toBe('/players')
    await page.reload()
    await page.getByTestId('players-screen').waitFor()
    expect(page.sockets).toHaveLength(2)
    for (const url of page.sockets) expect(new URL(url).searchParams.get('token')).toBe('a-paired-token')
    expect(page.problems).toEqual([])
    await page.close()
  }, 60_000)
})
