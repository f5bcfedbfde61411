// A real full disk and a real read-only disk (tmpfs, mounted by the test: root is needed), and
// records damaged in the middle: nothing acknowledged is lost, nothing refused is half-done, and
// the host starts in any case.
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { RecordJournal } from '@main/core/game/record-journal'
import { openTable, type TestTable } from '@test/kit/table'
import { fillDisk, mountTmpfs, movesOnDisk, randomMove, remount, underAnotherStart, unmountTmpfs } from '@test/faults/support'
import { seededRandom } from '@shared/random-play'

const mounted: string[] = []
const stores: RecordJournal[] = []
afterEach(() => {
  closeStores()
  while (mounted.length) unmountTmpfs(mounted.pop()!)
})

/** As when the host stops: its files are closed (a disk with a file open for writing cannot turn read-only). */
function closeStores(): void {
  while (stores.length) stores.pop()!.close()
}

function tmpfs(size = 64 * 1024): string {
  const dir = mountTmpfs(size)
  mounted.push(dir)
  return dir
}

function openSession(dataDir: string, seed = 1): TestTable {
  const random = seededRandom(seed)
  const session = openTable({ dataDir, clockFrom: 1_700_000_000_000, rollDie: () => 1 + Math.floor(random() * 6) })
  stores.push(session.journal)
  return session
}

/** Plays `count` random legal moves; returns them as the record writes them. */
function play(session: TestTable, count: number, random: () => number): string[] {
  const played: string[] = []
  for (let i = 0; i < count; i++) {
    const move = randomMove(session.currentGame!, random)
    if (move === null) break
    expect(session.submit(move)).toEqual({ ok: true })
    played.push(JSON.stringify(move))
  }
  return played
}

function setAside(dataDir: string): string[] {
  return readdirSync(dataDir).filter((name) => name.startsWith('unreadable-') && name.endsWith('.jsonl'))
}

describe('a full disk', () => {
  it('takes a move only when its whole line is on disk, and never writes after half a line', () => {
    const dir = tmpfs()
    const random = seededRandom(7)
    const session = openSession(dir)
    session.newGame({ game: 'farkle', players: ['Ann', 'Bob', 'Cy'], rules: { target: 1_000_000 } })
    const acknowledged = play(session, 5, random)
    const filler = fillDisk(dir)
    let refused = 0
    for (let i = 0; i < 2000 && refused < 3; i++) {
      const move = randomMove(session.currentGame!, random)!
      const outcome = session.submit(move)
      if (outcome.ok) {
        acknowledged.push(JSON.stringify(move))
        continue
      }
      refused++
      expect(outcome.error).toMatch(/^The disk is full: the (roll|keep|bank) was not taken\. Free some space and enter it again\.$/)
      // The refused line was cut off again: the file ends with the last acknowledged line.
      expect(readFileSync(join(dir, 'current.jsonl'), 'utf8').endsWith('\n')).toBe(true)
      expect(movesOnDisk(join(dir, 'current.jsonl'))).toEqual(acknowledged)
    }
    expect(refused).toBe(3)
    expect(session.snapshot(true).current?.moveCount).toBe(acknowledged.length)

    rmSync(filler)
    acknowledged.push(...play(session, 5, random))
    const reopened = openSession(dir)
    expect(reopened.snapshot(true).current?.moveCount).toBe(acknowledged.length)
    expect(movesOnDisk(join(dir, 'current.jsonl'))).toEqual(acknowledged)
    expect(setAside(dir)).toEqual([])
  })

  it('starts a new game, imports or closes one all or nothing, and says why not in plain words', async () => {
    const dir = tmpfs()
    const random = seededRandom(3)
    const session = openSession(dir)
    session.newGame({ game: 'farkle', players: ['Ann', 'Bob'] })
    const acknowledged = play(session, 6, random)
    const exported = await session.exportRecord()
    if (!exported.ok) throw new Error(exported.error)
    const filler = fillDisk(dir)

    expect(session.newGame({ game: 'four-plus', players: ['Cy', 'Di'] })).toEqual({
      ok: false,
      error: 'The disk is full: the new game was not started. Free some space and try again.'
    })
    expect(await session.importRecord(underAnotherStart(exported.record))).toEqual({
      ok: false,
      error: 'The disk is full: the record was not imported. Free some space and try again.'
    })
    // Nothing changed: the same game is live and recorded in the same file, the history is empty.
    expect(session.snapshot(true).current).toMatchObject({ game: 'farkle', moveCount: acknowledged.length })
    expect(session.listHistory()).toEqual([])
    expect(readdirSync(join(dir, 'history')).filter((name) => name !== 'index.jsonl')).toEqual([])
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([])

    rmSync(filler)
    acknowledged.push(...play(session, 2, random))
    expect(movesOnDisk(join(dir, 'current.jsonl'))).toEqual(acknowledged)
    expect(session.newGame({ game: 'four-plus', players: ['Cy', 'Di'] })).toEqual({ ok: true })
    const history = session.listHistory()
    expect(history).toHaveLength(1)
    expect(history[0]).toMatchObject({ game: 'farkle', moves: acknowledged.length })
    expect(movesOnDisk(join(dir, 'history', `${history[0].id}.jsonl`))).toEqual(acknowledged)
  })

  it('closes a game into the history on a full disk (a rename), and indexes it once there is room', () => {
    const dir = tmpfs()
    const session = openSession(dir)
    session.newGame({ game: 'four-plus', players: ['Ann', 'Bob'] })
    play(session, 3, seededRandom(5))
    const filler = fillDisk(dir)
    expect(session.abandon()).toEqual({ ok: true })
    expect(session.listHistory()).toHaveLength(1)
    rmSync(filler)
    expect(session.listHistory()).toHaveLength(1)
    expect(readFileSync(join(dir, 'history', 'index.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(1)
    expect(openSession(dir).listHistory()).toHaveLength(1)
  })
})

describe('a saved game that needs repair', () => {
  it('resumes up to a bad line in the middle, keeps the rest aside, and says so', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dice-referee-repair-'))
    const session = openSession(dir)
    session.newGame({ game: 'foursies', players: ['Ann', 'Bob', 'Cy'] })
    const kept = play(session, 4, seededRandom(11))
    const deep = `{"roll":[1,${'['.repeat(10_000)}${']'.repeat(10_000)}]}\n`
    const rest = `${deep}{"roll":[1,2,3,4]}\n{"end":true}\n`
    appendFileSync(join(dir, 'current.jsonl'), rest)
    const resumed = openSession(dir)
    expect(resumed.snapshot(true).current?.moveCount).toBe(4)
    expect(resumed.snapshot(true).message?.text).toMatch(
      /^Line 6 of the saved game could not be read \(the line nests lists or objects more than 64 levels deep\)\. The game resumes before it, after 4 moves; that line and the ones after it were kept in .*unreadable-/
    )
    expect(movesOnDisk(join(dir, 'current.jsonl'))).toEqual(kept)
    expect(setAside(dir).map((name) => readFileSync(join(dir, name), 'utf8'))).toEqual([rest])
  })

  it('puts the next line on a line of its own when the saved game lacks its last line end', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dice-referee-repair-'))
    writeFileSync(join(dir, 'current.jsonl'), '{"game":"four-plus","players":["Ann","Bob"]}\n{"roll":[3,3,3,2]}')
    const session = openSession(dir)
    expect(session.submit({ roll: [5, 5, 2, 6] })).toEqual({ ok: true })
    expect(movesOnDisk(join(dir, 'current.jsonl'))).toEqual(['{"roll":[3,3,3,2]}', '{"roll":[5,5,2,6]}'])
  })

  it('starts on a read-only disk, says it is read-only, and repairs once it can be written', () => {
    const dir = tmpfs()
    const random = seededRandom(13)
    const session = openSession(dir)
    session.newGame({ game: 'foursies', players: ['Ann', 'Bob', 'Cy'] })
    const kept = play(session, 4, random)
    const rest = '{"roll":[9,9,9,9]}\n{"roll":[1,2,3,4]}\n{"roll":[5,5'
    appendFileSync(join(dir, 'current.jsonl'), rest)
    closeStores()
    remount(dir, 'ro')

    const resumed = openSession(dir)
    expect(resumed.snapshot(true).current?.moveCount).toBe(4)
    const message = resumed.snapshot(true).message?.text ?? ''
    expect(message).toContain('Line 6 of the saved game could not be read')
    expect(message).toContain('The data folder is read-only: moves cannot be saved until it can be written')
    expect(message).not.toContain('room')
    const move = randomMove(resumed.currentGame!, random)!
    expect(resumed.submit(move).ok).toBe(false)
    expect(resumed.snapshot(true).message?.text).toMatch(
      /^The data folder is read-only: the \w+ was not taken\. Make it writable \(or start with another data folder\) and enter it again\.$/
    )
    expect(resumed.newGame({ game: 'farkle', players: ['Ann', 'Bob'] })).toEqual({
      ok: false,
      error: 'The data folder is read-only: the new game was not started. Make it writable (or start with another data folder) and try again.'
    })
    expect(resumed.snapshot(true).current?.moveCount).toBe(4)

    remount(dir, 'rw')
    expect(resumed.submit(move)).toEqual({ ok: true })
    expect(movesOnDisk(join(dir, 'current.jsonl'))).toEqual([...kept, JSON.stringify(move)])
    expect(setAside(dir).map((name) => readFileSync(join(dir, name), 'utf8'))).toEqual([rest])
    expect(openSession(dir).snapshot(true).current?.moveCount).toBe(5)
  })

  it('starts on a read-only disk whose game cannot be read at all, and keeps it', () => {
    const dir = tmpfs()
    writeFileSync(join(dir, 'current.jsonl'), '{"game":"chess"}\n')
    remount(dir, 'ro')
    const session = openSession(dir)
    expect(session.snapshot(true).current).toBeNull()
    expect(session.snapshot(true).message?.text).toContain('The data folder is read-only')
    expect(session.newGame({ game: 'farkle', players: ['Ann', 'Bob'] }).ok).toBe(false)
    remount(dir, 'rw')
    expect(session.newGame({ game: 'farkle', players: ['Ann', 'Bob'] })).toEqual({ ok: true })
    expect(setAside(dir).map((name) => readFileSync(join(dir, name), 'utf8'))).toEqual(['{"game":"chess"}\n'])
    expect(existsSync(join(dir, 'current.jsonl'))).toBe(true)
  })
})
