// `npm run table`: the whole app without Electron. Runs the main-process core under plain Node
// and serves the same renderer to any browser: `/` is the app, `/scoreboard` the TV view.
import { ComputerPlayer } from '../main/core/computer-player'
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { DataFolderInUseError, lockDataFolder } from '../main/core/data-lock'
import { log, logSessionMessages, startLogging } from '../main/core/log'
import { RecordStore } from '../main/core/record-store'
import { SettingsStore } from '../main/core/settings'
import { TableServer } from '../main/core/table-server'
import { TableSession } from '../main/core/table-session'
import { DeviceManager } from '../main/devices/device-manager'

interface HostArguments {
  port: number
  dataDir: string
  rendererDir: string
  share: boolean
  /** Serial ports (smart dice hubs, dice-tray keypads) to connect at start. */
  serial: string[]
  verbose: boolean
}

const ROOT = resolve(__dirname, '../..')
const USAGE = `usage: npm run table -- [--port N] [--data DIR] [--share] [--serial PATH]
  --port N      port to serve on (default 5858; 0 picks a free one)
  --data DIR    where games are saved (default ~/.dice-referee)
  --share       turn LAN sharing on at start
  --serial PATH connect a smart-dice hub or serial keypad at start (repeatable), e.g.
                /dev/ttyACM0, COM3, or the link of \`npm run dice-sim -- --link PATH\`
  --verbose     log every request too (the log goes to standard error and DIR/logs/)`

function parseArguments(argv: string[]): HostArguments {
  const parsed: HostArguments = {
    port: 5858,
    dataDir: process.env.DICE_REFEREE_DATA ?? join(homedir(), '.dice-referee'),
    rendererDir: join(ROOT, 'out', 'renderer'),
    share: false,
    serial: [],
    verbose: false
  }
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    const value = (): string => {
      const next = argv[++i]
      if (next === undefined) throw new Error(`${flag} needs a value`)
      return next
    }
    if (flag === '--port') {
      const port = Number(value())
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port takes a number from 0 to 65535')
      parsed.port = port
    } else if (flag === '--data') parsed.dataDir = resolve(value())
    else if (flag === '--share') parsed.share = true
    else if (flag === '--serial') parsed.serial.push(value())
    else if (flag === '--verbose') parsed.verbose = true
    else if (flag === '--help' || flag === '-h') {
      process.stdout.write(`${USAGE}\n`)
      process.exit(0)
    } else throw new Error(`unknown option ${flag}`)
  }
  return parsed
}

function newestChange(path: string): number {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stat.mtimeMs)
}

async function main(): Promise<void> {
  const args = parseArguments(process.argv.slice(2))
  const lock = lockDataFolder(args.dataDir, 'the headless host (npm run table)')
  const logFile = await startLogging({ dataDir: args.dataDir, verbose: args.verbose, toStandardError: true })
  log.info({ dataDir: args.dataDir, startedAt: lock.holder.startedAt }, 'headless host starting')
  const index = join(args.rendererDir, 'index.html')
  const sources = Math.max(newestChange(join(ROOT, 'src', 'renderer')), newestChange(join(ROOT, 'src', 'shared')))
  if (!existsSync(index) || statSync(index).mtimeMs < sources) {
    process.stdout.write('Building the screens (once after each change)...\n')
    // Vite is loaded only when a build is needed: it weighs more than the whole host.
    const { buildRenderer } = await import('./build-renderer')
    await buildRenderer(ROOT, args.rendererDir)
  }
  mkdirSync(args.dataDir, { recursive: true })
  const settings = new SettingsStore(args.dataDir)
  const session = new TableSession({ store: new RecordStore(args.dataDir), settings, appVersion: process.env.npm_package_version })
  logSessionMessages(session)
  const server = new TableServer({ session, rendererDir: args.rendererDir, port: args.port })
  await server.start()
  if (args.share) await server.setSharing(true)
  new ComputerPlayer(session)
  const devices = new DeviceManager({ session, settings })
  devices.start()
  for (const path of args.serial) {
    const outcome = await devices.connect(path)
    process.stdout.write(outcome.ok ? `Serial device on ${path}: waiting for its hello\n` : `Serial device on ${path}: ${outcome.error}\n`)
    if (!outcome.ok) log.warn({ path, reason: outcome.error }, 'a serial device could not be connected')
  }
  process.stdout.write(`Dice Referee is at ${server.url}  (scoreboard for the TV: ${server.url}scoreboard)\n`)
  process.stdout.write(`Games are saved in ${args.dataDir}\n`)
  process.stdout.write(`The log is ${logFile}\n`)
  const stop = (): void => {
    void devices
      .stop()
      .then(() => server.stop())
      .then(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((error: Error) => {
  if (error instanceof DataFolderInUseError) process.stderr.write(`${error.message}\n`)
  else process.stderr.write(`${error.message}\n\n${USAGE}\n`)
  process.exit(1)
})
