// Club night with real processes on loopback: the league host (`npm run league`) and table hosts
// (`npm run table -- --league URL`), games played on the tables through their screen API, the
// league read over CouchDB's own HTTP API. Every wait is on something observable (vi.waitFor).
import { mkdtempSync, readFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { runRefereeCommand } from '@cli/referee-command'
import { statsCommand } from '@cli/stats-command'
import { recordText, replayText, summaryOf } from '@shared/game'
import { gameDocumentId, type LeagueView } from '@shared/league'
import type { PlayerStatistics } from '@shared/stats'
import { recordHash } from '@main/league/league-sync'
import type { RunningHost } from '@test/e2e/support'
import { dataFolderWithGames, historyRecords, leagueDocumentIds, leagueStatus, leagueUrl, PASSWORD, playGame, replicationGate, startLeague, startTable, syncStatus, temporaryFolder, type RunningLeague } from './support'
import { seededRandom } from '@shared/random-play'
import { ScreenClient } from '@test/kit/screen-client'

const running: { stop: (signal?: NodeJS.Signals) => Promise<void> }[] = []
afterAll(async () => {
  for (const process of running.reverse()) await process.stop('SIGKILL')
})

async function league(dataDir = temporaryFolder('host'), port = 0): Promise<RunningLeague> {
  const started = await startLeague(dataDir, port)
  running.push(started)
  return started
}

async function table(dataDir: string, url: string | null): Promise<RunningHost> {
  const started = await startTable(dataDir, url)
  running.push(started)
  return started
}

/** The ids the league must hold for a table's finished games: its history and a finished game still on it. */
function expectedGameIds(dataDir: string, name: string): string[] {
  const texts = historyRecords(dataDir)
  const current = join(dataDir, 'current.jsonl')
  if (existsSync(current)) texts.push(readFileSync(current, 'utf8'))
  const ids: string[] = []
  for (const text of texts) {
    const replayed = replayText(text, { tolerateTruncatedTail: true })
    if (!replayed.ok || !summaryOf(replayed.game).finished) continue
    ids.push(gameDocumentId(name, recordHash(recordText(replayed.game))))
  }
  return ids.sort()
}

const waitLong = { timeout: 90_000, interval: 200 }

async function gameIdsOf(host: { port: number }, name: string): Promise<string[]> {
  return (await leagueDocumentIds(host)).filter((id) => id.startsWith(`game:${name}:`)).sort()
}

describe('a league host and three tables', () => {
  it('converges to every game exactly once, and referee stats over its exported records counts the games and wins of its standings', async () => {
    const host = await league()
    const folders = {
      t1: dataFolderWithGames('t1', 4, 11, ['Ann', 'Bob', 'Cy']),
      t2: dataFolderWithGames('t2', 5, 12, ['Ann', 'Dee']),
      t3: dataFolderWithGames('t3', 6, 13, ['Bob', 'Cy', 'Dee', 'Eve'])
    }
    const tables = await Promise.all(Object.entries(folders).map(([name, dir]) => table(dir, leagueUrl(host, name))))
    // On each table: one whole game through the screen API, then one left in progress (the league's TV shows it).
    await Promise.all(
      tables.map(async (running, index) => {
        const api = await ScreenClient.open(running.url)
        await playGame(api, 'four-plus', ['Ann', 'Bob', 'Cy'].slice(0, 2 + (index % 2)), seededRandom(100 + index))
        await playGame(api, 'foursies', ['Dee', 'Eve'], seededRandom(200 + index), 3)
        api.close()
      })
    )
    for (const [name, dir] of Object.entries(folders)) {
      const expected = expectedGameIds(dir, name)
      expect(expected.length).toBeGreaterThanOrEqual(Object.keys(folders).indexOf(name) + 4)
      await vi.waitFor(async () => expect(await gameIdsOf(host, name)).toEqual(expected), waitLong)
    }
    // Exactly once: no other game document, and the live game of each table.
    const ids = await leagueDocumentIds(host)
    const expectedAll = Object.entries(folders).flatMap(([name, dir]) => expectedGameIds(dir, name))
    expect(ids.filter((id) => id.startsWith('game:')).sort()).toEqual(expectedAll.sort())
    expect(ids.filter((id) => id.startsWith('live:')).sort()).toEqual(['live:t1', 'live:t2', 'live:t3'])
    const view = await vi.waitFor(async () => {
      const seen = (await (await fetch(`${host.url}_league/view`)).json()) as LeagueView
      expect(seen.gameCount).toBe(expectedAll.length)
      expect(seen.tables.map((shown) => [shown.table, shown.game?.moves])).toEqual([['t1', 3], ['t2', 3], ['t3', 3]])
      return seen
    }, waitLong)

    // The league's records, exported and counted by `referee stats`: the same games and wins as the standings.
    const exported = mkdtempSync(join(tmpdir(), 'dice-referee-league-export-'))
    let said = ''
    const status = await runRefereeCommand(['league-export', `http://admin:${PASSWORD}@127.0.0.1:${host.port}/league`, exported], {
      readInput: () => Buffer.alloc(0),
      stdout: (text) => (said += text),
      stderr: (text) => (said += text)
    })
    expect(said).toContain(`${expectedAll.length} games`)
    expect(status).toBe(0)
    let json = ''
    expect(statsCommand([exported], (text) => (json += text), () => undefined)).toBe(0)
    const players = (JSON.parse(json) as { players: PlayerStatistics[] }).players
    const fromStats = players.flatMap((player) => Object.entries(player.byGame).map(([game, figures]) => [game, player.name, figures!.games, figures!.wins]))
    const fromLeague = view.standings.flatMap((standings) => standings.rows.map((row) => [standings.game, row.person, row.games, row.wins]))
    expect(fromLeague.sort()).toEqual(fromStats.sort())
    expect(fromLeague.length).toBeGreaterThan(8)
  }, 300_000)
})

describe('a table killed with kill -9', () => {
  it('loses no game and sends none twice when killed mid-replication, and resumes from its checkpoint after a restart', async () => {
    const host = await league()
    const dir = dataFolderWithGames('killed', 150, 21)
    const expected = expectedGameIds(dir, 'k9')
    expect(expected).toHaveLength(150)
    // The table joins through a gate that holds its replication once the league has taken a first batch.
    const gate = await replicationGate(host)
    running.push({ stop: () => gate.close() })
    let killed = await table(dir, leagueUrl(gate, 'k9'))
    // Killed once the league has taken some of its games, before it has them all.
    await gate.held
    await killed.stop('SIGKILL')
    const before = (await gameIdsOf(host, 'k9')).length
    gate.open()
    killed = await table(dir, leagueUrl(gate, 'k9'))
    await vi.waitFor(async () => expect(await gameIdsOf(host, 'k9')).toEqual(expected), waitLong)
    await vi.waitFor(async () => expect((await syncStatus(killed)).pending).toBe(0), waitLong)
    const asked = (await leagueStatus(host)).tables.k9.asked
    // Killed again once all is sent: started again, it asks the league about nothing it had confirmed.
    await killed.stop('SIGKILL')
    const again = await table(dir, leagueUrl(gate, 'k9'))
    const api = await ScreenClient.open(again.url)
    await playGame(api, 'four-plus', ['Ann', 'Bob'], seededRandom(5))
    api.close()
    const withNewGame = expectedGameIds(dir, 'k9')
    expect(withNewGame).toHaveLength(151)
    await vi.waitFor(async () => expect(await gameIdsOf(host, 'k9')).toEqual(withNewGame), waitLong)
    await vi.waitFor(async () => expect((await syncStatus(again)).pending).toBe(0), waitLong)
    const askedAfterRestart = (await leagueStatus(host)).tables.k9.asked - asked
    process.stdout.write(`kill -9: ${before} of 150 games in the league when killed; after the restart from a checkpoint, ${askedAfterRestart} revisions asked about (a full re-send asks about 150+)\n`)
    expect(before).toBeLessThan(150)
    expect(askedAfterRestart).toBeLessThan(20)
  }, 300_000)
})

describe('the league host stopped for a while', () => {
  it('lets the tables play on and catch up when it is back', async () => {
    const leagueDir = temporaryFolder('host-down')
    let host = await league(leagueDir)
    const dirs = { a: temporaryFolder('a'), b: temporaryFolder('b') }
    const tables = { a: await table(dirs.a, leagueUrl(host, 'a')), b: await table(dirs.b, leagueUrl(host, 'b')) }
    const apis = { a: await ScreenClient.open(tables.a.url), b: await ScreenClient.open(tables.b.url) }
    await playGame(apis.a, 'four-plus', ['Ann', 'Bob'], seededRandom(1))
    await playGame(apis.b, 'four-plus', ['Cy', 'Dee'], seededRandom(2))
    for (const name of ['a', 'b'] as const) await vi.waitFor(async () => expect(await gameIdsOf(host, name)).toEqual(expectedGameIds(dirs[name], name)), waitLong)

    const port = host.port
    await host.stop('SIGTERM')
    expect(host.process.exitCode).toBe(0)
    // The tables keep playing: every move is taken while the league is down.
    for (const [index, name] of (['a', 'b'] as const).entries()) {
      await playGame(apis[name], 'foursies', ['Ann', 'Bob', 'Cy'], seededRandom(10 + index))
      await playGame(apis[name], 'four-plus', ['Ann', 'Bob'], seededRandom(20 + index))
      expect((await apis[name].getState()).current?.summary.finished).toBe(true)
      await vi.waitFor(async () => {
        const status = await syncStatus(tables[name])
        expect(status.connected).toBe(false)
        expect(status.pending).toBeGreaterThan(0)
      }, waitLong)
    }
    host = await league(leagueDir, port)
    for (const name of ['a', 'b'] as const) {
      const expected = expectedGameIds(dirs[name], name)
      expect(expected).toHaveLength(3)
      await vi.waitFor(async () => expect(await gameIdsOf(host, name)).toEqual(expected), waitLong)
    }
    apis.a.close()
    apis.b.close()
  }, 300_000)
})

describe('who may write', () => {
  it('refuses a wrong password (the table plays on), and admits a table by the key issued for it only', async () => {
    const host = await league()
    const wrong = await table(temporaryFolder('wrong'), leagueUrl(host, 'w1', 'not-the-password'))
    const api = await ScreenClient.open(wrong.url)
    await playGame(api, 'four-plus', ['Ann', 'Bob'], seededRandom(3))
    api.close()
    await vi.waitFor(async () => expect((await syncStatus(wrong)).lastError).toMatch(/refused table w1.*401/), waitLong)
    expect((await leagueDocumentIds(host)).filter((id) => id.includes(':w1'))).toEqual([])

    const issued = await fetch(`${host.url}_league/keys`, { method: 'POST', headers: { authorization: basicOf('admin', PASSWORD) }, body: JSON.stringify({ table: 'kt' }) })
    const { key } = (await issued.json()) as { key: string }
    const live = (auth: string): Promise<Response> =>
      fetch(`${host.url}league/live:kt`, { method: 'PUT', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ type: 'live', table: 'kt', record: null, updatedAt: 1 }) })
    expect((await live(basicOf('kt', PASSWORD))).status).toBe(401)
    expect((await live(basicOf('kt', key))).status).toBe(201)
    expect((await live(basicOf('other', key))).status).toBe(401)
  }, 300_000)
})

function basicOf(name: string, password: string): string {
  return `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`
}
