// A table's side of a league (docs/league.md): its games as documents of an embedded PouchDB in
// the data folder (`league.pouchdb/`), replicated to the league's CouchDB database by PouchDB's
// own replication (CouchDB's protocol: live, retrying, resuming from its checkpoint).
//
// The JSONL records in the data folder stay the truth: the documents are made from them, at
// start for every finished game the table has (so a game finished while the app was killed is
// sent all the same) and then as games are played. A finished game becomes one document whose id
// is the table's name and a hash of its record: the same game is never two documents, a game
// played with the same people on another table is another document, and the document is never
// changed afterwards (replication has no conflict to resolve). The game in progress is one more
// document per table (`live:TABLE`), replaced as it goes, for the league's TV.
//
// Offline first: the local database takes every document whether the league is reachable or not,
// and the replication sends what it has not sent once the league answers again.
import { createHash } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type PouchDB from 'pouchdb-node'
import type { Document, PouchError, Replication } from 'pouchdb-node'
import { recordText, replayText, summaryOf } from '@shared/game'
import { gameDocumentId, liveDocumentId, MAX_RECORD_CHARACTERS, peopleDocumentId } from '@shared/league'
import type { PlayerList } from '@shared/stats'
import { parseLeagueUrl, type LeagueAddress } from './league-url'

/** The local database's folder in the data folder. */
export const LOCAL_DATABASE = 'league.pouchdb'
/** Replication's wait before trying again after a failure: doubling from half a second to this. */
export const LONGEST_RETRY_MS = 5_000
/** After the league refused the credentials, they are tried again this much later (the organiser may fix them). */
export const RETRY_AFTER_REFUSAL_MS = 30_000
/** Documents sent in one request. */
const BATCH_SIZE = 50

export interface LeagueRecords {
  /** Every game of the history: its id and record text (unfinished ones are skipped). */
  finished(): Iterable<{ id: string; text: string }>
  /** The game on the table now, or null. */
  current(): { id: string; text: string } | null
}

export interface LeagueLog {
  info(fields: object, message: string): void
  warn(fields: object, message: string): void
}

export interface LeagueSyncOptions {
  dataDir: string
  /** `http://NAME:PW@HOST:PORT/DB`. */
  leagueUrl: string
  /** The table's name in the league: the URL's NAME (given, it must be the same unless NAME is the league's admin). */
  tableId?: string
  records: LeagueRecords
  /** The table's player list (renames and merges), sent for the league to match people by. */
  people?: () => PlayerList
  log?: LeagueLog
  now?: () => number
}

export interface LeagueStatus {
  /** The league's address, without the password. */
  league: string
  table: string
  /** The league answered the last request (false while it is down or refuses). */
  connected: boolean
  /** Documents the table has that the league has not confirmed yet; null until known. */
  pending: number | null
  /** Documents sent since the table started. */
  sent: number
  /** Why the league was last not reached, or refused something; null when all is well. */
  lastError: string | null
  /** When the league last confirmed a document (milliseconds). */
  lastSentAt: number | null
}

const silent: LeagueLog = { info: () => undefined, warn: () => undefined }

export class LeagueSync {
  readonly address: LeagueAddress
  readonly table: string
  private readonly options: LeagueSyncOptions
  private readonly log: LeagueLog
  private readonly now: () => number
  private local: PouchDB | null = null
  private remote: PouchDB | null = null
  private replication: Replication | null = null
  private retryTimer: NodeJS.Timeout | null = null
  /** Writes to the local database, one after the other. */
  private queue: Promise<void> = Promise.resolve()
  /** The latest game on the table not written yet (undefined: none waiting). */
  /** The record of the game on the table when the next live write happens (worked out then: notes come with every move). */
  private currentWaiting: (() => string | null) | undefined = undefined
  private liveRev: string | undefined
  /** The record the live document holds (undefined: not known yet). */
  private liveRecord: string | null | undefined = undefined
  private peopleSent = ''
  /** The last local sequence the league confirmed (the replication's checkpoint). */
  private confirmedSeq: number | string = 0
  private stopped = false
  private readonly listeners = new Set<(status: LeagueStatus) => void>()
  private state: LeagueStatus

  constructor(options: LeagueSyncOptions) {
    const parsed = parseLeagueUrl(options.leagueUrl)
    if (!parsed.ok) throw new Error(parsed.error)
    this.address = parsed.address
    const name = parsed.address.credentials!.username
    this.table = options.tableId ?? name
    if (this.table !== name) throw new Error(`the table's name in the league is the address's user name (${name}), not ${this.table}`)
    this.options = options
    this.log = options.log ?? silent
    this.now = options.now ?? Date.now
    this.state = { league: this.address.shown, table: this.table, connected: false, pending: null, sent: 0, lastError: null, lastSentAt: null }
  }

  /** Opens the local database, makes a document of every finished game it lacks, and starts replicating. */
  async start(): Promise<void> {
    mkdirSync(this.options.dataDir, { recursive: true })
    // PouchDB is loaded when a table joins a league: the host of a table that joins none is 27 MB smaller.
    const { default: PouchDB } = await import('pouchdb-node')
    this.local = new PouchDB(join(this.options.dataDir, LOCAL_DATABASE), { auto_compaction: true })
    this.remote = new PouchDB(this.address.database, { auth: this.address.credentials!, skip_setup: true })
    this.confirmedSeq = ((await this.local.get('_local/league-confirmed').catch(() => null)) as { seq?: number | string } | null)?.seq ?? 0
    // What the league has already been sent is not written again (a restart sends nothing new).
    const live = await this.local.get(liveDocumentId(this.table)).catch(() => null)
    if (live) {
      this.liveRev = live._rev
      this.liveRecord = (live.record as string | null | undefined) ?? null
    }
    const people = await this.local.get(peopleDocumentId(this.table)).catch(() => null)
    if (people) this.peopleSent = JSON.stringify(people.people)
    await this.enqueue(() => this.addFinished(this.options.records.finished()))
    const current = this.options.records.current()
    this.noteCurrent(current?.text ?? null)
    this.notePeople()
    await this.queue
    this.replicate()
    void this.countPending()
  }

  /**
   * A game has left the table (moved to the history, replaced by a new game): a finished one
   * becomes its document (an unfinished one is no league game). Never coalesced: call it for every
   * game that leaves the table, as the live document may have skipped its last state.
   */
  noteArchived(id: string, text: string): void {
    void this.enqueue(() => this.addFinished([{ id, text }]))
  }

  /**
   * The game on the table changed (a move, a new game; null: no game): the live document follows,
   * and a finished game gets its own document. Notes that come faster than the local database
   * writes are coalesced: only the latest is written.
   */
  noteCurrent(text: string | null | (() => string | null)): void {
    const waiting = this.currentWaiting !== undefined
    this.currentWaiting = typeof text === 'function' ? text : () => text
    if (!waiting) void this.enqueue(() => this.writeCurrent())
  }

  /** The player list may have changed: the league gets it when it did. */
  notePeople(): void {
    if (!this.options.people) return
    const people = this.options.people()
    const text = JSON.stringify(people)
    if (text === this.peopleSent) return
    this.peopleSent = text
    void this.enqueue(async () => {
      const id = peopleDocumentId(this.table)
      await this.upsert({ _id: id, type: 'people', table: this.table, people })
    })
  }

  status(): LeagueStatus {
    return { ...this.state }
  }

  /** Listens for changes of the status; returns a function that stops listening. */
  onStatus(listener: (status: LeagueStatus) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The local database (for the league view of a table, and tests). */
  get database(): PouchDB | null {
    return this.local
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.retryTimer) clearTimeout(this.retryTimer)
    await this.queue
    await this.cancelReplication()
    await this.local?.close()
    await this.remote?.close()
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.queue.then(work).catch((error: Error) => {
      this.update({ lastError: `Could not keep the league's copy of the games: ${error.message}` })
      this.log.warn({ err: error }, 'league: a document could not be written to the local database')
    })
    this.queue = next
    return next
  }

  private async addFinished(records: Iterable<{ id: string; text: string }>): Promise<void> {
    const documents: Document[] = []
    for (const { id, text } of records) {
      const document = this.gameDocument(text, id)
      if (document) documents.push(document)
    }
    await this.addGames(documents)
  }

  /** Adds the documents of finished games the local database lacks (a game's id says whether it has it). */
  private async addGames(documents: Document[]): Promise<void> {
    if (documents.length === 0) return
    const known = await this.local!.allDocs({ keys: documents.map((document) => document._id) })
    const missing = documents.filter((_, index) => known.rows[index].error !== undefined || known.rows[index].value?.deleted)
    if (missing.length === 0) return
    const results = await this.local!.bulkDocs(missing)
    for (const result of results) if (result.error && result.status !== 409) throw new Error(`${result.id}: ${result.reason ?? result.message}`)
    this.log.info({ games: missing.length }, 'league: finished games ready to send')
    void this.countPending()
  }

  /** The document of a finished game, or null for a game that is not finished (or cannot be read, or is too long). */
  private gameDocument(text: string, historyId: string): Document | null {
    const replayed = replayText(text, { tolerateTruncatedTail: true })
    if (!replayed.ok) {
      this.log.warn({ historyId, line: replayed.line, reason: replayed.error }, 'league: a game of the history cannot be read and is not sent')
      return null
    }
    if (!summaryOf(replayed.game).finished) return null
    // The record as the app writes it: the same game always gives the same text, so the same id.
    const record = recordText(replayed.game)
    if (record.length > MAX_RECORD_CHARACTERS) {
      this.update({ lastError: `Game ${historyId} is too long for the league (${record.length} characters) and stays on this table` })
      return null
    }
    return { _id: gameDocumentId(this.table, recordHash(record)), type: 'game', table: this.table, record }
  }

  private async writeCurrent(): Promise<void> {
    const text = this.currentWaiting?.()
    this.currentWaiting = undefined
    if (text === undefined) return
    const finished = text === null ? null : this.gameDocument(text, 'current')
    if (finished) await this.addGames([finished])
    const record = text === null || text.length > MAX_RECORD_CHARACTERS ? null : text
    if (record === this.liveRecord) return
    await this.upsert({ _id: liveDocumentId(this.table), type: 'live', table: this.table, record, updatedAt: this.now() }, true)
    this.liveRecord = record
    void this.countPending()
  }

  /** Writes a document that the table replaces (its live game, its player list). */
  private async upsert(document: Document, live = false): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      let rev = live ? this.liveRev : undefined
      if (rev === undefined) {
        try {
          rev = (await this.local!.get(document._id))._rev
        } catch {
          rev = undefined
        }
      }
      try {
        const result = await this.local!.put(rev ? { ...document, _rev: rev } : document)
        if (live) this.liveRev = result.rev
        return
      } catch (error) {
        if ((error as PouchError).status !== 409 || attempt > 2) throw error
        if (live) this.liveRev = undefined
      }
    }
  }

  private replicate(): void {
    if (this.stopped || !this.local || !this.remote) return
    const replication = this.local.replicate.to(this.remote, {
      live: true,
      retry: true,
      batch_size: BATCH_SIZE,
      back_off_function: (delay) => Math.min(LONGEST_RETRY_MS, Math.max(500, delay * 2))
    })
    this.replication = replication
    replication
      .on('active', () => this.update({ connected: true }))
      .on('change', (info) => {
        this.update({ connected: true, sent: this.state.sent + info.docs_written, lastSentAt: this.now() })
      })
      .on('checkpoint', (info) => {
        if (info.checkpoint === undefined) return
        this.confirmedSeq = info.checkpoint
        void this.enqueue(() => this.upsert({ _id: '_local/league-confirmed', seq: info.checkpoint }))
        void this.countPending()
      })
      .on('paused', (error) => {
        if (error) {
          this.update({ connected: false, lastError: `The league is not reached: ${describe(error)}. The games are kept and sent when it answers.` })
        } else {
          this.update({ connected: true, lastError: this.state.lastError?.startsWith('The league is not reached') ? null : this.state.lastError })
          void this.countPending()
        }
      })
      .on('denied', (error) => {
        this.update({ lastError: `The league refused ${error.id ?? 'a document'}: ${describe(error)}` })
        this.log.warn({ id: error.id, reason: describe(error) }, 'league: the league refused a document')
      })
      .on('error', (error) => {
        // Replication stops on a refusal of the credentials: tried again later, in case the organiser fixes them.
        if (this.replication !== replication) return
        this.replication = null
        this.update({ connected: false, lastError: `The league refused table ${this.table}: ${describe(error)}` })
        this.log.warn({ reason: describe(error) }, 'league: the league refused this table')
        if (!this.stopped) {
          this.retryTimer = setTimeout(() => this.replicate(), RETRY_AFTER_REFUSAL_MS)
          this.retryTimer.unref()
        }
      })
  }

  private async cancelReplication(): Promise<void> {
    const replication = this.replication
    this.replication = null
    if (!replication) return
    const done = new Promise<void>((resolve) => replication.on('complete', () => resolve()).on('error', () => resolve()))
    replication.cancel()
    await done
  }

  /** Counts the documents changed since the league's last confirmation. */
  private async countPending(): Promise<void> {
    if (!this.local || this.stopped) return
    try {
      const changes = await this.local.changes({ since: this.confirmedSeq, style: 'main_only' })
      const pending = changes.results.filter((change) => !change.id.startsWith('_')).length
      if (pending !== this.state.pending) this.update({ pending })
    } catch {
      // The count is a courtesy for the screens; the next event counts again.
    }
  }

  private update(change: Partial<LeagueStatus>): void {
    const before = JSON.stringify(this.state)
    this.state = { ...this.state, ...change }
    if (JSON.stringify(this.state) === before) return
    for (const listener of this.listeners) listener(this.status())
  }
}

/** The SHA-256 of a record's text, in hex: part of its document's id. */
export function recordHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

function describe(error: PouchError): string {
  const status = error.status ? ` (${error.status})` : ''
  return `${error.reason ?? error.message ?? error.name}${status}`
}
