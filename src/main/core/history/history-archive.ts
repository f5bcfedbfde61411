// The history on disk: one record file per game put away (`history/ID.jsonl`), the index that
// lists them (`history/index.jsonl`, one entry per line, so the list needs no replay), and the
// trash that deleted games go to until they are restored. The records are the truth: an index that
// is lost or lacks a game is made again from them.
import { closeSync, existsSync, fsyncSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync } from 'node:fs'
import { randomInt } from 'node:crypto'
import { join } from 'node:path'
import type { HistoryEntry, Outcome } from '@shared/api'
import { moduleOf, recordText, replayText, summaryOf, type Game } from '@shared/game'
import { parseHeaderLine, type Header } from '@shared/record'
import type { TrashEntry } from '@shared/stats'
import { cutBack, diskTrouble, syncFolder, writeAll, writeDurably, type FolderNotWritableError } from '../files/durable-files'

/** The last time `new Date(t).toISOString()` writes with a four-digit year. */
const LATEST_START = Date.UTC(9999, 11, 31, 23, 59, 59, 999)
const INDEX_FILE = 'index.jsonl'
/**
 * What a game's history id may be: the app's own ids (`20260101T120000Z-farkle-1a2b3c`) and the
 * names of records put in the folder by hand (`game-1`): letters, digits, `_`, `-` and inner dots.
 * Never a path (no `/`, `\\`, leading dot), never the name of one of the app's own files.
 */
const GAME_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,79}$/
/** Names a game id can never be: the index's own (`index.jsonl`), and the game on the table's ('current'). Compared without case (macOS and Windows folders ignore it). */
const RESERVED_IDS = new Set(['index', 'current'])

/** Whether `id` can name a game of the history (or of the trash); nothing else is ever turned into a path. */
export function isGameId(id: string): boolean {
  return GAME_ID.test(id) && !RESERVED_IDS.has(id.toLowerCase())
}

export class NotAGameIdError extends Error {
  constructor(id: string) {
    super(`${JSON.stringify(id.slice(0, 80))} is not the id of a game`)
    this.name = 'NotAGameIdError'
  }
}

export class HistoryArchive {
  readonly historyDir: string
  private readonly trashDir: string

  constructor(
    readonly dataDir: string,
    private readonly now: () => number = Date.now,
    /** Why this process may not write the data folder (it could not take its lock); null: it may. */
    readonly readOnly: FolderNotWritableError | null = null
  ) {
    this.historyDir = join(dataDir, 'history')
    this.trashDir = join(dataDir, 'trash')
    if (readOnly) return
    try {
      mkdirSync(this.historyDir, { recursive: true })
    } catch {
      // A read-only data folder: the games there can still be read and shown.
    }
  }

  /** Whether this process may write the data folder (the parts that write ask before they do). */
  writable(): boolean {
    return this.readOnly === null
  }

  /** Throws why the data folder may not be written, when it may not (every change is refused with it). */
  checkWritable(): void {
    if (this.readOnly) throw this.readOnly
  }

  /** The one place a history id becomes a path: the record of game `id` (or its trashed copy); anything but a game's id is refused. */
  pathOf(id: string, where: 'history' | 'trash' = 'history'): string {
    if (!isGameId(id)) throw new NotAGameIdError(id)
    return join(where === 'history' ? this.historyDir : this.trashDir, `${id}.jsonl`)
  }

  /** The record of a history game; null when there is none (or `id` names no game). */
  readRecord(id: string): string | null {
    if (!isGameId(id)) return null
    const path = this.pathOf(id)
    try {
      return readFileSync(path, 'utf8')
    } catch {
      // Gone, or not a file: no such game.
      return null
    }
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
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => name.slice(0, -'.jsonl'.length))
      .filter(isGameId)
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
    this.checkWritable()
    writeDurably(join(this.historyDir, INDEX_FILE), entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''))
  }

  /** Adds one entry to the history index, durably; a refused write leaves no part of it behind. */
  appendIndex(entry: HistoryEntry): void {
    this.checkWritable()
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
    this.checkWritable()
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
  twinOf(game: Game, text: string | (() => string), among: HistoryEntry[] = this.entries()): HistoryEntry | null {
    const started = game.header.meta?.startedAt
    let record = typeof text === 'string' ? text : null
    for (const entry of among) {
      if (entry.game !== game.header.game || entry.startedAt !== started) continue
      if (entry.players.join('\n') !== game.header.players.join('\n') || entry.moves !== game.moves.length) continue
      const stored = this.readGame(entry.id)
      // The game's own text is made only when a stored game may be the same (a long game's takes a while).
      record ??= (text as () => string)()
      if (stored !== null && recordText(stored) === record) return entry
    }
    return null
  }

  /** Moves a history game to the trash (restorable). */
  trash(id: string): Outcome {
    if (!isGameId(id) || !existsSync(this.pathOf(id))) return { ok: false, error: `No game ${id} in the history` }
    try {
      this.checkWritable()
      mkdirSync(this.trashDir, { recursive: true })
      renameSync(this.pathOf(id), this.pathOf(id, 'trash'))
    } catch (error) {
      return refuseForDisk(error, 'the game was not moved to the trash')
    }
    // Moved: when it went and the index without it are a courtesy (the history lists only records that are there).
    try {
      writeDurably(join(this.trashDir, `${id}.deleted`), `${this.now()}\n`)
      const index = this.readIndex()
      if (index !== null) this.writeIndex(index.filter((entry) => entry.id !== id))
    } catch {
      // See above.
    }
    return { ok: true }
  }

  /** Puts a game back from the trash; the history indexes it again as a game it lacked. */
  restore(id: string): Outcome {
    if (!isGameId(id) || !existsSync(this.pathOf(id, 'trash'))) return { ok: false, error: `No game ${id} in the trash` }
    if (existsSync(this.pathOf(id))) return { ok: false, error: `A game ${id} is already in the history` }
    try {
      this.checkWritable()
      renameSync(this.pathOf(id, 'trash'), this.pathOf(id))
    } catch (error) {
      return refuseForDisk(error, 'the game was not restored')
    }
    return { ok: true }
  }

  listTrash(): TrashEntry[] {
    if (!existsSync(this.trashDir)) return []
    const entries: TrashEntry[] = []
    for (const name of readdirSync(this.trashDir)) {
      const id = name.slice(0, -'.jsonl'.length)
      if (!name.endsWith('.jsonl') || !isGameId(id)) continue
      // Listed with what its header says, checked as any record's (names within the limits); else by its id alone.
      const header = parseHeaderLine(firstLineOf(join(this.trashDir, name)))
      entries.push({
        id,
        game: header.ok ? header.value.game : '?',
        players: header.ok ? header.value.players : [],
        deletedAt: this.deletedAt(id)
      })
    }
    return entries.sort((a, b) => b.deletedAt - a.deletedAt)
  }

  /** When a game went to the trash (0: not known). */
  private deletedAt(id: string): number {
    try {
      return Number(readFileSync(join(this.trashDir, `${id}.deleted`), 'utf8').trim()) || 0
    } catch {
      return 0
    }
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

/** A change of the history the disk (or a folder opened read-only) would not make, in plain words. */
function refuseForDisk(error: unknown, notDone: string): Outcome {
  const trouble = diskTrouble(error)
  return { ok: false, error: `${trouble.what}: ${notDone}. ${trouble.remedy} try again.` }
}

/** The first line of a file (at most 64 kB of it: a header is far shorter); '' when it cannot be read. */
function firstLineOf(path: string): string {
  let descriptor: number | null = null
  try {
    descriptor = openSync(path, 'r')
    const bytes = Buffer.alloc(64 * 1024)
    const read = readSync(descriptor, bytes, 0, bytes.length, 0)
    return bytes.subarray(0, read).toString('utf8').split('\n', 1)[0].replace(/^\uFEFF/, '').replace(/\r$/, '')
  } catch {
    return ''
  } finally {
    if (descriptor !== null) closeSync(descriptor)
  }
}

function newestFirst(a: HistoryEntry, b: HistoryEntry): number {
  return b.finishedAt - a.finishedAt
}
