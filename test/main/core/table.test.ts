import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { openTable, type TestTable } from '@test/kit/table'

let dataDir: string
let clock: number

function openSession(rolls: number[] = []): TestTable {
  return openTable({ dataDir, now: () => ++clock, rolls })
}

function savedLines(): string[] {
  return readFileSync(join(dataDir, 'current.jsonl'), 'utf8').trimEnd().split('\n')
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-session-'))
  clock = 1_700_000_000_000
})

describe('the table session', () => {
  it('saves every accepted line before it is shown, and refuses illegal ones without a trace', () => {
    const session = openSession()
    expect(session.newGame({ game: 'farkle', players: ['Ann', 'Bob'] })).toEqual({ ok: true })
    expect(JSON.parse(savedLines()[0])).toMatchObject({ game: 'farkle', players: ['Ann', 'Bob'] })
    expect(session.submit({ roll: [1, 1, 1, 5, 2, 3] })).toEqual({ ok: true })
    expect(savedLines()).toHaveLength(2)
    expect(JSON.parse(savedLines()[1])).toMatchObject({ roll: [1, 1, 1, 5, 2, 3] })

    const before = session.snapshot(true).current
    const refused = session.submit({ keep: [2] })
    expect(refused.ok).toBe(false)
    expect(savedLines()).toHaveLength(2)
    expect(session.snapshot(true).current?.summary).toEqual(before?.summary)
    expect(session.snapshot(true).message).toMatchObject({ level: 'error' })
  })

  it('undoes again and again, across turns, and the file always matches', () => {
    const session = openSession()
    session.newGame({ game: 'farkle', players: ['Ann', 'Bob'], rules: { entry: 0 } })
    session.submit({ roll: [1, 1, 1, 5, 2, 3] })
    session.submit({ keep: [1, 1, 1] })
    session.submit({ bank: true })
    expect(session.snapshot(true).current?.summary.players[0].score).toBe(1000)
    expect(session.undo()).toEqual({ ok: true })
    expect(session.undo()).toEqual({ ok: true })
    expect(savedLines()).toHaveLength(2)
    expect(session.snapshot(true).current?.offer.decisions.length).toBeGreaterThan(0)
    expect(session.undo()).toEqual({ ok: true })
    expect(session.undo()).toEqual({ ok: false, error: 'Nothing to undo yet' })
    expect(savedLines()).toHaveLength(1)
  })

  it('undo says what it took back; redo plays it again, until a new move is made', () => {
    const session = openSession()
    session.newGame({ game: 'farkle', players: ['Ann', 'Bob'], rules: { entry: 0 } })
    expect(session.snapshot(true).current).toMatchObject({ undo: null, redo: null })
    expect(session.screen.redo()).toEqual({ ok: false, error: 'Nothing to redo' })
    session.submit({ roll: [1, 1, 1, 5, 2, 3] })
    session.submit({ keep: [1, 1, 1] })
    expect(session.snapshot(true).current).toMatchObject({ undo: 'Ann’s keep 1 1 1', redo: null })
    expect(session.undo()).toEqual({ ok: true })
    expect(session.snapshot(true).message?.text).toBe('Undone: Ann’s keep 1 1 1 is taken back')
    expect(session.snapshot(true).current).toMatchObject({ undo: 'Ann’s throw 1 1 1 5 2 3', redo: 'Ann’s keep 1 1 1' })
    expect(session.undo()).toEqual({ ok: true })
    expect(session.snapshot(true).message?.text).toBe('Undone: Ann’s throw 1 1 1 5 2 3 is taken back')
    expect(session.snapshot(true).current).toMatchObject({ undo: null, redo: 'Ann’s throw 1 1 1 5 2 3' })
    expect(session.screen.redo()).toEqual({ ok: true })
    expect(session.snapshot(true).current).toMatchObject({ moveCount: 1, undo: 'Ann’s throw 1 1 1 5 2 3', redo: 'Ann’s keep 1 1 1' })
    expect(session.screen.redo()).toEqual({ ok: true })
    expect(savedLines().slice(1).map((line) => JSON.parse(line))).toMatchObject([{ roll: [1, 1, 1, 5, 2, 3] }, { keep: [1, 1, 1] }])
    expect(session.snapshot(true).current).toMatchObject({ redo: null })
    // Undone, then another move: the undone line cannot come back.
    session.undo()
    session.submit({ keep: [1, 1, 1, 5] })
    expect(session.snapshot(true).current).toMatchObject({ undo: 'Ann’s keep 1 1 1 5', redo: null })
    expect(session.screen.redo()).toEqual({ ok: false, error: 'Nothing to redo' })
  })

  it('resumes an unfinished game exactly where it was', () => {
    const first = openSession()
    first.newGame({ game: 'four-plus', players: ['Ann', 'Bob'] })
    first.submit({ roll: [3, 3, 3, 2] })
    first.submit({ roll: [5, 5, 2, 6] })
    const shown = first.snapshot(true).current
    const again = openSession()
    expect(again.snapshot(true).current?.summary).toEqual(shown?.summary)
    expect(again.snapshot(true).current?.log).toEqual(shown?.log)
    // 2 moves: the record's last line is line 3, the header being line 1.
    expect(again.snapshot(true).message?.text).toBe('Resumed the game in progress (2 moves)')
  })

  it('loads a record cut off by a crash up to its last whole line, and says so', () => {
    const first = openSession()
    first.newGame({ game: 'four-plus', players: ['Ann', 'Bob'] })
    first.submit({ roll: [3, 3, 3, 2] })
    writeFileSync(join(dataDir, 'current.jsonl'), readFileSync(join(dataDir, 'current.jsonl'), 'utf8') + '{"roll":[5,5')
    const again = openSession()
    expect(again.snapshot(true).current?.moveCount).toBe(1)
    expect(again.snapshot(true).message).toMatchObject({ level: 'warning' })
    expect(again.snapshot(true).message?.text).toContain('cut off')
    expect(savedLines()).toHaveLength(2)
  })

  it('resumes a saved game up to a bad line, and keeps that line and the rest aside', () => {
    writeFileSync(join(dataDir, 'current.jsonl'), '{"game":"farkle","players":["A"]}\n{"roll":[9]}\n')
    const session = openSession()
    expect(session.snapshot(true).current?.moveCount).toBe(0)
    expect(session.snapshot(true).message?.text).toMatch(/^Line 2 of the saved game could not be read \(9 is not a die value \(1-6\)\)\. The game resumes before it/)
    const aside = readdirSync(dataDir).filter((name) => name.startsWith('unreadable-') && name.endsWith('.jsonl'))
    expect(aside).toHaveLength(1)
    expect(readFileSync(join(dataDir, aside[0]), 'utf8')).toBe('{"roll":[9]}\n')
    expect(savedLines()).toEqual(['{"game":"farkle","players":["A"]}'])
  })

  it('keeps a saved game whose header cannot be read aside as a whole', () => {
    writeFileSync(join(dataDir, 'current.jsonl'), '{"game":"chess","players":["A"]}\n{"roll":[1]}\n')
    const session = openSession()
    expect(session.snapshot(true).current).toBeNull()
    expect(session.snapshot(true).message?.text).toContain('line 1')
    expect(existsSync(join(dataDir, 'current.jsonl'))).toBe(false)
    expect(readdirSync(dataDir).some((name) => name.startsWith('unreadable-'))).toBe(true)
  })

  it('refuses a broken import with its line and reason, changing nothing', async () => {
    const session = openSession()
    session.newGame({ game: 'four-plus', players: ['Ann', 'Bob'] })
    session.submit({ roll: [3, 3, 3, 2] })
    const before = readFileSync(join(dataDir, 'current.jsonl'), 'utf8')
    const outcome = await session.importRecord('{"game":"four-plus","players":["A","B"]}\n{"roll":[1,2,3]}\n')
    expect(outcome.ok).toBe(false)
    expect(!outcome.ok && outcome.error).toMatch(/^Import refused: line 2: /)
    expect(readFileSync(join(dataDir, 'current.jsonl'), 'utf8')).toBe(before)
  })

  it('exports a record that imports back to the same state, and keeps the replaced game in the history', async () => {
    const session = openSession()
    session.newGame({ game: 'four-plus', players: ['Ann', 'Bob'] })
    session.submit({ roll: [3, 3, 3, 2] })
    const exported = await session.exportRecord()
    if (!exported.ok) throw new Error(exported.error)
    expect(exported.fileName).toMatch(/^four-plus-.*\.jsonl$/)
    const summary = session.snapshot(true).current?.summary
    // The same game as on the table is refused (it would be in the history twice); one move on, it is another game.
    expect(await session.importRecord(exported.record)).toEqual({ ok: false, error: 'Import refused: this game is already on the table' })
    session.submit({ roll: [2, 3, 5, 6] })
    expect(await session.importRecord(exported.record)).toEqual({ ok: true })
    expect(session.snapshot(true).message?.text).toBe('Imported a game of 4-PLU$ with 1 move')
    expect(session.snapshot(true).current?.summary).toEqual(summary)
    const history = session.listHistory()
    expect(history).toHaveLength(1)
    expect(history[0]).toMatchObject({ game: 'four-plus', finished: false, moves: 2 })
    const opened = await session.openHistory(history[0].id)
    expect(opened.ok && opened.game.stepCount).toBe(2)
  })

  it('a replay of the game on the table stays the game as it was opened, and says when it was closed', async () => {
    const session = openSession()
    session.newGame({ game: 'four-plus', players: ['Ann', 'Bob'] })
    session.submit({ roll: [3, 3, 3, 2] })
    const opened = await session.openHistory('current')
    if (!opened.ok) throw new Error(opened.error)
    expect(opened.game).toMatchObject({ entry: { id: 'current' }, stepCount: 1 })
    const first = session.historyStep(opened.game.replay, 0)
    session.submit({ roll: [5, 5, 1, 2] })
    session.undo()
    session.submit({ roll: [6, 6, 6, 6] })
    expect(session.historyStep(opened.game.replay, 0)).toEqual(first)
    expect(session.historyStep(opened.game.replay, 1)).toEqual({ ok: false, error: 'This game has no step 2' })
    expect(session.historyStep('replay-999', 0)).toMatchObject({ ok: false, error: expect.stringContaining('This replay was closed') })
    // Screens that open other games meanwhile push the oldest replay out; it says so, and nothing else changes.
    const names: string[] = []
    for (let other = 0; other < 6; other++) {
      const again = await session.openHistory('current')
      if (again.ok) names.push(again.game.replay)
    }
    expect(new Set(names).size).toBe(6)
    expect(session.historyStep(opened.game.replay, 0)).toMatchObject({ ok: false, error: expect.stringContaining('open the game again') })
    expect(session.historyStep(names[5], 1)).toMatchObject({ ok: true, step: { line: 3 } })
    expect(session.snapshot(true).current?.moveCount).toBe(2)
  })

  it('a step of a game in the history says every entry of its line, one after another', async () => {
    const session = openSession()
    session.newGame({ game: 'foursies', players: ['Ann', 'Bob', 'Cy'] })
    session.submit({ roll: [6, 5, 5, 4] })
    const entries = session.snapshot(true).current!.log.filter((entry) => entry.line === 2).map((entry) => entry.text)
    expect(entries.length).toBeGreaterThan(1)
    session.abandon()
    const opened = await session.openHistory(session.listHistory()[0].id)
    if (!opened.ok) throw new Error(opened.error)
    expect(opened.game.stepCount).toBe(1)
    expect(session.historyStep(opened.game.replay, 0)).toEqual({ ok: true, step: expect.objectContaining({ line: 2, text: entries.join(' · ') }) })
  })

  it('plays by keypad: digits, Enter, refusals that change nothing, and undo', () => {
    const session = openSession()
    session.newGame({ game: 'four-plus', players: ['Ann', 'Bob'] })
    for (const key of ['3', '3', '3'] as const) session.keypad(key)
    expect(session.keypad('9').ok).toBe(false)
    expect(session.snapshot(true).keypad.buffer).toBe('333')
    expect(session.keypad('Enter')).toEqual({ ok: false, error: '4 dice are due, not 3' })
    // The refused entry is cleared: the next digits start a fresh one.
    expect(session.snapshot(true).keypad.buffer).toBe('')
    for (const key of ['3', '3', '3', '2'] as const) session.keypad(key)
    expect(session.keypad('Enter')).toEqual({ ok: true })
    expect(session.snapshot(true).current?.summary.players[0].score).toBe(3)
    expect(session.keypad('/')).toEqual({ ok: true })
    expect(session.snapshot(true).current?.moveCount).toBe(0)
  })

  it('throws exactly the dice that are due with virtual dice', () => {
    const session = openSession([4, 4, 4, 4])
    session.newGame({ game: 'four-plus', players: ['Ann', 'Bob'] })
    expect(session.rollVirtual()).toEqual({ ok: true })
    expect(JSON.parse(savedLines()[1]).roll).toEqual([4, 4, 4, 4])
    expect(session.snapshot(true).current?.announcement?.text).toBeTruthy()
  })

  it('remembers player names for the next setup', () => {
    const session = openSession()
    session.newGame({ game: 'four-plus', players: ['Ann', 'Bob'] })
    session.newGame({ game: 'farkle', players: ['Cy'] })
    expect(session.snapshot(true).recentPlayers).toEqual(['Cy', 'Ann', 'Bob'])
    expect(existsSync(join(dataDir, 'settings.json'))).toBe(true)
  })
})

describe('when the disk fails', () => {
  it('does not take a move it could not save, and keeps the file and the screens in step', () => {
    const session = openSession()
    session.newGame({ game: 'four-plus', players: ['Ann', 'Bob'] })
    session.submit({ roll: [3, 3, 3, 2] })
    const before = readFileSync(join(dataDir, 'current.jsonl'), 'utf8')
    const store = session.journal
    const write = store.write.bind(store)
    const replace = store.replaceCurrent.bind(store)
    const cut = store.cutLastLine.bind(store)
    store.write = () => {
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })
    }
    store.replaceCurrent = () => {
      throw Object.assign(new Error('read-only file system'), { code: 'EROFS' })
    }
    store.cutLastLine = () => {
      throw Object.assign(new Error('read-only file system'), { code: 'EROFS' })
    }
    const outcome = session.submit({ roll: [5, 5, 5, 2] })
    expect(outcome).toEqual({ ok: false, error: 'The disk is full: the roll was not taken. Free some space and enter it again.' })
    expect(session.snapshot(true).current?.moveCount).toBe(1)
    expect(session.undo()).toEqual({
      ok: false,
      error: 'The data folder is read-only: nothing was taken back. Make it writable (or start with another data folder) and undo again.'
    })
    expect(session.snapshot(true).current?.moveCount).toBe(1)
    expect(readFileSync(join(dataDir, 'current.jsonl'), 'utf8')).toBe(before)

    store.write = write
    store.replaceCurrent = replace
    store.cutLastLine = cut
    expect(session.submit({ roll: [5, 5, 5, 2] })).toEqual({ ok: true })
    const reopened = openSession()
    expect(reopened.snapshot(true).current?.summary).toEqual(session.snapshot(true).current?.summary)
    expect(reopened.snapshot(true).current?.moveCount).toBe(2)
  })
})
