// The one place the table's parts are made and wired, for the desktop app (src/main/index.ts),
// the headless host (src/host/table.ts) and the tests alike. Each part gets what it depends on at
// construction; none of them fills in another's slots. The way data flows:
//   device lines -> registry -> smart-dice referee / device keypads --\
//   screens (typed entries, buttons) and the computer player ---------+-> game table (record)
//   game table events -> history, players, devices, computer, odds -> screen views -> screens
import { join } from 'node:path'
import type { Outcome } from '@shared/api'
import type { WinTableSource } from '@shared/games/six-dice/win-play'
import { DeviceRegistry, type DeviceRegistryOptions } from '../devices/device-registry'
import { Leagues } from '../league/leagues'
import { Devices, type DevicesOptions } from '../devices/devices'
import { CameraDice } from '../devices/camera-dice'
import { ComputerPlayer, type ComputerPlayerOptions } from './computer/computer-player'
import { OddsCache } from './computer/odds-cache'
import { OddsService, type OddsWork } from './computer/odds-service'
import { OddsThread } from './computer/odds-thread'
import { WinTables } from './computer/win-tables'
import { diskTrouble, removeDrafts, type FolderNotWritableError } from './files/durable-files'
import { log, logNotices } from './files/log'
import { SettingsStore } from './files/settings'
import { GameTable } from './game/game-table'
import { RecordJournal } from './game/record-journal'
import { HistoryArchive } from './history/history-archive'
import { HistoryService } from './history/history-service'
import { moduleOf, personNames } from '@shared/game'
import { PlayerRecords } from './players/player-records'
import { dispatch } from './screens/dispatch'
import { Notices } from './screens/notices'
import { ScreenViews } from './screens/screen-views'
import type { Screen } from './screens/screen'
import { Screens } from './screens/screens'
import { Pairing } from './screens/pairing'
import { SharingState } from './screens/sharing-state'
import { TableServer, type TableServerOptions } from './screens/table-server'
import { tableCertificate, type TableCertificate } from './screens/certificate'
import { Signal } from './signal'
import type { ShellControl, Table } from './table'

export interface TableOptions {
  /** Where the games, the history, the players and the settings are kept. */
  dataDir: string
  appVersion?: string
  now?: () => number
  /** A die value 1-6 for virtual dice; cryptographically random unless a test says otherwise. */
  rollDie?: () => number
  /** How a position's odds are worked out: in the odds worker unless a test says otherwise. */
  oddsWork?: OddsWork
  /**
   * Solved chance-to-win tables for Farkle and Fouche: by default solved in a worker and cached
   * in the data folder (`win-tables/`); a source of tables solved beforehand (tests); or none.
   */
  winTables?: WinTableSource | 'solve' | 'none'
  /** The computer player's pause and randomness; 'none' leaves computer seats to be played by hand (tests). */
  computer?: Omit<ComputerPlayerOptions, 'table' | 'notices' | 'winTables'> | 'none'
  devices?: Omit<DeviceRegistryOptions, 'notices' | 'settings'> & Omit<DevicesOptions, 'registry' | 'table' | 'notices'>
  /**
   * The HTTP + WebSocket server: the headless host serves its screens always (`always`); the
   * desktop app serves only while LAN sharing is on.
   */
  serve?: Omit<TableServerOptions, 'table' | 'sharing' | 'pairing' | 'lanTls'> & {
    always: boolean
    /** The LAN is served over HTTPS with the table's own certificate, kept in the data folder (certificate.ts). */
    https?: boolean
  }
  /** What only the desktop app's shell can do (displays, the Bluetooth picker). */
  shell?: ShellControl
  /** The league this table joined (http://NAME:PW@HOST:PORT/DB, docs/league.md); none: a table alone. */
  league?: string
  /**
   * Why this process may not write the data folder (it could not take its lock: data-lock.ts):
   * the games are shown read-only and every change is refused with it. None: it may write.
   */
  readOnly?: FolderNotWritableError | null
  /** What went wrong before the table was made that the screens are to be told too (the log cannot be kept). */
  startProblems?: string[]
}

/** The parts of a table, made and wired; `start` listens (when it serves) and starts the devices. */
export interface CreatedTable extends Table {
  readonly server: TableServer | null
  /** The odds worker (null when a test works the odds out itself). */
  readonly oddsThread: OddsThread | null
  /** The certificate the LAN is served with over HTTPS, once sharing made or read it (null otherwise). */
  readonly certificate: TableCertificate | null
  start(): Promise<void>
}

export function createTable(options: TableOptions): CreatedTable {
  const notices = new Notices()
  const stopLoggingNotices = logNotices(notices)
  const readOnly = options.readOnly ?? null
  // Drafts a crash left behind are removed by the folder's writer before anything reads the folder.
  if (!readOnly) removeDrafts(['', 'history', 'trash', 'win-tables', 'tls'].map((folder) => join(options.dataDir, folder)))
  const settings = new SettingsStore(options.dataDir, readOnly)
  const archive = new HistoryArchive(options.dataDir, options.now, readOnly)
  const registry = new DeviceRegistry({ ...options.devices, notices, settings })
  const game = new GameTable({
    journal: new RecordJournal(archive),
    archive,
    now: options.now,
    rollDie: options.rollDie,
    appVersion: options.appVersion,
    gameDice: () => registry.gameDice()
  })
  const history = new HistoryService(archive, game)
  const players = new PlayerRecords(
    archive,
    (done, total) => notices.post(done < total ? `Rebuilding the statistics from the records: ${done} of ${total} games` : `Statistics rebuilt from ${total} records`, 'info'),
    (text) => notices.post(text, 'warning')
  )
  game.subscribe((event) => {
    if (event.type === 'archived') rememberQuietly(() => players.archived(event.id, event.game))
    if (event.type === 'replaced' && event.why === 'started' && event.game) {
      const names = personNames(event.game)
      rememberQuietly(() => settings.rememberPlayers(names))
      rememberQuietly(() => players.remember(names))
    }
    // The news of a move is the move itself: what the table was told before it is old.
    if (event.type === 'moved') notices.clear()
    if (event.type !== 'moved' && event.type !== 'archived') notices.setWithChange(event.news.text, event.news.level)
  })

  const winTablesChanged = new Signal()
  const solving = options.winTables === undefined || options.winTables === 'solve' ? new WinTables({ dir: readOnly ? null : join(options.dataDir, 'win-tables'), onChange: () => winTablesChanged.emit() }) : null
  const winTables: WinTableSource | null = solving ?? (typeof options.winTables === 'object' ? options.winTables : null)
  // Farkle and Fouche odds carry the chance to win once its table is solved, or how far solving is.
  const oddsCache = new OddsCache((position) => (winTables ? (moduleOf(position).odds.tablesKey?.(position.state, winTables) ?? '') : ''))
  const oddsThread = options.oddsWork ? null : new OddsThread({ winTables })
  const odds = new OddsService(oddsCache, game, () => settings.get().showOdds, options.oddsWork ?? ((position) => oddsThread!.compute(position)))
  const computer = options.computer === 'none' ? null : new ComputerPlayer({ ...options.computer, table: game, notices, winTables })
  const devices = new Devices({ ...options.devices, registry, table: game, notices })
  const camera = new CameraDice({ game, settings, dataDir: options.dataDir, readOnly, now: options.now })
  // The league: the table's games go to the one it joined, whose page is served at /_league/; this computer may host one (src/main/league).
  const leagues = new Leagues({
    dataDir: options.dataDir,
    game,
    archive,
    players,
    notices,
    rendererDir: options.serve?.rendererDir ?? '',
    log,
    joinAtStart: options.league,
    readOnly,
    now: options.now
  })

  const sharing = new SharingState()
  const pairing = new Pairing(options.dataDir, options.now, undefined, readOnly !== null)
  // What the screens are told at start, in one message: what stops the app saving, then damaged files, then the game resumed.
  const atStart = [
    ...(readOnly ? [readOnly.message] : []),
    ...(readOnly && options.league !== undefined ? ['The league is not joined either: a table joins it with a data folder it can write.'] : []),
    ...(options.startProblems ?? []),
    ...[settings.problem, players.problem, pairing.problem].filter((problem): problem is string => problem !== null)
  ]
  if (atStart.length > 0 || game.startNews) {
    const texts = [...atStart, ...(game.startNews ? [game.startNews.text] : [])]
    notices.post(texts.join(' '), game.startNews?.level === 'error' ? 'error' : atStart.length > 0 ? 'warning' : game.startNews!.level)
  }
  const screens = new Screens({ game, history, computer, setShowOdds: (on) => table.setShowOdds(on), camera }, notices, () => views.changed())
  const views: ScreenViews = new ScreenViews({
    table: game,
    notices,
    settings,
    sharing: options.serve ? sharing : null,
    pairing,
    pairedConnected: () => screens.pairedConnected(),
    devices,
    camera,
    computer: computer ?? { subscribe: () => () => undefined, thinking: () => null },
    odds,
    others: [winTablesChanged, leagues.changes],
    league: () => leagues.view()
  })

  let server: TableServer | null = null
  const serve = options.serve
  const served = { views, screens, notices, answer: (screen: Screen, method: string, args: unknown[]) => dispatch(table, screen, method, args) }
  /** The certificate the LAN is served with, as the host prints it; null until made (or without HTTPS). */
  let certificate: TableCertificate | null = null
  const lanTls = serve?.https
    ? async (addresses: string[]): Promise<TableCertificate> => {
        certificate = await tableCertificate(options.dataDir, addresses, readOnly === null, options.now)
        log.info({ fingerprint: certificate.fingerprint, made: certificate.made, path: certificate.path }, certificate.made ? 'made the table’s certificate' : 'the table’s certificate')
        return certificate
      }
    : undefined
  const makeServer = (): TableServer => new TableServer({ ...serve!, table: served, sharing, pairing, routes: leagues.routes, ...(lanTls ? { lanTls } : {}) })

  const table: CreatedTable = {
    dataDir: options.dataDir,
    game,
    history,
    players,
    devices,
    camera,
    computer,
    odds,
    winTables: solving,
    settings,
    notices,
    screens,
    views,
    sharing,
    pairing,
    leagues,
    oddsThread,
    shell: options.shell ?? {},
    get server() {
      return server
    },
    get certificate() {
      return certificate
    },
    setShowOdds(on: boolean): Outcome {
      try {
        settings.update({ showOdds: on })
      } catch (error) {
        const trouble = diskTrouble(error)
        return { ok: false, error: `${trouble.what}: the setting was not changed. ${trouble.remedy} try again.` }
      }
      views.changed()
      return { ok: true }
    },
    async setSharing(enabled: boolean): Promise<Outcome> {
      if (!serve) return { ok: false, error: 'Sharing is not available here' }
      if (enabled && !server) {
        const started = makeServer()
        try {
          await started.start()
        } catch (error) {
          await started.stop().catch(() => undefined)
          const reason = (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? `port ${serve.port} is in use (is \`npm run table\` running?)` : (error as Error).message
          return { ok: false, error: `Sharing could not start: ${reason}` }
        }
        server = started
      }
      if (!server) return { ok: true }
      const outcome = await server.setSharing(enabled)
      if (!enabled && !serve.always) {
        await server.stop()
        server = null
      }
      return outcome
    },
    async start(): Promise<void> {
      if (serve?.always) {
        server = makeServer()
        await server.start()
      }
      await leagues.start()
      devices.start()
      // The statistics are read ahead of the first Players page (a damaged cache is rebuilt, with progress on the screens).
      void players.warm().catch(() => undefined)
    },
    async stop(): Promise<void> {
      stopLoggingNotices()
      computer?.stop()
      solving?.stop()
      await oddsThread?.stop()
      await server?.stop()
      server = null
      await leagues.stop()
      await devices.stop()
      camera.stop()
      game.close()
    }
  }
  return table
}

/** Recent names and the player list are a convenience: a disk that refuses them does not stop the game. */
function rememberQuietly(remember: () => void): void {
  try {
    remember()
  } catch {
    // See above.
  }
}
