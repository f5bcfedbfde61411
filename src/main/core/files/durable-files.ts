// Writing the app's files so that a crash, a full disk or a read-only folder never leaves half a
// file behind: whole files are written aside, synced and renamed into place; lines are written at
// a known offset and cut back when the disk refuses part of them.
import { closeSync, fsyncSync, ftruncateSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** Writes every byte at `position` (a write may take only part of them); throws when the disk takes none. */
export function writeAll(descriptor: number, bytes: Buffer, position: number): void {
  let done = 0
  while (done < bytes.length) {
    const written = writeSync(descriptor, bytes, done, bytes.length - done, position + done)
    if (written <= 0) throw Object.assign(new Error('no space left on device (short write)'), { code: 'ENOSPC' })
    done += written
  }
}

/** Cuts a file back to `length` bytes, durably (shrinking a file needs no free space). */
export function cutBack(descriptor: number, length: number): void {
  ftruncateSync(descriptor, length)
  fsyncSync(descriptor)
}

/** Writes a whole file and syncs it; on failure nothing of it is left. */
export function writeSynced(path: string, text: string | Buffer): void {
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

/**
 * Removes the drafts a crash left in these folders (`NAME.tmp` of writeDurably and writeSynced,
 * `current.jsonl.import.tmp`, a solved table's `NAME.PID.tmp`): the writes they belonged to were
 * never answered, so nothing anyone was told is in them. Only the folder's writer (the lock's
 * holder) does this, at start; a draft of the lock itself is the lock's business (data-lock.ts).
 */
export function removeDrafts(folders: readonly string[]): void {
  for (const folder of folders) {
    let names: string[]
    try {
      names = readdirSync(folder)
    } catch {
      continue // not there (yet)
    }
    for (const name of names) {
      if (!name.endsWith('.tmp') || name.startsWith('dice-referee.lock.')) continue
      try {
        rmSync(join(folder, name))
      } catch {
        // A folder by that name, or the disk refused: left as it is.
      }
    }
  }
}

/** Makes a rename in a folder durable (POSIX); Windows cannot open a folder for this and needs not. */
export function syncFolder(folder: string): void {
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

/**
 * Why this process may not write its data folder: it could not take the folder's lock (read-only,
 * a full disk, no permission...) and opened it read-only. Every change is refused with it.
 */
export class FolderNotWritableError extends Error {
  constructor(
    readonly folder: string,
    /** What is wrong ("The disk is full"). */
    readonly what: string,
    /** What to do, before "and start the app again" ("Free some space"). */
    readonly remedy: string
  ) {
    super(`${what}: the games in ${folder} are shown, but nothing can be saved. ${remedy} and start the app again.`)
    this.name = 'FolderNotWritableError'
  }
}

/** What went wrong with the disk, in plain words, and what the players can do about it. */
export function diskTrouble(error: unknown): { what: string; remedy: string } {
  if (error instanceof FolderNotWritableError) return { what: error.what, remedy: `${error.remedy} and start the app again, then` }
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
