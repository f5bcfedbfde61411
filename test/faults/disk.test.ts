// Fault suite: a disk that fills up at random moments (a real tmpfs, filled to a random few bytes
// short of full) while moves, undos, new games, imports and closes are saved, with the space freed
// afterwards. Counts what was acknowledged and lost, doubled, or half-done, and every crash.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { RecordJournal } from '@main/core/game/record-journal'
import { openTable, type TestTable } from '../kit/table'
import type { Outcome } from '@shared/api'
import { fillDiskLeaving, mountTmpfs, movesOnDisk, randomMove, underAnotherStart, unmountTmpfs } from './support'
import { seededRandom } from '@shared/random-play'

const ROUNDS = 80
const OPERATIONS_PER_ROUND = 30
const SETUP = { game: 'farkle' as const, players: ['Ann', 'Bob', 'Cy'], rules: { target: 1_000_000 } }

let dir = ''
afterAll(() => {
  if (dir) unmountTmpfs(dir)
})

describe('fault suite: full disk', () => {
  it(`keeps every acknowledged line and refuses the rest whole, over ${ROUNDS} disk-full episodes`, async () => {
    dir = mountTmpfs(512 * 1024)
    const random = seededRandom(424242)
    let clock = 1_700_000_000_000
    const stores: RecordJournal[] = []
    const open = (): TestTable => {
      const table = openTable({ dataDir: dir, now: () => ++clock, rollDie: () => 1 + Math.floor(random() * 6) })
      stores.push(table.journal)
      return table
    }
    const session = open()
    session.newGame(SETUP)
    let acknowledged: string[] = []
    let history: number[] = []
    const counts = { episodes: 0, operations: 0, acknowledged: 0, refusedForDisk: 0, lost: 0, doubled: 0, halfDone: 0, crashed: 0, wrongWords: 0 }
    const currentMoves = (): string[] => session.currentGame?.moves.map((recorded) => JSON.stringify(recorded.move)) ?? []
    const sameAsAcknowledged = (moves: string[]): boolean => moves.length === acknowledged.length && moves.every((move, i) => move === acknowledged[i])
    const check = (outcome: Outcome): boolean => {
      counts.operations++
      if (outcome.ok) return true
      counts.refusedForDisk++
      if (!/^The disk is full: .+\. Free some space and .+\.$/.test(outcome.error)) counts.wrongWords++
      // Refused: nothing changed, in memory or on disk.
      if (!sameAsAcknowledged(currentMoves()) || !sameAsAcknowledged(movesOnDisk(join(dir, 'current.jsonl')))) counts.halfDone++
      return false
    }

    for (let round = 0; round < ROUNDS; round++) {
      const filler = fillDiskLeaving(dir, Math.floor(random() * 6000))
      counts.episodes++
      for (let i = 0; i < OPERATIONS_PER_ROUND; i++) {
        try {
          const choice = random()
          if (!session.currentGame) {
            if (check(session.newGame(SETUP))) acknowledged = []
          } else if (choice < 0.03) {
            if (check(session.newGame(SETUP))) {
              if (acknowledged.length > 0) history.push(acknowledged.length)
              acknowledged = []
            }
          } else if (choice < 0.05) {
            const exported = await session.exportRecord()
            if (exported.ok && check(await session.importRecord(underAnotherStart(exported.record))) && acknowledged.length > 0) history.push(acknowledged.length)
          } else if (choice < 0.07) {
            if (check(session.abandon())) {
              if (acknowledged.length > 0) history.push(acknowledged.length)
              acknowledged = []
            }
          } else if (choice < 0.15 && acknowledged.length > 0) {
            if (check(session.undo())) acknowledged.pop()
          } else {
            const move = randomMove(session.currentGame, random)!
            if (check(session.submit(move))) {
              acknowledged.push(JSON.stringify(move))
              counts.acknowledged++
            }
          }
        } catch (error) {
          if (counts.crashed++ === 0) process.stdout.write(`first crash: ${(error as Error).stack}\n`)
        }
      }
      rmSync(filler)
      // Space is back: the table plays on at once.
      for (let i = 0; i < 3 && session.currentGame; i++) {
        const move = randomMove(session.currentGame, random)!
        if (session.submit(move).ok) acknowledged.push(JSON.stringify(move))
        else counts.crashed++
      }
      // A restart shows exactly what was acknowledged, and the history holds each closed game once.
      const restarted = open()
      const resumed = restarted.currentGame?.moves.map((recorded) => JSON.stringify(recorded.move)) ?? []
      const common = resumed.findIndex((move, i) => move !== acknowledged[i])
      const prefix = common < 0 ? Math.min(resumed.length, acknowledged.length) : common
      counts.lost += acknowledged.length - prefix
      counts.doubled += resumed.length - prefix
      const archived = restarted.listHistory().filter((entry) => entry.id !== 'current')
      counts.lost += Math.max(0, history.length - archived.length)
      counts.doubled += Math.max(0, archived.length - history.length)
      if ([...archived.map((entry) => entry.moves)].sort().join() !== [...history].sort().join()) counts.halfDone++
      history = archived.map((entry) => entry.moves)
      stores.pop()!.close()
    }
    for (const store of stores) store.close()
    process.stdout.write(
      `full disk: ${counts.episodes} episodes, ${counts.operations} operations, ${counts.acknowledged} moves acknowledged, ` +
        `${counts.refusedForDisk} refused for a full disk (${counts.wrongWords} in other words), ${history.length} games closed into the history; ` +
        `lost ${counts.lost}, doubled ${counts.doubled}, half-done ${counts.halfDone}, crashed ${counts.crashed}\n`
    )
    expect(counts.refusedForDisk).toBeGreaterThan(ROUNDS)
    expect(counts).toMatchObject({ lost: 0, doubled: 0, halfDone: 0, crashed: 0, wrongWords: 0 })
  }, 300_000)
})
