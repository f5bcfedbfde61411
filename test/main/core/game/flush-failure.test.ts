// A move is shown while its line is flushed to the disk; a disk that fails the flush (an I/O
// error at fsync) gets the move taken back: the line is cut off again, and the screens are told.
import * as fs from 'node:fs'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { RecordJournal } from '@main/core/game/record-journal'
import { HistoryArchive } from '@main/core/history/history-archive'
import { openTable, type TestTable, type TestTableOptions } from '@test/kit/table'
import type { TableState } from '@shared/api'
import { rig, waitFor, type Rig } from '@test/main/devices/harness'

const disk = vi.hoisted(() => ({ failNextFsync: false }))
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof fs>()
  return {
    ...real,
    fsyncSync: (descriptor: number) => {
      if (disk.failNextFsync) {
        disk.failNextFsync = false
        throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' })
      }
      real.fsyncSync(descriptor)
    }
  }
})

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  disk.failNextFsync = false
  while (cleanups.length) await cleanups.pop()!()
})

function newSession(dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-flush-')), options: TestTableOptions = {}): { session: TestTable; dataDir: string } {
  const session = openTable({ dataDir, ...options })
  cleanups.push(() => session.stop())
  return { session, dataDir }
}

function journalIn(dataDir: string): RecordJournal {
  return new RecordJournal(new HistoryArchive(dataDir))
}

/** The computer's pause before each of its actions. */
const COMPUTER_PAUSE_MS = 30

describe('a move whose line the disk fails to flush', () => {
  it('is shown, then taken back with the reason, and the record keeps only the lines before it', () => {
    const { session, dataDir } = newSession()
    expect(session.newGame({ game: 'four-plus', players: ['Ann', 'Bob'] })).toEqual({ ok: true })
    expect(session.submit({ roll: [3, 3, 3, 2] })).toEqual({ ok: true })
    const recordBefore = readFileSync(join(dataDir, 'current.jsonl'), 'utf8')
    const stateBefore = session.snapshot(true)
    const pushed: TableState[] = []
    session.subscribe(() => pushed.push(session.snapshot(true)))

    disk.failNextFsync = true
    const outcome = session.submit({ roll: [6, 5, 4, 1] })

    expect(outcome).toEqual({ ok: false, error: 'The disk reported an error: the roll was not taken. Check the disk and enter it again.' })
    expect(pushed.map((state) => state.current?.moveCount)).toEqual([2, 1])
    expect(pushed[1].message?.text).toBe(outcome.ok ? '' : outcome.error)
    expect(readFileSync(join(dataDir, 'current.jsonl'), 'utf8')).toBe(recordBefore)
    const stateAfter = session.snapshot(true)
    expect({ ...stateAfter.current, odds: null }).toEqual({ ...stateBefore.current, odds: null })

    // The disk is well again: the next move is taken, and the record is the game the screens show.
    expect(session.submit({ roll: [6, 5, 4, 1] })).toEqual({ ok: true })
    const lines = readFileSync(join(dataDir, 'current.jsonl'), 'utf8').trimEnd().split('\n')
    expect(lines).toHaveLength(3)
    expect(JSON.parse(lines[2]).roll).toEqual([6, 5, 4, 1])
    const resumed = openTable({ dataDir })
    expect(resumed.snapshot(true).current?.summary).toEqual(session.snapshot(true).current?.summary)
  })

  it('leaves a record that lacked its last line end lacking it again, so the next line still starts on a line of its own', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-flush-'))
    const store = journalIn(dataDir)
    writeFileSync(join(dataDir, 'current.jsonl'), '{"header":1}')
    store.write('{"a":1}')
    disk.failNextFsync = true
    expect(() => store.flush()).toThrow('EIO')
    expect(readFileSync(join(dataDir, 'current.jsonl'), 'utf8')).toBe('{"header":1}')
    store.append('{"b":2}')
    expect(readFileSync(join(dataDir, 'current.jsonl'), 'utf8')).toBe('{"header":1}\n{"b":2}\n')
    store.close()
  })

  it('is one line: a second line is not written while one waits for its flush', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-flush-'))
    const store = journalIn(dataDir)
    writeFileSync(join(dataDir, 'current.jsonl'), '{"header":1}\n')
    store.write('{"a":1}')
    expect(() => store.write('{"b":2}')).toThrow('still waiting')
    store.flush()
    store.write('{"b":2}')
    store.flush()
    expect(readFileSync(join(dataDir, 'current.jsonl'), 'utf8')).toBe('{"header":1}\n{"a":1}\n{"b":2}\n')
    store.close()
  })

  it('is not an undo to the computer player: its own move failed, it plays again; a person’s failed, it stops thinking', async () => {
    const { session } = newSession(undefined, { computer: { delayMs: COMPUTER_PAUSE_MS, random: () => 0.5 } })
    expect(session.newGame({ game: 'four-plus', players: ['Robo', 'Ann'], computers: [0] })).toEqual({ ok: true })
    // The computer's own throw fails to flush: it is refused, and the computer throws again.
    disk.failNextFsync = true
    await waitFor(() => session.snapshot(true).message?.text.startsWith('The disk reported an error') === true, 'the refusal')
    expect(session.currentGame!.moves).toHaveLength(0)
    await waitFor(() => session.currentGame!.moves.length === 1, 'the computer’s throw, again')
    expect(session.snapshot(true).current?.thinking?.text ?? '').not.toContain('undo')

    // Ann's throw fails: the computer, due next for a moment, is not left thinking.
    const annToThrow = (): boolean => session.snapshot(true).current?.offer.toPlay === 1 && session.snapshot(true).current!.offer.diceDue > 0
    await waitFor(annToThrow, 'Ann to throw')
    const before = session.currentGame!.moves.length
    disk.failNextFsync = true
    expect(session.submit({ roll: [2, 2, 3, 3] })).toMatchObject({ ok: false })
    expect(session.currentGame!.moves).toHaveLength(before)
    expect(annToThrow()).toBe(true)
    expect(session.snapshot(true).current?.thinking).toBeNull()
    // Had the computer taken its turn, it would have once its pause was over: a timer of the same
    // length set now fires after one it set then (Node runs timers of one length in order).
    await new Promise((resolve) => setTimeout(resolve, COMPUTER_PAUSE_MS))
    expect(session.currentGame!.moves).toHaveLength(before)
  })

  it('keeps its refusal as the message when smart dice were in the game (no "Entered by hand" after it)', async () => {
    const r: Rig = await rig({ speed: 0.03 })
    cleanups.push(() => r.close())
    r.session.newGame({ game: 'four-plus', players: ['Ann', 'Bob'] })
    disk.failNextFsync = true
    for (const key of ['2', '3', '5', '6'] as const) r.session.keypad(key)
    expect(r.session.keypad('Enter')).toMatchObject({ ok: false })
    // The smart dice's note on a throw typed by hand comes in a microtask after it: a turn of the event loop is after that.
    await new Promise((resolve) => setImmediate(resolve))
    expect(r.session.snapshot(true).message?.text).toBe('The disk reported an error: the roll was not taken. Check the disk and enter it again.')
    expect(r.session.currentGame!.moves).toHaveLength(0)
    // With the disk well again, the same entry is taken and noted.
    for (const key of ['2', '3', '5', '6', 'Enter'] as const) r.session.keypad(key)
    await waitFor(() => /Entered by hand: 2 3 5 6/.test(r.session.snapshot(true).message?.text ?? ''), 'the keypad note')
  })
})
