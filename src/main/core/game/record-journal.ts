// The journal: the record of the game in progress, one JSON Lines file (`current.jsonl`). Every
// line is written before the state that includes it is shown, and fsynced before the next move is
// taken (the game table flushes it while the screens draw). A game put away moves to the history.
// A write the disk refuses (full, read-only, failing) leaves the files as they were: a line is
// taken back to its first byte, and whole files are written aside and renamed into place.
import { accessSync, closeSync, constants, existsSync, fsyncSync, fstatSync, openSync, readFileSync, readSync, renameSync, rmSync } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import type { HistoryEntry } from '@shared/api'
import { cutBack, syncFolder, writeAll, writeDurably, writeSynced } from '../files/durable-files'
import type { HistoryArchive } from '../history/history-archive'

/** How much of the record's end undo reads to find its last line (a line is far shorter). */
const TAIL_BYTES = 64 * 1024
/** How much of a big record is encoded and written at a time (about a megabyte). */
const WRITE_SLICE_CHARACTERS = 1 << 20

export class RecordJournal {
  readonly currentPath: string
  readonly dataDir: string
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

  constructor(private readonly archive: HistoryArchive) {
    this.dataDir = archive.dataDir
    this.currentPath = join(this.dataDir, 'current.jsonl')
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
    // Every write of the record starts here (or checks the same): none in a folder opened read-only.
    this.archive.checkWritable()
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
    this.archive.checkWritable()
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
    this.archive.checkWritable()
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
    const archived = archive ? this.archive.pathOf(archive.id) : ''
    try {
      if (archiving) {
        renameSync(this.currentPath, archived)
        syncFolder(this.archive.historyDir)
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
    if (archive && archiving) this.archive.indexQuietly(archive)
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
    renameSync(this.currentPath, this.archive.pathOf(entry.id))
    syncFolder(this.archive.historyDir)
    syncFolder(this.dataDir)
    this.committedLength = null
    this.archive.indexQuietly(entry)
  }

  /** Why the data folder cannot be written (a read-only disk, a folder opened read-only), or null when it can. */
  writeProblem(): unknown {
    if (this.archive.readOnly) return this.archive.readOnly
    try {
      accessSync(this.dataDir, constants.W_OK)
      return null
    } catch (error) {
      return error
    }
  }

  /** Closes the record file (flushing a line still waiting); the next write opens it again. */
  close(): void {
    this.closeCurrent()
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
