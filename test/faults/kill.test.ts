// Fault suite: kill -9 of the real headless host at random moments (while it starts and resumes,
// while moves, undos, new games, resumes from the history and the player list's renames and
// colours are being saved), then a restart on the same data folder. Counts every acknowledged
// move (and colour) lost, every move or game doubled, every start that failed, and every restart
// that found the folder inconsistent: a draft left behind (`*.tmp`), a damaged file kept aside, a
// game the history lists that does not open.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { replayText } from '@shared/game'
import { spawnHost } from '@test/kit/host'
import { randomMoveIn } from './random-move'
import { ScreenClient } from '@test/kit/screen-client'
import { seededRandom } from '@shared/random-play'

const KILLS = 110

type InFlight =
  | { kind: 'move'; move: string }
  | { kind: 'undo' }
  | { kind: 'new' }
  /** A resume of a history game, whose moves are `moves`. */
  | { kind: 'resume'; moves: string[] }
  | { kind: 'colour'; colour: string }
  | { kind: 'rename' }
  | null

/** What a restart must not find: drafts a crash left, damaged files kept aside, records set aside. */
function leftovers(dataDir: string): string[] {
  const found: string[] = []
  for (const folder of ['', 'history', 'trash']) {
    if (!existsSync(join(dataDir, folder))) continue
    for (const name of readdirSync(join(dataDir, folder))) {
      if (name.endsWith('.tmp') || name.includes('.damaged-') || name.startsWith('unreadable-')) found.push(join(folder, name))
    }
  }
  return found
}

function movesOf(record: string): string[] {
  const replayed = replayText(record, { tolerateTruncatedTail: true })
  return replayed.ok ? replayed.game.moves.map((recorded) => JSON.stringify(recorded.move)) : []
}

function sameCounts(a: number[], b: number[]): boolean {
  return sameList([...a].sort((x, y) => x - y).map(String), [...b].sort((x, y) => x - y).map(String))
}

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
    const random = seededRandom(9)
    const counts = { kills: 0, killedWhileStarting: 0, acknowledged: 0, resumes: 0, peopleEdits: 0, lost: 0, doubled: 0, crashed: 0, inconsistent: 0, inFlightTaken: 0 }
    let acknowledged: string[] = []
    let historyMoves: number[] = []
    /** Bob's colour as last acknowledged; Cy's name now (renamed to and fro). */
    let colour: string | null = null
    let cyName = 'Cy'
    let inFlight: InFlight = null
    const started = performance.now()

    for (let round = 0; round <= KILLS; round++) {
      const host = spawnHost(dataDir)
      const early = round < KILLS && random() < 0.15
      if (early) {
        // Killed while it starts: reading, repairing and resuming the record.
        await new Promise((resolve) => setTimeout(resolve, random() * 600))
        await host.stop('SIGKILL')
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
      const screen = await ScreenClient.open(url)
      // What the restarted host shows must be what was acknowledged (give or take the request in flight).
      const disk = movesOnDisk(dataDir)
      const listed = await screen.call('listHistory')
      const history = listed.ok ? listed.games : []
      const archived = history.filter((entry) => entry.id !== 'current').map((entry) => entry.moves).reverse()
      // A consistent folder: no draft or damaged file left, and every game the history lists opens.
      const left = leftovers(dataDir)
      let unopenable = 0
      for (const entry of history.filter((one) => one.id !== 'current')) {
        if (!(await screen.call('openHistory', entry.id)).ok) unopenable++
      }
      if (left.length > 0 || unopenable > 0) {
        if (counts.inconsistent++ === 0) process.stdout.write(`first inconsistent folder: ${left.join(', ')}; ${unopenable} listed games do not open\n`)
      }
      // The player list: Bob's colour as acknowledged (or as in flight), Cy under the name acknowledged.
      const listedPeople = await screen.call('listPeople')
      const people = listedPeople.ok ? listedPeople.people : []
      const bob = people.find((person) => person.name === 'Bob')
      if (colour !== null && bob && bob.colour !== colour) {
        if (inFlight?.kind === 'colour' && bob.colour === inFlight.colour) colour = bob.colour
        else counts.lost++
      }
      if (people.length > 0 && !people.some((person) => person.name === cyName)) {
        const other = cyName === 'Cy' ? 'Cyrus' : 'Cy'
        if (inFlight?.kind === 'rename' && people.some((person) => person.name === other)) cyName = other
        else counts.lost++
      }
      if (disk === null || screen.state?.message?.level === 'error') {
        counts.crashed++
      } else if (inFlight?.kind === 'new' && disk.length === 0 && sameCounts(archived, [...historyMoves, acknowledged.length])) {
        historyMoves = archived
        acknowledged = []
        counts.inFlightTaken++
      } else if (inFlight?.kind === 'move' && sameList(disk, [...acknowledged, inFlight.move])) {
        acknowledged = disk
        counts.inFlightTaken++
      } else if (inFlight?.kind === 'undo' && sameList(disk, acknowledged.slice(0, -1))) {
        acknowledged = disk
        counts.inFlightTaken++
      } else if (inFlight?.kind === 'resume' && sameList(disk, inFlight.moves) && sameCounts(archived, afterResume(historyMoves, inFlight.moves.length, acknowledged.length))) {
        historyMoves = archived
        acknowledged = disk
        counts.inFlightTaken++
      } else if (inFlight?.kind === 'resume' && disk.length === 0 && sameCounts(archived, [...historyMoves, acknowledged.length])) {
        // Stopped after the game on the table went to the history, before the other came out of it: nothing lost.
        historyMoves = archived
        acknowledged = []
        counts.inFlightTaken++
      } else if (!sameList(disk, acknowledged) || !sameCounts(archived, historyMoves)) {
        const common = disk.findIndex((move, i) => move !== acknowledged[i])
        const prefix = common < 0 ? Math.min(disk.length, acknowledged.length) : common
        counts.lost += acknowledged.length - prefix
        counts.doubled += Math.max(0, disk.length - prefix - (inFlight?.kind === 'move' ? 1 : 0))
        counts.lost += Math.max(0, historyMoves.length - archived.length)
        counts.doubled += Math.max(0, archived.length - historyMoves.length)
        if (counts.lost + counts.doubled > 0 && counts.lost + counts.doubled < 3) {
          process.stdout.write(`round ${round}: in flight ${JSON.stringify(inFlight)}; disk ${disk.length} moves, acknowledged ${acknowledged.length}; history ${archived} (expected ${historyMoves})\n`)
        }
        acknowledged = disk
        historyMoves = archived
      }
      if (screen.state?.current?.moveCount !== undefined && screen.state.current.moveCount !== acknowledged.length) counts.crashed++
      inFlight = null
      if (round === KILLS) {
        screen.close()
        await host.stop('SIGKILL')
        break
      }

      // Play until the kill, which comes at a random moment.
      let killed = false
      const killAt = 20 + random() * 400
      const killer = setTimeout(() => {
        killed = true
        void host.stop('SIGKILL')
      }, killAt)
      try {
        if (!screen.state?.current) {
          inFlight = { kind: 'new' }
          await screen.call('newGame', { game: 'farkle', players: ['Ann', 'Bob', cyName], rules: { target: 1_000_000 } })
          inFlight = null
        }
        while (!killed) {
          const choice = random()
          if (choice < 0.01) {
            inFlight = { kind: 'new' }
            const outcome = await screen.call('newGame', { game: 'farkle', players: ['Ann', 'Bob', cyName], rules: { target: 1_000_000 } })
            if (outcome.ok && acknowledged.length > 0) historyMoves.push(acknowledged.length)
            if (outcome.ok) acknowledged = []
          } else if (choice < 0.02 && historyMoves.length > 0) {
            // Resume a game of the history (every one is unfinished: the target is never reached).
            const listedNow = await screen.call('listHistory')
            const games = (listedNow.ok ? listedNow.games : []).filter((entry) => entry.id !== 'current')
            const chosen = games[Math.floor(random() * games.length)]
            if (!chosen) continue
            const opened = await screen.call('openHistory', chosen.id)
            if (!opened.ok) continue
            inFlight = { kind: 'resume', moves: movesOf(opened.game.record) }
            const outcome = await screen.call('resumeHistory', chosen.id)
            if (outcome.ok) {
              historyMoves = afterResume(historyMoves, inFlight.moves.length, acknowledged.length)
              acknowledged = inFlight.moves
              counts.resumes++
            }
          } else if (choice < 0.04) {
            // The player list: Bob's colour, or Cy renamed to and fro (each a rewrite of players.json).
            if (random() < 0.5) {
              const next = `#${Math.floor(random() * 0xffffff).toString(16).padStart(6, '0')}`
              inFlight = { kind: 'colour', colour: next }
              if ((await screen.call('setPersonColour', 'Bob', next)).ok) colour = next
            } else {
              inFlight = { kind: 'rename' }
              const to = cyName === 'Cy' ? 'Cyrus' : 'Cy'
              if ((await screen.call('renamePerson', cyName, to)).ok) cyName = to
            }
            counts.peopleEdits++
          } else if (choice < 0.09 && acknowledged.length > 0) {
            inFlight = { kind: 'undo' }
            const outcome = await screen.call('undo')
            if (outcome.ok) acknowledged.pop()
          } else {
            const move = randomMoveIn(screen.state!, random)!
            inFlight = { kind: 'move', move: JSON.stringify(move) }
            const outcome = await screen.call('submit', move)
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
      await host.stop('SIGKILL')
      screen.close()
      counts.kills++
    }
    process.stdout.write(
      `kill -9: ${counts.kills} kills of the real host (${counts.killedWhileStarting} while it started) in ${((performance.now() - started) / 1000).toFixed(0)} s; ` +
        `${counts.acknowledged} moves acknowledged, ${counts.resumes} resumes from the history, ${counts.peopleEdits} renames and colours; ` +
        `${counts.inFlightTaken} requests in flight at a kill were found taken; ` +
        `lost ${counts.lost}, doubled ${counts.doubled}, crashed ${counts.crashed}, folder inconsistent ${counts.inconsistent}\n`
    )
    expect(counts.kills).toBeGreaterThanOrEqual(100)
    expect(counts.resumes).toBeGreaterThan(0)
    expect(counts.peopleEdits).toBeGreaterThan(0)
    expect(counts).toMatchObject({ lost: 0, doubled: 0, crashed: 0, inconsistent: 0 })
  }, 600_000)
})

/** The history's move counts after resuming a game of `resumed` moves: it leaves, and the game on the table (if it has moves) comes in. */
function afterResume(history: number[], resumed: number, onTable: number): number[] {
  const at = history.indexOf(resumed)
  if (at < 0) return [...history, ...(onTable > 0 ? [onTable] : [])]
  return [...history.slice(0, at), ...history.slice(at + 1), ...(onTable > 0 ? [onTable] : [])]
}
