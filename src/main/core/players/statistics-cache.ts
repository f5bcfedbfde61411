// The statistics cache: each history record's facts (src/shared/stats), kept beside the history
// index in history/statistics.cache (JSON Lines, but not named .jsonl: in the history folder that
// names a record) so that statistics over thousands of games need no replay.
// The records stay the truth: the cache is rebuilt from them when it is lost, unreadable or of an
// older version, a line whose facts are not facts (cut off, wrong types: each line is checked with
// the schema below) or not the facts written (a byte changed: each line carries a checksum of its
// facts) is read again from its record, and a record the cache lacks (or no longer in
// the history) is added (or dropped) when it is loaded. A cache that cannot be written (a full or
// read-only disk) only means working the facts out again next time: statistics never fail for it. A separate file rather than more fields in index.jsonl: the index entries go to
// every screen with the history list, and facts of 10,000 games do not belong in that payload.
import { createHash } from 'node:crypto'
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs'
import { basename, join } from 'node:path'
import * as v from 'valibot'
import { GAME_IDS, GAMES } from '@shared/games'
import { replayText, type Game } from '@shared/game'
import { factsOfGame, type GameFacts } from '@shared/stats'
import { writeDurably } from '../files/durable-files'

/** Bumped whenever what a fact means changes: an older cache is then rebuilt. */
export const FACTS_VERSION = 3
const HEADER = JSON.stringify({ statisticsCache: FACTS_VERSION })
/** Records replayed between two yields to the event loop during a rebuild. */
const CHUNK = 50

// The facts of one game as factsOfGame makes them (src/shared/stats/facts.ts): a cached line is
// used only when it is exactly that shape (each seat's facts as its game says: its statistics'
// `seatFacts`), else its record is replayed again.
const gameFacts = v.pipe(
  v.object({
    game: v.picklist(GAME_IDS),
    players: v.array(v.string()),
    computers: v.array(v.pipe(v.number(), v.integer())),
    finished: v.boolean(),
    winners: v.array(v.string()),
    seats: v.array(v.unknown())
  }),
  v.check((facts) => facts.seats.length === facts.players.length, 'one seat of facts per player'),
  v.check((facts) => facts.seats.every((seat) => v.is(GAMES[facts.game].statistics.seatFacts, seat)), "each seat's facts as its game keeps them")
)
const cacheLine = v.object({ id: v.string(), facts: gameFacts, sum: v.string() })

/** The history records the facts are of (the HistoryArchive). */
export interface CacheSource {
  readonly historyDir: string
  ids(): string[]
  readRecord(id: string): string | null
  /** Whether this process may write the data folder (it holds its lock). */
  writable(): boolean
}

export type Progress = (done: number, total: number) => void

export class StatisticsCache {
  private facts: Map<string, GameFacts> | null = null
  private loading: Promise<Map<string, GameFacts>> | null = null
  /** Records archived while a load was under way: added once it ends. */
  private readonly pending = new Map<string, GameFacts>()
  readonly path: string
  /** Goes up whenever the facts change (a record added or removed, a rebuild), so what is worked out from them can be kept until then. */
  version = 0

  constructor(
    private readonly source: CacheSource,
    /** Tells the screens what was wrong with the cache (a folder in its place). */
    private readonly tell: (text: string) => void = () => {}
  ) {
    this.path = join(source.historyDir, 'statistics.cache')
  }

  /** The facts of every history record, by history id: from the cache, completed from the records. */
  async all(onProgress?: Progress): Promise<Map<string, GameFacts>> {
    if (this.facts) return this.facts
    this.loading ??= this.load(onProgress)
      .then((facts) => {
        if (this.pending.size > 0) {
          for (const [id, one] of this.pending) facts.set(id, one)
          this.pending.clear()
          this.write(facts)
        }
        return facts
      })
      .finally(() => {
        this.loading = null
      })
    return this.loading
  }

  /** Adds a record just moved to the history (called after the index has it). */
  add(id: string, game: Game): void {
    const facts = factsOfGame(game)
    if (this.loading) this.pending.set(id, facts)
    this.facts?.set(id, facts)
    this.version++
    if (!this.source.writable() || !isFile(this.path)) return // the next load rebuilds it whole
    try {
      appendLine(this.path, cacheLineText(id, facts))
    } catch {
      // Not written (a full disk): the next load finds the record missing from the cache and adds it.
    }
  }

  /** Forgets a record no longer in the history (deleted), rewriting the cache without it. */
  remove(id: string): void {
    if (!this.facts?.delete(id)) return
    this.version++
    this.write(this.facts)
  }

  /** Throws the cache away and builds it again from every record. */
  async rebuild(onProgress?: Progress): Promise<Map<string, GameFacts>> {
    this.facts = null
    const facts = await this.complete(new Map(), onProgress)
    this.write(facts)
    this.facts = facts
    this.version++
    return facts
  }

  private async load(onProgress?: Progress): Promise<Map<string, GameFacts>> {
    const read = this.read()
    if (read === null) return this.rebuild(onProgress)
    const cached = read.facts
    const ids = new Set(this.source.ids())
    let changed = read.dropped > 0
    for (const id of cached.keys()) {
      if (!ids.has(id)) {
        cached.delete(id)
        changed = true
      }
    }
    const before = cached.size
    const facts = await this.complete(cached, onProgress)
    if (changed || facts.size !== before) this.write(facts)
    this.facts = facts
    this.version++
    return facts
  }

  /** Adds the facts of every history record `facts` lacks, yielding to the event loop now and then. */
  private async complete(facts: Map<string, GameFacts>, onProgress?: Progress): Promise<Map<string, GameFacts>> {
    const missing = this.source.ids().filter((id) => !facts.has(id)).sort()
    for (let i = 0; i < missing.length; i++) {
      const text = this.source.readRecord(missing[i])
      const replayed = text === null ? null : replayText(text, { tolerateTruncatedTail: true })
      if (replayed?.ok) facts.set(missing[i], factsOfGame(replayed.game))
      if ((i + 1) % CHUNK === 0 || i + 1 === missing.length) {
        onProgress?.(i + 1, missing.length)
        await new Promise((resolve) => setImmediate(resolve))
      }
    }
    return facts
  }

  /** The cache as written, or null when it is missing, unreadable or of another version. A line that holds no facts is left out (its record is read again). */
  private read(): { facts: Map<string, GameFacts>; dropped: number } | null {
    let text: string
    try {
      if (!statSync(this.path).isFile()) {
        this.keepAside('it is not a file')
        return null
      }
      text = readFileSync(this.path, 'utf8')
    } catch {
      return null // none yet, or unreadable: rebuilt from the records
    }
    const lines = text.split('\n')
    if (lines[0] !== HEADER) return null
    const facts = new Map<string, GameFacts>()
    let dropped = 0
    for (let i = 1; i < lines.length; i++) {
      if (lines[i] === '') continue
      const checked = v.safeParse(cacheLine, parseQuietly(lines[i]))
      // Each seat was checked against its game's shape of facts (gameFacts' last check); the sum
      // catches facts of the right shape that are not those written (a name or a winner changed).
      if (checked.success && checked.output.sum === checksum(checked.output.id, checked.output.facts as GameFacts)) facts.set(checked.output.id, checked.output.facts as GameFacts)
      else dropped++
    }
    return { facts, dropped }
  }

  /** Moves something that is not the cache out of its way (a folder in its place): the cache is made again beside it. */
  private keepAside(reason: string): void {
    const aside = `${this.path}.damaged-${Date.now()}`
    try {
      renameSync(this.path, aside)
      this.tell(`${basename(this.path)} in the history folder was damaged (${reason}): it was kept as ${basename(aside)}, and the statistics are worked out from the records again.`)
    } catch {
      this.tell(`${basename(this.path)} in the history folder is damaged (${reason}) and could not be moved aside: the statistics are worked out from the records each time the app starts.`)
    }
  }

  /** Writes the cache whole; when the disk refuses, the facts stay in memory (and are worked out again next time). */
  private write(facts: Map<string, GameFacts>): void {
    const lines = [HEADER]
    for (const [id, one] of facts) lines.push(cacheLineText(id, one))
    try {
      if (!this.source.writable()) return
      writeDurably(this.path, `${lines.join('\n')}\n`)
    } catch {
      // See above.
    }
  }
}

/** One line of the cache: a record's facts with a checksum of them. */
function cacheLineText(id: string, facts: GameFacts): string {
  return JSON.stringify({ id, facts, sum: checksum(id, facts) })
}

/** A checksum of a line's facts, as JSON writes them (a JSON round trip gives the same text back). */
function checksum(id: string, facts: GameFacts): string {
  return createHash('sha256').update(JSON.stringify({ id, facts })).digest('base64url').slice(0, 22)
}

function parseQuietly(line: string): unknown {
  try {
    return JSON.parse(line)
  } catch {
    return null // a line cut off by a crash while appending
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

function appendLine(path: string, line: string): void {
  const descriptor = openSync(path, 'a')
  try {
    writeSync(descriptor, `${line}\n`)
    fsyncSync(descriptor)
  } finally {
    closeSync(descriptor)
  }
}
