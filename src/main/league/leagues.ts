// The table and the club's league, as the host's screens set it: the league this table joined (its
// games go there: table-league.ts), and the league this machine hosts for the club when it has
// no CouchDB (league-host.ts). Both choices are kept in the data folder (league.json, which holds
// the league's password as the tables do: it is the data folder of the table's own computer) and
// taken up again at the next start. A table alone has neither.
import { join } from 'node:path'
import type { IncomingMessage, ServerResponse } from 'node:http'
import * as v from 'valibot'
import type { LeagueView, Outcome } from '@shared/api'
import { readOwnedFile, writeOwnedFile } from '../core/files/owned-files'
import type { GameTable } from '../core/game/game-table'
import type { HistoryArchive } from '../core/history/history-archive'
import type { PlayerRecords } from '../core/players/player-records'
import type { Notices } from '../core/screens/notices'
import { Signal } from '../core/signal'
import type { LeagueHost } from './league-host'
import type { LeagueLog } from './league-sync'
import { parseLeagueUrl } from './league-url'
import type { TableLeague } from './table-league'

const FILE = 'league.json'
const choices = v.object({
  /** The league joined: http://NAME:PASSWORD@HOST:PORT/DB. */
  join: v.nullable(v.pipe(v.string(), v.maxLength(2048))),
  /** The league this machine hosts. */
  host: v.nullable(v.object({ port: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65535)), password: v.pipe(v.string(), v.minLength(1), v.maxLength(200)) }))
})
type Choices = v.InferOutput<typeof choices>

export interface LeaguesOptions {
  dataDir: string
  game: GameTable
  archive: HistoryArchive
  players: PlayerRecords
  notices: Notices
  /** The built renderer (the league page). */
  rendererDir: string
  log: LeagueLog
  /** A league given at start (`npm run table -- --league URL`): joined instead of the one kept. */
  joinAtStart?: string
  /** Why this process may not write the data folder: then it neither joins nor hosts a league. */
  readOnly?: { message: string } | null
  now?: () => number
}

export class Leagues {
  /** What the host's screens show of the league changed (joined, hosting, connected, pending). */
  readonly changes = new Signal()
  private table: TableLeague | null = null
  private hosted: LeagueHost | null = null
  private choices: Choices = { join: null, host: null }
  private readonly path: string
  private stopStatus: (() => void) | null = null

  constructor(private readonly options: LeaguesOptions) {
    this.path = join(options.dataDir, FILE)
    const file = readOwnedFile(this.path, choices, options.now, !options.readOnly)
    if (file.state === 'read') this.choices = file.value
    if (file.state === 'damaged') options.notices.post(`${file.problem} Join the league again on the Table screen.`, 'warning')
  }

  /** The league this table joined, or null. */
  get joined(): TableLeague | null {
    return this.table
  }

  /** The league this machine hosts, or null. */
  get hosting(): LeagueHost | null {
    return this.hosted
  }

  /** The league page's routes on the table's own server, while a league is joined. */
  readonly routes = (request: IncomingMessage, response: ServerResponse): boolean => this.table?.routes(request, response) ?? false

  /** Takes up what was chosen before (or the league given at start). A league that cannot be reached now is caught up with later. */
  async start(): Promise<void> {
    // A table joins (and hosts) a league with a data folder it can write (its games' documents are kept there).
    if (this.options.readOnly) return
    if (this.choices.host) await this.startHost(this.choices.host).catch((error: Error) => this.options.notices.post(`The league this computer hosts did not start: ${error.message}`, 'error'))
    const url = this.options.joinAtStart ?? this.choices.join
    if (url) await this.startJoined(url).catch((error: Error) => this.options.notices.post(`The league could not be joined: ${error.message}`, 'error'))
  }

  async stop(): Promise<void> {
    await this.stopJoined()
    await this.hosted?.stop()
    this.hosted = null
  }

  /** Joins a league (its address with this table's name and the password), or leaves it (null). */
  async join(url: string | null): Promise<Outcome> {
    if (this.options.readOnly) return { ok: false, error: this.options.readOnly.message }
    if (url !== null) {
      const parsed = parseLeagueUrl(url)
      if (!parsed.ok) return { ok: false, error: parsed.error }
    }
    await this.stopJoined()
    try {
      if (url !== null) await this.startJoined(url)
      this.save({ ...this.choices, join: url })
    } catch (error) {
      return { ok: false, error: `The league could not be joined: ${(error as Error).message}` }
    } finally {
      this.changes.emit()
    }
    this.options.notices.post(url === null ? 'This table left the league' : `This table joined the league ${this.table!.status().league}`, 'info')
    return { ok: true }
  }

  /** This machine hosts the club's league on `port` with `password`, or stops hosting it (null). */
  async host(setup: { port: number; password: string } | null): Promise<Outcome> {
    if (this.options.readOnly) return { ok: false, error: this.options.readOnly.message }
    await this.hosted?.stop()
    this.hosted = null
    try {
      if (setup) await this.startHost(setup)
      this.save({ ...this.choices, host: setup })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      return { ok: false, error: `The league was not started: ${code === 'EADDRINUSE' ? `port ${setup?.port} is in use, choose another` : (error as Error).message}` }
    } finally {
      this.changes.emit()
    }
    this.options.notices.post(setup ? `This computer hosts the league on port ${this.hosted!.port}` : 'This computer no longer hosts the league', 'info')
    return { ok: true }
  }

  /** What the host's screens show. */
  view(): LeagueView {
    const status = this.table?.status() ?? null
    return {
      joined: status && { league: status.league, table: status.table, connected: status.connected, pending: status.pending, lastError: status.lastError },
      hosting: this.hosted && { port: this.hosted.port }
    }
  }

  private async startJoined(url: string): Promise<void> {
    const { game, archive, players, notices, dataDir, rendererDir, log } = this.options
    // The league's sync, feed and standings (openskill) are loaded when a league is joined: a table
    // alone starts without them.
    const { TableLeague } = await import('./table-league')
    const league = new TableLeague({ game, archive, players, notices, dataDir, leagueUrl: url, rendererDir, log })
    await league.start()
    this.table = league
    this.stopStatus = league.sync.onStatus(() => this.changes.emit())
  }

  private async stopJoined(): Promise<void> {
    this.stopStatus?.()
    this.stopStatus = null
    const league = this.table
    this.table = null
    await league?.stop()
  }

  private async startHost(setup: { port: number; password: string }): Promise<void> {
    // The league host (express-pouchdb over PouchDB) is loaded when this computer hosts a league.
    const { LeagueHost } = await import('./league-host')
    const host = new LeagueHost({ dataDir: join(this.options.dataDir, 'league-host'), port: setup.port, password: setup.password, rendererDir: this.options.rendererDir, log: this.options.log })
    try {
      await host.start()
    } catch (error) {
      await host.stop().catch(() => undefined)
      throw error
    }
    this.hosted = host
  }

  private save(next: Choices): void {
    this.choices = next
    try {
      writeOwnedFile(this.path, next)
    } catch {
      // Kept for this run; the disk's trouble is told when a game's line cannot be saved.
    }
  }
}
