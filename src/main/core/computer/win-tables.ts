// The solved chance-to-win tables of Farkle and Fouche (src/shared/games/six-dice/win-solver.ts). The most
// played option sets come solved with the app (resources/win-tables, see win-table-files.ts); any
// other is solved once, in a worker thread, then kept in memory and cached on disk in the data
// folder (`win-tables/`, one file per option set and solver version). A shipped or cached file
// of another version, or one whose checksum fails, is refused (with a line in the log) and the
// table solved again. Until a table is ready the computer player plays for points and the odds
// say how far the solve is.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { WinTableSource } from '@shared/games/six-dice/win-play'
import { winTableFileName } from '@shared/games/six-dice/win-table-file'
import { MAX_SOLVED_TARGET, solvable, type WinSpec, type WinTable } from '@shared/games/six-dice/win-solver'
import { formatPoints } from '@shared/games/six-dice/rules'
import { log } from '../files/log'
import { readWinTableFile, shippedWinTablesDir, winTableFileBytes } from './win-table-files'
import type { WinWorkerMessage } from './win-table-worker'
import { workerScript } from './worker-script'

const keyOf = (spec: WinSpec): string => `${spec.game}|${spec.target}|${spec.entry}`

/** The shipped table for these options, or null (none shipped, or refused: logged). */
function readShipped(dir: string | null, spec: WinSpec): WinTable | null {
  if (!dir) return null
  const path = join(dir, winTableFileName(spec))
  const read = readWinTableFile(path, spec)
  if (read && !read.ok) log.warn({ file: path, reason: read.error }, 'a shipped chance-to-win table was refused; it is solved again')
  return read?.ok ? read.table : null
}

export interface WinTablesOptions {
  /** Folder of the cache on disk; null keeps solved tables in memory only. */
  dir: string | null
  /** Folder of the shipped tables (default: shippedWinTablesDir()); null: none. */
  shipped?: string | null
  /** Called when a table is ready, fails, or its solve moves on by a percent. */
  onChange?: () => void
  /** The worker script (default: found next to this module, see worker-script.ts). */
  worker?: { path: string; execArgv?: string[] }
}

type Entry =
  | { state: 'queued'; spec: WinSpec }
  | { state: 'solving'; spec: WinSpec; share: number; worker: Worker; started: number }
  | { state: 'ready'; spec: WinSpec; table: WinTable }
  | { state: 'failed'; spec: WinSpec; error: string }

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
      const known = readShipped(this.options.shipped === undefined ? shippedWinTablesDir() : this.options.shipped, spec) ?? this.readCache(spec)
      entry = known ? { state: 'ready', spec, table: known } : { state: 'queued', spec }
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
    const read = readWinTableFile(path, spec)
    if (read && !read.ok) log.warn({ file: path, reason: read.error }, 'a cached chance-to-win table was refused; it is solved again')
    return read?.ok ? read.table : null
  }

  private writeCache(table: WinTable): void {
    if (!this.options.dir) return
    try {
      mkdirSync(this.options.dir, { recursive: true })
      const path = join(this.options.dir, winTableFileName(table.spec))
      // Written aside and renamed: a reader never sees half a table (and would refuse it anyway).
      const aside = `${path}.${process.pid}.tmp`
      writeFileSync(aside, winTableFileBytes(table))
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
    const script = this.options.worker ?? workerScript('win-table-worker')
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
