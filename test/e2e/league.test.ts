// End to end in Chromium: a league host with two live tables; the league page's standings (as the
// league's own view counts them), head-to-head, a merge of two people, the night filter, and the
// league TV with both tables' scores, cycling through the tables and the standings.
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { LeagueView } from '@shared/league'
import { leagueUrl, PASSWORD, playGame, startLeague, startTable, temporaryFolder } from '../main/league/support'
import { launchBrowser, SCREENSHOTS } from './support'
import { seededRandom } from '@shared/random-play'
import { ScreenClient } from '@test/kit/screen-client'

let browser: Browser
const running: { stop: (signal?: NodeJS.Signals) => Promise<void> }[] = []

beforeAll(async () => {
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  for (const process of running.reverse()) await process.stop()
})

async function openPage(url: string): Promise<Page & { problems: string[] }> {
  const page = (await browser.newPage({ viewport: { width: 1920, height: 1080 } })) as Page & { problems: string[] }
  page.problems = []
  page.on('pageerror', (error) => page.problems.push(error.message))
  await page.goto(url)
  return page
}

describe('the league page and the league TV', () => {
  it('shows the standings, head-to-head, a merge and the two live tables', async () => {
    const host = await startLeague(temporaryFolder('e2e-host'))
    running.push(host)
    const t1 = await startTable(temporaryFolder('e2e-t1'), leagueUrl(host, 't1'))
    const t2 = await startTable(temporaryFolder('e2e-t2'), leagueUrl(host, 't2'))
    running.push(t1, t2)
    const api1 = await ScreenClient.open(t1.url)
    const api2 = await ScreenClient.open(t2.url)
    await playGame(api1, 'four-plus', ['Ann', 'Bob'], seededRandom(31))
    await playGame(api2, 'four-plus', ['Ann', 'Dee'], seededRandom(32))
    await playGame(api1, 'foursies', ['Ann', 'Bob', 'Cy'], seededRandom(33), 4)
    await playGame(api2, 'four-plus', ['Dee', 'Eve'], seededRandom(34), 2)
    const view = async (): Promise<LeagueView> => (await (await fetch(`${host.url}_league/view`)).json()) as LeagueView
    const settled = await vi.waitFor(
      async () => {
        const seen = await view()
        expect(seen.gameCount).toBe(2)
        expect(seen.tables.map((table) => [table.table, table.game?.moves])).toEqual([['t1', 4], ['t2', 2]])
        return seen
      },
      { timeout: 60_000, interval: 200 }
    )

    const page = await openPage(`${host.url}_league/`)
    const fourPlus = page.getByTestId('standings-four-plus')
    await fourPlus.waitFor()
    for (const row of settled.standings[0].rows) {
      const shown = page.getByTestId(`standing-four-plus-${row.person}`)
      expect(await shown.getAttribute('data-games')).toBe(String(row.games))
      expect(await shown.getAttribute('data-wins')).toBe(String(row.wins))
    }
    expect(await page.getByTestId('standing-four-plus-Ann').getAttribute('data-games')).toBe('2')
    await page.getByTestId('live-t1').waitFor()
    await page.getByTestId('live-t2').waitFor()

    await page.getByTestId('h2h-first').selectOption('Ann')
    await page.getByTestId('h2h-second').selectOption('Bob')
    await page.getByTestId('h2h-compare').click()
    await expect.poll(() => page.getByTestId('h2h-result').textContent()).toContain('in 1 game together')

    await page.getByTestId('night-filter').selectOption(settled.nights[0])
    await expect.poll(() => page.getByTestId('standing-four-plus-Ann').getAttribute('data-games')).toBe('2')
    await page.getByTestId('night-filter').selectOption('')

    // Dee at table t2 is Bob: the league's page merges them with the league password.
    await page.getByTestId('merge-from').fill('Dee')
    await page.getByTestId('merge-table').selectOption('t2')
    await page.getByTestId('merge-into').fill('Bob')
    await page.getByTestId('merge-password').fill(PASSWORD)
    await page.getByTestId('merge-submit').click()
    await expect.poll(() => page.getByTestId('standing-four-plus-Bob').getAttribute('data-games'), { timeout: 30_000 }).toBe('2')
    expect(await page.getByTestId('standing-four-plus-Dee').count()).toBe(0)
    expect(await page.getByTestId('merges').textContent()).toContain('Dee (t2) → Bob')
    await page.screenshot({ path: join(SCREENSHOTS, 'league-page.png'), fullPage: true })

    const tv = await openPage(`${host.url}_league/tv?every=2`)
    await tv.getByTestId('tick-t1').waitFor()
    await tv.getByTestId('tick-t2').waitFor()
    const live = (await view()).tables
    for (const table of live) {
      for (const standing of table.game!.standings) {
        expect(await tv.getByTestId(`tick-${table.table}-${standing.name}`).getAttribute('data-shown')).toBe(standing.shown)
      }
    }
    // It cycles through the live tables and the standings.
    const slide = tv.getByTestId('tv-slide')
    const shown = new Set<string>()
    await expect
      .poll(async () => [...shown.add((await slide.getAttribute('data-key')) ?? '')].filter((key) => key !== '').sort(), { timeout: 30_000, interval: 250 })
      .toEqual(['standings-four-plus', 'table-t1', 'table-t2'])
    await tv.screenshot({ path: join(SCREENSHOTS, 'league-tv.png') })

    // A game finished on a table reaches the TV.
    await playGame(api1, 'four-plus', ['Ann', 'Cy'], seededRandom(35))
    await expect.poll(() => tv.locator('header').textContent(), { timeout: 60_000 }).toContain('3 games')
    api1.close()
    api2.close()
    expect(page.problems).toEqual([])
    expect(tv.problems).toEqual([])
  }, 180_000)
})
