// `npm run league`: the league host for a club night (docs/league.md). A CouchDB-compatible
// league database at http://HOST:PORT/DB for the tables to replicate into, and the league page
// (/_league/) and TV (/_league/tv) for anyone on the LAN. Stops cleanly on Ctrl+C and SIGTERM.
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { exitWithUsageError, parseCommandLine } from '@cli/command-line'
import { DataFolderInUseError, lockDataFolder } from '@main/core/files/data-lock'
import { log, startLogging } from '@main/core/files/log'
import { leagueDesignDocument } from '@main/league/design-document'
import { LeagueHost } from '@main/league/league-host'
import { ensureRendererBuilt } from './renderer-build'
import { STOP_SIGNALS } from './shutdown'

const ROOT = resolve(__dirname, '../..')
const USAGE = `usage: npm run league -- --password PW [--port N] [--data DIR] [--db NAME] [--keys-only] [--private] [--listen ADDRESS]
  --password PW     the league password: tables join with http://TABLE:PW@HOST:PORT/DB, and
                    admin:PW is the organiser (issues keys: POST /_league/keys {"table": NAME})
  --port N          port to serve on (default 5984, CouchDB's; 0 picks a free one)
  --data DIR        where the league is kept (default ~/.dice-referee-league)
  --db NAME         the league database's name (default league)
  --keys-only       tables join with the key issued for them only (the password is the organiser's)
  --private         watching the league (page, TV, reading the database) needs credentials too
  --listen ADDRESS  the address to listen on (default 0.0.0.0: every address, for the LAN)
  --design-document print the league's validate_doc_update design document (for a real CouchDB) and exit
  --verbose         log more (the log goes to standard error and DIR/logs/)
  --help, -h        print this and exit`

function parseArguments(argv: string[]) {
  const { values } = parseCommandLine('league', USAGE, argv, {
    password: { type: 'string' },
    port: { type: 'string' },
    data: { type: 'string' },
    db: { type: 'string' },
    'keys-only': { type: 'boolean' },
    private: { type: 'boolean' },
    listen: { type: 'string' },
    'design-document': { type: 'boolean' },
    verbose: { type: 'boolean' }
  })
  if (values['design-document']) {
    process.stdout.write(`${JSON.stringify(leagueDesignDocument(), null, 2)}\n`)
    process.exit(0)
  }
  const port = values.port === undefined ? 5984 : Number(values.port)
  if (!/^\d+$/.test(values.port ?? '0') || port > 65535) exitWithUsageError('league', '--port takes a number from 0 to 65535')
  if (!values.password) exitWithUsageError('league', '--password is needed: the tables join with it')
  if (values.db !== undefined && !/^[a-z][a-z0-9_$()+-]{0,237}$/.test(values.db)) exitWithUsageError('league', '--db takes a CouchDB database name (lowercase letters, digits and _$()+-, a letter first)')
  return {
    password: values.password,
    port,
    dataDir: values.data !== undefined ? resolve(values.data) : join(homedir(), '.dice-referee-league'),
    database: values.db ?? 'league',
    keysOnly: values['keys-only'] ?? false,
    privateView: values.private ?? false,
    listen: values.listen ?? '0.0.0.0',
    verbose: values.verbose ?? false
  }
}

let host: LeagueHost | null = null
let stopping = false
for (const signal of STOP_SIGNALS) {
  process.on(signal, () => {
    if (stopping) return
    stopping = true
    log.info({ signal }, 'league host stopping')
    const timer = setTimeout(() => process.exit(1), 5_000)
    void (host?.stop() ?? Promise.resolve()).then(
      () => {
        clearTimeout(timer)
        process.exit(0)
      },
      (error: Error) => {
        process.stderr.write(`league: could not stop cleanly: ${error.message}\n`)
        process.exit(1)
      }
    )
  })
}

async function main(): Promise<void> {
  const args = parseArguments(process.argv.slice(2))
  const lock = lockDataFolder(args.dataDir, 'the league host (npm run league)')
  // The league's database must be written: a folder that cannot be is refused (a table opens it read-only instead).
  if (lock.readOnly) throw new Error(`${lock.readOnly.what} (${args.dataDir}): the league's database cannot be kept there. ${lock.readOnly.remedy} and start it again.`)
  await startLogging({ dataDir: args.dataDir, verbose: args.verbose, toStandardError: true })
  await ensureRendererBuilt(ROOT, () => process.stdout.write('Building the screens with electron-vite (once after each change)...\n'))
  if (stopping) return
  host = new LeagueHost({
    dataDir: args.dataDir,
    port: args.port,
    listen: args.listen,
    password: args.password,
    database: args.database,
    keysOnly: args.keysOnly,
    privateView: args.privateView,
    rendererDir: join(ROOT, 'out', 'renderer'),
    log
  })
  await host.start()
  const shown = args.listen === '0.0.0.0' ? '127.0.0.1' : args.listen
  process.stdout.write(`The league is at http://${shown}:${host.port}/${args.database}  (page: http://${shown}:${host.port}/_league/  TV: http://${shown}:${host.port}/_league/tv)\n`)
  process.stdout.write(`Tables join with: npm run table -- --league http://TABLE:PASSWORD@THIS-COMPUTER:${host.port}/${args.database}\n`)
}

main().catch((error: Error) => {
  if (stopping) return
  process.stderr.write(error instanceof DataFolderInUseError ? `${error.message}\n` : `league: ${error.message}\n`)
  process.exit(1)
})
