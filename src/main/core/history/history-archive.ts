// The history on disk: one record file per game put away (`history/ID.jsonl`), the index that
// lists them (`history/index.jsonl`, one entry per line, so the list needs no replay), and the
// trash that deleted games go to until they are restored. The records are the truth: an index that
// is lost or lacks a game is made again from them.
import { closeSync, existsSync, fsyncSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { randomInt } from 'node:crypto'
import { join } from 'node:path'
import type { HistoryEntry, Outcome } from '../../../shared/api'
import { moduleOf, recordText, replayText, summaryOf, type Game } from '../../../shared/game'
import type { Header } from '../../../shared/record'
import type { TrashEntry } from '../../../shared/stats'
import { cutBack, syncFolder, writeAll, writeDurably } from '../files/durable-files'

/** The last time `new Date(t).toISOString()` writes with a four-digit year. */
const LATEST_START = Date.UTC(9999, 11, 31, 23, 59, 59, 999)
const INDEX_FILE = 'index.jsonl'

export class HistoryArchive {
  readonly historyDir: string
  private readonly trashDir: string

  constructor(
    readonly dataDir: string,
    private readonly now: () => number = Date.now
  ) {
    this.historyDir = join(dataDir, 'history')
    this.trashDir = join(dataDir, 'trash')
    try {
      mkdirSync(this.historyDir, { recursive: true })
    } catch {
      // A read-only data folder: the games there can still be read and shown.
    }
  }

  pathOf(id: string): string {
    return join(this.historyDir, `${id}.jsonl`)
  }

  readRecord(id: string): string | null {
    const path = this.pathOf(id)
    return existsSync(path) ? readFileSync(path, 'utf8') : null
  }

  /** The game of a history record, replayed (a line cut off by a crash is dropped); null when it cannot be read. */
  readGame(id: string): Game | null {
    const text = this.readRecord(id)
    const replayed = text === null ? null : replayText(text, { tolerateTruncatedTail: true })
    return replayed?.ok ? replayed.game : null
  }

  ids(): string[] {
    if (!existsSync(this.historyDir)) return []
    return readdirSync(this.historyDir)
      .filter((name) => name.endsWith('.jsonl') && name !== INDEX_FILE)
      .map((name) => name.slice(0, -'.jsonl'.length))
  }

  /** Every game of the history, newest first: from the index, completed from the records. */
  entries(): HistoryEntry[] {
    const indexed = this.readIndex()
    if (indexed === null) return this.rebuildIndex().sort(newestFirst)
    // An entry whose record is gone (the app stopped between taking a record out and writing the index) is not listed.
    const ids = new Set(this.ids())
    return [...indexed.filter((entry) => ids.has(entry.id)), ...this.unindexedEntries(indexed, ids)].sort(newestFirst)
  }

  /** The history index: one JSON entry per line; null when it is missing or cannot be read. */
  readIndex(): HistoryEntry[] | null {
    const path = join(this.historyDir, INDEX_FILE)
    if (!existsSync(path)) return null
    const entries: HistoryEntry[] = []
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (line.trim() === '') continue
      try {
        entries.push(JSON.parse(line) as HistoryEntry)
      } catch {
        return null
      }
    }
    return entries
  }

  writeIndex(entries: HistoryEntry[]): void {
    writeDurably(join(this.historyDir, INDEX_FILE), entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''))
  }

  /** Adds one entry to the history index, durably; a refused write leaves no part of it behind. */
  appendIndex(entry: HistoryEntry): void {
    const descriptor = openSync(join(this.historyDir, INDEX_FILE), 'a+')
    try {
      const start = fstatSync(descriptor).size
      try {
        writeAll(descriptor, Buffer.from(`${JSON.stringify(entry)}\n`, 'utf8'), start)
        fsyncSync(descriptor)
      } catch (error) {
        cutBack(descriptor, start)
        throw error
      }
    } finally {
      closeSync(descriptor)
    }
  }

  /** The game is in the history either way: a game the index lacks is indexed when the history is next listed. */
  indexQuietly(entry: HistoryEntry): void {
    try {
      this.appendIndex(entry)
    } catch {
      // See above.
    }
  }

  /** Takes a game out of the history (it became the game on the table again): its record, then its index entry. */
  remove(id: string): void {
    const entries = this.readIndex() ?? this.entries()
    rmSync(this.pathOf(id), { force: true })
    syncFolder(this.historyDir)
    this.writeIndex(entries.filter((entry) => entry.id !== id))
  }

  /** A game's history entry: who played, who won, its standings. */
  entryOf(game: Game, id: string): HistoryEntry {
    const summary = summaryOf(game)
    const lastAt = game.moves.length > 0 ? game.moves[game.moves.length - 1].at : undefined
    return {
      id,
      game: game.header.game,
      title: moduleOf(game).title,
      players: game.header.players,
      winners: summary.winners,
      startedAt: this.startedAt(game.header),
      finishedAt: lastAt ?? this.now(),
      finished: summary.finished,
      moves: game.moves.length,
      standings: moduleOf(game).standings(game.state)
    }
  }

  /** A new history id for a game: its start time, its game and a random part. */
  newId(game: Game): string {
    const stamp = new Date(this.startedAt(game.header)).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')
    return `${stamp}-${game.header.game}-${randomInt(0x100000, 0xffffff).toString(16)}`
  }

  /** When a game started; an imported header may say anything, so only a time from 1970 to the year 9999 is taken. */
  startedAt(header: Header): number {
    const started = header.meta?.startedAt
    // A time outside makes toISOString throw (or write a '+' or '-' the history ids do not allow).
    return typeof started === 'number' && started >= 0 && started <= LATEST_START ? started : this.now()
  }

  /** The game of the history that is this record (same game, players and start, same lines), if any. */
  twinOf(game: Game, text: string): HistoryEntry | null {
    const started = game.header.meta?.startedAt
    for (const entry of this.entries()) {
      if (entry.game !== game.header.game || entry.startedAt !== started) continue
      if (entry.players.join('\n') !== game.header.players.join('\n') || entry.moves !== game.moves.length) continue
      const stored = this.readGame(entry.id)
      if (stored !== null && recordText(stored) === text) return entry
    }
    return null
  }

  /** Moves a history game to the trash (restorable). */
  trash(id: string): Outcome {
    const path = this.pathOf(id)
    if (!existsSync(path)) return { ok: false, error: `No game ${id} in the history` }
    mkdirSync(this.trashDir, { recursive: true })
    renameSync(path, join(this.trashDir, `${id}.jsonl`))
    writeDurably(join(this.trashDir, `${id}.deleted`), `${this.now()}\n`)
    const index = this.readIndex()
    if (index !== null) this.writeIndex(index.filter((entry) => entry.id !== id))
    return { ok: true }
  }

  /** Puts a game back from the trash; the history indexes it again as a game it lacked. */
  restore(id: string): Outcome {
    const path = join(this.trashDir, `${id}.jsonl`)
    if (!existsSync(path)) return { ok: false, error: `No game ${id} in the trash` }
    if (existsSync(this.pathOf(id))) return { ok: false, error: `A game ${id} is already in the history` }
    renameSync(path, this.pathOf(id))
    return { ok: true }
  }

  listTrash(): TrashEntry[] {
    if (!existsSync(this.trashDir)) return []
    const entries: TrashEntry[] = []
    for (const name of readdirSync(this.trashDir)) {
      if (!name.endsWith('.jsonl')) continue
      const id = name.slice(0, -'.jsonl'.length)
      const firstLine = readFileSync(join(this.trashDir, name), 'utf8').split('\n', 1)[0]
      let header: { game?: unknown; players?: unknown } = {}
      try {
        header = JSON.parse(firstLine) as typeof header
      } catch {
        // listed with what is known: its id
      }
      const marker = join(this.trashDir, `${id}.deleted`)
      const deletedAt = existsSync(marker) ? Number(readFileSync(marker, 'utf8').trim()) || 0 : 0
      entries.push({
        id,
        game: typeof header.game === 'string' ? header.game : '?',
        players: Array.isArray(header.players) ? header.players.filter((p): p is string => typeof p === 'string') : [],
        deletedAt
      })
    }
    return entries.sort((a, b) => b.deletedAt - a.deletedAt)
  }

  private rebuildIndex(): HistoryEntry[] {
    const entries: HistoryEntry[] = []
    for (const id of this.ids()) {
      const game = this.readGame(id)
      if (game) entries.push(this.entryOf(game, id))
    }
    try {
      this.writeIndex(entries)
    } catch {
      // A read-only or full disk: the history is listed all the same, and indexed another time.
    }
    return entries
  }

  /** Games in the history the index lacks (the app stopped between archiving one and indexing it): indexed now. */
  private unindexedEntries(indexed: HistoryEntry[], ids: Iterable<string>): HistoryEntry[] {
    const known = new Set(indexed.map((entry) => entry.id))
    const found: HistoryEntry[] = []
    for (const id of ids) {
      if (known.has(id)) continue
      const game = this.readGame(id)
      if (!game) continue
      const entry = this.entryOf(game, id)
      this.indexQuietly(entry)
      found.push(entry)
    }
    return found
  }
}

function newestFirst(a: HistoryEntry, b: HistoryEntry): number {
  return b.finishedAt - a.finishedAt
}
