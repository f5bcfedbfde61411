import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { recordText } from '@shared/game'
import type { RecordJournal } from '@main/core/game/record-journal'
import { openTable as openKitTable, type TestTable } from '@test/kit/table'

function openTable(dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-undo-'))): { session: TestTable; store: RecordJournal; dataDir: string } {
  const session = openKitTable({ dataDir })
  return { session, store: session.journal, dataDir }
}

const HEADER = '{"game":"farkle","players":["Ann","Bob"],"rules":{"entry":0}}'
const TURN = ['{"roll":[1,1,1,5,2,3]}', '{"keep":[1,1,1]}', '{"bank":true}']

describe('undo', () => {
  it('cuts the last line off a long record instead of writing the record again', () => {
    const { session, store, dataDir } = openTable()
    session.newGame({ game: 'farkle', players: ['Ann', 'Bob'], rules: { entry: 0 } })
    for (let turn = 0; turn < 200; turn++) {
      // 50 points a turn: the game is far from its end after 600 lines.
      expect(session.submit({ roll: [1, 1, 1, 5, 2, 3] })).toEqual({ ok: true })
      expect(session.submit({ keep: [5] })).toEqual({ ok: true })
      expect(session.submit({ bank: true })).toEqual({ ok: true })
    }
    const path = join(dataDir, 'current.jsonl')
    const file = statSync(path).ino
    const rewrite = vi.spyOn(store, 'replaceCurrent')
    for (let i = 0; i < 5; i++) {
      expect(session.undo()).toEqual({ ok: true })
      expect(readFileSync(path, 'utf8')).toBe(recordText(session.currentGame!))
    }
    expect(session.currentGame!.moves).toHaveLength(595)
    expect(rewrite).not.toHaveBeenCalled()
    // The same file, cut: nothing was written aside and renamed over it.
    expect(statSync(path).ino).toBe(file)
    // And the game plays on from there, its next line after the cut.
    expect(session.submit({ keep: [5] })).toEqual({ ok: true })
    expect(readFileSync(path, 'utf8')).toBe(recordText(session.currentGame!))
  })

  it('cuts a line that ends in CRLF, as a record from elsewhere may', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-undo-'))
    writeFileSync(join(dataDir, 'current.jsonl'), [HEADER, ...TURN].map((line) => `${line}\r\n`).join(''))
    const { session } = openTable(dataDir)
    expect(session.undo()).toEqual({ ok: true })
    expect(readFileSync(join(dataDir, 'current.jsonl'), 'utf8')).toBe([HEADER, ...TURN.slice(0, 2)].map((line) => `${line}\r\n`).join(''))
  })

  it('writes the record again when it does not end with the line taken back (blank lines at the end)', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-undo-'))
    writeFileSync(join(dataDir, 'current.jsonl'), `${[HEADER, ...TURN].join('\n')}\n\n\n`)
    const { session, store } = openTable(dataDir)
    const rewrite = vi.spyOn(store, 'replaceCurrent')
    expect(session.undo()).toEqual({ ok: true })
    expect(rewrite).toHaveBeenCalledTimes(1)
    expect(readFileSync(join(dataDir, 'current.jsonl'), 'utf8')).toBe(`${[HEADER, ...TURN.slice(0, 2)].join('\n')}\n`)
  })
})
