// The solved chance-to-win tables in the app: a real worker thread, the cache on disk.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { WinTables } from '../../src/main/core/win-tables'
import { solveWinTable, type WinSpec } from '../../src/shared/games/six-dice/win-solver'
import { winTableFileName } from '../../src/shared/games/six-dice/win-table-file'

const made: WinTables[] = []
afterEach(() => {
  while (made.length) made.pop()!.stop()
})

function tables(dir: string | null, worker?: { path: string }): { tables: WinTables; changes: () => number } {
  let changes = 0
  const t = new WinTables({ dir, onChange: () => changes++, worker })
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
    expect([...(second.tables.table(spec)?.values ?? [])]).toEqual([...solved.values])
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
