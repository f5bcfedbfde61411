// The solved chance-to-win tables of Farkle and Fouche (src/shared/games/six-dice/win-solver.ts): each option
// set is solved once, in a worker thread, then kept in memory and cached on disk in the data
// folder (`win-tables/`, one file per option set and solver version). Until a table is ready
// the computer player plays for points and the odds say how far the solve is.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { WinTableSource } from '../../shared/games/six-dice/win-play'
import { decodeWinTable, encodeWinTable, winTableFileName } from '../../shared/games/six-dice/win-table-file'
import { MAX_SOLVED_TARGET, solvable, type WinSpec, type WinTable } from '../../shared/games/six-dice/win-solver'
import { formatPoints } from '../../shared/games/six-dice/rules'
import type { WinWorkerMessage } from './win-table-worker'

export interface WinTablesOptions {
  /** Folder of the cache on disk; null keeps solved tables in memory only. */
  dir: string | null
  /** Called when a table is ready, fails, or its solve moves on by a percent. */
  onChange?: () => void
  /** The worker script (default: found next to this module, see workerScript). */
  worker?: { path: string; execArgv?: string[] }
}

type Entry =
  | { state: 'queued'; spec: WinSpec }
  | { state: 'solving'; spec: WinSpec; share: number; worker: Worker; started: number }
  | { state: 'ready'; spec: WinSpec; table: WinTable }
  | { state: 'failed'; spec: WinSpec; error: string }

const keyOf = (spec: WinSpec): string => `${spec.game}|${spec.target}|${spec.entry}`

/**
 * Where the worker script is: the built one next to the bundle (electron-vite's out/main, the
 * host's out/host), else the TypeScript source run through tsx (tests, `tsx` runs).
 */
export function workerScript(): { path: string; execArgv?: string[] } {
  for (const name of ['win-table-worker.js', 'win-table-worker.cjs']) {
    const path = join(__dirname, name)
    if (existsSync(path)) return { path }
  }
  // Node 20 gives workers no ESM loader hooks from execArgv (nodejs/node#47747): tsx's require hook.
  return { path: join(__dirname, 'win-table-worker.ts'), execArgv: ['--require', 'tsx/cjs'] }
}

export class WinTables implements WinTableSource {
  private readonly entries = new Map<string, Entry>()
  private readonly waiting = new Map<string, { resolve: (table: WinTable) => void; reject: (error: Error) => void }[]>()
  private stopped = false

  constructor(private readonly options: WinTablesOptions) {}

  /** The solved table for these options; null while it is solved (which this starts), or never. */
  table(spec: WinSpec): WinTable | null {
    if (!solvable(spec) || this.stopped) return null
    const key = keyOf(spec)
    let entry = this.entries.get(key)
    if (!entry) {
      const cached = this.readCache(spec)
      entry = cached ? { state: 'ready', spec, table: cached } : { state: 'queued', spec }
      this.entries.set(key, entry)
      if (entry.state === 'queued') this.startNext()
    }
    return entry.state === 'ready' ? entry.table : null
  }

  status(spec: WinSpec): string {
    if (!solvable(spec)) return `a target or entry minimum above ${formatPoints(MAX_SOLVED_TARGET)} is not solved`
    const entry = this.entries.get(keyOf(spec))
    const what = 'the table for these rules'
    if (!entry || entry.state === 'queued') return `${what} waits for another solve to end`
    if (entry.state === 'solving') return `${what} is ${Math.floor(entry.share * 100)}% solved`
    if (entry.state === 'failed') return `${what} could not be solved (${entry.error})`
    return `${what} is ready`
  }

  /** Resolves with the table once it is solved (starting the solve if needed); for tests and tools. */
  whenReady(spec: WinSpec): Promise<WinTable> {
    const ready = this.table(spec)
    if (ready) return Promise.resolve(ready)
    if (!solvable(spec)) return Promise.reject(new Error(this.status(spec)))
    const entry = this.entries.get(keyOf(spec))
    if (entry?.state === 'failed') return Promise.reject(new Error(this.status(spec)))
    return new Promise((resolve, reject) => {
      const key = keyOf(spec)
      this.waiting.set(key, [...(this.waiting.get(key) ?? []), { resolve, reject }])
    })
  }

  /** Ends any solve in progress (the app is closing). */
  stop(): void {
    this.stopped = true
    for (const entry of this.entries.values()) if (entry.state === 'solving') void entry.worker.terminate()
  }

  private readCache(spec: WinSpec): WinTable | null {
    if (!this.options.dir) return null
    const path = join(this.options.dir, winTableFileName(spec))
    if (!existsSync(path)) return null
    try {
      const decoded = decodeWinTable(new Uint8Array(readFileSync(path)), spec)
      return decoded.ok ? decoded.table : null
    } catch {
      return null
    }
  }

  private writeCache(table: WinTable): void {
    if (!this.options.dir) return
    try {
      mkdirSync(this.options.dir, { recursive: true })
      const path = join(this.options.dir, winTableFileName(table.spec))
      // Written aside and renamed: a reader never sees half a table (and would refuse it anyway).
      const aside = `${path}.${process.pid}.tmp`
      writeFileSync(aside, encodeWinTable(table))
      renameSync(aside, path)
    } catch {
      // A cache that cannot be written (full disk, read-only folder) only means solving again next time.
    }
  }

  private startNext(): void {
    if (this.stopped) return
    for (const entry of this.entries.values()) if (entry.state === 'solving') return
    const next = [...this.entries.values()].find((entry) => entry.state === 'queued')
    if (!next) return
    const spec = next.spec
    const key = keyOf(spec)
    const script = this.options.worker ?? workerScript()
    const worker = new Worker(script.path, { workerData: { spec }, execArgv: script.execArgv })
    worker.unref()
    const solving: Entry = { state: 'solving', spec, share: 0, worker, started: Date.now() }
    this.entries.set(key, solving)
    let finished = false
    const finish = (entry: Entry): void => {
      if (finished) return
      finished = true
      this.entries.set(key, entry)
      if (entry.state === 'ready') this.writeCache(entry.table)
      for (const waiter of this.waiting.get(key) ?? []) {
        if (entry.state === 'ready') waiter.resolve(entry.table)
        else waiter.reject(new Error(this.status(spec)))
      }
      this.waiting.delete(key)
      this.options.onChange?.()
      this.startNext()
    }
    worker.on('message', (message: WinWorkerMessage) => {
      if (message.kind === 'progress') {
        const before = Math.floor(solving.share * 100)
        solving.share = message.share
        if (Math.floor(message.share * 100) !== before) this.options.onChange?.()
      } else finish({ state: 'ready', spec, table: message.table })
    })
    worker.on('error', (error) => finish({ state: 'failed', spec, error: error.message }))
    worker.on('exit', (code) => {
      if (!this.stopped) finish({ state: 'failed', spec, error: `the solver stopped (exit code ${code})` })
    })
  }
}
