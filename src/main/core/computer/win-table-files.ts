// The chance-to-win tables that ship with the app (resources/win-tables), and the file of a
// table on disk, shipped or cached: gzip around src/shared/games/six-dice/win-table-file.ts. Apart from
// win-tables.ts (the solves and the log) so that the referee command reads them with nothing else.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import type { WinTableSource } from '@shared/games/six-dice/win-play'
import { decodeWinTable, encodeWinTable, winTableFileName } from '@shared/games/six-dice/win-table-file'
import { solvable, type WinSpec, type WinTable } from '@shared/games/six-dice/win-solver'

/**
 * The option sets whose tables ship with the app (`npm run win-tables` solves them again): both
 * games at their defaults (target 10,000; entry minimum 500 for Farkle, none for Fouche), which
 * every fresh install plays first; Farkle with the entry minimum off (the other value the Setup
 * screen names: "0 = off"); and the short game of either, a target of 5,000. About 370 KB in all;
 * any other option set solves in a few seconds.
 */
export const SHIPPED_WIN_SPECS: readonly WinSpec[] = [
  { game: 'farkle', target: 10_000, entry: 500 },
  { game: 'fouche', target: 10_000, entry: 0 },
  { game: 'farkle', target: 10_000, entry: 0 },
  { game: 'farkle', target: 5_000, entry: 500 },
  { game: 'fouche', target: 5_000, entry: 0 }
]

/** The shipped tables' folder inside the project (and inside the packaged app's app.asar). */
export const SHIPPED_WIN_TABLES = join('resources', 'win-tables')

/**
 * Where the shipped tables are: the first `resources/win-tables` up from this module, which is
 * out/main (the app, packaged or not), out/host (the headless host) or src/main/core (tsx).
 */
export function shippedWinTablesDir(): string | null {
  for (let dir = __dirname, up = 0; up < 5; dir = dirname(dir), up++) {
    const candidate = join(dir, SHIPPED_WIN_TABLES)
    if (existsSync(candidate)) return candidate
  }
  return null
}

/** The table in a gzipped table file, or why it is refused (null when there is no such file). */
export function readWinTableFile(path: string, spec: WinSpec): { ok: true; table: WinTable } | { ok: false; error: string } | null {
  if (!existsSync(path)) return null
  let bytes: Uint8Array
  try {
    bytes = new Uint8Array(gunzipSync(readFileSync(path)))
  } catch (error) {
    return { ok: false, error: `cannot be read or unpacked (${(error as Error).message})` }
  }
  return decodeWinTable(bytes, spec)
}

/** The bytes of a table's file, as shipped and cached. */
export function winTableFileBytes(table: WinTable): Buffer {
  return gzipSync(encodeWinTable(table), { level: 9 })
}

/**
 * The shipped tables alone, read when first asked for: the referee command, which solves none
 * (and logs nothing: a refused table is said in the status).
 */
export function shippedWinTables(dir: string | null = shippedWinTablesDir()): WinTableSource {
  const read = new Map<string, { ok: true; table: WinTable } | { ok: false; error: string } | null>()
  const readOnce = (spec: WinSpec): { ok: true; table: WinTable } | { ok: false; error: string } | null => {
    const key = `${spec.game}|${spec.target}|${spec.entry}`
    if (!read.has(key)) read.set(key, dir && solvable(spec) ? readWinTableFile(join(dir, winTableFileName(spec)), spec) : null)
    return read.get(key) ?? null
  }
  return {
    table: (spec) => {
      const found = readOnce(spec)
      return found?.ok ? found.table : null
    },
    status: (spec) => {
      const found = readOnce(spec)
      return found && !found.ok ? `the shipped table for these rules was refused (${found.error})` : 'no table ships for these rules (the referee command solves none)'
    }
  }
}
