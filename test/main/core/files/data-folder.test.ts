// The data folder against what may be found in it or asked of it: ids that are not games' ids,
// damaged files the app owns (the player list, the statistics cache, the settings), drafts left by
// a crash, and imported records beyond a game's limits. Through a real table on a temporary data
// folder and the screen API's dispatcher, as a screen would ask.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DataFolderInUseError, LOCK_FILE, lockDataFolder } from '@main/core/files/data-lock'
import { HistoryArchive, isGameId } from '@main/core/history/history-archive'
import { dispatch } from '@main/core/screens/dispatch'
import type { MethodArgs, MethodName, MethodResult } from '@shared/api-methods'
import { recordText } from '@shared/game'
import { playRandomGame, seededRandom } from '@shared/random-play'
import { factsOfRecordText, playerStatistics, type GameFacts } from '@shared/stats'
import { dataFolder, openTable, type TestTable, type TestTableOptions } from '@test/kit/table'
import { fillDisk, mountTmpfs, remount, unmountTmpfs } from '@test/faults/support'

const opened: TestTable[] = []
const mounted: string[] = []
afterEach(async () => {
  // As when the app stops: its files are closed (a disk with a file open for writing cannot turn read-only).
  while (opened.length) await opened.pop()!.stop()
  while (mounted.length) unmountTmpfs(mounted.pop()!)
})

function open(dataDir: string, options: TestTableOptions = {}): TestTable {
  const session = openTable({ dataDir, clockFrom: 1_700_000_000_000, ...options })
  opened.push(session)
  return session
}

async function closeAll(): Promise<void> {
  while (opened.length) await opened.pop()!.stop()
}

/** A request from the host's control screen through the screen API's checks and dispatcher. */
function call<M extends MethodName>(session: TestTable, method: M, args: MethodArgs<M>): Promise<MethodResult<M>> {
  return dispatch(session.table, session.screen, method, args as unknown[]) as Promise<MethodResult<M>>
}

/** Finished (and, with `abandoned`, unfinished) records written into the history folder, as games archived earlier. */
function seedHistory(dataDir: string, count: number, abandoned = false): string[] {
  const random = seededRandom(11)
  mkdirSync(join(dataDir, 'history'), { recursive: true })
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const header = { game: 'farkle' as const, players: ['Ann', 'Bob'], rules: { target: 1000 }, meta: { startedAt: 1_600_000_000_000 + i * 60_000 } }
    const game = playRandomGame(header, random, abandoned ? 6 : undefined).game
    const id = `g${i}`
    writeFileSync(join(dataDir, 'history', `${id}.jsonl`), recordText(game))
    ids.push(id)
  }
  return ids
}

/** Every file under the data folder with its bytes, to tell that nothing changed. */
function folderContents(dir: string): Record<string, string> {
  const contents: Record<string, string> = {}
  const walk = (at: string, prefix: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name)
      if (entry.isDirectory()) walk(path, `${prefix}${entry.name}/`)
      else contents[`${prefix}${entry.name}`] = readFileSync(path, 'base64')
    }
  }
  walk(dir, '')
  return contents
}

describe('ids name games, never the app’s own files', () => {
  it('a control screen cannot trash, restore, resume, open or chart the index or any path', async () => {
    const dataDir = dataFolder('ids')
    seedHistory(dataDir, 2, true)
    const session = open(dataDir)
    expect(session.listHistory().map((entry) => entry.id).sort()).toEqual(['g0', 'g1'])
    const before = folderContents(dataDir)
    for (const id of ['index', 'INDEX', 'Index', 'current', 'statistics.cache', '.index', 'index.jsonl', '..', '-x']) {
      expect(await call(session, 'trashGame', [id]), id).toMatchObject({ ok: false })
      expect(await call(session, 'restoreGame', [id]), id).toMatchObject({ ok: false })
      expect(await call(session, 'resumeHistory', [id]), id).toMatchObject({ ok: false })
      if (id !== 'current') {
        expect(await call(session, 'openHistory', [id]), id).toMatchObject({ ok: false })
        expect(await call(session, 'gameChart', [id]), id).toMatchObject({ ok: false })
      }
    }
    expect(folderContents(dataDir)).toEqual(before)
    expect(existsSync(join(dataDir, 'trash'))).toBe(false)
    expect(await call(session, 'listTrash', [])).toEqual({ ok: true, games: [] })
    // A game's id still does all of it.
    expect(await call(session, 'trashGame', ['g0'])).toEqual({ ok: true })
    expect(await call(session, 'restoreGame', ['g0'])).toEqual({ ok: true })
    expect(await call(session, 'resumeHistory', ['g1'])).toEqual({ ok: true })
  })

  it('one place turns an id into a path, and it refuses whatever is not a game’s id', () => {
    const archive = new HistoryArchive(dataFolder('ids'))
    expect(archive.pathOf('20260101T120000Z-four-plus-1a2b3c')).toBe(join(archive.historyDir, '20260101T120000Z-four-plus-1a2b3c.jsonl'))
    for (const id of ['index', 'INDEX', 'current', '../x', 'a/b', 'a\\b', '.hidden', '', 'x'.repeat(81), 'a\u0000b']) {
      expect(isGameId(id), id).toBe(false)
      expect(() => archive.pathOf(id), id).toThrow(/is not the id of a game/)
    }
    // The index itself is no game of the history, whatever the folder holds.
    writeFileSync(join(archive.historyDir, 'index.jsonl'), '')
    writeFileSync(join(archive.historyDir, 'Current.jsonl'), '')
    expect(archive.ids()).toEqual([])
  })
})

/** A data folder with a game in progress, two finished games, a player list with a rename, a merge and colours, and settings. */
async function furnished(dataDir: string): Promise<void> {
  seedHistory(dataDir, 2)
  const session = open(dataDir)
  await session.players.statistics()
  expect(await call(session, 'renamePerson', ['Ann', 'Anna'])).toEqual({ ok: true })
  expect(await call(session, 'setPersonColour', ['Bob', '#123456'])).toEqual({ ok: true })
  session.newGame({ game: 'four-plus', players: ['Anna', 'Bob'] })
  for (const roll of [[2, 3, 5, 6], [2, 3, 5, 6]]) expect(session.submit({ roll })).toEqual({ ok: true })
  await closeAll()
}

describe('a data folder this process cannot write: opened read-only', () => {
  it('read-only: no lock is taken, the games are shown, and every change is refused saying what to do', async () => {
    const dir = mountTmpfs(1024 * 1024)
    mounted.push(dir)
    await furnished(dir)
    remount(dir, 'ro')
    const before = folderContents(dir)
    const lock = lockDataFolder(dir, 'a test')
    expect(lock.readOnly?.message).toBe(
      `The data folder is read-only: the games in ${dir} are shown, but nothing can be saved. Make it writable (or use another data folder) and start the app again.`
    )
    const session = open(dir, { readOnly: lock.readOnly })
    expect(session.snapshot().message).toMatchObject({ level: 'warning', text: expect.stringContaining('The data folder is read-only: the games in') })
    expect(session.currentGame?.moves).toHaveLength(2)
    expect(session.listHistory().map((entry) => entry.id).sort()).toEqual(['g0', 'g1'])
    const refusal = 'The data folder is read-only: the roll was not taken. Make it writable (or use another data folder) and start the app again, then enter it again.'
    expect(session.submit({ roll: [2, 3, 5, 6] })).toEqual({ ok: false, error: refusal })
    for (const outcome of [
      session.undo(),
      session.abandon(),
      session.newGame({ game: 'farkle', players: ['Ann', 'Bob'] }),
      await session.importRecord(recordText(playRandomGame({ game: 'farkle', players: ['Cy'], meta: { startedAt: 5 } }, seededRandom(2), 4).game)),
      await call(session, 'trashGame', ['g0']),
      await call(session, 'renamePerson', ['Bob', 'Robert']),
      await call(session, 'mergePeople', ['Bob', 'Anna'])
    ]) {
      expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/^The data folder is read-only: .+\. Make it writable \(or use another data folder\) and start the app again, then .+\.$/) })
    }
    // What only reads works: statistics (with the rename), replays, the CSV.
    const statistics = await call(session, 'playerStatistics', [])
    expect(statistics.ok && statistics.players.map((player) => player.name).sort()).toEqual(['Anna', 'Bob'])
    expect(await call(session, 'openHistory', ['g0'])).toMatchObject({ ok: true })
    // A setting holds until the app stops.
    expect(session.setShowOdds(true)).toEqual({ ok: true })
    expect(folderContents(dir)).toEqual(before)
  })

  it('a full disk at start: no lock and no empty draft left, the games shown, changes refused', async () => {
    const dir = mountTmpfs(256 * 1024)
    mounted.push(dir)
    await furnished(dir)
    fillDisk(dir)
    const before = folderContents(dir)
    const lock = lockDataFolder(dir, 'a test')
    expect(lock.readOnly?.what).toBe('The disk is full')
    expect(folderContents(dir)).toEqual(before)
    const session = open(dir, { readOnly: lock.readOnly })
    expect(session.currentGame?.moves).toHaveLength(2)
    // Space freed meanwhile: still nothing is written without the lock (another app may have taken it).
    rmSync(join(dir, 'filler'))
    expect(session.submit({ roll: [2, 3, 5, 6] })).toEqual({
      ok: false,
      error: 'The disk is full: the roll was not taken. Free some space and start the app again, then enter it again.'
    })
    expect(readFileSync(join(dir, 'current.jsonl'), 'utf8')).toBe(Buffer.from(before['current.jsonl'], 'base64').toString('utf8'))
  })

  it('a folder where the lock goes: opened read-only, saying what to remove; a live holder is refused as ever', async () => {
    const dir = dataFolder('lock-folder')
    await furnished(dir)
    mkdirSync(join(dir, LOCK_FILE))
    const lock = lockDataFolder(dir, 'a test')
    expect(lock.readOnly?.message).toBe(
      `dice-referee.lock in the data folder is a folder, not the app's lock file: the games in ${dir} are shown, but nothing can be saved. Remove that folder (${join(dir, LOCK_FILE)}) and start the app again.`
    )
    expect(open(dir, { readOnly: lock.readOnly }).submit({ roll: [2, 3, 5, 6] })).toMatchObject({ ok: false, error: expect.stringContaining('Remove that folder') })
    // A read-only folder that a live process holds (a shared folder) is refused, naming it.
    const shared = mountTmpfs(64 * 1024)
    mounted.push(shared)
    writeFileSync(join(shared, LOCK_FILE), `${JSON.stringify({ pid: process.ppid, host: 'another-computer', startedAt: new Date().toISOString(), program: 'the other app' })}\n`)
    remount(shared, 'ro')
    expect(() => lockDataFolder(shared, 'a test')).toThrow(DataFolderInUseError)
  })
})

describe('drafts a crash left behind', () => {
  it('are removed at start by the folder’s writer; a live process’s lock draft is left alone', () => {
    const dir = dataFolder('drafts')
    seedHistory(dir, 1)
    mkdirSync(join(dir, 'trash'))
    const drafts = ['players.json.tmp', 'settings.json.tmp', 'current.jsonl.tmp', 'current.jsonl.import.tmp', 'history/index.jsonl.tmp', 'history/statistics.cache.tmp', 'trash/g9.deleted.tmp']
    for (const draft of drafts) writeFileSync(join(dir, draft), '[{"name":"half')
    const deadDraft = `${LOCK_FILE}.999999999.1.tmp`
    const liveDraft = `${LOCK_FILE}.${process.ppid}.1.tmp`
    writeFileSync(join(dir, deadDraft), '')
    writeFileSync(join(dir, liveDraft), '')
    const lock = lockDataFolder(dir, 'a test')
    expect(lock.readOnly).toBeNull()
    open(dir)
    const left = [...drafts, deadDraft, liveDraft].filter((draft) => existsSync(join(dir, draft)))
    lock.release()
    expect(left).toEqual([liveDraft])
    expect(session0History(dir)).toEqual(['g0'])
  })

  it('are left where they are in a folder opened read-only', () => {
    const dir = dataFolder('drafts')
    writeFileSync(join(dir, 'players.json.tmp'), '[')
    mkdirSync(join(dir, LOCK_FILE))
    open(dir, { readOnly: lockDataFolder(dir, 'a test').readOnly })
    expect(existsSync(join(dir, 'players.json.tmp'))).toBe(true)
  })
})

function session0History(dir: string): string[] {
  return readdirSync(join(dir, 'history')).filter((name) => name.endsWith('.jsonl') && name !== 'index.jsonl').map((name) => name.slice(0, -6))
}

/** The player list the damaged files are made from: a rename (Ann, once Annie), a merge (Bobby into Bob) and colours. */
const PEOPLE = [
  { name: 'Ann', colour: '#112233', aliases: ['Annie'] },
  { name: 'Bob', colour: '#445566', aliases: ['Bobby'] },
  { name: 'Cy', colour: '#778899', aliases: [] }
]
const listText = JSON.stringify(PEOPLE, null, 2)

/** players.json damaged in every way the outside campaign tried, and what of it must be kept. */
const DAMAGED_LISTS: { name: string; bytes: () => Buffer | 'folder'; keeps: string[] }[] = [
  { name: 'cut short', bytes: () => Buffer.from(listText.slice(0, listText.length / 2)), keeps: [] },
  { name: 'empty', bytes: () => Buffer.alloc(0), keeps: [] },
  { name: 'only spaces', bytes: () => Buffer.from('  \n\n'), keeps: [] },
  { name: 'garbage', bytes: () => Buffer.from('this is no list of people {{{'), keeps: [] },
  { name: 'NUL bytes', bytes: () => Buffer.alloc(512), keeps: [] },
  { name: 'NUL bytes after the list', bytes: () => Buffer.concat([Buffer.from(listText), Buffer.alloc(64)]), keeps: [] },
  { name: 'not UTF-8', bytes: () => Buffer.concat([Buffer.from(listText.slice(0, 20)), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(listText.slice(20))]), keeps: [] },
  { name: 'null', bytes: () => Buffer.from('null'), keeps: [] },
  { name: 'an object', bytes: () => Buffer.from('{"people":[]}'), keeps: [] },
  { name: 'wrong types', bytes: () => Buffer.from(JSON.stringify([{ name: 7, colour: true, aliases: 'Annie' }])), keeps: [] },
  { name: 'one bad entry', bytes: () => Buffer.from(JSON.stringify([PEOPLE[0], { name: '', colour: 3 }, PEOPLE[1], PEOPLE[2]])), keeps: ['Ann', 'Bob', 'Cy'] },
  { name: 'a bad colour', bytes: () => Buffer.from(JSON.stringify([PEOPLE[0], { ...PEOPLE[1], colour: 'blue' }, PEOPLE[2]])), keeps: ['Ann', 'Bob', 'Cy'] },
  { name: 'a name twice', bytes: () => Buffer.from(JSON.stringify([...PEOPLE, PEOPLE[0]])), keeps: ['Ann', 'Bob', 'Cy'] },
  { name: 'a folder', bytes: () => 'folder', keeps: [] },
  { name: 'over 16 MB', bytes: () => Buffer.from(JSON.stringify([...PEOPLE, { name: 'Dee', colour: '#000000', aliases: ['x'.repeat(17 * 1024 * 1024)] }])), keeps: [] }
]

/** Finished games of Annie, Ann, Bobby, Bob and Cy in the history: with the list, Ann's games include Annie's. */
function historyOfPeople(dataDir: string): void {
  mkdirSync(join(dataDir, 'history'), { recursive: true })
  const random = seededRandom(21)
  const tables = [['Annie', 'Bobby'], ['Ann', 'Bob'], ['Annie', 'Cy'], ['Bob', 'Cy']]
  tables.forEach((players, i) => {
    const header = { game: 'farkle' as const, players, rules: { target: 500 }, meta: { startedAt: 1_600_000_000_000 + i } }
    writeFileSync(join(dataDir, 'history', `p${i}.jsonl`), recordText(playRandomGame(header, random).game))
  })
}

describe('files the app owns, damaged', () => {
  it.each(DAMAGED_LISTS)('players.json $name: kept aside whole, said on the screens, the good people kept, the rest from the records', async ({ bytes, keeps }) => {
    const dataDir = dataFolder('players')
    historyOfPeople(dataDir)
    const path = join(dataDir, 'players.json')
    const damaged = bytes()
    if (damaged === 'folder') mkdirSync(join(path, 'inside'), { recursive: true })
    else writeFileSync(path, damaged)
    const session = open(dataDir)
    expect(session.snapshot().message).toMatchObject({ level: 'warning', text: expect.stringContaining('The player list (players.json) was damaged (') })
    // The damaged file is kept beside it, as it was.
    const aside = readdirSync(dataDir).filter((name) => name.startsWith('players.json.damaged-'))
    expect(aside).toHaveLength(1)
    if (damaged !== 'folder') expect(readFileSync(join(dataDir, aside[0])).equals(damaged)).toBe(true)
    else expect(existsSync(join(dataDir, aside[0], 'inside'))).toBe(true)
    // The people it still held keep their renames, merges and colours; everyone else comes from the records.
    const people = await call(session, 'listPeople', [])
    if (!people.ok) throw new Error(people.error)
    for (const name of keeps) expect(people.people.find((person) => person.name === name)?.aliases).toEqual(PEOPLE.find((person) => person.name === name)!.aliases)
    if (keeps.length > 0) expect(people.people.find((person) => person.name === 'Ann')?.colour).toBe(PEOPLE[0].colour)
    const names = people.people.map((person) => person.name).sort()
    expect(names).toEqual(keeps.length > 0 ? ['Ann', 'Bob', 'Cy'] : ['Ann', 'Annie', 'Bob', 'Bobby', 'Cy'])
    // A change works, and is written as a list the app reads back whole.
    expect(await call(session, 'setPersonColour', ['Cy', '#abcdef'])).toEqual({ ok: true })
    await closeAll()
    const again = open(dataDir)
    expect(again.snapshot().message).toBeNull()
    expect(again.players.people().find((person) => person.name === 'Cy')?.colour).toBe('#abcdef')
    for (const name of keeps) expect(again.players.people().find((person) => person.name === name)?.aliases).toEqual(PEOPLE.find((person) => person.name === name)!.aliases)
  })

  it('players.json of 50,000 people is read whole, and a rename works', async () => {
    const dataDir = dataFolder('players')
    const people = Array.from({ length: 50_000 }, (_, i) => ({ name: `P${i}`, colour: '#123456', aliases: [`Q${i}`] }))
    writeFileSync(join(dataDir, 'players.json'), JSON.stringify(people))
    const session = open(dataDir)
    expect(session.snapshot().message).toBeNull()
    expect(session.players.people()).toHaveLength(50_000)
    expect(await call(session, 'renamePerson', ['P49999', 'Zed'])).toEqual({ ok: true })
    expect(readdirSync(dataDir).filter((name) => name.includes('damaged'))).toEqual([])
  })

  it('players.json damaged in a folder opened read-only: left as it is, said, never written over', async () => {
    const dataDir = dataFolder('players')
    historyOfPeople(dataDir)
    writeFileSync(join(dataDir, 'players.json'), '[{"name":')
    mkdirSync(join(dataDir, LOCK_FILE))
    const session = open(dataDir, { readOnly: lockDataFolder(dataDir, 'a test').readOnly })
    expect(session.snapshot().message?.text).toContain('The player list (players.json) was damaged (it is not JSON (cut short, or overwritten)): it is left where it is, and not written over.')
    expect(await call(session, 'playerStatistics', [])).toMatchObject({ ok: true })
    expect(readFileSync(join(dataDir, 'players.json'), 'utf8')).toBe('[{"name":')
  })

  it.each([
    ['facts: null', (line: { id: string; facts: unknown }) => ({ ...line, facts: null })],
    ['facts: {}', (line: { id: string; facts: unknown }) => ({ ...line, facts: {} })],
    ['wrong types', (line: { id: string; facts: Record<string, unknown> }) => ({ ...line, facts: { ...line.facts, players: 'Ann', seats: [{ turns: '3' }] } })],
    ['a seat of another game', (line: { id: string; facts: Record<string, unknown> }) => ({ ...line, facts: { ...line.facts, seats: (line.facts.seats as unknown[]).map(() => ({ roundsSurvived: 1, deathsByOnes: 0, extraThrows: 0 })) } })],
    ['no id', (line: { id: string; facts: unknown }) => ({ facts: line.facts })]
  ])('a statistics cache line with %s: that game is read again from its record, never an internal error', async (_, damage) => {
    const dataDir = dataFolder('cache')
    historyOfPeople(dataDir)
    const expected = playerStatistics(readdirSync(join(dataDir, 'history')).map((name) => factsOfRecordText(readFileSync(join(dataDir, 'history', name), 'utf8')) as GameFacts))
    await open(dataDir).players.statistics()
    await closeAll()
    const cache = join(dataDir, 'history', 'statistics.cache')
    const [header, first, ...rest] = readFileSync(cache, 'utf8').trimEnd().split('\n')
    writeFileSync(cache, [header, JSON.stringify(damage(JSON.parse(first))), ...rest].join('\n') + '\n')
    for (let start = 0; start < 2; start++) {
      const session = open(dataDir)
      for (const [method, args] of [['playerStatistics', []], ['statisticsCsv', []], ['playerPage', ['Bob']], ['headToHead', ['Bob', 'Cy']]] as const) {
        expect(await call(session, method, args as never), method).toMatchObject({ ok: true })
      }
      const statistics = await call(session, 'playerStatistics', [])
      expect(statistics.ok && statistics.players.map((player) => [player.name, player.games]).sort()).toEqual(expected.map((player) => [player.name, player.games]).sort())
      await closeAll()
    }
    // Written again with the facts of that game.
    expect(readFileSync(cache, 'utf8').trimEnd().split('\n')).toHaveLength(5)
  })

  it('the statistics cache as a folder: kept aside, said, the statistics worked out from the records', async () => {
    const dataDir = dataFolder('cache')
    historyOfPeople(dataDir)
    mkdirSync(join(dataDir, 'history', 'statistics.cache', 'inside'), { recursive: true })
    const session = open(dataDir)
    const told: string[] = []
    session.table.notices.subscribe((message) => told.push(message.text))
    expect(await call(session, 'playerStatistics', [])).toMatchObject({ ok: true, players: expect.arrayContaining([expect.objectContaining({ name: 'Cy', games: 2 })]) })
    expect(told.some((text) => /statistics\.cache in the history folder was damaged \(it is not a file\): it was kept as statistics\.cache\.damaged-\d+/.test(text))).toBe(true)
    expect(readFileSync(join(dataDir, 'history', 'statistics.cache'), 'utf8').split('\n')[0]).toMatch(/^\{"statisticsCache":\d+\}$/)
  })

  it('settings.json damaged: kept aside, said, what could be read kept', () => {
    const dataDir = dataFolder('settings')
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ recentPlayers: ['Ann', 7, 'Bob'], showOdds: 'yes', scoreboardDisplayId: 3 }))
    const session = open(dataDir)
    expect(session.snapshot().message?.text).toMatch(/^The settings \(settings\.json\) were damaged \(.+\): it was kept as settings\.json\.damaged-\d+, and what could be read of them is kept\.$/)
    expect(session.snapshot().recentPlayers).toEqual(['Ann', 'Bob'])
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toMatchObject({ recentPlayers: ['Ann', 'Bob'], scoreboardDisplayId: 3, showOdds: false })
  })
})

describe('an imported record follows the limits of a game started at Setup', () => {
  it('16 names of 200 kB are refused with the reason, and change nothing', async () => {
    const dataDir = dataFolder('import')
    const session = open(dataDir)
    expect(session.newGame({ game: 'farkle', players: ['Ann', 'Bob'] })).toEqual({ ok: true })
    const before = folderContents(dataDir)
    const players = Array.from({ length: 16 }, (_, i) => `${i}`.padEnd(200_000, 'x'))
    const record = `${JSON.stringify({ game: 'farkle', players })}\n{"roll":[1,2,3,4,6,6]}\n`
    expect(await session.importRecord(record)).toEqual({ ok: false, error: 'Import refused: line 1: invalid header: a player name is at most 40 characters, not 200000' })
    expect(folderContents(dataDir)).toEqual(before)
    expect(JSON.stringify(session.snapshot()).length).toBeLessThan(20_000)
  })

  it('such a record put in the history by an older version is not listed, and every screen stays small', () => {
    const dataDir = dataFolder('import')
    seedHistory(dataDir, 1)
    const players = Array.from({ length: 16 }, (_, i) => `${i}`.padEnd(200_000, 'x'))
    writeFileSync(join(dataDir, 'history', 'huge.jsonl'), `${JSON.stringify({ game: 'farkle', players })}\n`)
    const session = open(dataDir)
    expect(session.listHistory().map((entry) => entry.id)).toEqual(['g0'])
    expect(JSON.stringify(session.listHistory()).length).toBeLessThan(20_000)
  })
})

describe('a resume from the history stopped by a crash', () => {
  it('between writing the game on the table and taking the history’s copy out: the copy goes at the next start', async () => {
    const dataDir = dataFolder('resume')
    seedHistory(dataDir, 2, true)
    const first = open(dataDir)
    expect(first.listHistory()).toHaveLength(2) // indexed
    await closeAll()
    // As the crash leaves it: g0's record is the current one, and g0 is still in the history.
    const g0 = readFileSync(join(dataDir, 'history', 'g0.jsonl'), 'utf8')
    writeFileSync(join(dataDir, 'current.jsonl'), g0)
    const session = open(dataDir)
    expect(session.currentGame?.moves.length).toBeGreaterThan(0)
    expect(session.listHistory().map((entry) => entry.id)).toEqual(['g1'])
    expect(existsSync(join(dataDir, 'history', 'g0.jsonl'))).toBe(false)
    // A game on the table that only looks like one of the history (a line short of it) leaves it alone.
    const g1 = readFileSync(join(dataDir, 'history', 'g1.jsonl'), 'utf8')
    await closeAll()
    writeFileSync(join(dataDir, 'current.jsonl'), g1.split('\n').slice(0, -2).join('\n') + '\n')
    expect(open(dataDir).listHistory().map((entry) => entry.id)).toEqual(['g1'])
  })
})
