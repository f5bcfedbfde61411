// `npm run bench solver`: the chance-to-win solve of the default rules (target 10,000), before
// (the solver as it was, bench/win-solver-v1.ts) and after, in CPU time (process.cpuUsage: the
// machine is shared, wall time says more about the load), with the load average beside each; and
// what a shipped table costs to read instead. See bench/README.md, "The chance-to-win solver".
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { readWinTableFile, SHIPPED_WIN_SPECS, shippedWinTablesDir } from '@main/core/computer/win-table-files'
import { solveWinTable, type WinSpec, type WinTable } from '@shared/games/six-dice/win-solver'
import { winTableFileName } from '@shared/games/six-dice/win-table-file'
import { solveWinTableV1 } from './win-solver-v1'

const DEFAULTS: WinSpec[] = [
  { game: 'farkle', target: 10_000, entry: 500 },
  { game: 'fouche', target: 10_000, entry: 0 }
]

function timed<T>(run: () => T): { result: T; cpu: number; wall: number; load: number } {
  const started = process.hrtime.bigint()
  const cpu = process.cpuUsage()
  const result = run()
  const used = process.cpuUsage(cpu)
  return { result, cpu: (used.user + used.system) / 1e6, wall: Number(process.hrtime.bigint() - started) / 1e9, load: loadavg()[0] }
}

const label = (spec: WinSpec): string => `${spec.game} target ${spec.target.toLocaleString('en')} entry ${spec.entry}`.padEnd(31)

export function benchSolver(): void {
  console.log('Chance-to-win solve, default rules, in this thread (CPU seconds; wall and the 1-minute load average beside):')
  for (const spec of DEFAULTS) {
    const after = timed(() => solveWinTable(spec))
    console.log(`  ${label(spec)} after  ${after.cpu.toFixed(1).padStart(5)} s CPU  (${after.wall.toFixed(1)} s wall, load ${after.load.toFixed(1)})`)
    const before = timed(() => solveWinTableV1(spec))
    console.log(`  ${label(spec)} before ${before.cpu.toFixed(1).padStart(5)} s CPU  (${before.wall.toFixed(1)} s wall, load ${before.load.toFixed(1)})`)
    let worst = 0
    for (let i = 0; i < after.result.values.length; i++) worst = Math.max(worst, Math.abs(after.result.values[i] - before.result.values[i]))
    console.log(`  ${label(spec)} largest difference between the two: ${worst.toExponential(1)}`)
  }
  const dir = shippedWinTablesDir()
  console.log(`Shipped tables (${dir ?? 'none found'}): read, unpacked and checked instead of solved:`)
  for (const spec of SHIPPED_WIN_SPECS) {
    const read = timed(() => (dir ? readWinTableFile(join(dir, winTableFileName(spec)), spec) : null))
    const table: WinTable | null = read.result?.ok ? read.result.table : null
    console.log(`  ${label(spec)} ${table ? `${(read.cpu * 1000).toFixed(0)} ms CPU (load ${read.load.toFixed(1)})` : 'not readable'}`)
  }
}

if (process.argv[1] && /bench[/\\]solver\.ts$/.test(process.argv[1])) benchSolver()
