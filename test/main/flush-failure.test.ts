// A move is shown while its line is flushed to the disk; a disk that fails the flush (an I/O
// error at fsync) gets the move taken back: the line is cut off again, and the screens are told.
import * as fs from 'node:fs'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { RecordStore } from '../../src/main/core/record-store'
import { SettingsStore } from '../../src/main/core/settings'
import { TableSession } from '../../src/main/core/table-session'
import type { TableState } from '../../src/shared/api'

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

describe('a move whose line the disk fails to flush', () => {
  it('is shown, then taken back with the reason, and the record keeps only the lines before it', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-flush-'))
    const session = new TableSession({ store: new RecordStore(dataDir), settings: new SettingsStore(dataDir) })
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
    const resumed = new TableSession({ store: new RecordStore(dataDir), settings: new SettingsStore(dataDir) })
    expect(resumed.snapshot(true).current?.summary).toEqual(session.snapshot(true).current?.summary)
  })
})
