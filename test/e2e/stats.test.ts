// End to end in Chromium: a player's page with its statistics and charts, a history filter, and
// the score-over-turns chart drawn on the TV when a game ends.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordText, replayText, summaryOf } from '@shared/game'
import { playRandomGame, seededRandom } from '@shared/random-play'
import { factsOfRecordText, playerStatistics, type GameFacts } from '@shared/stats'
import { launchBrowser, SCREENSHOTS, startHost, type RunningHost } from './support'

let browser: Browser
const hosts: RunningHost[] = []

beforeAll(async () => {
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  for (const host of hosts) await host.stop()
})

/** A data folder whose history holds finished random games of every kind. */
function seededDataDir(): { dataDir: string; texts: string[] } {
  const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-e2e-stats-'))
  mkdirSync(join(dataDir, 'history'))
  const random = seededRandom(21)
  const games = ['foursies', 'farkle', 'fouche', 'four-plus'] as const
  const texts: string[] = []
  for (let i = 0; i < 12; i++) {
    const game = games[i % 4]
    const players = i % 3 === 0 ? ['Ann', 'Bob'] : ['Ann', 'Bob', 'Cy']
    const rules = game === 'farkle' || game === 'fouche' ? { target: 2000 } : undefined
    const header = { game, players, ...(rules ? { rules } : {}), meta: { startedAt: Date.UTC(2026, 0, 1 + i) } }
    const text = recordText(playRandomGame(header, random).game)
    writeFileSync(join(dataDir, 'history', `seed-${i}.jsonl`), text)
    texts.push(text)
  }
  return { dataDir, texts }
}

async function openPage(url: string): Promise<Page & { problems: string[] }> {
  const page = (await browser.newPage({ viewport: { width: 1920, height: 1080 } })) as Page & { problems: string[] }
  page.problems = []
  page.on('pageerror', (error) => page.problems.push(error.message))
  await page.goto(url)
  return page
}

/** How many pixels of a chart's canvas are painted: a chart that drew nothing has none. */
async function paintedPixels(chart: Locator): Promise<number> {
  return chart.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
    const context = canvas.getContext('2d')
    if (!context || canvas.width === 0) return 0
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height)
    let painted = 0
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted++
    return painted
  })
}

const counted = (count = 0, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`

describe('players, statistics and charts in a browser', () => {
  it("shows a player's page with statistics, form and head-to-head, and filters the history", async () => {
    const { dataDir, texts } = seededDataDir()
    const running = await startHost(dataDir)
    hosts.push(running)
    const page = await openPage(running.url)

    await page.getByTestId('tab-players').click()
    await page.getByTestId('players-screen').waitFor()
    const wins = page.locator('[data-chart-title="Wins per player"]')
    await wins.waitFor()
    await expect.poll(() => paintedPixels(wins)).toBeGreaterThan(500)

    await page.getByTestId('player-Ann').click()
    await page.getByTestId('player-page').waitFor()
    const expected = playerStatistics(texts.map((text) => factsOfRecordText(text) as GameFacts)).find((p) => p.name === 'Ann')
    expect(await page.getByTestId('player-overall').textContent()).toContain(`${counted(expected?.games, 'game')} · ${counted(expected?.wins, 'win')}`)
    expect(await page.getByTestId('player-figures-farkle').locator('[data-figure="bestTurn"] td').textContent()).toBe(
      expected?.byGame.farkle?.bestTurn.toLocaleString('en')
    )
    const form = page.locator('[data-chart-title^="Form over the last"]')
    expect(await form.getAttribute('data-points')).toBe(String(2 * 12))
    await expect.poll(() => paintedPixels(form)).toBeGreaterThan(500)
    expect(await page.getByTestId('head-to-head').locator('tbody tr').count()).toBe(2)
    await page.screenshot({ path: join(SCREENSHOTS, 'player-page.png') })

    await page.getByTestId('tab-history').click()
    await page.getByTestId('history-filters').waitFor()
    const entries = page.locator('[data-testid^="history-entry-"]')
    await expect.poll(() => entries.count()).toBe(12)
    await page.getByTestId('filter-game').selectOption('farkle')
    await expect.poll(() => entries.count()).toBe(3)
    await page.getByTestId('filter-game').selectOption('')
    await page.getByTestId('filter-player').selectOption('Cy')
    await expect.poll(() => entries.count()).toBe(8)
    await page.getByTestId('filter-from').fill('2026-01-06')
    await expect.poll(() => entries.count()).toBe(5)
    await page.screenshot({ path: join(SCREENSHOTS, 'history-filtered.png') })

    // a game's score over its turns, in the history
    await entries.first().click()
    const chart = page.locator('[data-chart-title="Score over the turns"]')
    await chart.waitFor()
    await expect.poll(() => paintedPixels(chart)).toBeGreaterThan(500)
    expect(page.problems).toEqual([])
  }, 90_000)

  it('draws the score over the turns on the TV when a game ends', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-e2e-stats-'))
    // A 4-PLU$ game one throw from its end: the last throw is entered at the table.
    const random = seededRandom(5)
    let text = ''
    let lastRoll: number[] = []
    for (;;) {
      const played = playRandomGame({ game: 'four-plus', players: ['Ann', 'Bob'], rules: { rounds: 2 } }, random).game
      const last = played.moves[played.moves.length - 1].move
      if (summaryOf(played).finished && 'roll' in last && played.moves.length > 8) {
        text = recordText({ ...played, moves: played.moves.slice(0, -1) })
        lastRoll = last.roll
        break
      }
    }
    writeFileSync(join(dataDir, 'current.jsonl'), text)
    const replayed = replayText(text)
    expect(replayed.ok && !summaryOf(replayed.game).finished).toBe(true)
    const running = await startHost(dataDir)
    hosts.push(running)
    const table = await openPage(running.url)
    const tv = await openPage(`${running.url}scoreboard`)
    await tv.getByTestId('scoreboard').waitFor()
    await table.getByTestId('table-screen').waitFor()

    await table.locator('body').click({ position: { x: 5, y: 5 } })
    for (const value of lastRoll) await table.keyboard.press(String(value))
    await table.keyboard.press('Enter')

    await tv.getByTestId('winner-screen').waitFor()
    const chart = tv.getByTestId('winner-screen').locator('[data-chart-title="Score over the turns"]')
    await chart.waitFor()
    await expect.poll(() => paintedPixels(chart)).toBeGreaterThan(2000)
    expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThan(4)
    await tv.screenshot({ path: join(SCREENSHOTS, 'tv-game-end-chart.png') })
    expect(tv.problems).toEqual([])
  }, 90_000)
})
