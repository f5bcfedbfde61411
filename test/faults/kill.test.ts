// Fault suite: kill -9 of the real headless host at random moments (while it starts and resumes,
// while moves, undos and new games are being saved), then a restart on the same data folder.
// Counts every acknowledged move lost, every move doubled, and every start that failed.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { replayText } from '../../src/shared/game'
import { randomMoveIn, Screen, spawnHost } from './host-client'
import { seeded } from './support'

const KILLS = 110

type InFlight = { kind: 'move'; move: string } | { kind: 'undo' } | { kind: 'new' } | null

function movesOnDisk(dataDir: string): string[] | null {
  const path = join(dataDir, 'current.jsonl')
  if (!existsSync(path)) return []
  const replayed = replayText(readFileSync(path, 'utf8'), { tolerateTruncatedTail: true })
  return replayed.ok ? replayed.game.moves.map((recorded) => JSON.stringify(recorded.move)) : null
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i])
}

describe('fault suite: kill -9', () => {
  it(`loses and doubles nothing acknowledged over ${KILLS} kills of the real host`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-kill-'))
    const random = seeded(9)
    const counts = { kills: 0, killedWhileStarting: 0, acknowledged: 0, lost: 0, doubled: 0, crashed: 0, inFlightTaken: 0 }
    let acknowledged: string[] = []
    let historyMoves: number[] = []
    let inFlight: InFlight = null
    const started = performance.now()

    for (let round = 0; round <= KILLS; round++) {
      const host = spawnHost(dataDir)
      const early = round < KILLS && random() < 0.15
      if (early) {
        // Killed while it starts: reading, repairing and resuming the record.
        await new Promise((resolve) => setTimeout(resolve, random() * 600))
        await host.kill()
        counts.kills++
        counts.killedWhileStarting++
        continue
      }
      let url: string
      try {
        url = await host.ready
      } catch {
        counts.crashed++
        continue
      }
      const screen = await Screen.open(url)
      // What the restarted host shows must be what was acknowledged (give or take the request in flight).
      const disk = movesOnDisk(dataDir)
      const listed = (await screen.call('listHistory')) as { result?: { games?: { id: string; moves: number }[] } }
      const history = listed.result?.games ?? []
      const archived = history.filter((entry) => entry.id !== 'current').map((entry) => entry.moves).reverse()
      if (disk === null || screen.state?.message?.level === 'error' || readdirSync(dataDir).some((name) => name.startsWith('unreadable-'))) {
        counts.crashed++
      } else if (inFlight?.kind === 'new' && disk.length === 0 && sameList(archived.map(String), [...historyMoves, acknowledged.length].map(String))) {
        historyMoves = archived
        acknowledged = []
        counts.inFlightTaken++
      } else if (inFlight?.kind === 'move' && sameList(disk, [...acknowledged, inFlight.move])) {
        acknowledged = disk
        counts.inFlightTaken++
      } else if (inFlight?.kind === 'undo' && sameList(disk, acknowledged.slice(0, -1))) {
        acknowledged = disk
        counts.inFlightTaken++
      } else if (!sameList(disk, acknowledged) || !sameList(archived.map(String), historyMoves.map(String))) {
        const common = disk.findIndex((move, i) => move !== acknowledged[i])
        const prefix = common < 0 ? Math.min(disk.length, acknowledged.length) : common
        counts.lost += acknowledged.length - prefix
        counts.doubled += Math.max(0, disk.length - prefix - (inFlight?.kind === 'move' ? 1 : 0))
        counts.lost += Math.max(0, historyMoves.length - archived.length)
        counts.doubled += Math.max(0, archived.length - historyMoves.length)
        acknowledged = disk
        historyMoves = archived
      }
      if (screen.state?.current?.moveCount !== undefined && screen.state.current.moveCount !== acknowledged.length) counts.crashed++
      inFlight = null
      if (round === KILLS) {
        screen.close()
        await host.kill()
        break
      }

      // Play until the kill, which comes at a random moment.
      let killed = false
      const killAt = 20 + random() * 400
      const killer = setTimeout(() => {
        killed = true
        void host.kill()
      }, killAt)
      try {
        if (!screen.state?.current) {
          inFlight = { kind: 'new' }
          await screen.outcome('newGame', [{ game: 'farkle', players: ['Ann', 'Bob', 'Cy'], rules: { target: 1_000_000 } }])
          inFlight = null
        }
        while (!killed) {
          const choice = random()
          if (choice < 0.01) {
            inFlight = { kind: 'new' }
            const outcome = await screen.outcome('newGame', [{ game: 'farkle', players: ['Ann', 'Bob', 'Cy'], rules: { target: 1_000_000 } }])
            if (outcome.ok && acknowledged.length > 0) historyMoves.push(acknowledged.length)
            if (outcome.ok) acknowledged = []
          } else if (choice < 0.06 && acknowledged.length > 0) {
            inFlight = { kind: 'undo' }
            const outcome = await screen.outcome('undo')
            if (outcome.ok) acknowledged.pop()
          } else {
            const move = randomMoveIn(screen.state!, random)!
            inFlight = { kind: 'move', move: JSON.stringify(move) }
            const outcome = await screen.outcome('submit', [move])
            if (outcome.ok) {
              acknowledged.push(JSON.stringify(move))
              counts.acknowledged++
            }
          }
          inFlight = null
        }
      } catch {
        // The connection closed under the request: it is the one in flight.
      }
      clearTimeout(killer)
      await host.kill()
      screen.close()
      counts.kills++
    }
    process.stdout.write(
      `kill -9: ${counts.kills} kills of the real host (${counts.killedWhileStarting} while it started) in ${((performance.now() - started) / 1000).toFixed(0)} s; ` +
        `${counts.acknowledged} moves acknowledged, ${counts.inFlightTaken} requests in flight at a kill were found taken; ` +
        `lost ${counts.lost}, doubled ${counts.doubled}, crashed ${counts.crashed}\n`
    )
    expect(counts.kills).toBeGreaterThanOrEqual(100)
    expect(counts).toMatchObject({ lost: 0, doubled: 0, crashed: 0 })
  }, 600_000)
})
