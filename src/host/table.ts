// `npm run table`: the whole app without Electron. Runs the main-process core under plain Node
// and serves the same renderer to any browser: `/` is the app, `/scoreboard` the TV view.
import { isIP } from 'node:net'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { createTable } from '@main/core/create-table'
import { DataFolderInUseError, lockDataFolder } from '@main/core/files/data-lock'
import { log, startLogging } from '@main/core/files/log'
import { parseLeagueUrl } from '@main/league/league-url'
import { exitWithUsageError, parseCommandLine } from '@cli/command-line'
import { ensureRendererBuilt } from './renderer-build'
import { Shutdown } from './shutdown'

interface HostArguments {
  port: number
  dataDir: string
  share: boolean
  /** The LAN is served over HTTPS with the table's own certificate (a phone's camera needs a secure page). */
  https: boolean
  /** The LAN addresses to share on; empty: every IPv4 address of this computer's network interfaces. */
  lan: string[]
  /** Serial ports (smart dice hubs, dice-tray keypads) to connect at start. */
  serial: string[]
  verbose: boolean
  /** The league to join, http://NAME:PW@HOST:PORT/DB (docs/league.md); null: a table alone. */
  league: string | null
}

const ROOT = resolve(__dirname, '../..')
const USAGE = `usage: npm run table -- [--port N] [--data DIR] [--share] [--https] [--lan ADDRESS]... [--serial PATH]... [--league URL] [--verbose]
  --port N      port to serve on (default 5858; 0 picks a free one)
  --data DIR    where games are saved (default ~/.dice-referee, or $DICE_REFEREE_DATA)
  --share       turn LAN sharing on at start
  --https       serve the LAN over HTTPS with this data folder's own certificate (made once):
                a phone's camera works only on a secure page (docs/camera.md)
  --lan ADDRESS share on this address only (repeatable; default: every IPv4 address of this
                computer's networks), e.g. the Wi-Fi's when there are several
  --serial PATH connect a smart-dice hub or serial keypad at start (repeatable), e.g.
                /dev/ttyACM0, COM3, or the link of \`npm run dice-sim -- --link PATH\`
  --league URL  join a league: http://NAME:PASSWORD@HOST:PORT/DB (NAME is this table's name in it);
                the league page is then at /_league/ (docs/league.md)
  --verbose     log every request too (the log goes to standard error and DIR/logs/)
  --help, -h    print this and exit`

function parseArguments(argv: string[]): HostArguments {
  const { values } = parseCommandLine('table', USAGE, argv, {
    port: { type: 'string' },
    data: { type: 'string' },
    share: { type: 'boolean' },
    https: { type: 'boolean' },
    lan: { type: 'string', multiple: true },
    serial: { type: 'string', multiple: true },
    league: { type: 'string' },
    verbose: { type: 'boolean' }
  })
  const league = values.league === undefined ? null : parseLeagueUrl(values.league)
  if (league && !league.ok) exitWithUsageError('table', `--league: ${league.error}`)
  const port = values.port === undefined ? 5858 : Number(values.port)
  if (!/^\d+$/.test(values.port ?? '0') || port > 65535) exitWithUsageError('table', '--port takes a number from 0 to 65535')
  const lan = values.lan ?? []
  const notAnAddress = lan.find((address) => isIP(address) !== 4)
  if (notAnAddress !== undefined) exitWithUsageError('table', `--lan takes an IPv4 address of this computer (${JSON.stringify(notAnAddress)} is none)`)
  return {
    port,
    dataDir: values.data !== undefined ? resolve(values.data) : (process.env.DICE_REFEREE_DATA ?? join(homedir(), '.dice-referee')),
    share: values.share ?? false,
    https: values.https ?? false,
    lan,
    serial: values.serial ?? [],
    verbose: values.verbose ?? false,
    league: values.league ?? null
  }
}

/** Listening for SIGINT and SIGTERM from here on, before main() takes the folder (see shutdown.ts). */
const shutdown = new Shutdown()

async function main(): Promise<void> {
  const args = parseArguments(process.argv.slice(2))
  // Synchronous from the handlers above to here: a stop signal is handled only once the folder is taken (or refused).
  const lock = lockDataFolder(args.dataDir, 'the headless host (npm run table)')
  // A folder that cannot be written is opened read-only, a log that cannot be kept is not: said here and on the screens.
  if (lock.readOnly) process.stderr.write(`Dice Referee: ${lock.readOnly.message}\n`)
  const logging = await startLogging({ dataDir: args.dataDir, verbose: args.verbose, toStandardError: true, writable: lock.readOnly === null })
  if (logging.problem) process.stderr.write(`Dice Referee: ${logging.problem}\n`)
  log.info({ dataDir: args.dataDir, startedAt: lock.holder.startedAt, readOnly: lock.readOnly?.message ?? null }, 'headless host starting')
  // After each wait, a stop that came meanwhile ends the start (the stop exits the process).
  if (shutdown.requested) return
  await ensureRendererBuilt(ROOT, () => process.stdout.write('Building the screens with electron-vite (once after each change)...\n'), shutdown.signal)
  if (shutdown.requested) return
  const table = createTable({
    dataDir: args.dataDir,
    readOnly: lock.readOnly,
    startProblems: logging.problem ? [logging.problem] : [],
    appVersion: process.env.npm_package_version,
    serve: { rendererDir: join(ROOT, 'out', 'renderer'), port: args.port, always: true, https: args.https, ...(args.lan.length > 0 ? { lanAddresses: () => args.lan } : {}) },
    ...(args.league !== null ? { league: args.league } : {})
  })
  shutdown.add('the table', () => table.stop())
  try {
    await table.start()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(`port ${args.port} is in use (another Dice Referee, or another program): start with another port, e.g. npm run table -- --port ${args.port + 1}`)
    }
    throw error
  }
  if (shutdown.requested) return
  const shared = args.share ? await table.setSharing(true) : null
  if (shutdown.requested) return
  for (const path of args.serial) {
    const outcome = await table.devices.connect(path)
    if (shutdown.requested) return
    process.stdout.write(outcome.ok ? `Serial device on ${path}: waiting for its hello\n` : `Serial device on ${path}: ${outcome.error}\n`)
    if (!outcome.ok) log.warn({ path, reason: outcome.error }, 'a serial device could not be connected')
  }
  const url = table.server!.url
  process.stdout.write(`Dice Referee is at ${url}  (scoreboard for the TV: ${url}scoreboard)\n`)
  if (shared && !shared.ok) process.stdout.write(`LAN sharing is off: ${shared.error}\n`)
  const lan = table.sharing.lan()
  if (lan) {
    process.stdout.write(`Shared on the LAN: ${lan.urls.map((address) => address.replace(/scoreboard$/, '')).join('  ')}  (the TV: add scoreboard)\n`)
    process.stdout.write(`Pairing code for a phone that enters dice: ${table.pairing.pairingCode}  (or open ${lan.urls[0].replace(/scoreboard$/, 'table')}?pair=${table.pairing.pairingCode})\n`)
  }
  const certificate = table.certificate
  if (certificate) {
    const kept = certificate.path ? `${certificate.made ? 'made now and kept' : 'kept'} in ${certificate.path}` : 'made for this run only (the data folder is read-only)'
    process.stdout.write(`HTTPS on the LAN with this table's own certificate, ${kept}: a phone warns about it the first time (docs/camera.md). Its SHA-256 fingerprint: ${certificate.fingerprint}\n`)
  }
  process.stdout.write(lock.readOnly ? `Games are shown from ${args.dataDir} (read-only: see above)\n` : `Games are saved in ${args.dataDir}\n`)
  const joined = table.leagues.joined
  if (joined) process.stdout.write(`In the league ${joined.status().league} as table ${joined.status().table} (league page: ${url}_league/)\n`)
  const hosting = table.leagues.hosting
  if (hosting) process.stdout.write(`This computer hosts the league on port ${hosting.port} (its page: ${hosting.url}_league/)\n`)
  process.stdout.write(logging.path ? `The log is ${logging.path}\n` : 'No log file is kept (see above); the log goes to standard error\n')
}

main().catch((error: Error) => {
  if (shutdown.requested) return // stopped while starting (the build it waited for was aborted): the stop ends the process
  process.stderr.write(error instanceof DataFolderInUseError ? `${error.message}\n` : `table: ${error.message}\n`)
  process.exit(1)
})
