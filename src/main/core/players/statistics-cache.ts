// The statistics cache: each history record's facts (src/shared/stats), kept beside the history
// index in history/statistics.cache (JSON Lines, but not named .jsonl: in the history folder that
// names a record) so that statistics over thousands of games need no replay.
// The records stay the truth: the cache is rebuilt from them when it is lost, unreadable or of an
// older version, and a record the cache lacks (or no longer in the history) is added (or dropped)
// when it is loaded. A separate file rather than more fields in index.jsonl: the index entries go to
// every screen with the history list, and facts of 10,000 games do not belong in that payload.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { replayText, type Game } from '../../../shared/game'
import { factsOfGame, type GameFacts } from '../../../shared/stats'
import { writeDurably } from '../files/durable-files'

/** Bumped whenever what a fact means changes: an older cache is then rebuilt. */
export const FACTS_VERSION = 2
const HEADER = JSON.stringify({ statisticsCache: FACTS_VERSION })
/** Records replayed between two yields to the event loop during a rebuild. */
const CHUNK = 50

/** The history records the facts are of (the HistoryArchive). */
export interface CacheSource {
  readonly historyDir: string
  ids(): string[]
  readRecord(id: string): string | null
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

  constructor(private readonly source: CacheSource) {
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
    if (!existsSync(this.path)) return // the next load rebuilds it whole
    appendLine(this.path, JSON.stringify({ id, facts }))
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
    const cached = this.read()
    if (cached === null) return this.rebuild(onProgress)
    const ids = new Set(this.source.ids())
    let changed = false
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

  /** The cache as written, or null when it is missing, unreadable or of another version. */
  private read(): Map<string, GameFacts> | null {
    if (!existsSync(this.path)) return null
    const lines = readFileSync(this.path, 'utf8').split('\n')
    if (lines[0] !== HEADER) return null
    const facts = new Map<string, GameFacts>()
    for (let i = 1; i < lines.length; i++) {
      if (lines[i] === '') continue
      try {
        const { id, facts: one } = JSON.parse(lines[i]) as { id: string; facts: GameFacts }
        facts.set(id, one)
      } catch {
        // A line cut off by a crash while appending: that record is read again from its file.
      }
    }
    return facts
  }

  private write(facts: Map<string, GameFacts>): void {
    const lines = [HEADER]
    for (const [id, one] of facts) lines.push(JSON.stringify({ id, facts: one }))
    writeDurably(this.path, `${lines.join('\n')}\n`)
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
