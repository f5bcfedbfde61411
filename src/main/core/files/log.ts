// The log: what went wrong and when, for whoever has to find out later. A rotating file in the
// data folder (pino with pino-roll: no worker threads, so it runs the same under plain Node and in
// Electron's main process), and standard error for the headless host.
import pino, { type Logger } from 'pino'
import roll from 'pino-roll'
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
  /** Debug lines too (every request). */
  verbose: boolean
  /** Also write to standard error (the headless host). */
  toStandardError: boolean
  rotation?: { size: string; filesKept: number }
}

/** Starts logging to the data folder's log (and standard error); returns the path of the current log. */
export async function startLogging(options: LoggingOptions): Promise<string> {
  const folder = join(options.dataDir, LOG_FOLDER)
  const level = options.verbose ? 'debug' : 'info'
  const rotation = options.rotation ?? LOG_ROTATION
  // Written synchronously: the lines before a crash are the ones that matter.
  const file = await roll({
    file: join(folder, 'dice-referee'),
    size: rotation.size,
    // With removeOtherLogFiles, pino-roll's count is every file kept, the one being written included.
    limit: { count: rotation.filesKept, removeOtherLogFiles: true },
    mkdir: true,
    symlink: true,
    sync: true
  })
  // A full or vanished disk must not take the program down through its log: say so once, go on.
  let failed = false
  file.on('error', (error: NodeJS.ErrnoException) => {
    if (!failed) process.stderr.write(`Dice Referee: the log file in ${folder} cannot be written (${error.code ?? error.message}); logging there stops.\n`)
    failed = true
  })
  const streams: pino.StreamEntry[] = [{ level, stream: file }]
  if (options.toStandardError) streams.push({ level, stream: pino.destination({ fd: 2, sync: true }) })
  log = pino({ level, timestamp: pino.stdTimeFunctions.isoTime }, pino.multistream(streams))
  logFile = file
  process.on('uncaughtExceptionMonitor', logUncaught)
  return join(folder, 'current.log')
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
