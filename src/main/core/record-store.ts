// Where records live on disk. The game in progress is one JSON Lines file; every line is written
// and fsynced before the state that includes it is shown. Finished games move to the history.
import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync
} from 'node:fs'
import { dirname, join } from 'node:path'
import type { HistoryEntry } from '../../shared/api'

/** How much of the record's end undo reads to find its last line (a line is far shorter). */
const TAIL_BYTES = 64 * 1024

export class RecordStore {
  readonly currentPath: string
  readonly historyDir: string
  private descriptor: number | null = null

  constructor(readonly dataDir: string) {
    this.currentPath = join(dataDir, 'current.jsonl')
    this.historyDir = join(dataDir, 'history')
    mkdirSync(this.historyDir, { recursive: true })
  }

  readCurrent(): string | null {
    return existsSync(this.currentPath) ? readFileSync(this.currentPath, 'utf8') : null
  }

  /** Appends one line and waits until it is on disk. */
  append(line: string): void {
    if (this.descriptor === null) this.descriptor = openSync(this.currentPath, 'a')
    writeSync(this.descriptor, `${line}\n`)
    fsyncSync(this.descriptor)
  }

  /** Replaces the current record as a whole (undo, import, crash repair), atomically. */
  replaceCurrent(text: string): void {
    this.closeCurrent()
    writeDurably(this.currentPath, text)
  }

  /**
   * Undo's write: cuts off the record's last line when `isLastLine` says it is the line to take
   * back, so that an undo writes nothing whatever the record's length (a cut needs no free space,
   * and a crash leaves the file before or after it). Returns false and changes nothing when the
   * file does not end with that line (a blank line, a line longer than the tail read); the caller
   * then rewrites the record.
   */
  cutLastLine(isLastLine: (line: string) => boolean): boolean {
    this.closeCurrent()
    const descriptor = openSync(this.currentPath, 'r+')
    try {
      const size = fstatSync(descriptor).size
      const length = Math.min(size, TAIL_BYTES)
      const tail = Buffer.alloc(length)
      readSync(descriptor, tail, 0, length, size - length)
      if (tail[length - 1] !== 0x0a) return false
      const lineStart = tail.lastIndexOf(0x0a, length - 2) + 1
      if (lineStart === 0) return false
      if (!isLastLine(tail.subarray(lineStart).toString('utf8'))) return false
      ftruncateSync(descriptor, size - length + lineStart)
      fsyncSync(descriptor)
      return true
    } finally {
      closeSync(descriptor)
    }
  }

  /** Moves a record that cannot be read aside, so that nothing is lost; returns where it went. */
  setAsideCurrent(reason: string): string {
    this.closeCurrent()
    const aside = join(this.dataDir, `unreadable-${Date.now()}.jsonl`)
    renameSync(this.currentPath, aside)
    writeFileSync(`${aside}.why.txt`, `${reason}\n`)
    return aside
  }

  /** Removes the current record (a game closed before its first move, which the history does not keep). */
  discardCurrent(): void {
    this.closeCurrent()
    rmSync(this.currentPath, { force: true })
  }

  /** Moves the current record to the history. */
  archiveCurrent(entry: HistoryEntry): void {
    this.closeCurrent()
    if (!existsSync(this.currentPath)) return
    renameSync(this.currentPath, this.historyPath(entry.id))
    syncFolder(this.historyDir)
    syncFolder(this.dataDir)
    this.appendIndex(entry)
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
    return readdirSync(this.historyDir)
      .filter((name) => name.endsWith('.jsonl') && name !== 'index.jsonl')
      .map((name) => name.slice(0, -'.jsonl'.length))
  }

  close(): void {
    this.closeCurrent()
  }

  /** Adds one entry to the history index, durably. */
  appendIndex(entry: HistoryEntry): void {
    const descriptor = openSync(join(this.historyDir, 'index.jsonl'), 'a')
    try {
      writeSync(descriptor, `${JSON.stringify(entry)}\n`)
      fsyncSync(descriptor)
    } finally {
      closeSync(descriptor)
    }
  }

  private closeCurrent(): void {
    if (this.descriptor !== null) {
      closeSync(this.descriptor)
      this.descriptor = null
    }
  }
}

/** Writes a file so that a crash leaves either the old or the new text, never half of one. */
export function writeDurably(path: string, text: string): void {
  const temporary = `${path}.tmp`
  const descriptor = openSync(temporary, 'w')
  try {
    writeSync(descriptor, text)
    fsyncSync(descriptor)
  } finally {
    closeSync(descriptor)
  }
  renameSync(temporary, path)
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
