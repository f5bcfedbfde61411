// The log: what went wrong and when, for whoever has to find out later. A rotating file in the
// data folder (pino with pino-roll: no worker threads, so it runs the same under plain Node and in
// Electron's main process), and standard error for the headless host.
import pino, { type Logger } from 'pino'
import roll from 'pino-roll'
import { lstatSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import type { Notices } from '../screens/notices'

/** The log folder inside the data folder; `current.log` there links to the file being written. */
export const LOG_FOLDER = 'logs'
/** A log file is rolled over at this size; the newest files are kept (the one written included). */
export const LOG_ROTATION = { size: '5m', filesKept: 5 }

/** Where the program logs. Silent until startLogging (the tests, the referee command). */
export let log: Logger = pino({ level: 'silent' })
let logFile: { destroy(): void } | null = null

export interface LoggingOptions {
  /** The data folder; the log goes to its `logs/` folder. */
  dataDir: string
  /** Whether this process may write the data folder (it holds its lock); if not, no log file is kept. Default true. */
  writable?: boolean
  /** Debug lines too (every request). */
  verbose: boolean
  /** Also write to standard error (the headless host). */
  toStandardError: boolean
  rotation?: { size: string; filesKept: number }
}

export interface Logging {
  /** The current log (a link to the file being written); null when no log file is kept. */
  path: string | null
  /** Why no log file is kept, in plain words with what to do (for standard error and the screens); null when it is. */
  problem: string | null
}

/**
 * Starts logging to the data folder's log (and standard error). A log folder that cannot be
 * written (a file in its place, read-only, a full disk) does not stop the program: it logs to
 * standard error only, and says why.
 */
export async function startLogging(options: LoggingOptions): Promise<Logging> {
  const folder = join(options.dataDir, LOG_FOLDER)
  const level = options.verbose ? 'debug' : 'info'
  const rotation = options.rotation ?? LOG_ROTATION
  const streams: pino.StreamEntry[] = []
  if (options.toStandardError) streams.push({ level, stream: pino.destination({ fd: 2, sync: true }) })
  let file: Awaited<ReturnType<typeof roll>> | null = null
  let problem: string | null = null
  if (options.writable !== false) {
    try {
      file = await openLogFile(folder, rotation)
    } catch (error) {
      problem = logProblem(folder, error)
    }
  }
  if (file) {
    // A full or vanished disk must not take the program down through its log: say so once, go on.
    let failed = false
    file.on('error', (error: NodeJS.ErrnoException) => {
      if (!failed) process.stderr.write(`Dice Referee: the log file in ${folder} cannot be written (${error.code ?? error.message}); logging there stops.\n`)
      failed = true
    })
    streams.push({ level, stream: file })
  }
  log = streams.length > 0 ? pino({ level, timestamp: pino.stdTimeFunctions.isoTime }, pino.multistream(streams)) : pino({ level: 'silent' })
  logFile = file
  process.on('uncaughtExceptionMonitor', logUncaught)
  return { path: file ? join(folder, 'current.log') : null, problem }
}

async function openLogFile(folder: string, rotation: { size: string; filesKept: number }): Promise<Awaited<ReturnType<typeof roll>>> {
  const logs = statOf(folder)
  if (logs && !logs.isDirectory()) throw Object.assign(new Error(`${folder} is not a folder`), { code: 'ENOTDIR' })
  // `current.log` must be the link to the file being written: a plain file there (a data folder
  // copied with `cp -rL`) is kept under another name, and the link made again. (Not a name ending
  // in digits and .log: pino-roll numbers its next file after the highest such number in the folder.)
  const current = join(folder, 'current.log')
  const link = statOf(current)
  if (link && !link.isSymbolicLink()) renameSync(current, join(folder, `current.log.copied-${Date.now()}`))
  // Written synchronously: the lines before a crash are the ones that matter.
  return roll({
    file: join(folder, 'dice-referee'),
    size: rotation.size,
    // With removeOtherLogFiles, pino-roll's count is every file kept, the one being written included.
    limit: { count: rotation.filesKept, removeOtherLogFiles: true },
    mkdir: true,
    symlink: true,
    sync: true
  })
}

function statOf(path: string): ReturnType<typeof lstatSync> | null {
  try {
    return lstatSync(path)
  } catch {
    return null
  }
}

/** Why the log folder cannot be written, and what to do. */
function logProblem(folder: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code
  const why =
    code === 'ENOTDIR' || code === 'EEXIST'
      ? `${LOG_FOLDER} in the data folder is not a folder: move it away`
      : code === 'EROFS'
        ? `it is read-only: make it writable`
        : code === 'ENOSPC' || code === 'EDQUOT'
          ? 'the disk is full: free some space'
          : code === 'EACCES' || code === 'EPERM'
            ? 'it may not be written to: give this user write access to it'
            : `it cannot be written (${code ?? (error as Error | null)?.message ?? 'unknown error'}): check the disk`
  return `The log cannot be kept in ${folder} (${why}, and start the app again). The games are not affected.`
}

/** Closes the log file (the log is silent again). */
export function stopLogging(): void {
  process.off('uncaughtExceptionMonitor', logUncaught)
  log = pino({ level: 'silent' })
  logFile?.destroy()
  logFile = null
}

/** A monitor: logs the exception and leaves what happens next (exit, Electron's dialog) as it was. */
function logUncaught(error: Error, origin: string): void {
  log.fatal({ err: error, origin }, 'uncaught exception')
}

/** Logs what every screen is told went wrong (device errors, failed saves, refused device moves) and, verbose, the rest. */
export function logNotices(notices: Notices): () => void {
  const logMessage = (message: { text: string; level: string }): void => {
    if (message.level === 'error') log.warn({ message: message.text }, 'told the screens of an error')
    else if (message.level === 'warning') log.warn({ message: message.text }, 'told the screens of a warning')
    else log.debug({ message: message.text }, 'told the screens')
  }
  if (notices.latest) logMessage(notices.latest) // what resuming the saved game said
  return notices.subscribe(logMessage)
}
