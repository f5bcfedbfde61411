// One writer per data folder, with real headless hosts (`npm run table`'s entry) on one folder:
// a second host refuses and names the first, the record stays whole, and after kill -9 a new
// host takes the folder over. A host stopped by SIGINT or SIGTERM, at any moment once it holds the
// folder, ends through its own shutdown and gives the folder back. Then the lock itself, in edge cases.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DataFolderInUseError, LOCK_FILE, lockDataFolder } from '@main/core/files/data-lock'
import { replayText } from '@shared/game'
import { startHost, type RunningHost } from '../e2e/support'
import { spawnHost } from '@test/kit/host'
import { ScreenClient } from '@test/kit/screen-client'
import type { MethodArgs, MethodName, MethodResult } from '@shared/api-methods'

/** Calls one API method over the host's WebSocket, as a screen that comes and goes. */
async function callHost<M extends MethodName>(host: RunningHost, method: M, ...args: MethodArgs<M>): Promise<MethodResult<M>> {
  const screen = await ScreenClient.open(host.url)
  try {
    return await screen.call(method, ...args)
  } finally {
    screen.close()
  }
}

interface HostEnd {
  code: number | null
  signal: NodeJS.Signals | null
  output: string
}

/** Runs a host to its end (one that refuses the folder exits at once); `watch` sees the process and each new output. */
function runHost(dataDir: string, watch: (child: ChildProcess, output: string) => void = () => {}): Promise<HostEnd> {
  const host = spawnHost(dataDir, { onOutput: (output) => watch(host.child, output) })
  watch(host.child, '')
  const timer = setTimeout(() => void host.stop('SIGKILL'), 60_000)
  return host.exited.then(({ code, signal }) => {
    clearTimeout(timer)
    return { code, signal, output: host.output() }
  })
}

/** A 4-PLU$ throw that scores nothing and ends nothing (random dice could end the game: four 1s). */
const PLAIN_THROW = { roll: [2, 3, 5, 6] }

function recordOf(dataDir: string): string {
  return readFileSync(join(dataDir, 'current.jsonl'), 'utf8')
}

describe('two headless hosts on one data folder', () => {
  it('the second refuses naming the first; the record stays whole; after kill -9 a new host takes over', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-lock-'))
    const first = await startHost(dataDir)
    try {
      expect(await callHost(first, 'newGame', { game: 'four-plus', players: ['Ann', 'Bob'] })).toEqual({ ok: true })
      expect(await callHost(first, 'submit', PLAIN_THROW)).toEqual({ ok: true })
      const before = recordOf(dataDir)

      const second = await runHost(dataDir)
      expect(second.code).toBe(1)
      expect(second.output).toContain(`is in use by the headless host (npm run table) (process ${first.process.pid} on ${hostname()}, started 20`)
      expect(second.output).not.toMatch(/^\s+at /m)
      expect(recordOf(dataDir)).toBe(before)

      // The first goes on writing alone, and its record replays.
      expect(await callHost(first, 'submit', PLAIN_THROW)).toEqual({ ok: true })
      const written = recordOf(dataDir)
      const replayed = replayText(written)
      expect(replayed.ok).toBe(true)
      const lines = written.trim().split('\n').length

      await first.stop('SIGKILL')
      expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(first.process.pid)
      const third = await startHost(dataDir)
      try {
        expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(third.process.pid)
        const answer = await callHost(third, 'getState')
        if (!answer.ok) throw new Error(answer.error)
        expect(answer.state.message?.text).toBe(`Resumed the game in progress (${lines - 1} moves)`)
        expect(await callHost(third, 'submit', PLAIN_THROW)).toEqual({ ok: true })
        expect(replayText(recordOf(dataDir)).ok).toBe(true)
      } finally {
        await third.stop()
      }
    } finally {
      await first.stop('SIGKILL') // when an assertion failed before it was killed: no host left running
    }
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false)
  })

  it('two hosts starting at once on a folder a crashed host left: exactly one takes it, and gives it back when stopped', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-lock-'))
    const crashed = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
    writeFileSync(join(dataDir, LOCK_FILE), JSON.stringify({ pid: Number(crashed.stdout), host: hostname(), startedAt: new Date().toISOString(), program: 'the desktop app' }))
    const starting = startHost(dataDir)
    let serving: () => void = () => {}
    const servingNow = new Promise<void>((resolve) => (serving = resolve))
    const plain = runHost(dataDir, (_child, output) => {
      if (output.includes('Dice Referee is at')) serving()
    })
    const [started] = await Promise.allSettled([starting])
    const holder = JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')) as { pid: number }
    if (started.status === 'fulfilled') {
      // The host waited for took the folder; the other one refused it, naming the holder.
      const other = await plain
      await started.value.stop('SIGTERM')
      expect(holder.pid).toBe(started.value.process.pid)
      expect(other.code).toBe(1)
      expect(other.output).toContain(`(process ${holder.pid} on`)
      // Stopped as soon as it served: it ended through its own shutdown.
      expect({ code: started.value.process.exitCode, signal: started.value.process.signalCode }).toEqual({ code: 0, signal: null })
    } else {
      // The other one took the folder: the host waited for refused it. The holder is stopped as soon as it serves.
      await servingNow
      process.kill(holder.pid, 'SIGTERM')
      const ended = await plain
      expect(String(started.reason)).toContain(`(process ${holder.pid} on`)
      expect({ code: ended.code, signal: ended.signal }).toEqual({ code: 0, signal: null })
    }
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false)
  })
})

describe('stopping the headless host', () => {
  // Its SIGINT and SIGTERM handlers are in place from before it takes the folder, so a stop at any
  // moment (while it starts, or the moment it says where it is) ends it through its own shutdown:
  // exit code 0, the folder given back. Node's default for these signals kills the process instead,
  // and a killed host leaves its lock file behind.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} the moment it says where it is: it exits with 0 and gives the folder back`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-stop-'))
      let sent = false
      const ended = await runHost(dataDir, (child, output) => {
        if (sent || !output.includes('Dice Referee is at')) return
        sent = child.kill(signal)
      })
      expect(sent).toBe(true)
      expect({ code: ended.code, signal: ended.signal }).toEqual({ code: 0, signal: null })
      expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false)
    })

    it(`${signal} while it starts, once it holds the folder: it exits with 0 and gives the folder back`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-stop-'))
      let watching = false
      let sent = false
      const ended = await runHost(dataDir, (child) => {
        if (watching) return
        watching = true
        // The lock file names this host once it holds the folder: stop it then, whatever it is doing.
        const poll = setInterval(() => {
          try {
            if ((JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')) as { pid: number }).pid !== child.pid) return
          } catch {
            return // not taken yet
          }
          clearInterval(poll)
          sent = child.kill(signal)
        }, 1)
        child.once('exit', () => clearInterval(poll))
      })
      expect(sent).toBe(true)
      expect({ code: ended.code, signal: ended.signal }).toEqual({ code: 0, signal: null })
      expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false)
    })
  }
})

describe('the data-folder lock', () => {
  const folder = () => mkdtempSync(join(tmpdir(), 'dice-referee-lock-unit-'))
  const lockOf = (dir: string) => JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))

  it('names this process as the holder and gives the folder back on release', () => {
    const dir = folder()
    const lock = lockDataFolder(dir, 'a test')
    expect(lockOf(dir)).toEqual({ pid: process.pid, host: hostname(), startedAt: lock.holder.startedAt, program: 'a test' })
    lock.release()
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false)
  })

  it('refuses a folder held on another computer, naming it, and leaves its lock alone', () => {
    const dir = folder()
    const theirs = JSON.stringify({ pid: 4242, host: 'kitchen-pc', startedAt: '2026-11-30T12:00:00.000Z', program: 'the desktop app' })
    writeFileSync(join(dir, LOCK_FILE), theirs)
    expect(() => lockDataFolder(dir, 'a test')).toThrow(DataFolderInUseError)
    expect(() => lockDataFolder(dir, 'a test')).toThrow(
      `is in use by the desktop app (process 4242 on kitchen-pc, started 2026-11-30T12:00:00.000Z)`
    )
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(theirs)
  })

  it('takes over a lock whose process started before this machine booted (its number may be in use again)', () => {
    const dir = folder()
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 1, host: hostname(), startedAt: '2000-01-01T00:00:00.000Z', program: 'the desktop app' }))
    const lock = lockDataFolder(dir, 'a test')
    expect(lockOf(dir).pid).toBe(process.pid)
    lock.release()
  })

  it('refuses a lock held by a live process on this computer', () => {
    const dir = folder()
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 1, host: hostname(), startedAt: new Date().toISOString(), program: 'the desktop app' }))
    expect(() => lockDataFolder(dir, 'a test')).toThrow('(process 1 on')
  })

  it('waits for a takeover another process is making, then refuses naming that process (not the dead one)', () => {
    const dir = folder()
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout)
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: dead, host: hostname(), startedAt: new Date().toISOString(), program: 'the desktop app' }))
    // Another host found the same dead lock first and holds the takeover guard. It swaps the lock
    // for its own only once this one is looking (its draft lock file is there), then lets go.
    mkdirSync(join(dir, `${LOCK_FILE}.takeover`))
    const takingOver = `
      const { readdirSync, renameSync, rmdirSync, writeFileSync } = require('node:fs')
      const [dir, looking] = process.argv.slice(1)
      const lock = dir + '/${LOCK_FILE}'
      const poll = setInterval(() => {
        if (!readdirSync(dir).some((name) => name.startsWith('${LOCK_FILE}.' + looking + '.'))) return
        clearInterval(poll)
        writeFileSync(lock + '.other', JSON.stringify({ pid: process.pid, host: require('node:os').hostname(), startedAt: new Date().toISOString(), program: 'the other host' }))
        renameSync(lock + '.other', lock) // at once: the lock is never missing, so only this process can hold it
        rmdirSync(lock + '.takeover')
      }, 1)
      setTimeout(() => {}, 60_000)`
    const other = spawn(process.execPath, ['-e', takingOver, dir, String(process.pid)], { stdio: 'ignore' })
    try {
      expect(() => lockDataFolder(dir, 'a test')).toThrow(`is in use by the other host (process ${other.pid} on`)
    } finally {
      other.kill('SIGKILL')
    }
  })

  it('takes over a dead lock whose takeover guard was left by a takeover that died', () => {
    const dir = folder()
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 1, host: hostname(), startedAt: '2000-01-01T00:00:00.000Z', program: 'the desktop app' }))
    const guard = join(dir, `${LOCK_FILE}.takeover`)
    mkdirSync(guard)
    const longAgo = new Date(Date.now() - 60_000)
    utimesSync(guard, longAgo, longAgo)
    const lock = lockDataFolder(dir, 'a test')
    expect(lockOf(dir).pid).toBe(process.pid)
    expect(existsSync(guard)).toBe(false)
    lock.release()
  })

  it('takes over a lock file it cannot read, and release leaves a lock that is not its own', () => {
    const dir = folder()
    writeFileSync(join(dir, LOCK_FILE), 'garbage')
    const lock = lockDataFolder(dir, 'a test')
    const someoneElse = JSON.stringify({ pid: 4242, host: 'kitchen-pc', startedAt: '2026-11-30T12:00:00.000Z', program: 'x' })
    writeFileSync(join(dir, LOCK_FILE), someoneElse)
    lock.release()
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(someoneElse)
  })
})
