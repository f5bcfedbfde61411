// Reading a file the app owns (settings, the player list, the paired screens...): one way for all
// of them. Its shape is checked with the app's schema library; a file that cannot be read as that
// shape (cut short, garbage, wrong types, a folder in its place) is kept beside it under another
// name, so that nothing people set is lost, and the caller starts from what it can rebuild. What
// was wrong is said in plain words for the screens.
import { existsSync, readFileSync, renameSync, statSync } from 'node:fs'
import { basename } from 'node:path'
import * as v from 'valibot'
import { writeDurably } from './durable-files'

/** Files the app owns are small: anything larger is not one of them. */
const MAX_OWNED_FILE_BYTES = 16 * 1024 * 1024

export type OwnedFile<T> =
  | { state: 'missing' }
  | { state: 'read'; value: T }
  /**
   * Damaged: kept aside as `keptAs` (null when even that was refused, or the folder is not this
   * process's to write: then it must not be written over); `problem` says what was wrong and what
   * was done; `parsed` is what it held when it was JSON, for the caller to take what it can from.
   */
  | { state: 'damaged'; problem: string; reason: string; keptAs: string | null; parsed?: unknown }

/**
 * Reads `path` as `schema`; a damaged file is moved aside (`NAME.damaged-TIME`) and reported. In a
 * folder this process may not write (`writable` false) it is reported and left where it is.
 */
export function readOwnedFile<S extends v.GenericSchema>(path: string, schema: S, now: () => number = Date.now, writable = true): OwnedFile<v.InferOutput<S>> {
  if (!existsSync(path)) return { state: 'missing' }
  let reason: string
  let parsedValue: unknown
  try {
    const stats = statSync(path)
    if (!stats.isFile()) reason = 'it is not a file'
    else if (stats.size > MAX_OWNED_FILE_BYTES) reason = `it is ${Math.round(stats.size / 1e6)} MB, far more than such a file holds`
    else {
      const parsed = parseJson(readFileSync(path))
      if (!parsed.ok) reason = parsed.error
      else {
        parsedValue = parsed.value
        const checked = v.safeParse(schema, parsed.value)
        if (checked.success) return { state: 'read', value: checked.output }
        reason = `it does not hold what it should (${describeIssue(checked.issues[0])})`
      }
    }
  } catch (error) {
    reason = `it cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`
  }
  const keptAs = writable ? keepAside(path, now) : null
  const name = basename(path)
  return {
    state: 'damaged',
    reason,
    keptAs,
    ...(parsedValue !== undefined ? { parsed: parsedValue } : {}),
    problem: keptAs
      ? `${name} was damaged (${reason}): it was kept as ${basename(keptAs)}, and the app starts from what the records hold.`
      : `${name} is damaged (${reason})${writable ? ' and could not be moved aside' : ''}: the app starts from what the records hold, and does not write over it.`
  }
}

/** Writes a file the app owns whole (written aside and renamed: never half a file). */
export function writeOwnedFile(path: string, value: unknown): void {
  writeDurably(path, `${JSON.stringify(value, null, 2)}\n`)
}

function parseJson(bytes: Buffer): { ok: true; value: unknown } | { ok: false; error: string } {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return { ok: false, error: 'it is not UTF-8 text' }
  }
  if (text.includes('\u0000')) return { ok: false, error: 'it holds NUL bytes' }
  if (text.trim() === '') return { ok: false, error: 'it is empty' }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false, error: 'it is not JSON (cut short, or overwritten)' }
  }
}

function describeIssue(issue: v.BaseIssue<unknown>): string {
  const path = (issue.path ?? []).map((item) => String(item.key)).join('.')
  return path ? `${path}: ${issue.message}` : issue.message
}

/** Moves a damaged file aside; returns where it went, or null when the disk refused. */
function keepAside(path: string, now: () => number): string | null {
  const aside = `${path}.damaged-${now()}`
  try {
    renameSync(path, aside)
    return aside
  } catch {
    return null
  }
}
