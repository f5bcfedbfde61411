// Fault suite: the real headless host (`npm run table`) started on data folders it cannot write or
// that were damaged by hand: read-only, a full disk, `logs` a file, a read-only `logs` folder, a
// folder where the lock file goes, a folder copied with `cp -rL`, a file for a folder. Each must
// start, show the games it finds, say plainly what is wrong and what to do (standard error and the
// screens), take a move where it can write and refuse it with those words where it cannot.
// Counts starts that failed, moves lost or doubled, and wrong or missing words.
import { execFileSync } from 'node:child_process'
import { lstatSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openTable } from '../kit/table'
import { spawnHost } from '@test/kit/host'
import { ScreenClient } from '@test/kit/screen-client'
import { fillDisk, mountTmpfs, movesOnDisk, remount, unmountTmpfs } from './support'

const mounts: string[] = []
afterAll(() => {
  while (mounts.length) {
    const mount = mounts.pop()!
    if (mount.endsWith('logs')) execFileSync('umount', [mount])
    else unmountTmpfs(mount)
  }
})

const MOVES = [{ roll: [2, 3, 5, 6] }, { roll: [2, 3, 5, 6] }, { roll: [2, 3, 5, 6] }]

/** A data folder with a 4-PLU$ game of three throws on the table and one game in the history, as a host leaves it. */
async function furnish(dataDir: string): Promise<void> {
  const session = openTable({ dataDir })
  session.newGame({ game: 'four-plus', players: ['Ann', 'Bob'] })
  for (const move of MOVES) expect(session.submit(move)).toEqual({ ok: true })
  session.abandon()
  session.newGame({ game: 'four-plus', players: ['Ann', 'Bob'] })
  for (const move of MOVES) expect(session.submit(move)).toEqual({ ok: true })
  await session.stop()
}

interface Case {
  name: string
  /** Makes the folder (furnished) as the fault leaves it; returns the folder to start on. */
  make(): Promise<string>
  /** What standard error and the screens must say. */
  says: RegExp | null
  /** Whether a move can be saved there. */
  writable: boolean
  /** After the run, what the folder must show (a link made again...). */
  after?(dataDir: string): void
}

function tmpfs(size: number): string {
  const dir = mountTmpfs(size)
  mounts.push(dir)
  return dir
}

const CASES: Case[] = [
  {
    name: 'a read-only data folder',
    make: async () => {
      const dir = tmpfs(1024 * 1024)
      await furnish(dir)
      remount(dir, 'ro')
      return dir
    },
    says: /The data folder is read-only: the games in .+ are shown, but nothing can be saved\. Make it writable \(or use another data folder\) and start the app again\./,
    writable: false
  },
  {
    name: 'a full disk',
    make: async () => {
      const dir = tmpfs(512 * 1024)
      await furnish(dir)
      fillDisk(dir)
      return dir
    },
    says: /The disk is full: the games in .+ are shown, but nothing can be saved\. Free some space and start the app again\./,
    writable: false
  },
  {
    name: '`logs` a file',
    make: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'dice-referee-start-'))
      await furnish(dir)
      writeFileSync(join(dir, 'logs'), 'a file where the log folder goes')
      return dir
    },
    says: /The log cannot be kept in .+logs \(logs in the data folder is not a folder: move it away, and start the app again\)\. The games are not affected\./,
    writable: true
  },
  {
    name: 'a read-only `logs` folder',
    make: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'dice-referee-start-'))
      await furnish(dir)
      mkdirSync(join(dir, 'logs'))
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,ro', 'tmpfs', join(dir, 'logs')])
      mounts.push(join(dir, 'logs'))
      return dir
    },
    says: /The log cannot be kept in .+logs \(it is read-only: make it writable, and start the app again\)\. The games are not affected\./,
    writable: true
  },
  {
    name: 'a folder where the lock file goes',
    make: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'dice-referee-start-'))
      await furnish(dir)
      mkdirSync(join(dir, 'dice-referee.lock'))
      return dir
    },
    says: /dice-referee\.lock in the data folder is a folder, not the app's lock file: the games in .+ are shown, but nothing can be saved\. Remove that folder \(.+\) and start the app again\./,
    writable: false
  },
  {
    name: 'a folder copied with `cp -rL` (current.log a plain file)',
    make: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'dice-referee-start-'))
      await furnish(dir)
      mkdirSync(join(dir, 'logs'))
      writeFileSync(join(dir, 'logs', 'dice-referee.1.log'), '{"msg":"before"}\n')
      writeFileSync(join(dir, 'logs', 'current.log'), '{"msg":"before"}\n')
      return dir
    },
    says: null,
    writable: true,
    after: (dir) => expect(lstatSync(join(dir, 'logs', 'current.log')).isSymbolicLink()).toBe(true)
  },
  {
    name: 'a file for a data folder',
    make: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'dice-referee-start-'))
      writeFileSync(join(dir, 'games'), 'not a folder')
      return join(dir, 'games')
    },
    says: /The data folder .+games is not a folder: the games in .+ are shown, but nothing can be saved\. Move what is there away \(or use another data folder\) and start the app again\./,
    writable: false
  }
]

describe('fault suite: the host started on data folders it cannot write', () => {
  it(`starts on each of ${CASES.length} bad folders, shows the games, and says what is wrong and what to do`, async () => {
    const counts = { starts: 0, failedToStart: 0, lost: 0, doubled: 0, wrongWords: 0, refusedWhereWritable: 0, takenWhereReadOnly: 0 }
    const started = performance.now()
    for (const fault of CASES) {
      const dataDir = await fault.make()
      const before = movesOnDisk(join(dataDir, 'current.jsonl')).length
      const host = spawnHost(dataDir)
      let url: string
      try {
        url = await host.ready
        counts.starts++
      } catch {
        counts.failedToStart++
        process.stdout.write(`${fault.name}: did not start:\n${host.output()}\n`)
        continue
      }
      const screen = await ScreenClient.open(url)
      const told = screen.state?.message?.text ?? ''
      const wordsRight = fault.says === null ? !/cannot|read-only|damaged/.test(host.output()) : fault.says.test(host.output()) && fault.says.test(told)
      if (!wordsRight) {
        counts.wrongWords++
        process.stdout.write(`${fault.name}: said ${JSON.stringify(told)}; standard error:\n${host.output()}\n`)
      }
      // The games are shown as they are: the game on the table and the history.
      const shown = screen.state?.current?.moveCount ?? 0
      counts.lost += Math.max(0, before - shown)
      counts.doubled += Math.max(0, shown - before)
      const history = await screen.call('listHistory')
      if (before > 0 && (!history.ok || history.games.length !== 1)) counts.lost++
      // A move: taken where the folder can be written, refused with the reason where it cannot.
      const outcome = before > 0 ? await screen.call('submit', { roll: [2, 3, 5, 6] }) : await screen.call('newGame', { game: 'four-plus', players: ['Ann', 'Bob'] })
      if (fault.writable && !outcome.ok) counts.refusedWhereWritable++
      if (!fault.writable && outcome.ok) counts.takenWhereReadOnly++
      if (!fault.writable && !outcome.ok && !/start the app again, then (enter it again|try again)\.$/.test(outcome.error)) counts.wrongWords++
      screen.close()
      await host.stop('SIGKILL')
      const after = fault.writable ? before + 1 : before
      if (movesOnDisk(join(dataDir, 'current.jsonl')).length !== after) counts.lost++
      fault.after?.(dataDir)
    }
    process.stdout.write(
      `bad data folders: ${CASES.length} kinds (${CASES.map((fault) => fault.name).join('; ')}) in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
        `${counts.starts} started, ${counts.failedToStart} failed to start; lost ${counts.lost}, doubled ${counts.doubled}, ` +
        `wrong or missing words ${counts.wrongWords}, a move refused where it could be saved ${counts.refusedWhereWritable}, taken where it could not ${counts.takenWhereReadOnly}\n`
    )
    expect(counts).toEqual({ starts: CASES.length, failedToStart: 0, lost: 0, doubled: 0, wrongWords: 0, refusedWhereWritable: 0, takenWhereReadOnly: 0 })
  }, 180_000)
})
