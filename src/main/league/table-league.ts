// A table that joined a league (`npm run table -- --league URL`; the desktop app's sharing
// settings): its games go to the league through LeagueSync, and its own server shows the league
// page and TV (/_league/, /_league/tv) read from the league, with the table's sync status at
// /_league/sync. The few lines that make it belong where a table is created (createTable).
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { recordText, summaryOf, type Game } from '../../shared/game'
import { mergeDocumentId } from '../../shared/league'
import type { RecordStore } from '../core/record-store'
import type { TableSession } from '../core/table-session'
import { LeagueFeed } from './league-feed'
import { leagueRoutes, sendJson } from './league-routes'
import { LeagueSync, type LeagueLog, type LeagueStatus } from './league-sync'

export interface TableLeagueOptions {
  session: TableSession
  store: RecordStore
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
  private shownGame: Game | null | undefined = undefined

  constructor(private readonly options: TableLeagueOptions) {
    const { session, store } = options
    this.sync = new LeagueSync({
      dataDir: options.dataDir,
      leagueUrl: options.leagueUrl,
      records: {
        *finished() {
          for (const entry of session.listHistory()) {
            if (entry.id === 'current' || !entry.finished) continue
            const text = store.readHistoryRecord(entry.id)
            if (text !== null) yield { id: entry.id, text }
          }
        },
        current: () => (session.currentGame ? { id: 'current', text: recordText(session.currentGame) } : null)
      },
      people: () => session.players.people(),
      log: options.log
    })
    this.feed = new LeagueFeed({
      database: this.sync.address.database,
      credentials: this.sync.address.credentials,
      timeZone: options.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
      log: options.log,
      onRefused: (id, reason) => session.notify(`The league sent a document this table refused (${id}): ${reason}`, 'warning')
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
    this.shownGame = this.options.session.currentGame
    this.unsubscribe = this.options.session.subscribe(() => this.follow())
  }

  status(): LeagueStatus {
    return this.sync.status()
  }

  async stop(): Promise<void> {
    this.unsubscribe?.()
    await this.feed.stop()
    await this.sync.stop()
  }

  private follow(): void {
    const game = this.options.session.currentGame
    if (game !== this.shownGame) {
      // A finished game replaced (a new game, a rematch, closed): its document, whatever the live document skipped.
      const previous = this.shownGame
      if (previous && previous.header !== game?.header && summaryOf(previous).finished) this.sync.noteArchived('previous', recordText(previous))
      this.shownGame = game
      this.sync.noteCurrent(game ? recordText(game) : null)
    }
    this.sync.notePeople()
  }
}

function isLoopback(request: IncomingMessage): boolean {
  const address = request.socket.localAddress ?? ''
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1'
}
