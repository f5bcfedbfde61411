// Players as people, statistics from the cache beside the history index, charts' data and the
// trash, through a real table on a temporary data folder and the screen API's dispatcher.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { dispatch } from '@main/core/screens/dispatch'
import type { Screen } from '@main/core/screens/screen'
import type { MethodArgs, MethodName, MethodResult } from '@shared/api-methods'
import { openTable, type TestTable } from '@test/kit/table'
import { recordText } from '@shared/game'
import { playRandomGame, seededRandom } from '@shared/random-play'
import { factsOfRecordText, playerStatistics, type GameFacts } from '@shared/stats'

let dataDir: string
/** Who calls: the host's control screen, or a LAN viewer. */
type Caller = 'controller' | 'viewer'
const controller: Caller = 'controller'
const viewer: Caller = 'viewer'

function openSession(): TestTable {
  return openTable({ dataDir, clockFrom: 1_700_000_000_000 })
}

/** Finished random records written straight into the history folder, as games archived earlier. */
function seedHistory(count: number, seed = 3): string[] {
  const random = seededRandom(seed)
  const texts: string[] = []
  const games = ['foursies', 'farkle', 'fouche', 'four-plus'] as const
  for (let i = 0; i < count; i++) {
    const game = games[i % games.length]
    const players = i % 2 === 0 ? ['Ann', 'Bob', 'Cy'] : ['Bobby', 'Ann']
    const rules = game === 'farkle' || game === 'fouche' ? { target: 2000 } : undefined
    const header = { game, players, ...(rules ? { rules } : {}), meta: { startedAt: 1_600_000_000_000 + i * 86_400_000 } }
    const text = recordText(playRandomGame(header, random).game)
    writeFileSync(join(dataDir, 'history', `g${String(i).padStart(3, '0')}.jsonl`), text)
    texts.push(text)
  }
  return texts
}

/** A request through the screen API's checks and dispatcher, typed by its method. */
function call<M extends MethodName>(session: TestTable, caller: Caller, method: M, args: MethodArgs<M>): Promise<MethodResult<M>> {
  const screen: Screen = caller === 'controller' ? session.screen : session.screenFor(false, false)
  return dispatch(session.table, screen, method, args as unknown[]) as Promise<MethodResult<M>>
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-players-'))
})

describe('statistics from the cache beside the history index', () => {
  it('equal the statistics of the records, and the cache is rebuilt with progress when lost or damaged', async () => {
    const session = openSession()
    const texts = seedHistory(120)
    const expected = playerStatistics(texts.map((text) => factsOfRecordText(text) as GameFacts))
    const progress: [number, number][] = []
    session.subscribe(() => {
      const text = session.snapshot(true).message?.text ?? ''
      const match = /Rebuilding the statistics from the records: (\d+) of (\d+)/.exec(text)
      if (match) progress.push([Number(match[1]), Number(match[2])])
      const done = /Statistics rebuilt from (\d+) records/.exec(text)
      if (done) progress.push([Number(done[1]), Number(done[1])])
    })
    const first = await call(session, viewer, 'playerStatistics', [])
    expect(first).toEqual({ ok: true, players: expected })
    expect(progress).toEqual([[50, 120], [100, 120], [120, 120]])
    const cachePath = join(dataDir, 'history', 'statistics.cache')
    expect(readFileSync(cachePath, 'utf8').trimEnd().split('\n')).toHaveLength(121)

    // a new session reads the cache: no record is replayed, so no progress
    progress.length = 0
    const again = openSession()
    again.subscribe(() => progress.push([0, 0]))
    expect(await again.players.statistics()).toEqual(expected)
    expect(progress).toEqual([])

    // lost, then damaged: rebuilt from the records, same figures
    rmSync(cachePath)
    rmSync(join(dataDir, 'history', 'index.jsonl'), { force: true })
    expect(await openSession().players.statistics()).toEqual(expected)
    expect(existsSync(cachePath)).toBe(true)
    writeFileSync(cachePath, '{"statisticsCache":0}\n{"id":"g000","facts":{"game":"farkle"}}\n')
    expect(await openSession().players.statistics()).toEqual(expected)
    const lines = readFileSync(cachePath, 'utf8').trimEnd().split('\n')
    writeFileSync(cachePath, `${lines.slice(0, 10).join('\n')}\n{"id":"g0`)
    expect(await openSession().players.statistics()).toEqual(expected)

    // facts of the right shape that are not those written (a winner taken away, a name changed): read again from the record
    const whole = readFileSync(cachePath, 'utf8').trimEnd().split('\n')
    const won = whole.findIndex((line) => /"winners":\["[^"]+"/.test(line))
    expect(won).toBeGreaterThan(0)
    whole[won] = whole[won].replace(/"winners":\[[^\]]*\]/, '"winners":[]')
    whole[won + 1] = whole[won + 1].replace(/"players":\["([^"]+)"/, '"players":["$1x"')
    writeFileSync(cachePath, `${whole.join('\n')}\n`)
    expect(await openSession().players.statistics()).toEqual(expected)
  })

  it('a game finished at the table joins the cache and the statistics', async () => {
    const session = openSession()
    const finished = recordText(playRandomGame({ game: 'four-plus', players: ['Dee', 'Eve'], rules: { rounds: 1 } }, seededRandom(9)).game)
    expect((await session.importRecord(finished)).ok).toBe(true)
    expect(await session.players.statistics()).toEqual([])
    expect(session.newGame({ game: 'farkle', players: ['Dee', 'Eve'] }).ok).toBe(true)
    const players = await session.players.statistics()
    expect(players.map((p) => [p.name, p.games])).toEqual([['Dee', 1], ['Eve', 1]])
    expect(players).toEqual(playerStatistics([factsOfRecordText(finished) as GameFacts]))
    expect(readFileSync(join(dataDir, 'history', 'statistics.cache'), 'utf8')).toContain('"players":["Dee","Eve"]')
  })
})

describe('players as people', () => {
  it('names chosen at Setup join the player list with a colour each, and are offered again', async () => {
    const session = openSession()
    session.newGame({ game: 'farkle', players: ['Ann', 'Bob'] })
    const listed = await call(session, viewer, 'listPeople', [])
    expect(listed).toMatchObject({ ok: true, people: [{ name: 'Ann', aliases: [] }, { name: 'Bob', aliases: [] }] })
    const people = (listed as { people: { colour: string }[] }).people
    expect(people[0].colour).toMatch(/^#[0-9a-f]{6}$/)
    expect(people[0].colour).not.toBe(people[1].colour)
    expect(JSON.parse(readFileSync(join(dataDir, 'players.json'), 'utf8'))).toHaveLength(2)
  })

  it('a computer seat is no person: not on the player list, not a recent player, not in the statistics', async () => {
    const session = openSession()
    expect(session.newGame({ game: 'fouche', players: ['Computer', 'Ann'], computers: [0], rules: { target: 300 } })).toEqual({ ok: true })
    expect(session.snapshot(true).recentPlayers).toEqual(['Ann'])
    expect(session.players.people().map((p) => p.name)).toEqual(['Ann'])
    // A finished game of the history, played before the list existed: its computer seat joins nothing either.
    const finished = recordText(playRandomGame({ game: 'fouche', players: ['Hal', 'Bob'], rules: { target: 300 }, meta: { computers: [0] } }, seededRandom(4)).game)
    writeFileSync(join(dataDir, 'history', 'g-hal.jsonl'), finished)
    const statistics = await call(session, viewer, 'playerStatistics', [])
    expect(statistics).toMatchObject({ ok: true, players: [{ name: 'Bob', games: 1 }] })
    expect((await session.players.everyone()).map((p) => p.name)).toEqual(['Ann', 'Bob'])
    const page = await call(session, viewer, 'playerPage', ['Bob'])
    expect(page.ok && page.page.opponents).toEqual([])
  })

  it('a rename carries the history along; a merge makes two names one person; the records stay as they were', async () => {
    const session = openSession()
    const texts = seedHistory(12)
    await session.players.statistics()
    session.players.remember(['Ann', 'Bob', 'Bobby', 'Cy'])
    const before = await session.players.statistics()
    const games = (list: typeof before, name: string) => list.find((p) => p.name === name)?.games ?? 0

    expect(await call(session, controller, 'renamePerson', ['Bob', 'Robert'])).toEqual({ ok: true })
    const renamed = await session.players.statistics()
    expect(games(renamed, 'Robert')).toBe(games(before, 'Bob'))
    expect(renamed.find((p) => p.name === 'Bob')).toBeUndefined()

    expect(await call(session, controller, 'mergePeople', ['Bobby', 'Robert'])).toEqual({ ok: true })
    const merged = await session.players.statistics()
    expect(games(merged, 'Robert')).toBe(games(before, 'Bob') + games(before, 'Bobby'))
    expect(session.players.people().find((p) => p.name === 'Robert')?.aliases).toEqual(['Bob', 'Bobby'])
    // the records are untouched
    expect(readFileSync(join(dataDir, 'history', 'g000.jsonl'), 'utf8')).toBe(texts[0])

    // refused, and nothing changes
    expect(await call(session, controller, 'renamePerson', ['Robert', 'Ann'])).toMatchObject({ ok: false, error: expect.stringContaining('merge them instead') })
    expect(await call(session, controller, 'renamePerson', ['Nobody', 'X'])).toMatchObject({ ok: false })
    expect(await call(session, controller, 'setPersonColour', ['Ann', 'red'])).toMatchObject({ ok: false, error: 'setPersonColour: colour must be a colour (#rrggbb)' })
    expect(await call(session, viewer, 'renamePerson', ['Ann', 'Anna'])).toMatchObject({ ok: false, error: 'this screen can only watch' })
    expect(session.players.people().map((p) => p.name)).toEqual(['Ann', 'Robert', 'Cy'])
  })

  it("a player's page: statistics, form over the latest games, head-to-head with each opponent", async () => {
    const session = openSession()
    seedHistory(30)
    const page = await call(session, viewer, 'playerPage', ['Ann'])
    if (!page.ok) throw new Error(page.error)
    expect(page.page.statistics?.games).toBe(30)
    expect(page.page.form).toHaveLength(20)
    expect(page.page.form.map((g) => g.startedAt)).toEqual([...page.page.form.map((g) => g.startedAt)].sort((a, b) => a - b))
    expect(page.page.form.at(-1)?.startedAt).toBe(1_600_000_000_000 + 29 * 86_400_000)
    expect(page.page.opponents.map((h) => h.players[1])).toEqual(['Bob', 'Bobby', 'Cy'])
    const bob = page.page.opponents[0]
    expect(bob.games).toBe(15)
    expect(await call(session, viewer, 'headToHead', ['Ann', 'Bob'])).toEqual({ ok: true, result: bob })
    expect(await call(session, viewer, 'playerPage', ['Zed'])).toEqual({ ok: false, error: 'No games of Zed' })
  })

  it('statistics as CSV, one row per player and game kind', async () => {
    const session = openSession()
    seedHistory(8)
    const answer = await call(session, viewer, 'statisticsCsv', [])
    if (!answer.ok) throw new Error(answer.error)
    const rows = answer.csv.trimEnd().split('\r\n')
    expect(rows[0]).toMatch(/^player,game,games,wins,winRate,roundsWon,/)
    expect(rows).toContain(rows.find((row) => row.startsWith('Ann,all,8,')))
    expect(rows.filter((row) => row.startsWith('Ann,'))).toHaveLength(5)
  })
})

describe('charts and the trash', () => {
  it("a game's score over its turns, for the history and for the game on the table", async () => {
    const session = openSession()
    seedHistory(2)
    const chart = await call(session, viewer, 'gameChart', ['g001'])
    if (!chart.ok) throw new Error(chart.error)
    expect(chart.players).toEqual(['Bobby', 'Ann'])
    expect(chart.counts).toBe('points')
    expect(chart.line.length).toBeGreaterThan(2)
    expect(chart.line.every((scores) => scores.length === 2)).toBe(true)
    session.newGame({ game: 'farkle', players: ['Ann', 'Bob'], rules: { entry: 0 } })
    session.submit({ roll: [1, 2, 3, 4, 6, 6] })
    session.submit({ keep: [1] })
    session.submit({ bank: true })
    expect(await call(session, viewer, 'gameChart', ['current'])).toMatchObject({ ok: true, counts: 'points', line: [[100, 0]] })
    expect(await call(session, viewer, 'gameChart', ['nope'])).toEqual({ ok: false, error: 'No game nope to chart' })
  })

  it('a game of 16 people, some past the 16 colours new people get in turn, still draws each seat in a colour of its own', async () => {
    const session = openSession()
    const earlier = Array.from({ length: 8 }, (_, index) => `Early ${index + 1}`)
    const players = Array.from({ length: 16 }, (_, index) => `Player ${index + 1}`)
    session.newGame({ game: 'farkle', players: earlier })
    session.newGame({ game: 'farkle', players })
    // The 17th to 24th people got the colours of the first eight.
    session.newGame({ game: 'farkle', players: [...earlier, ...players.slice(8)] })
    const list = await call(session, viewer, 'listPeople', [])
    if (!list.ok) throw new Error(list.error)
    // 24 people: colours repeat on the list...
    expect(list.people).toHaveLength(24)
    expect(new Set(list.people.map((person) => person.colour)).size).toBe(16)
    const chart = await call(session, viewer, 'gameChart', ['current'])
    if (!chart.ok) throw new Error(chart.error)
    // ...never within a game.
    expect(new Set(chart.colours).size).toBe(16)
  })

  it('a deleted game goes to the trash, leaves the history and the statistics, and can be restored', async () => {
    const session = openSession()
    seedHistory(4)
    const before = await session.players.statistics()
    expect(session.listHistory().map((e) => e.id)).toContain('g002')
    expect(await call(session, viewer, 'trashGame', ['g002'])).toMatchObject({ ok: false })
    expect(await call(session, controller, 'trashGame', ['g002'])).toEqual({ ok: true })
    expect(session.listHistory().map((e) => e.id)).not.toContain('g002')
    expect(await call(session, viewer, 'listTrash', [])).toMatchObject({ ok: true, games: [{ id: 'g002', game: 'fouche', players: ['Ann', 'Bob', 'Cy'] }] })
    const without = await session.players.statistics()
    expect(without.find((p) => p.name === 'Cy')?.games).toBe((before.find((p) => p.name === 'Cy')?.games ?? 0) - 1)
    expect(await call(session, controller, 'trashGame', ['g002'])).toEqual({ ok: false, error: 'No game g002 in the history' })

    expect(await call(session, controller, 'restoreGame', ['g002'])).toEqual({ ok: true })
    expect(session.listHistory().map((e) => e.id)).toContain('g002')
    expect(await openSession().players.statistics()).toEqual(before)
    expect(await call(session, viewer, 'listTrash', [])).toEqual({ ok: true, games: [] })
  })
})

describe('the statistics cache while it loads', () => {
  it('a game archived during a rebuild is in the statistics once the rebuild ends', async () => {
    const session = openSession()
    seedHistory(120)
    const loading = session.players.statistics()
    const finished = recordText(playRandomGame({ game: 'four-plus', players: ['Zoe', 'Ann'], rules: { rounds: 1 } }, seededRandom(4)).game)
    expect((await session.importRecord(finished)).ok).toBe(true)
    expect(session.newGame({ game: 'farkle', players: ['Zoe', 'Ann'] }).ok).toBe(true)
    await loading
    const players = await session.players.statistics()
    expect(players.find((p) => p.name === 'Zoe')?.games).toBe(1)
    expect(await openSession().players.statistics()).toEqual(players)
  })
})
