// A table that joined a league (`npm run table -- --league URL`, or the League panel of the Table
// screen): its games go to the league through LeagueSync as the game table tells of them, and
// its own server shows the league page and TV (/_league/, /_league/tv) read from the league, with
// the table's sync status at /_league/sync. Made by createTable when a league is given.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { recordText, summaryOf } from '@shared/game'
import { mergeDocumentId } from '@shared/league'
import type { GameTable, TableEvent } from '../core/game/game-table'
import type { HistoryArchive } from '../core/history/history-archive'
import type { PlayerRecords } from '../core/players/player-records'
import type { Notices } from '../core/screens/notices'
import { LeagueFeed } from './league-feed'
import { leagueRoutes, sendJson } from './league-routes'
import { LeagueSync, type LeagueLog, type LeagueStatus } from './league-sync'

export interface TableLeagueOptions {
  game: GameTable
  archive: HistoryArchive
  players: PlayerRecords
  notices: Notices
  dataDir: string
  /** `http://NAME:PW@HOST:PORT/DB`. */
  leagueUrl: string
  /** The built renderer (league.html and its assets). */
  rendererDir: string
  log?: LeagueLog
  /** The time zone nights are dates in (default this computer's). */
  timeZone?: string
}

export class TableLeague {
  readonly sync: LeagueSync
  readonly feed: LeagueFeed
  /** The league page's routes, for the table's own server (TableServerOptions.routes). */
  readonly routes: (request: IncomingMessage, response: ServerResponse) => boolean
  private unsubscribe: (() => void) | null = null

  constructor(private readonly options: TableLeagueOptions) {
    const { game, archive, players, notices } = options
    this.sync = new LeagueSync({
      dataDir: options.dataDir,
      leagueUrl: options.leagueUrl,
      records: {
        *finished() {
          for (const entry of archive.entries()) {
            if (!entry.finished) continue
            const text = archive.readRecord(entry.id)
            if (text !== null) yield { id: entry.id, text }
          }
        },
        current: () => (game.current ? { id: 'current', text: recordText(game.current) } : null)
      },
      people: () => players.people(),
      log: options.log
    })
    this.feed = new LeagueFeed({
      database: this.sync.address.database,
      credentials: this.sync.address.credentials,
      timeZone: options.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
      log: options.log,
      onRefused: (id, reason) => notices.post(`The league sent a document this table refused (${id}): ${reason}`, 'warning')
    })
    this.routes = leagueRoutes({
      feed: this.feed,
      rendererDir: options.rendererDir,
      mayWatch: () => true,
      // People are merged from the table's own computer, never from a screen on the LAN.
      mergeAccess: (request) => (isLoopback(request) ? 'yes' : 'no'),
      merge: async (_request, merge) => {
        const local = this.sync.database
        if (!local) return { ok: false, error: 'The league is not started yet' }
        await local.put({ _id: mergeDocumentId(this.sync.table, randomUUID().replace(/-/g, '')), type: 'merge', by: this.sync.table, from: merge.from, table: merge.table, into: merge.into, at: Date.now() })
        return { ok: true }
      },
      more: (request, response, path) => {
        if (path !== '/_league/sync') return false
        sendJson(response, 200, this.sync.status())
        return true
      }
    })
  }

  /** Sends what the table has and follows its games from now on. */
  async start(): Promise<void> {
    await this.sync.start()
    this.unsubscribe = this.options.game.subscribe((event) => this.follow(event))
  }

  status(): LeagueStatus {
    return this.sync.status()
  }

  async stop(): Promise<void> {
    this.unsubscribe?.()
    await this.feed.stop()
    await this.sync.stop()
  }

  private follow(event: TableEvent): void {
    // A finished game put away in the history: its document (abandoned, unfinished games stay on the table).
    if (event.type === 'archived') {
      if (summaryOf(event.game).finished) this.sync.noteArchived(event.id, recordText(event.game))
      return
    }
    // The record is written out when the live document is next written: not on every move.
    this.sync.noteCurrent(() => (this.options.game.current ? recordText(this.options.game.current) : null))
    // Names chosen for a new game may have joined the player list.
    if (event.type === 'replaced') this.sync.notePeople()
  }
}

function isLoopback(request: IncomingMessage): boolean {
  const address = request.socket.localAddress ?? ''
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1'
}
