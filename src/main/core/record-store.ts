// Where records live on disk. The game in progress is one JSON Lines file; every line is written
// before the state that includes it is shown, and fsynced before the next move is taken (the
// session flushes it while the screens draw). Finished games move to the history.
// A write the disk refuses (full, read-only, failing) leaves the files as they were: a line is
// taken back to its first byte, and whole files are written aside and renamed into place.
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fsyncSync,
  ftruncateSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeSync
} from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { HistoryEntry } from '../../shared/api'

/** How much of the record's end undo reads to find its last line (a line is far shorter). */
const TAIL_BYTES = 64 * 1024
/** How much of a big record is encoded and written at a time (about a megabyte). */
const WRITE_SLICE_CHARACTERS = 1 << 20

export class RecordStore {
  readonly currentPath: string
  readonly historyDir: string
  private descriptor: number | null = null
  /** Bytes of the current record known to be whole lines on disk; null until the file is opened. */
  private committedLength: number | null = null
  /** Where the line written but not yet flushed to the disk starts; null when there is none. */
  private unflushedFrom: number | null = null
  /** Whether the record lacked its last line end before that line (it is again once the line is cut off). */
  private unflushedAfterLineEndMissing = false
  /** A refused write may have left bytes after `committedLength` that could not be cut off yet. */
  private tailToCut = false
  /** Unreadable lines (from byte `from`; 0: the whole record) still to be kept aside before anything is written. */
  private pendingAside: { from: number; reason: string } | null = null
  private asideCount = 0
  /** The record's last line has no line end (a file not written by the app): the next line starts with one. */
  private lineEndMissing = false

  constructor(readonly dataDir: string) {
    this.currentPath = join(dataDir, 'current.jsonl')
    this.historyDir = join(dataDir, 'history')
    try {
      mkdirSync(this.historyDir, { recursive: true })
    } catch {
      // A read-only data folder: the games there can still be read and shown.
    }
  }

  readCurrent(): string | null {
    const bytes = this.readCurrentBytes()
    return bytes === null ? null : bytes.toString('utf8')
  }

  readCurrentBytes(): Buffer | null {
    return existsSync(this.currentPath) ? readFileSync(this.currentPath) : null
  }

  /** Appends one line and waits until it is on disk: `write`, then `flush`. */
  append(line: string): void {
    this.write(line)
    this.flush()
  }

  /**
   * Writes one line at the end of the record. From then on the system has it: the app being
   * killed or crashing cannot lose it; `flush` then waits until it is on the disk itself. When the
   * disk refuses any part of it, the bytes already written are cut off again before the error is
   * thrown: the file then ends with the last whole line, and the next line never lands after half
   * of this one.
   */
  write(line: string): void {
    // One line at a time: a failed flush takes back exactly the move that wrote it.
    if (this.unflushedFrom !== null) throw new Error('a line is still waiting to be flushed to the disk')
    this.settle()
    const descriptor = this.openCurrent()
    const start = this.committedLength!
    const bytes = Buffer.from(`${this.lineEndMissing ? '\n' : ''}${line}\n`, 'utf8')
    try {
      writeAll(descriptor, bytes, start)
    } catch (error) {
      this.cutBackTo(descriptor, start)
      throw error
    }
    this.unflushedFrom = start
    this.unflushedAfterLineEndMissing = this.lineEndMissing
    this.committedLength = start + bytes.length
    this.lineEndMissing = false
  }

  /**
   * Waits until the line written last is on the disk. When the disk fails it, it is cut off
   * again (the record ends as it did before it) and the error is thrown: the caller takes the
   * move back.
   */
  flush(): void {
    const from = this.unflushedFrom
    if (from === null || this.descriptor === null) return
    this.unflushedFrom = null
    try {
      fsyncSync(this.descriptor)
    } catch (error) {
      this.committedLength = from
      this.lineEndMissing = this.unflushedAfterLineEndMissing
      this.cutBackTo(this.descriptor, from)
      throw error
    }
  }

  private cutBackTo(descriptor: number, length: number): void {
    try {
      cutBack(descriptor, length)
    } catch {
      this.tailToCut = true
    }
  }

  /**
   * Keeps only the first `byteLength` bytes of the current record (a line cut off by a crash).
   * Cutting needs no free space; when even that is refused (a read-only disk), it is done before
   * the next write. Returns whether it was done now.
   */
  keepOnly(byteLength: number): boolean {
    this.committedLength = byteLength
    this.tailToCut = true
    return this.settleQuietly()
  }

  /**
   * The current record cannot be read from byte `from` on (0: not at all): those bytes are kept
   * in a file next to it and cut off. Returns that file, or null when the disk refused: then it
   * is done before anything else is written (and every write is refused until it can be).
   */
  setAsideFrom(from: number, reason: string): string | null {
    this.pendingAside = { from, reason }
    try {
      return this.settle()
    } catch {
      return null
    }
  }

  /** Finishes what the disk refused before (lines to keep aside, a tail to cut off); throws if it still refuses. */
  private settle(): string | null {
    let aside: string | null = null
    const pending = this.pendingAside
    if (pending && pending.from === 0) {
      aside = this.moveCurrentAside(pending.reason)
      this.pendingAside = null
      return aside
    }
    if (pending) {
      this.closeCurrent()
      aside = this.keepAside(readFileSync(this.currentPath).subarray(pending.from), pending.reason)
      this.pendingAside = null
      this.committedLength = pending.from
      this.tailToCut = true
    }
    if (this.tailToCut) {
      cutBack(this.openCurrent(), this.committedLength!)
      this.tailToCut = false
    }
    return aside
  }

  private settleQuietly(): boolean {
    try {
      this.settle()
      return true
    } catch {
      return false
    }
  }

  /**
   * Undo's write: cuts off the record's last line when `isLastLine` says it is the line to take
   * back, so that an undo writes nothing whatever the record's length (a cut needs no free space,
   * and a crash leaves the file before or after it). Returns false and changes nothing when the
   * file does not end with that line (a blank line, a line longer than the tail read); the caller
   * then rewrites the record. When the disk refuses the cut, the line is put back and it throws.
   */
  cutLastLine(isLastLine: (line: string) => boolean): boolean {
    this.settle()
    const descriptor = this.openCurrent()
    const size = this.committedLength!
    if (this.lineEndMissing || size === 0) return false
    const length = Math.min(size, TAIL_BYTES)
    const tail = Buffer.alloc(length)
    if (readSync(descriptor, tail, 0, length, size - length) !== length || tail[length - 1] !== 0x0a) return false
    const lineStart = tail.lastIndexOf(0x0a, length - 2) + 1
    if (lineStart === 0) return false
    if (!isLastLine(tail.subarray(lineStart).toString('utf8'))) return false
    const cutAt = size - length + lineStart
    try {
      cutBack(descriptor, cutAt)
    } catch (error) {
      try {
        writeAll(descriptor, tail.subarray(lineStart), cutAt)
        fsyncSync(descriptor)
      } catch {
        // The line could not be put back: the file ends a line short of the game until the next write rewrites it.
        this.committedLength = cutAt
        throw error
      }
      throw error
    }
    this.committedLength = cutAt
    return true
  }

  /** Replaces the current record as a whole (undo), atomically: on failure the old one stays. */
  replaceCurrent(text: string): void {
    this.settle()
    this.closeCurrent()
    writeDurably(this.currentPath, text)
    this.committedLength = Buffer.byteLength(text, 'utf8')
    this.tailToCut = false
  }

  /**
   * Makes `text` the current record and, when `archive` gives an entry, moves the record there now
   * to the history as that entry. All or nothing: the new record is written aside and synced first;
   * when any step is refused, the files are as they were and the error is thrown.
   */
  startCurrent(text: string, archive: () => HistoryEntry | null): void {
    const temporary = `${this.currentPath}.tmp`
    writeSynced(temporary, text)
    this.installCurrent(temporary, Buffer.byteLength(text, 'utf8'), archive())
  }

  /**
   * `startCurrent` for a big record (an import): it is written and synced in the background, a
   * megabyte at a time, so that the screens are answered meanwhile. `archive` is asked for once
   * the record is written (the game in progress may have moved on).
   */
  async startCurrentInBackground(text: string, archive: () => HistoryEntry | null): Promise<void> {
    // Its own name: a new game started meanwhile writes `current.jsonl.tmp`.
    const temporary = `${this.currentPath}.import.tmp`
    let bytes = 0
    let file: FileHandle | null = null
    try {
      file = await open(temporary, 'w')
      for (let start = 0; start < text.length; start += WRITE_SLICE_CHARACTERS) {
        const slice = text.slice(start, start + WRITE_SLICE_CHARACTERS)
        const buffer = Buffer.from(slice, 'utf8')
        let done = 0
        while (done < buffer.length) {
          const { bytesWritten } = await file.write(buffer, done, buffer.length - done, bytes + done)
          if (bytesWritten <= 0) throw Object.assign(new Error('no space left on device (short write)'), { code: 'ENOSPC' })
          done += bytesWritten
        }
        bytes += buffer.length
      }
      await file.sync()
      await file.close()
      file = null
    } catch (error) {
      await file?.close().catch(() => undefined)
      rmSync(temporary, { force: true })
      throw error
    }
    this.installCurrent(temporary, bytes, archive())
  }

  /** Renames a written and synced record into place, archiving the one there first; undoes the archiving if that fails. */
  private installCurrent(temporary: string, byteLength: number, archive: HistoryEntry | null): void {
    try {
      this.settle()
    } catch (error) {
      rmSync(temporary, { force: true })
      throw error
    }
    this.closeCurrent()
    const archiving = archive !== null && existsSync(this.currentPath)
    const archived = archive ? this.historyPath(archive.id) : ''
    try {
      if (archiving) {
        renameSync(this.currentPath, archived)
        syncFolder(this.historyDir)
      }
    } catch (error) {
      rmSync(temporary, { force: true })
      throw error
    }
    try {
      renameSync(temporary, this.currentPath)
    } catch (error) {
      if (archiving) renameSync(archived, this.currentPath)
      rmSync(temporary, { force: true })
      throw error
    }
    syncFolder(this.dataDir)
    this.committedLength = byteLength
    this.tailToCut = false
    if (archive && archiving) this.indexQuietly(archive)
  }

  /** Writes bytes next to the current record (lines that could not be read); returns its path. */
  private keepAside(bytes: Buffer, reason: string): string {
    const aside = this.asidePath()
    writeDurably(aside, bytes)
    this.writeReason(aside, reason)
    return aside
  }

  /** Moves a record that cannot be read at all aside, so that nothing is lost; returns where it went. */
  private moveCurrentAside(reason: string): string {
    this.closeCurrent()
    const aside = this.asidePath()
    renameSync(this.currentPath, aside)
    syncFolder(this.dataDir)
    this.committedLength = null
    this.tailToCut = false
    this.writeReason(aside, reason)
    return aside
  }

  private asidePath(): string {
    return join(this.dataDir, `unreadable-${Date.now()}-${++this.asideCount}.jsonl`)
  }

  private writeReason(aside: string, reason: string): void {
    try {
      writeDurably(`${aside}.why.txt`, `${reason}\n`)
    } catch {
      // The lines themselves are kept; the note is a courtesy.
    }
  }

  /** Removes the current record (a game closed before its first move, which the history does not keep). */
  discardCurrent(): void {
    this.settle()
    this.closeCurrent()
    rmSync(this.currentPath, { force: true })
    this.committedLength = null
  }

  /** Moves the current record to the history (a rename: it needs no free space). */
  archiveCurrent(entry: HistoryEntry): void {
    this.settle()
    this.closeCurrent()
    if (!existsSync(this.currentPath)) return
    renameSync(this.currentPath, this.historyPath(entry.id))
    syncFolder(this.historyDir)
    syncFolder(this.dataDir)
    this.committedLength = null
    this.indexQuietly(entry)
  }

  /** Why the data folder cannot be written (a read-only disk), or null when it can. */
  writeProblem(): unknown {
    try {
      accessSync(this.dataDir, constants.W_OK)
      return null
    } catch (error) {
      return error
    }
  }

  /**
   * Makes a game of the history the current record again (resuming an abandoned game). The
   * current record is written before the history copy goes, so a crash between leaves two
   * copies, never none.
   */
  restoreFromHistory(id: string, entries: HistoryEntry[]): boolean {
    const text = this.readHistoryRecord(id)
    if (text === null) return false
    this.replaceCurrent(text)
    rmSync(this.historyPath(id), { force: true })
    syncFolder(this.historyDir)
    this.writeIndex(entries.filter((entry) => entry.id !== id))
    return true
  }

  historyPath(id: string): string {
    return join(this.historyDir, `${id}.jsonl`)
  }

  readHistoryRecord(id: string): string | null {
    const path = this.historyPath(id)
    return existsSync(path) ? readFileSync(path, 'utf8') : null
  }

  /** The history index: one JSON entry per line; rebuilt by the caller when missing. */
  readIndex(): HistoryEntry[] | null {
    const path = join(this.historyDir, 'index.jsonl')
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
    writeDurably(join(this.historyDir, 'index.jsonl'), entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''))
  }

  historyIds(): string[] {
    if (!existsSync(this.historyDir)) return []
    return readdirSync(this.historyDir)
      .filter((name) => name.endsWith('.jsonl') && name !== 'index.jsonl')
      .map((name) => name.slice(0, -'.jsonl'.length))
  }

  close(): void {
    this.closeCurrent()
  }

  /** Adds one entry to the history index, durably; a refused write leaves no part of it behind. */
  appendIndex(entry: HistoryEntry): void {
    const descriptor = openSync(join(this.historyDir, 'index.jsonl'), 'a+')
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
  private indexQuietly(entry: HistoryEntry): void {
    try {
      this.appendIndex(entry)
    } catch {
      // See above.
    }
  }

  private openCurrent(): number {
    if (this.descriptor === null) {
      this.descriptor = openSync(this.currentPath, 'r+')
      if (this.committedLength === null) this.committedLength = fstatSync(this.descriptor).size
      const last = Buffer.alloc(1)
      this.lineEndMissing = this.committedLength > 0 && readSync(this.descriptor, last, 0, 1, this.committedLength - 1) === 1 && last[0] !== 0x0a
    }
    return this.descriptor
  }

  private closeCurrent(): void {
    if (this.descriptor !== null) {
      if (this.unflushedFrom !== null) {
        this.unflushedFrom = null
        try {
          fsyncSync(this.descriptor)
        } catch {
          // Closing still hands the lines to the system; only the wait for the disk is lost.
        }
      }
      closeSync(this.descriptor)
      this.descriptor = null
    }
  }
}

/** Writes every byte at `position` (a write may take only part of them); throws when the disk takes none. */
function writeAll(descriptor: number, bytes: Buffer, position: number): void {
  let done = 0
  while (done < bytes.length) {
    const written = writeSync(descriptor, bytes, done, bytes.length - done, position + done)
    if (written <= 0) throw Object.assign(new Error('no space left on device (short write)'), { code: 'ENOSPC' })
    done += written
  }
}

/** Cuts a file back to `length` bytes, durably (shrinking a file needs no free space). */
function cutBack(descriptor: number, length: number): void {
  ftruncateSync(descriptor, length)
  fsyncSync(descriptor)
}

/** Writes a whole file and syncs it; on failure nothing of it is left. */
function writeSynced(path: string, text: string | Buffer): void {
  let descriptor: number | null = null
  try {
    descriptor = openSync(path, 'w')
    writeAll(descriptor, typeof text === 'string' ? Buffer.from(text, 'utf8') : text, 0)
    fsyncSync(descriptor)
  } catch (error) {
    if (descriptor !== null) closeSync(descriptor)
    descriptor = null
    rmSync(path, { force: true })
    throw error
  } finally {
    if (descriptor !== null) closeSync(descriptor)
  }
}

/** Writes a file so that a crash or a refused write leaves either the old or the new text, never half of one. */
export function writeDurably(path: string, text: string | Buffer): void {
  const temporary = `${path}.tmp`
  writeSynced(temporary, text)
  try {
    renameSync(temporary, path)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
  syncFolder(dirname(path))
}

/** Makes a rename in a folder durable (POSIX); Windows cannot open a folder for this and needs not. */
function syncFolder(folder: string): void {
  let descriptor: number
  try {
    descriptor = openSync(folder, 'r')
  } catch {
    return
  }
  try {
    fsyncSync(descriptor)
  } catch {
    // Some file systems refuse fsync on a folder; the rename itself has been made.
  } finally {
    closeSync(descriptor)
  }
}

/** What went wrong with the disk, in plain words, and what the players can do about it. */
export function diskTrouble(error: unknown): { what: string; remedy: string } {
  const code = (error as NodeJS.ErrnoException | null)?.code
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return { what: 'The disk is full', remedy: 'Free some space and' }
    case 'EROFS':
      return { what: 'The data folder is read-only', remedy: 'Make it writable (or start with another data folder) and' }
    case 'EACCES':
    case 'EPERM':
      return { what: 'The data folder may not be written to', remedy: 'Give this user write access to it and' }
    case 'ENOENT':
      return { what: 'The data folder is gone (a disk was removed?)', remedy: 'Put it back and' }
    case 'EIO':
      return { what: 'The disk reported an error', remedy: 'Check the disk and' }
    default:
      return { what: `Saving failed (${code ?? (error as Error | null)?.message ?? 'unknown error'})`, remedy: 'Check the disk and' }
  }
}
