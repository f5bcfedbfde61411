// The log in the core: what the screens are told went wrong (a save the disk refused, a device's
// error) is logged with its time, and a log on a full disk does not take the program down.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { log, startLogging, stopLogging } from '@main/core/files/log'
import { openTable } from '@test/kit/table'
import { waitUntil } from '@test/kit/wait'

const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { level: number; time: string; msg: string; message?: string; i?: number })

const mounts: string[] = []
afterAll(async () => {
  // A mount is busy until the log file on it has closed (stopLogging closes it in the background).
  for (const mount of mounts) await waitUntil(() => execFileSync('umount', [mount], { stdio: 'pipe' }))
})

describe('the log', () => {
  it('logs, with their time, the save the disk refused and a device error the screens were told of', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-log-'))
    const current = (await startLogging({ dataDir, verbose: false, toStandardError: false })).path!
    const session = openTable({ dataDir })
    session.newGame({ game: 'four-plus', players: ['Ann', 'Bob'] })
    const store = session.journal
    store.write = () => {
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })
    }
    expect(session.submit({ roll: [5, 5, 5, 2] })).toMatchObject({ ok: false })
    session.table.notices.post('/dev/ttyACM0: the hub stopped answering', 'error')

    const logged = lines(current).filter((line) => line.level >= 40)
    expect(logged.map((line) => line.message)).toEqual([
      'The disk is full: the roll was not taken. Free some space and enter it again.',
      '/dev/ttyACM0: the hub stopped answering'
    ])
    for (const line of logged) expect(Date.parse(line.time)).toBeGreaterThan(Date.parse('2020-01-01'))
    stopLogging()
  })

  it('rolls the file over at its size and keeps only the newest files', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-log-'))
    const current = (await startLogging({ dataDir, verbose: false, toStandardError: false, rotation: { size: '4k', filesKept: 3 } })).path!
    // Lines logged over time, as a program does: the file rolls over between them.
    for (let i = 0; i < 400; i++) {
      log.info({ i, detail: 'x'.repeat(80) }, 'a line')
      await new Promise((resolve) => setImmediate(resolve))
    }
    const logFiles = (): string[] => readdirSync(join(dataDir, 'logs')).filter((name) => /^dice-referee\.\d+\.log$/.test(name))
    // The old files are removed in the background after each roll-over: until 3 are left.
    const files = await waitUntil(() => {
      const now = logFiles()
      expect(now).toHaveLength(3)
      return now
    })
    stopLogging()
    const numbers = files.map((name) => Number(name.split('.')[1])).sort((a, b) => a - b)
    expect(numbers.length).toBe(3)
    expect(numbers[2]).toBeGreaterThan(5) // 400 lines of ~150 bytes make well over 5 files of 4 kB
    expect(realpathSync(current)).toBe(join(realpathSync(join(dataDir, 'logs')), `dice-referee.${numbers[2]}.log`))
    const last = lines(current).at(-1)!
    expect(last).toMatchObject({ msg: 'a line', i: 399 })
  })

  it('on a full disk (tmpfs) says once that it cannot write, and the program goes on', async () => {
    const mount = mkdtempSync(join(tmpdir(), 'dice-referee-full-'))
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mount])
    mounts.push(mount)
    const dataDir = join(mount, 'data')
    mkdirSync(dataDir)
    const told: string[] = []
    const write = process.stderr.write.bind(process.stderr)
    process.stderr.write = ((chunk: string) => told.push(String(chunk)) > 0) as typeof process.stderr.write
    try {
      await startLogging({ dataDir, verbose: false, toStandardError: false })
      try {
        writeFileSync(join(mount, 'filler'), Buffer.alloc(256 * 1024))
      } catch {
        // The disk is full now.
      }
      for (let i = 0; i < 1000; i++) log.warn({ i, detail: 'x'.repeat(100) }, 'a line that does not fit')
    } finally {
      process.stderr.write = write
      stopLogging()
    }
    expect(told.filter((text) => text.includes('cannot be written (ENOSPC)'))).toHaveLength(1)
  })

  it('a log folder that cannot be written stops nothing: no log file is kept, and it says why and what to do', async () => {
    // `logs` is a file.
    const asFile = mkdtempSync(join(tmpdir(), 'dice-referee-log-'))
    writeFileSync(join(asFile, 'logs'), 'not a folder')
    const file = await startLogging({ dataDir: asFile, verbose: false, toStandardError: false })
    stopLogging()
    expect(file).toEqual({
      path: null,
      problem: `The log cannot be kept in ${join(asFile, 'logs')} (logs in the data folder is not a folder: move it away, and start the app again). The games are not affected.`
    })
    // `logs` is read-only (a read-only mount: root writes through file modes).
    const readOnly = mkdtempSync(join(tmpdir(), 'dice-referee-log-'))
    mkdirSync(join(readOnly, 'logs'))
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,ro', 'tmpfs', join(readOnly, 'logs')])
    mounts.push(join(readOnly, 'logs'))
    const folder = await startLogging({ dataDir: readOnly, verbose: false, toStandardError: false })
    stopLogging()
    expect(folder.path).toBeNull()
    expect(folder.problem).toContain('(it is read-only: make it writable, and start the app again)')
    // A folder this process may not write (opened read-only): no log file, nothing else to say.
    expect(await startLogging({ dataDir: asFile, verbose: false, toStandardError: false, writable: false })).toEqual({ path: null, problem: null })
    stopLogging()
  })

  it('a data folder copied with `cp -rL` (current.log a plain file): it is kept aside, and the log goes on in the next file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-log-'))
    mkdirSync(join(dataDir, 'logs'))
    writeFileSync(join(dataDir, 'logs', 'dice-referee.3.log'), '{"msg":"before"}\n')
    writeFileSync(join(dataDir, 'logs', 'current.log'), '{"msg":"before"}\n')
    const logging = await startLogging({ dataDir, verbose: false, toStandardError: false })
    log.warn('after the copy')
    stopLogging()
    expect(logging.problem).toBeNull()
    expect(realpathSync(logging.path!)).toBe(join(realpathSync(join(dataDir, 'logs')), 'dice-referee.3.log'))
    expect(lines(logging.path!).map((line) => line.msg)).toEqual(['before', 'after the copy'])
    expect(readdirSync(join(dataDir, 'logs')).filter((name) => name.startsWith('current.log.copied-'))).toHaveLength(1)
  })
})
