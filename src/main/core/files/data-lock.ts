// One writer per data folder: the desktop app and the headless host take the same lock file
// before they open the records, so two processes never append to one record.
//
// Hand-written rather than proper-lockfile: that library tells a crashed holder by a lock that
// stopped being touched for a while (a timer refreshing it, a wait after a crash), and cannot say
// who holds the folder. Here the lock file names its holder (pid, host name, start time), so the
// refusal can name it and a holder that is gone (no such process, or started before this
// machine's last boot) is taken over at once.
//
// A folder this process cannot write (read-only, a full disk, no permission, a folder where the
// lock file goes) is opened read-only: no lock is taken and nothing is written in it by this
// process (the table refuses every change, saying why and what to do), but the games are shown.
// A live holder is named and refused all the same.
import { hostname, uptime } from 'node:os'
import { linkSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { FolderNotWritableError } from './durable-files'

export const LOCK_FILE = 'dice-referee.lock'
/** A takeover that takes longer than this was interrupted (its process died): its guard is cleared. */
const TAKEOVER_GUARD_STALE_MS = 10_000
/** How long to wait while another process takes a dead lock over: past its guard going stale. */
const TAKEOVER_WAIT_MS = TAKEOVER_GUARD_STALE_MS + 2_000
/** How often to look again meanwhile (a takeover takes well under a millisecond). */
const TAKEOVER_POLL_MS = 5

export interface LockHolder {
  pid: number
  host: string
  /** ISO time the holder took the lock. */
  startedAt: string
  /** What holds it: the desktop app or the headless host. */
  program: string
}

export class DataFolderInUseError extends Error {
  constructor(
    readonly folder: string,
    readonly holder: LockHolder
  ) {
    super(
      `The games folder ${folder} is in use by ${holder.program} (process ${holder.pid} on ${holder.host}, started ${holder.startedAt}). ` +
        `Close that one first, or use another folder. If it is not running any more, delete ${join(folder, LOCK_FILE)}.`
    )
    this.name = 'DataFolderInUseError'
  }
}

export interface DataFolderLock {
  readonly path: string
  readonly holder: LockHolder
  /**
   * Why this process may not write the folder (it could not take the lock): the folder is then
   * opened read-only. Null when the lock is held.
   */
  readonly readOnly: FolderNotWritableError | null
  /** Gives the folder up (only if the lock file is still ours). */
  release(): void
}

/**
 * Takes the data folder for this process, or throws DataFolderInUseError naming the live holder.
 * A lock left by a process that died is taken over. Released when the process exits. A folder
 * this process cannot write is opened read-only (`readOnly` says why), unless a live holder has it.
 */
export function lockDataFolder(folder: string, program: string): DataFolderLock {
  const path = join(folder, LOCK_FILE)
  const holder: LockHolder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), program }
  try {
    const lock = takeLock(folder, path, holder)
    removeDeadDrafts(folder)
    return lock
  } catch (error) {
    if (error instanceof DataFolderInUseError) throw error
    // Not writable here: opened read-only, unless another process that is alive holds it.
    const existing = readLockQuietly(path)
    if (existing && isAlive(existing.holder)) throw new DataFolderInUseError(folder, existing.holder)
    return { path, holder, readOnly: notWritable(folder, path, error), release: () => {} }
  }
}

function takeLock(folder: string, path: string, holder: LockHolder): DataFolderLock {
  mkdirSync(folder, { recursive: true })
  const text = `${JSON.stringify(holder)}\n`
  // Written whole under a name of its own, then linked into place: the link either makes it the
  // lock at once or fails because a lock exists, and nobody ever reads half a lock file.
  const draft = `${path}.${process.pid}.${Date.now()}.tmp`
  try {
    writeFileSync(draft, text)
  } catch (error) {
    unlinkQuietly(draft) // a full disk leaves it empty
    throw error
  }
  try {
    const deadline = Date.now() + TAKEOVER_WAIT_MS
    do {
      if (tryLink(draft, path)) return held(path, holder, text)
      const existing = readLock(path)
      if (existing === null) continue // released in between: try again
      if (isAlive(existing.holder)) throw new DataFolderInUseError(folder, existing.holder)
      const outcome = takeOver(path, existing.text, draft)
      if (outcome === 'taken') return held(path, holder, text)
      // Another process is taking the dead lock over: look again once it has (it then holds the
      // folder, and is named). Giving up at once named the dead holder, or nobody.
      if (outcome === 'busy') sleep(TAKEOVER_POLL_MS)
    } while (Date.now() < deadline)
  } finally {
    unlinkQuietly(draft)
  }
  const existing = readLock(path)
  throw new DataFolderInUseError(folder, existing?.holder ?? { pid: 0, host: '?', startedAt: '?', program: 'another process' })
}

/** Why a folder cannot be written, in plain words, and what to do. */
function notWritable(folder: string, path: string, error: unknown): FolderNotWritableError {
  const code = (error as NodeJS.ErrnoException | null)?.code
  if (isFolder(path)) return new FolderNotWritableError(folder, `${LOCK_FILE} in the data folder is a folder, not the app's lock file`, `Remove that folder (${path})`)
  if (!isFolder(folder) && code !== 'ENOENT' && code !== 'EROFS' && code !== 'EACCES') {
    return new FolderNotWritableError(folder, `The data folder ${folder} is not a folder`, 'Move what is there away (or use another data folder)')
  }
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return new FolderNotWritableError(folder, 'The disk is full', 'Free some space')
    case 'EROFS':
      return new FolderNotWritableError(folder, 'The data folder is read-only', 'Make it writable (or use another data folder)')
    case 'EACCES':
    case 'EPERM':
      return new FolderNotWritableError(folder, 'The data folder may not be written to', 'Give this user write access to it (or use another data folder)')
    default:
      return new FolderNotWritableError(folder, `The data folder cannot be written (${code ?? (error as Error | null)?.message ?? 'unknown error'})`, 'Check the disk')
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/** Lock drafts of processes that died while they took a lock (kill -9 between writing and removing it). */
function removeDeadDrafts(folder: string): void {
  let names: string[]
  try {
    names = readdirSync(folder)
  } catch {
    return // the lock is held all the same
  }
  for (const name of names) {
    const match = /^dice-referee\.lock\.(\d+)\.\d+\.tmp$/.exec(name)
    if (match && Number(match[1]) !== process.pid && !isAlive({ pid: Number(match[1]), host: hostname(), startedAt: new Date().toISOString(), program: '' })) {
      unlinkQuietly(join(folder, name))
    }
  }
}

function held(path: string, holder: LockHolder, text: string): DataFolderLock {
  let released = false
  const release = (): void => {
    if (released) return
    released = true
    process.off('exit', release)
    if (readLock(path)?.text === text) unlinkQuietly(path)
  }
  process.on('exit', release)
  return { path, holder, readOnly: null, release }
}

/**
 * Replaces a dead holder's lock with ours. Two processes may find the same dead lock: a guard
 * folder (mkdir is atomic) lets one of them at a time look again and swap it. 'busy' while
 * another process holds the guard; 'again' when the lock is to be looked at again at once.
 */
function takeOver(path: string, deadText: string, draft: string): 'taken' | 'busy' | 'again' {
  const guard = `${path}.takeover`
  try {
    mkdirSync(guard)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    try {
      if (Date.now() - statSync(guard).mtimeMs <= TAKEOVER_GUARD_STALE_MS) return 'busy'
      rmdirSync(guard)
    } catch {
      // Gone already: the other takeover finished.
    }
    return 'again'
  }
  try {
    const now = readLock(path)
    if (now !== null && now.text !== deadText) return 'again' // someone else took it over first
    if (now !== null) unlinkSync(path)
    return tryLink(draft, path) ? 'taken' : 'again'
  } finally {
    rmdirSync(guard)
  }
}

/** Blocks this thread (taking the lock is synchronous, at start). */
function sleep(ms: number): void {
  try {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
  } catch {
    // A thread that may not block on Atomics (it is not known to be allowed in Electron's main process): spin.
    const until = Date.now() + ms
    while (Date.now() < until) {
      // waiting
    }
  }
}

function tryLink(draft: string, path: string): boolean {
  try {
    linkSync(draft, path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

/** The lock's holder, if a lock file can be read at all. */
function readLockQuietly(path: string): { holder: LockHolder; text: string } | null {
  try {
    return readLock(path)
  } catch {
    return null
  }
}

/** The lock file's holder and exact text; null when there is none. An unreadable lock names nobody alive. */
function readLock(path: string): { holder: LockHolder; text: string } | null {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.startedAt === 'string') {
      return { holder: { pid: parsed.pid, host: parsed.host, startedAt: parsed.startedAt, program: String(parsed.program ?? 'another process') }, text }
    }
  } catch {
    // Not a lock this program wrote: nobody holds it.
  }
  return { holder: { pid: 0, host: hostname(), startedAt: new Date(0).toISOString(), program: 'nobody' }, text }
}

/** Whether the holder may still be running. On another computer (a shared folder) that cannot be told: it may. */
export function isAlive(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true
  if (holder.pid <= 0 || holder.pid === process.pid) return false // this process has that number now
  const bootedAt = Date.now() - uptime() * 1000
  if (Date.parse(holder.startedAt) < bootedAt - 60_000) return false // started before this machine booted
  try {
    process.kill(holder.pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' // exists, owned by someone else
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path)
  } catch {
    // Already gone.
  }
}
