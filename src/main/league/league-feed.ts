// Reads a league database (the league host's own, or a table's league: the league host or a real
// CouchDB) with CouchDB's `_changes` and `_all_docs` API, and keeps what the league page and TV
// show: the finished games, each table's game now, the player lists and the merges.
//
// Anything in a league may have been written by anyone who could write to it, and a real CouchDB
// checks only what its validate function says. So every document is checked here before it
// counts (documents.ts: its shape with valibot, its record replayed with the rules engine), and a
// document that is damaged, hostile or huge is refused with its reason, never thrown on: its size
// is limited while it is read, its nesting before it is parsed. The feed is plain HTTP (fetch)
// rather than PouchDB's changes(): PouchDB parses and clones every document it reads whatever
// its size or depth, which is the one thing a hostile document must not reach.
import type { Game } from '@shared/game'
import {
  checkLeagueDocument,
  GAME_HASH_LENGTH,
  leagueGameOf,
  leagueHeadToHead,
  leagueNights,
  leaguePeopleNames,
  leaguePersonResolver,
  leagueStandings,
  liveGameOf,
  MAX_DOCUMENT_NESTING,
  MAX_RECORD_CHARACTERS,
  nestsTooDeeply,
  type HeadToHeadView,
  type LeagueGame,
  type LeagueMerge,
  type LeaguePeople,
  type LeagueView,
  type LiveTable
} from '@shared/league'
import { jsonNesting } from '@shared/json-limits'
import type { PlayerList } from '@shared/stats'
import { readLeague, TooLarge } from './league-url'
import { recordHash, type LeagueLog } from './league-sync'

/** Changes asked for at a time. */
const CHANGES_LIMIT = 200
/** Documents read in one request. */
const DOCUMENTS_PER_REQUEST = 25
/** The most a document may take as JSON: its record escaped (up to 3 bytes a character) and some room. */
export const MAX_DOCUMENT_BYTES = 3 * MAX_RECORD_CHARACTERS + 64 * 1024
/** The most one answer may take; a larger one is read again a document at a time. */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024
/** A changes answer (ids and revisions only). */
const MAX_CHANGES_BYTES = 8 * 1024 * 1024
/** Refusals the view lists (the newest). */
const REFUSALS_SHOWN = 20
/** Waits between tries while the league is not reached: doubling from half a second to this. */
const LONGEST_RETRY_MS = 5_000

export interface LeagueFeedOptions {
  /** The database's address, without credentials. */
  database: string
  credentials: { username: string; password: string } | null
  /** The time zone nights are dates in. */
  timeZone: string
  log?: LeagueLog
  /** A document was refused (the table's screens are told). */
  onRefused?: (id: string, reason: string) => void
}

export class LeagueFeed {
  private readonly games = new Map<string, LeagueGame>()
  private readonly live = new Map<string, { updatedAt: number; game: Game | null }>()
  private readonly lists = new Map<string, PlayerList>()
  private readonly merges = new Map<string, LeagueMerge>()
  /** Refused documents by id: the reason, in the order refused. */
  private readonly refused = new Map<string, string>()
  private seq: number | string = 0
  private running = false
  private readonly aborter = new AbortController()
  private loop: Promise<void> | null = null
  private readonly listeners = new Set<() => void>()
  private viewCache = new Map<string, LeagueView>()
  /**
   * The standings by night, kept until a game, a player list or a merge changes: the live games
   * change with every move at every table, and the standings over thousands of games take a
   * fraction of a second.
   */
  private standingsCache = new Map<string, Pick<LeagueView, 'standings' | 'people' | 'nights'>>()
  private caughtUp = false
  private readonly waitingForCatchUp: (() => void)[] = []
  /** Grows with every change of what the feed holds. */
  version = 0
  reachable = false
  problem: string | null = null

  constructor(private readonly options: LeagueFeedOptions) {}

  get name(): string {
    return decodeURIComponent(this.options.database.slice(this.options.database.lastIndexOf('/') + 1))
  }

  /** Starts reading (once; later calls do nothing). */
  start(): void {
    if (this.running) return
    this.running = true
    this.loop = this.follow()
  }

  async stop(): Promise<void> {
    this.running = false
    this.aborter.abort()
    await this.loop
  }

  /** Resolves once the feed has read the league to its end at least once. */
  caughtUpOnce(): Promise<void> {
    if (this.caughtUp) return Promise.resolve()
    return new Promise((resolve) => this.waitingForCatchUp.push(resolve))
  }

  /** Listens for every change; returns a function that stops listening. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Finished games accepted (each record once). */
  get gameCount(): number {
    return new Set([...this.games.values()].map((game) => game.key)).size
  }

  /** Document ids of the accepted games (for tests and the bench). */
  gameIds(): string[] {
    return [...this.games.keys()]
  }

  refusals(): { id: string; reason: string }[] {
    return [...this.refused].map(([id, reason]) => ({ id, reason }))
  }

  view(night: string | null, canMerge: LeagueView['canMerge']): LeagueView {
    const cacheKey = `${night ?? ''}\n${canMerge}`
    const cached = this.viewCache.get(cacheKey)
    if (cached) return cached
    const people = this.people()
    const personOf = leaguePersonResolver(people)
    const standings = this.standingsOf(night, people)
    const tables: LiveTable[] = [...this.live]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([table, { updatedAt, game }]) => ({ table, updatedAt, game: game ? liveGameOf(game, (name) => personOf(table, name)) : null }))
    const view: LeagueView = {
      league: this.name,
      timeZone: this.options.timeZone,
      ...standings,
      night,
      tables,
      merges: [...this.merges.values()].sort((a, b) => a.at - b.at),
      gameCount: this.gameCount,
      refused: this.refusals().slice(-REFUSALS_SHOWN),
      reachable: this.reachable,
      problem: this.problem,
      canMerge
    }
    this.viewCache.set(cacheKey, view)
    return view
  }

  headToHead(first: string, second: string, night: string | null): HeadToHeadView {
    return { ...leagueHeadToHead(this.games.values(), this.people(), first, second, { night, timeZone: this.options.timeZone }), night }
  }

  private standingsOf(night: string | null, people: LeaguePeople): Pick<LeagueView, 'standings' | 'people' | 'nights'> {
    const cached = this.standingsCache.get(night ?? '')
    if (cached) return cached
    const games = [...this.games.values()]
    const made = {
      nights: leagueNights(games, this.options.timeZone),
      standings: leagueStandings(games, people, { night, timeZone: this.options.timeZone }),
      people: leaguePeopleNames(games, people)
    }
    this.standingsCache.set(night ?? '', made)
    return made
  }

  private people(): LeaguePeople {
    return { lists: this.lists, merges: [...this.merges.values()] }
  }

  private changed(standings = false): void {
    this.version++
    this.viewCache = new Map()
    if (standings) this.standingsCache = new Map()
    for (const listener of this.listeners) listener()
  }

  private async follow(): Promise<void> {
    let wait = 0
    while (this.running) {
      try {
        const longPoll = this.caughtUp ? '&feed=longpoll&timeout=30000' : ''
        const text = await readLeague(this.options.credentials, this.aborter.signal, `${this.options.database}/_changes?style=main_only&limit=${CHANGES_LIMIT}&since=${encodeURIComponent(String(this.seq))}${longPoll}`, MAX_CHANGES_BYTES)
        if (text === null) throw new Error(`there is no database ${this.name}`)
        const changes = JSON.parse(text) as { results?: { id: string; deleted?: boolean }[]; last_seq?: number | string }
        if (!Array.isArray(changes.results)) throw new Error('the league answered _changes without results')
        this.setReachable(true, null)
        wait = 0
        await this.apply(changes.results)
        if (changes.last_seq !== undefined) this.seq = changes.last_seq
        if (changes.results.length < CHANGES_LIMIT && !this.caughtUp) {
          this.caughtUp = true
          for (const resolve of this.waitingForCatchUp.splice(0)) resolve()
        }
      } catch (error) {
        if (!this.running) return
        this.setReachable(false, `The league is not reached: ${(error as Error).message}`)
        wait = Math.min(LONGEST_RETRY_MS, Math.max(500, wait * 2))
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait)
          this.aborter.signal.addEventListener('abort', () => {
            clearTimeout(timer)
            resolve()
          })
        })
      }
    }
  }

  private setReachable(reachable: boolean, problem: string | null): void {
    if (this.reachable === reachable && this.problem === problem) return
    this.reachable = reachable
    this.problem = problem
    this.changed()
  }

  /** Reads the documents of a page of changes and takes or refuses each. */
  private async apply(results: { id: string; deleted?: boolean }[]): Promise<void> {
    const ids: string[] = []
    let changed = false
    let standings = false
    for (const { id, deleted } of results) {
      if (typeof id !== 'string' || id.startsWith('_design/') || id.startsWith('_local/')) continue
      if (deleted) {
        const forgotten = this.forget(id)
        changed ||= forgotten
        standings ||= forgotten && !id.startsWith('live:')
      } else ids.push(id)
    }
    for (let start = 0; start < ids.length; start += DOCUMENTS_PER_REQUEST) {
      const batch = ids.slice(start, start + DOCUMENTS_PER_REQUEST)
      for (const [id, document] of await readLeagueDocuments(this.options.database, this.options.credentials, this.aborter.signal, batch)) {
        const taken = this.take(id, document)
        changed ||= taken
        standings ||= taken && !id.startsWith('live:')
      }
      // Lets the screens be answered between batches of replays.
      await new Promise((resolve) => setImmediate(resolve))
    }
    if (changed) this.changed(standings)
  }

  /** Takes a document that passes every check, or refuses it; returns whether what the feed holds changed. */
  private take(id: string, document: unknown): boolean {
    if (document === null) return this.forget(id)
    const checked = document instanceof Error ? { ok: false as const, error: document.message } : checkLeagueDocument(document, recordHash)
    if (!checked.ok) {
      const forgotten = this.forget(id)
      if (this.refused.get(id) === checked.error) return forgotten
      this.refused.delete(id)
      this.refused.set(id, checked.error)
      this.options.log?.warn({ id, reason: checked.error }, 'league: refused a document of the league')
      this.options.onRefused?.(id, checked.error)
      return true
    }
    const wasRefused = this.refused.delete(id)
    const accepted = checked.accepted
    switch (accepted.kind) {
      case 'game':
        if (this.games.has(id)) return wasRefused
        this.games.set(id, leagueGameOf(id, id.slice(-GAME_HASH_LENGTH), accepted.table, accepted.game))
        return true
      case 'live':
        this.live.set(accepted.table, { updatedAt: accepted.updatedAt, game: accepted.game })
        return true
      case 'people':
        this.lists.set(accepted.table, accepted.people)
        return true
      case 'merge':
        this.merges.set(id, accepted.merge)
        return true
    }
  }

  /** A document deleted (or refused after all): it no longer counts. */
  private forget(id: string): boolean {
    const [kind, owner] = id.split(':')
    if (kind === 'game') return this.games.delete(id)
    if (kind === 'merge') return this.merges.delete(id)
    if (kind === 'live') return this.live.delete(owner)
    if (kind === 'people') return this.lists.delete(owner)
    return false
  }
}

/**
 * The documents of some ids of a league database, parsed, or the Error saying why one cannot be
 * (too large, too deep, not JSON); null for one deleted or missing. Read together when they fit in
 * one answer, else one at a time.
 */
export async function readLeagueDocuments(
  database: string,
  credentials: { username: string; password: string } | null,
  signal: AbortSignal | undefined,
  ids: string[]
): Promise<Map<string, unknown>> {
  const found = new Map<string, unknown>()
  let text: string | null = null
  try {
    text = await readLeague(credentials, signal, `${database}/_all_docs?include_docs=true`, MAX_ANSWER_BYTES, JSON.stringify({ keys: ids }))
  } catch (error) {
    if (!(error instanceof TooLarge)) throw error
  }
  // Rows nest three levels above their documents.
  if (text !== null && jsonNesting(text, MAX_DOCUMENT_NESTING + 3) <= MAX_DOCUMENT_NESTING + 3) {
    const answer = JSON.parse(text) as { rows?: { key?: string; doc?: unknown; value?: { deleted?: boolean } }[] }
    for (const row of answer.rows ?? []) {
      if (typeof row.key !== 'string') continue
      found.set(row.key, row.doc ?? (row.value?.deleted ? null : new Error('the league does not have it')))
    }
    return found
  }
  for (const id of ids) {
    try {
      const one = await readLeague(credentials, signal, `${database}/${encodeURIComponent(id)}`, MAX_DOCUMENT_BYTES)
      if (one === null) found.set(id, null)
      else found.set(id, nestsTooDeeply(one) ? new Error(`it nests deeper than ${MAX_DOCUMENT_NESTING} levels`) : parseOrError(one))
    } catch (error) {
      if (error instanceof TooLarge) found.set(id, new Error(`it is larger than ${MAX_DOCUMENT_BYTES} bytes`))
      else throw error
    }
  }
  return found
}

function parseOrError(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return new Error('it is not JSON')
  }
}

