// The league host (`npm run league`): a CouchDB-compatible league database for a club without a
// CouchDB, built on express-pouchdb over PouchDB's LevelDB store, plus the league page and TV.
//
// It answers CouchDB's own HTTP API at http://HOST:PORT/DB (tables replicate into it with
// PouchDB, and CouchDB's tools read it), with the league's rules in front (docs/league.md,
// "Security"):
// - who may write: a table with the league password (as the name it joins with), or with the key
//   the host issued for its name (a name with a key is no longer admitted with the password);
//   `admin` with the league password is the organiser. `--keys-only` admits tables by key only.
// - what they may write: every document goes through the league's validate_doc_update function
//   (design-document.ts, the same text a real CouchDB runs) and then the full check a reader makes
//   (its shape, its record replayed by the rules engine). A table cannot write, change or delete
//   another table's documents, nor change a finished game.
// - who may watch: anyone who reaches the host, unless `--private` asks for credentials.
// Writes (documents, _bulk_docs) are made here with PouchDB after those checks; everything else
// (reads, _changes, _revs_diff, _bulk_get, checkpoints in _local) is express-pouchdb's.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { join } from 'node:path'
import expressPouchDb from 'express-pouchdb'
import PouchDB, { type Document } from 'pouchdb-node'
import type { Outcome } from '@shared/api'
import { jsonNesting } from '@shared/json-limits'
import { checkLeagueDocument, MAX_DOCUMENT_NESTING, mergeDocumentId } from '@shared/league'
import { writeDurably } from '../core/files/durable-files'
import { ADMIN_NAME, compileValidation, leagueDesignDocument, ORGANISER_ROLE, refusalReason, TABLE_ROLE, type UserContext } from './design-document'
import { LeagueFeed } from './league-feed'
import { leagueRoutes, readBody, sendJson, type MergeRequest } from './league-routes'
import { recordHash, type LeagueLog } from './league-sync'
import { isTableName } from './league-url'

export interface LeagueHostOptions {
  /** Where the league's database and keys are kept. */
  dataDir: string
  port: number
  /** The address to listen on (default every address: the tables are on the LAN). */
  listen?: string
  password: string
  /** The database's name (default `league`). */
  database?: string
  /** Tables are admitted by the key issued for them only (the password is then the organiser's). */
  keysOnly?: boolean
  /** Watching (the page, the TV, reading the database) needs credentials too. */
  privateView?: boolean
  /** The built renderer (league.html and its assets). */
  rendererDir: string
  /** The time zone nights are dates in (default the host's). */
  timeZone?: string
  log?: LeagueLog
}

/** What the host saw of each table since it started (the league page's status, the tests and the bench). */
export interface TableTraffic {
  /** Documents taken from it. */
  received: number
  /** Documents refused. */
  refused: number
  /** Revisions it asked about (`_revs_diff`): a table that lost its checkpoint asks about all again. */
  asked: number
  lastSeenAt: number
}

const MAX_WRITE_BYTES = 64 * 1024 * 1024
/** Wrong credentials allowed per minute from one address before it is answered 429. */
const WRONG_CREDENTIALS_PER_MINUTE = 20
const READ_POSTS = new Set(['_all_docs', '_bulk_get', '_changes', '_revs_diff', '_ensure_full_commit'])
const silent: LeagueLog = { info: () => undefined, warn: () => undefined }

export class LeagueHost {
  readonly database: string
  /** What the league page shows, read from this host's own database (made at start, once the port is known). */
  feed!: LeagueFeed
  readonly traffic = new Map<string, TableTraffic>()
  private readonly options: LeagueHostOptions
  private readonly log: LeagueLog
  private readonly Server: typeof PouchDB
  private readonly app: ReturnType<typeof expressPouchDb>
  private readonly http: Server
  private readonly validate = compileValidation()
  private routes: ((request: IncomingMessage, response: ServerResponse) => boolean) | null = null
  private readonly keysPath: string
  private keys: Record<string, string>
  private readonly uuid: string
  private db: PouchDB | null = null
  private writes: Promise<unknown> = Promise.resolve()
  private failures = new Map<string, number>()
  private failureWindow = 0
  private actualPort = 0

  constructor(options: LeagueHostOptions) {
    this.options = options
    this.log = options.log ?? silent
    this.database = options.database ?? 'league'
    const folder = join(options.dataDir, 'databases')
    mkdirSync(folder, { recursive: true })
    this.Server = PouchDB.defaults({ prefix: `${folder}/`, auto_compaction: true })
    this.app = expressPouchDb(this.Server, { mode: 'minimumForPouchDB' })
    this.keysPath = join(options.dataDir, 'keys.json')
    this.keys = existsSync(this.keysPath) ? (JSON.parse(readFileSync(this.keysPath, 'utf8')) as Record<string, string>) : {}
    this.uuid = this.serverUuid()
    this.http = createServer((request, response) => void this.answer(request, response))
  }

  get port(): number {
    return this.actualPort
  }

  /** The address of the league host on this computer. */
  get url(): string {
    return `http://127.0.0.1:${this.actualPort}/`
  }

  async start(): Promise<void> {
    this.db = new this.Server(this.database)
    await this.db.info()
    const design = leagueDesignDocument()
    const existing = await this.db.get(design._id).catch(() => null)
    if (existing?.validate_doc_update !== design.validate_doc_update) await this.db.put({ ...design, ...(existing ? { _rev: existing._rev } : {}) })
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject)
      this.http.listen(this.options.port, this.options.listen ?? '0.0.0.0', () => {
        this.http.off('error', reject)
        resolve()
      })
    })
    const address = this.http.address()
    this.actualPort = typeof address === 'object' && address ? address.port : this.options.port
    const options = this.options
    this.feed = new LeagueFeed({
      database: `http://127.0.0.1:${this.actualPort}/${this.database}`,
      credentials: { username: ADMIN_NAME, password: options.password },
      timeZone: options.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
      log: this.log
    })
    this.routes = leagueRoutes({
      feed: this.feed,
      rendererDir: options.rendererDir,
      mayWatch: (request) => !options.privateView || this.userOf(request) !== null,
      mergeAccess: (request) => (this.userOf(request) ? 'yes' : 'password'),
      merge: (request, merge) => this.merge(request, merge),
      more: (request, response, path) => this.answerOwn(request, response, path)
    })
    this.feed.start()
  }

  async stop(): Promise<void> {
    await this.feed?.stop()
    this.http.closeAllConnections()
    await new Promise<void>((resolve) => this.http.close(() => resolve()))
    await this.writes
    await this.db?.close()
  }

  /** Issues a key for a table (a new one replaces the old): from then on that name is admitted with it only. */
  issueKey(table: string): Outcome<{ key: string }> {
    if (!isTableName(table)) return { ok: false, error: `${JSON.stringify(table)} cannot be a table's name (letters, digits, _ . -; at most 40; not admin)` }
    const key = randomBytes(18).toString('base64url')
    this.keys = { ...this.keys, [table]: sha256(key) }
    writeDurably(this.keysPath, `${JSON.stringify(this.keys, null, 1)}\n`)
    return { ok: true, key }
  }

  private serverUuid(): string {
    const path = join(this.options.dataDir, 'server.json')
    try {
      const uuid = (JSON.parse(readFileSync(path, 'utf8')) as { uuid?: unknown }).uuid
      if (typeof uuid === 'string' && /^[0-9a-f]{32}$/.test(uuid)) return uuid
    } catch {
      // A new league host: it gets its identity below.
    }
    const uuid = randomUUID().replace(/-/g, '')
    writeDurably(path, `${JSON.stringify({ uuid })}\n`)
    return uuid
  }

  /** Who sent a request: a table, the organiser, or nobody (no or wrong credentials). */
  private userOf(request: IncomingMessage): UserContext | null {
    const header = request.headers.authorization
    if (!header?.startsWith('Basic ')) return null
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    if (colon < 0) return null
    const name = decoded.slice(0, colon)
    const password = decoded.slice(colon + 1)
    const passwordRight = sameSecret(password, this.options.password)
    if (name === ADMIN_NAME) return passwordRight ? { name, roles: ['_admin', ORGANISER_ROLE] } : null
    if (!isTableName(name)) return null
    const key = this.keys[name]
    if (key !== undefined) return sameSecret(sha256(password), key) ? { name, roles: [TABLE_ROLE] } : null
    return passwordRight && !this.options.keysOnly ? { name, roles: [TABLE_ROLE] } : null
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      if (this.routes?.(request, response)) return
      const credentialsGiven = request.headers.authorization !== undefined
      const user = this.userOf(request)
      if (credentialsGiven && !user) {
        if (!this.mayTryCredentials(request)) return couchError(response, 429, 'too_many_requests', 'Too many wrong names or passwords: wait a minute')
        this.countWrongCredentials(request)
        this.log.warn({ from: request.socket.remoteAddress }, 'league: refused wrong credentials')
        return couchError(response, 401, 'unauthorized', 'Name or password is incorrect.')
      }
      await this.answerCouch(request, response, user)
    } catch (error) {
      this.log.warn({ err: error }, 'league: a request failed')
      if (!response.headersSent) couchError(response, 500, 'internal_error', (error as Error).message)
      else response.end()
    }
  }

  private async answerCouch(request: IncomingMessage, response: ServerResponse, user: UserContext | null): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://host')
    const segments = url.pathname.split('/').filter((segment) => segment !== '')
    const method = request.method ?? 'GET'
    const reading = method === 'GET' || method === 'HEAD'
    const mayRead = user !== null || !this.options.privateView
    const organiser = user?.roles.includes('_admin') ?? false
    if (segments.length === 0) {
      return sendJson(response, 200, { couchdb: 'Welcome', version: '3.3.3', vendor: { name: 'Dice Referee league host (express-pouchdb)' }, uuid: this.uuid })
    }
    const first = decodeURIComponent(segments[0])
    if (first === '_session') return sendJson(response, 200, { ok: true, userCtx: user ?? { name: null, roles: [] }, info: { authenticated: 'default' } })
    if (first === '_all_dbs') return mayRead ? sendJson(response, 200, [this.database]) : unauthorized(response)
    if (first === '_uuids') return this.app(request, response)
    if (first !== this.database) return couchError(response, 404, 'not_found', 'Database does not exist.')
    const second = segments[1] === undefined ? undefined : decodeURIComponent(segments[1])
    if (second === undefined) {
      if (reading) return mayRead ? this.app(request, response) : unauthorized(response)
      if (method === 'PUT') return couchError(response, 412, 'file_exists', 'The database could not be created, the file already exists.')
      if (method === 'DELETE') return couchError(response, 403, 'forbidden', 'The league database is not deleted over HTTP: stop the host and remove its folder')
      if (method === 'POST') return user ? this.writeOne(request, response, user, null) : unauthorized(response)
      return couchError(response, 405, 'method_not_allowed', 'Only GET, HEAD, POST here')
    }
    if (second === '_bulk_docs' && method === 'POST') return user ? this.writeBulk(request, response, user) : unauthorized(response)
    if (second === '_local') {
      if (reading) return mayRead ? this.app(request, response) : unauthorized(response)
      return user ? this.app(request, response) : unauthorized(response)
    }
    if (second.startsWith('_') && second !== '_design') {
      if (reading) return mayRead ? this.app(request, response) : unauthorized(response)
      if (method === 'POST' && READ_POSTS.has(second)) {
        if (!mayRead) return unauthorized(response)
        if (second === '_revs_diff' && user) return this.passCounting(request, response, user)
        return this.app(request, response)
      }
      if (organiser && (second === '_compact' || second === '_view_cleanup')) return this.app(request, response)
      return couchError(response, 403, 'forbidden', `${second} is not open to tables in a league`)
    }
    const docId = second === '_design' ? `_design/${decodeURIComponent(segments[2] ?? '')}` : second
    const attachment = segments.length > (second === '_design' ? 3 : 2)
    if (reading) return mayRead ? this.app(request, response) : unauthorized(response)
    if (attachment) return couchError(response, 403, 'forbidden', 'Attachments are not part of a league')
    if (!user) return unauthorized(response)
    if (method === 'PUT') return this.writeOne(request, response, user, docId)
    if (method === 'DELETE') {
      const rev = url.searchParams.get('rev')
      if (!rev) return couchError(response, 400, 'bad_request', 'Deleting a document needs its rev')
      const [result] = await this.write(user, [{ _id: docId, _rev: rev, _deleted: true }], true)
      return answerWrite(response, result)
    }
    return couchError(response, 405, 'method_not_allowed', 'Only GET, HEAD, PUT, DELETE here')
  }

  /** A `_revs_diff` from a table: how many revisions it asked about is counted (resuming from a checkpoint asks about few). */
  private async passCounting(request: IncomingMessage, response: ServerResponse, user: UserContext): Promise<void> {
    const body = await this.readJson(request, response)
    if (body === undefined) return
    if (body && typeof body === 'object') {
      const asked = Object.values(body as Record<string, unknown>).reduce<number>((sum, revs) => sum + (Array.isArray(revs) ? revs.length : 0), 0)
      this.seen(user.name!).asked += asked
    }
    ;(request as IncomingMessage & { body?: unknown; _body?: boolean }).body = body
    ;(request as IncomingMessage & { _body?: boolean })._body = true
    this.app(request, response)
  }

  private async writeOne(request: IncomingMessage, response: ServerResponse, user: UserContext, id: string | null): Promise<void> {
    const body = await this.readJson(request, response)
    if (body === undefined) return
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return couchError(response, 400, 'bad_request', 'Document must be a JSON object')
    const document = { ...(body as Record<string, unknown>) }
    if (id !== null) document._id = id
    const [result] = await this.write(user, [document], true)
    answerWrite(response, result)
  }

  private async writeBulk(request: IncomingMessage, response: ServerResponse, user: UserContext): Promise<void> {
    const body = await this.readJson(request, response)
    if (body === undefined) return
    const { docs, new_edits: newEdits } = (body ?? {}) as { docs?: unknown; new_edits?: unknown }
    if (!Array.isArray(docs)) return couchError(response, 400, 'bad_request', "Missing JSON list of 'docs'")
    const results = await this.write(user, docs, newEdits !== false)
    sendJson(response, 201, results)
  }

  /** Reads a request's JSON body within the limits; undefined when it was refused (and answered). */
  private async readJson(request: IncomingMessage, response: ServerResponse): Promise<unknown> {
    let text: string
    try {
      text = await readBody(request, MAX_WRITE_BYTES)
    } catch (error) {
      couchError(response, 413, 'too_large', (error as Error).message)
      return undefined
    }
    // A batch of documents nests two levels above them.
    if (jsonNesting(text, MAX_DOCUMENT_NESTING + 2) > MAX_DOCUMENT_NESTING + 2) {
      couchError(response, 400, 'bad_request', 'The request nests deeper than a league document may')
      return undefined
    }
    try {
      return JSON.parse(text)
    } catch {
      couchError(response, 400, 'bad_request', 'invalid_json')
      return undefined
    }
  }

  /**
   * Checks and writes documents, one batch at a time: each through the league's validate function
   * (with the document it replaces), then the reader's full check; what passes is written with
   * PouchDB. Returns one result per document, as CouchDB's _bulk_docs does.
   */
  private write(user: UserContext, documents: unknown[], newEdits: boolean): Promise<Record<string, unknown>[]> {
    const done = this.writes.then(() => this.writeNow(user, documents, newEdits))
    this.writes = done.catch(() => undefined)
    return done
  }

  private async writeNow(user: UserContext, documents: unknown[], newEdits: boolean): Promise<Record<string, unknown>[]> {
    const db = this.db!
    const results: Record<string, unknown>[] = new Array(documents.length)
    const accepted: { index: number; document: Document }[] = []
    const traffic = user.name === ADMIN_NAME ? null : this.seen(user.name!)
    for (const [index, item] of documents.entries()) {
      if (item === null || typeof item !== 'object' || Array.isArray(item) || typeof (item as Document)._id !== 'string') {
        results[index] = { id: null, error: 'bad_request', reason: 'a league document is an object with an _id' }
        continue
      }
      const document = item as Document
      const id = document._id
      const refuse = (reason: string): void => {
        results[index] = { id, error: 'forbidden', reason }
        if (traffic) traffic.refused++
        this.log.warn({ table: user.name, id: id.slice(0, 100), reason }, 'league: refused a document')
      }
      if (id.startsWith('_local/')) {
        accepted.push({ index, document })
        continue
      }
      if (!newEdits && typeof document._rev === 'string') {
        const missing = (await db.revsDiff({ [id]: [document._rev] }))[id]
        if (!missing) {
          results[index] = { ok: true, id, rev: document._rev }
          continue
        }
      }
      const old = await db.get(id).catch(() => null)
      try {
        this.validate(document, old, user)
      } catch (thrown) {
        refuse(refusalReason(thrown))
        continue
      }
      if (!document._deleted && !id.startsWith('_design/')) {
        const checked = checkLeagueDocument(document, recordHash)
        if (!checked.ok) {
          refuse(checked.error)
          continue
        }
      }
      accepted.push({ index, document })
    }
    if (accepted.length > 0) {
      const written = await db.bulkDocs(
        accepted.map(({ document }) => document),
        { new_edits: newEdits }
      )
      accepted.forEach(({ index, document }, at) => {
        const result = written[at]
        if (!result || (!result.error && result.ok !== false)) {
          results[index] = { ok: true, id: document._id, rev: result?.rev ?? document._rev }
          if (traffic && !document._id.startsWith('_local/')) traffic.received++
        } else {
          results[index] = { id: document._id, error: result.name ?? 'error', reason: result.message ?? result.reason ?? 'not written' }
        }
      })
    }
    return results
  }

  private seen(table: string): TableTraffic {
    let traffic = this.traffic.get(table)
    if (!traffic) {
      traffic = { received: 0, refused: 0, asked: 0, lastSeenAt: 0 }
      this.traffic.set(table, traffic)
    }
    traffic.lastSeenAt = Date.now()
    return traffic
  }

  /** The host's own answers under /_league/: issuing keys and its status. */
  private answerOwn(request: IncomingMessage, response: ServerResponse, path: string): boolean {
    if (path === '/_league/keys' && request.method === 'POST') {
      void this.answerKey(request, response)
      return true
    }
    if (path === '/_league/status' && request.method === 'GET') {
      if (this.options.privateView && !this.userOf(request)) return unauthorized(response), true
      sendJson(response, 200, {
        database: this.database,
        games: this.feed.gameCount,
        refused: this.feed.refusals().length,
        tables: Object.fromEntries(this.traffic),
        memory: process.memoryUsage().rss
      })
      return true
    }
    return false
  }

  private async answerKey(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!this.userOf(request)?.roles.includes('_admin')) return sendJson(response, 401, { ok: false, error: 'Keys are issued by the organiser: admin and the league password' })
    let table: unknown
    try {
      table = (JSON.parse(await readBody(request, 1024)) as { table?: unknown }).table
    } catch {
      return sendJson(response, 400, { ok: false, error: 'send {"table": NAME}' })
    }
    const issued = this.issueKey(String(table))
    sendJson(response, issued.ok ? 200 : 400, issued.ok ? { ok: true, table, key: issued.key } : issued)
  }

  private async merge(request: IncomingMessage, merge: MergeRequest): Promise<Outcome> {
    const user = this.userOf(request) ?? (merge.password !== undefined && sameSecret(merge.password, this.options.password) ? { name: ADMIN_NAME, roles: ['_admin', ORGANISER_ROLE] } : null)
    if (!user) return { ok: false, error: 'The league password is needed to merge people' }
    const document = {
      _id: mergeDocumentId(user.name!, randomUUID().replace(/-/g, '')),
      type: 'merge',
      by: user.name,
      from: merge.from,
      table: merge.table,
      into: merge.into,
      at: Date.now()
    }
    const [result] = await this.write(user, [document], true)
    return result.ok ? { ok: true } : { ok: false, error: String(result.reason) }
  }

  private mayTryCredentials(request: IncomingMessage): boolean {
    if (Date.now() - this.failureWindow > 60_000) {
      this.failureWindow = Date.now()
      this.failures.clear()
    }
    return (this.failures.get(request.socket.remoteAddress ?? '?') ?? 0) < WRONG_CREDENTIALS_PER_MINUTE
  }

  private countWrongCredentials(request: IncomingMessage): void {
    const address = request.socket.remoteAddress ?? '?'
    this.failures.set(address, (this.failures.get(address) ?? 0) + 1)
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/** Compares secrets in constant time (their hashes, so that lengths do not tell either). */
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(Buffer.from(sha256(given), 'hex'), Buffer.from(sha256(expected), 'hex'))
}

function couchError(response: ServerResponse, status: number, error: string, reason: string): void {
  sendJson(response, status, { error, reason })
}

function unauthorized(response: ServerResponse): void {
  couchError(response, 401, 'unauthorized', 'This league needs a table’s name and password (or key) for that')
}

function answerWrite(response: ServerResponse, result: Record<string, unknown>): void {
  if (result.ok) return sendJson(response, 201, result)
  const status = result.error === 'forbidden' ? 403 : result.error === 'conflict' ? 409 : result.error === 'bad_request' ? 400 : 500
  sendJson(response, status, { error: result.error, reason: result.reason })
}
