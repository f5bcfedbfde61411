// The solved chance-to-win tables in the app: the tables shipped with it, a real worker thread,
// the cache on disk.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { log } from '@main/core/files/log'
import { readWinTableFile, SHIPPED_WIN_SPECS, shippedWinTables, shippedWinTablesDir, winTableFileBytes } from '@main/core/computer/win-table-files'
import { WinTables } from '@main/core/computer/win-tables'
import { solveWinTable, startChance, WIN_TABLE_VERSION, WinTurn, type WinSpec, type WinTable } from '@shared/games/six-dice/win-solver'
import { encodeWinTable, WIN_TABLE_PRECISION, winTableFileName } from '@shared/games/six-dice/win-table-file'
import { seededRandom } from '@shared/random-play'
import { ROOT, repoPath } from '@test/kit/root'

const made: WinTables[] = []
afterEach(() => {
  while (made.length) made.pop()!.stop()
  vi.restoreAllMocks()
})

function tables(dir: string | null, worker?: { path: string }, shipped?: string | null): { tables: WinTables; changes: () => number } {
  let changes = 0
  const t = new WinTables({ dir, onChange: () => changes++, worker, shipped })
  made.push(t)
  return { tables: t, changes: () => changes }
}

const spec: WinSpec = { game: 'farkle', target: 600, entry: 100 }

describe('chance-to-win tables', () => {
  it('are solved in a worker thread, with progress, then cached on disk and read back without solving', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dice-referee-wins-'))
    const first = tables(dir)
    expect(first.tables.table(spec)).toBeNull()
    expect(first.tables.status(spec)).toMatch(/^the table for these rules is \d+% solved$/)
    const solved = await first.tables.whenReady(spec)
    expect(first.changes()).toBeGreaterThan(1) // progress, then ready
    expect(first.tables.status(spec)).toBe('the table for these rules is ready')
    // The same numbers as solving here (the worker runs the same code).
    expect([...solved.values]).toEqual([...solveWinTable(spec).values])
    expect(first.tables.table(spec)).toBe(solved)
    expect(existsSync(join(dir, winTableFileName(spec)))).toBe(true)
    // A new app start: read from the cache; a worker that cannot start proves no solve runs.
    const second = tables(dir, { path: join(dir, 'no-such-worker.js') })
    const read = second.tables.table(spec)?.values ?? new Float64Array(0)
    expect(read.length).toBe(solved.values.length)
    for (let i = 0; i < read.length; i++) expect(Math.abs(read[i] - solved.values[i])).toBeLessThanOrEqual(WIN_TABLE_PRECISION)
  }, 60_000)

  it('solve a damaged cache file again, and write it anew', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dice-referee-wins-'))
    const file = join(dir, winTableFileName(spec))
    await tables(dir).tables.whenReady(spec)
    const bytes = readFileSync(file)
    bytes[bytes.length - 1] ^= 1
    writeFileSync(file, bytes)
    const again = tables(dir)
    expect(again.tables.table(spec)).toBeNull()
    await again.tables.whenReady(spec)
    expect(readFileSync(file).equals(bytes)).toBe(false)
    expect(tables(dir, { path: join(dir, 'no-such-worker.js') }).tables.table(spec)).not.toBeNull()
  }, 60_000)

  it('say why a table is missing: too big to solve, or a solve that failed', async () => {
    const { tables: t } = tables(null, { path: join(tmpdir(), 'no-such-worker.js') })
    const big: WinSpec = { game: 'fouche', target: 50_000, entry: 0 }
    expect(t.table(big)).toBeNull()
    expect(t.status(big)).toBe('a target or entry minimum above 20,000 is not solved')
    await expect(t.whenReady(big)).rejects.toThrow('not solved')
    await expect(t.whenReady(spec)).rejects.toThrow(/^the table for these rules could not be solved \(/)
    expect(t.table(spec)).toBeNull()
  })

  it('solve one option set at a time; the next waits', async () => {
    const { tables: t } = tables(null)
    const other: WinSpec = { game: 'fouche', target: 400, entry: 0 }
    expect(t.table(spec)).toBeNull()
    expect(t.table(other)).toBeNull()
    expect(t.status(other)).toBe('the table for these rules waits for another solve to end')
    const [a, b] = await Promise.all([t.whenReady(spec), t.whenReady(other)])
    expect(a.spec).toEqual(spec)
    expect(b.roles).toBe(2)
  }, 60_000)
})

describe('the tables shipped with the app (resources/win-tables)', () => {
  const dir = shippedWinTablesDir()
  /** How far two solves may differ by the order of floating-point sums (a changed solver, not changed values). */
  const SOLVER_ROUNDING = 1e-12

  it('are the option sets of SHIPPED_WIN_SPECS, each of this version with its checksum, and nothing else', () => {
    expect(dir).not.toBeNull()
    expect(readdirSync(dir!).sort()).toEqual(SHIPPED_WIN_SPECS.map(winTableFileName).sort())
    for (const spec of SHIPPED_WIN_SPECS) {
      const read = readWinTableFile(join(dir!, winTableFileName(spec)), spec)
      expect(read, winTableFileName(spec)).toMatchObject({ ok: true, table: { version: WIN_TABLE_VERSION, spec } })
    }
  })

  // The whole solve of each is `npm run win-tables -- --check` (seconds each); here, the end of
  // the game solved afresh, and a sample of other states re-evaluated from the table around them.
  it.each(SHIPPED_WIN_SPECS)('%o: a fresh solve of the last sums, and of a sample of turns from their neighbours', (spec) => {
    const read = readWinTableFile(join(dir!, winTableFileName(spec)), spec)
    if (!read?.ok) throw new Error(`not readable: ${read?.error}`)
    const shipped = read.table
    const n = shipped.belowTarget
    const fromSum = 2 * n - 8
    const fresh = solveWinTable(spec, { fromSum })
    expect(fresh.leadCapLevels).toBe(shipped.leadCapLevels)
    expect([...fresh.final]).toEqual([...shipped.final])
    for (let role = 0; role < shipped.roles; role++)
      for (let a = fromSum - n + 1; a < n; a++)
        for (let b = fromSum - a; b < n; b++) expect(Math.abs(startChance(fresh, role, a, b) - startChance(shipped, role, a, b))).toBeLessThanOrEqual(WIN_TABLE_PRECISION + SOLVER_ROUNDING)
    // A turn's start, evaluated from the shipped chances of the turns it leads to, is its shipped chance.
    const random = seededRandom(spec.target + spec.entry)
    for (let k = 0; k < 30; k++) {
      const role = Math.floor(random() * shipped.roles)
      const a = Math.floor(random() * n)
      const b = Math.floor(random() * n)
      expect(Math.abs(new WinTurn(shipped, role, a, b).start - startChance(shipped, role, a, b)), `${role} ${a} ${b}`).toBeLessThan(1e-9)
    }
  }, 60_000)

  it('are found from the bundles the app and the headless host run (out/main, out/host), as from the sources', async () => {
    expect(dir).toBe(repoPath('resources', 'win-tables'))
    // Bundled as scripts/table.mjs bundles the host, one folder below out/ like out/host and out/main.
    const out = repoPath('out', `win-tables-check-${process.pid}`)
    try {
      await build({
        stdin: { contents: "export { shippedWinTablesDir } from './src/main/core/computer/win-table-files'", resolveDir: ROOT, loader: 'ts' },
        outfile: join(out, 'check.cjs'),
        bundle: true,
        platform: 'node',
        format: 'cjs',
        packages: 'external',
        logLevel: 'warning'
      })
      const bundled = createRequire(__filename)(join(out, 'check.cjs')) as { shippedWinTablesDir: () => string | null }
      expect(bundled.shippedWinTablesDir()).toBe(dir)
    } finally {
      rmSync(out, { recursive: true, force: true })
    }
  })

  it('are used without solving anything; the referee command reads them too', () => {
    const cache = mkdtempSync(join(tmpdir(), 'dice-referee-wins-'))
    const { tables: t } = tables(cache, { path: join(cache, 'no-such-worker.js') })
    for (const spec of SHIPPED_WIN_SPECS) expect(t.table(spec)?.spec).toEqual(spec)
    expect(readdirSync(cache)).toEqual([])
    const referee = shippedWinTables()
    expect(referee.table(SHIPPED_WIN_SPECS[0])?.values).toEqual(t.table(SHIPPED_WIN_SPECS[0])?.values)
    expect(referee.table(spec)).toBeNull()
    expect(referee.status(spec)).toBe('no table ships for these rules (the referee command solves none)')
  })

  it('a damaged, older or unreadable shipped table is refused, with a line in the log, and solved again', async () => {
    const table = solveWinTable(spec)
    const bytes = encodeWinTable(table)
    const damaged = bytes.slice()
    damaged[damaged.length - 5] ^= 0x10
    const older: WinTable = { ...table, version: WIN_TABLE_VERSION - 1 }
    const files: [Buffer | Uint8Array, RegExp][] = [
      [gzipSync(damaged), /^damaged \(checksum\)$/],
      [gzipSync(encodeWinTable(older)), new RegExp(`^version ${WIN_TABLE_VERSION - 1}, not ${WIN_TABLE_VERSION}$`)],
      [winTableFileBytes(table).subarray(0, 100), /^cannot be read or unpacked/]
    ]
    for (const [file, reason] of files) {
      const shipped = mkdtempSync(join(tmpdir(), 'dice-referee-shipped-'))
      writeFileSync(join(shipped, winTableFileName(spec)), file)
      const warn = vi.spyOn(log, 'warn')
      const cache = mkdtempSync(join(tmpdir(), 'dice-referee-wins-'))
      const { tables: t } = tables(cache, undefined, shipped)
      expect(t.table(spec)).toBeNull()
      expect(warn).toHaveBeenCalledWith({ file: join(shipped, winTableFileName(spec)), reason: expect.stringMatching(reason) }, 'a shipped chance-to-win table was refused; it is solved again')
      await t.whenReady(spec)
      expect(existsSync(join(cache, winTableFileName(spec)))).toBe(true)
      warn.mockRestore()
      // The referee command, which solves none, says why.
      expect(shippedWinTables(shipped).table(spec)).toBeNull()
      expect(shippedWinTables(shipped).status(spec)).toMatch(/^the shipped table for these rules was refused \(/)
    }
    // And a good one is taken as it is.
    const shipped = mkdtempSync(join(tmpdir(), 'dice-referee-shipped-'))
    mkdirSync(shipped, { recursive: true })
    writeFileSync(join(shipped, winTableFileName(spec)), winTableFileBytes(table))
    expect(tables(null, { path: join(shipped, 'no-such-worker.js') }, shipped).tables.table(spec)).not.toBeNull()
  }, 60_000)
})
