// `npm run win-tables`: solves the chance-to-win tables that ship with the app (SHIPPED_WIN_SPECS
// in src/main/core/computer/win-table-files.ts) and writes them to resources/win-tables, removing the files of
// other option sets or versions. Run it after a change to the solver's model, the scoring tables
// or WIN_TABLE_VERSION (the app refuses shipped tables of another version and solves them again).
// `npm run win-tables -- --check`: solves them again and compares every chance with the shipped
// file (the tests compare a sample only); exit 1 when one differs or is missing.
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { solveWinTable, type WinSpec } from '@shared/games/six-dice/win-solver'
import { WIN_TABLE_PRECISION, winTableFileName } from '@shared/games/six-dice/win-table-file'
import { readWinTableFile, SHIPPED_WIN_SPECS, SHIPPED_WIN_TABLES, winTableFileBytes } from '@main/core/computer/win-table-files'

const ROOT = join(__dirname, '..')
const folder = join(ROOT, SHIPPED_WIN_TABLES)
const check = process.argv.includes('--check')

function describe(spec: WinSpec): string {
  return `${spec.game} target ${spec.target} entry ${spec.entry}`
}

let failed = false
mkdirSync(folder, { recursive: true })
for (const spec of SHIPPED_WIN_SPECS) {
  const cpu = process.cpuUsage()
  const table = solveWinTable(spec)
  const used = process.cpuUsage(cpu)
  const seconds = ((used.user + used.system) / 1e6).toFixed(1)
  const path = join(folder, winTableFileName(spec))
  if (check) {
    const shipped = readWinTableFile(path, spec)
    if (!shipped?.ok) {
      failed = true
      console.log(`${describe(spec)}: ${shipped ? `refused: ${shipped.error}` : `missing (${path})`}`)
      continue
    }
    let worst = 0
    for (let i = 0; i < table.values.length; i++) worst = Math.max(worst, Math.abs(shipped.table.values[i] - table.values[i]))
    // The file's rounding, and a margin for floating-point sums taken in another order.
    const bound = WIN_TABLE_PRECISION + 1e-12
    const same = worst <= bound
    if (!same) failed = true
    console.log(`${describe(spec)}: solved in ${seconds} s of CPU; every chance ${same ? 'within' : 'NOT within'} ${bound.toExponential(2)} of the shipped file (largest difference ${worst.toExponential(2)})`)
  } else {
    const bytes = winTableFileBytes(table)
    const aside = `${path}.${process.pid}.tmp`
    writeFileSync(aside, bytes)
    renameSync(aside, path)
    console.log(`${describe(spec)}: solved in ${seconds} s of CPU (load average ${loadavg()[0].toFixed(1)}); ${path} ${(bytes.length / 1024).toFixed(0)} KB`)
  }
}
if (!check) {
  const wanted = new Set(SHIPPED_WIN_SPECS.map(winTableFileName))
  for (const name of readdirSync(folder)) {
    if (wanted.has(name)) continue
    rmSync(join(folder, name))
    console.log(`removed ${name} (not a shipped option set of this version)`)
  }
}
process.exit(failed ? 1 : 0)
