// What the screenshot tests share: the sizes they look at, one host and browser per test file, and
// the checks of a picture (nothing off-screen or drawn over something else; on the TV, no text out
// of its row or card nor under the TV's smallest size). Pictures go to test-results/screenshots.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { ScreenClient } from '@test/kit/screen-client'
import { launchBrowser, SCREENSHOTS, settled, startHost, type RunningHost } from './support'
import { layoutProblems, textsSmallerThanTv } from './layout'

export interface Viewport {
  name: string
  width: number
  height: number
}

export const VIEWPORTS: Viewport[] = [
  { name: '1920x1080', width: 1920, height: 1080 },
  { name: '1280x720', width: 1280, height: 720 },
  { name: '390x844', width: 390, height: 844 },
  { name: '844x390', width: 844, height: 390 }
]
export const PLAYERS = ['Maximilian Alexander', 'Ann', 'Cy']

let browser: Browser
let running: RunningHost
let api: ScreenClient
/**
 * One browser context a size for the file's plain pages (no preferences of their own), and in it
 * one page (a browser tab) kept for the whole file: each picture still loads the screens afresh at
 * its size (`goto`, from the context's cache after the first), in a tab that is already open. A new
 * context each time compiled the whole bundle again (a quarter of a page's load); a new tab each
 * time started a renderer process again (about 40 % of what is left).
 */
const contexts = new Map<string, Promise<BrowserContext>>()
const pages = new Map<string, Promise<Page>>()

function contextAt(viewport: Viewport): Promise<BrowserContext> {
  let context = contexts.get(viewport.name)
  if (!context) {
    context = browser.newContext({ viewport: { width: viewport.width, height: viewport.height } })
    contexts.set(viewport.name, context)
  }
  return context
}

/**
 * The file's page at `viewport`'s size, to load a screen in with `goto`; `leave` it when done. A
 * test that changes the page itself (its size, a script before each load) takes `newPageAt`.
 */
export function pageAt(viewport: Viewport): Promise<Page> {
  let page = pages.get(viewport.name)
  if (!page) {
    page = contextAt(viewport).then((context) => context.newPage())
    pages.set(viewport.name, page)
  }
  return page
}

/** A page of its own at `viewport`'s size (close it when done). */
export async function newPageAt(viewport: Viewport): Promise<Page> {
  return (await contextAt(viewport)).newPage()
}

/**
 * Done with the kept page for now: it leaves the screens (no more state pushed to it while the next
 * game is played) and the mouse goes to its corner, so the next screen loaded there starts as in a
 * new tab, with nothing under the pointer.
 */
export async function leave(page: Page): Promise<void> {
  await page.mouse.move(0, 0)
  await page.goto('about:blank')
}

/** The host, browser and client of this test file, started before its tests and stopped after them. */
export const shotsHost = {
  get browser(): Browser {
    return browser
  },
  get running(): RunningHost {
    return running
  },
  get api(): ScreenClient {
    return api
  }
}

/** Starts this test file's host and browser (one each per file, so that the files run side by side). */
export function useShotsHost(): void {
  beforeAll(async () => {
    browser = await launchBrowser()
    running = await startHost(mkdtempSync(join(tmpdir(), 'dice-referee-shots-')))
    api = await ScreenClient.open(running.url)
  }, 120_000)

  afterAll(async () => {
    api?.close()
    pages.clear()
    contexts.clear()
    await browser?.close()
    await running?.stop()
  })
}

export async function check(page: Page, picture: string): Promise<string[]> {
  // The fonts loaded and any entrance animation ended; a sticky bar over scrolled content is no overlap.
  await page.evaluate(() => window.scrollTo(0, 0))
  await settled(page)
  await page.screenshot({ path: join(SCREENSHOTS, `${picture}.png`) })
  return (await layoutProblems(page)).map((problem) => `${picture}: ${problem.kind}: ${problem.what}`)
}

/** A TV picture: nothing off-screen, overlapping or cut, no text out of its row or card, none under the TV's smallest size. */
export async function checkTv(page: Page, picture: string): Promise<string[]> {
  await page.evaluate(() => window.scrollTo(0, 0))
  await settled(page)
  await page.screenshot({ path: join(SCREENSHOTS, `${picture}.png`), fullPage: true })
  return [
    ...(await layoutProblems(page, { panels: true })).map((problem) => `${picture}: ${problem.kind}: ${problem.what}`),
    ...(await textsSmallerThanTv(page)).map((small) => `${picture}: small: ${small}`)
  ]
}

/** The TV at every size, in large type with `large`; `ready` is what it shows once it has the game. */
export async function tvShots(picture: string, ready: string, large = false, viewports: Viewport[] = VIEWPORTS): Promise<string[]> {
  const problems: string[] = []
  for (const viewport of viewports) {
    // Large type is a preference of the page's own context.
    const context = large ? await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } }) : null
    if (context) await context.addInitScript(() => localStorage.setItem('dice-referee.preferences', JSON.stringify({ largeType: true })))
    const tv = context ? await context.newPage() : await pageAt(viewport)
    await tv.goto(`${running.url}scoreboard`)
    await tv.locator(ready).first().waitFor()
    problems.push(...(await checkTv(tv, `${picture}-tv-${viewport.name}`)))
    await (context ? context.close() : leave(tv))
  }
  return problems
}

/** The History tab once it lists every game the host has (or says there is none). */
export async function historyShown(page: Page): Promise<void> {
  const listed = await api.call('listHistory')
  const count = listed.ok ? listed.games.length : 0
  await page.getByTestId(count > 0 ? `history-entry-${count - 1}` : 'history-empty').waitFor()
}

/**
 * The Players tab once it shows everyone's statistics and the player list the host has (before its
 * answers come, it shows no player: the same as after them when there is none).
 */
export async function playersShown(page: Page): Promise<void> {
  await page.getByTestId('players-screen').waitFor()
  const statistics = await api.call('playerStatistics')
  const rows = statistics.ok ? statistics.players.length : 0
  if (rows > 0) await page.getByTestId('players-row').nth(rows - 1).waitFor()
  const people = await api.call('listPeople')
  if (people.ok && people.people.length > 1) await page.getByTestId('rename-from').waitFor()
}

export async function shots(game: string, state: string): Promise<string[]> {
  const problems: string[] = []
  for (const viewport of VIEWPORTS) {
    const table = await pageAt(viewport)
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
    await leave(table)
    const tv = await pageAt(viewport)
    await tv.goto(`${running.url}scoreboard`)
    await tv.locator('[data-testid=scores], [data-testid=winner-screen]').first().waitFor()
    problems.push(...(await check(tv, `${game}-${state}-tv-${viewport.name}`)))
    await leave(tv)
  }
  return problems
}

export async function typeNames(page: Page, names: string[]): Promise<void> {
  for (let i = 0; i < names.length; i++) {
    if ((await page.getByTestId(`player-name-${i}`).count()) === 0) await page.getByTestId('add-player').click()
    await page.getByTestId(`player-name-${i}`).fill(names[i])
  }
}
