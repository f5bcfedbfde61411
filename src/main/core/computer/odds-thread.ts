// The odds worker (odds-worker.ts) as main uses it: started on first use, sent only what changed
// of the game since the last position (new lines, or a cut after an undo), and the chance-to-win
// tables the position needs. One position is worked out at a time.
import { Worker } from 'node:worker_threads'
import type { WinTableSource } from '@shared/games/six-dice/win-play'
import type { WinSpec, WinTable } from '@shared/games/six-dice/win-solver'
import { moduleOf, type Game } from '@shared/game'
import type { Odds } from '@shared/odds'
import type { OddsAnswer, OddsRequest } from './odds-worker'
import { workerScript, type WorkerScript } from './worker-script'

export interface OddsThreadOptions {
  /** Solved chance-to-win tables, handed to the worker as they are ready. */
  winTables?: WinTableSource | null
  script?: WorkerScript
}

export class OddsThread {
  private worker: Worker | null = null
  /** The game as the worker has it. */
  private sent: Game | null = null
  private readonly tablesSent = new Set<string>()
  private readonly waiting = new Map<number, { resolve: (odds: Odds) => void; reject: (error: Error) => void }>()
  private nextId = 1
  /** Positions the worker worked out (tests count them), and the thread each was worked out on. */
  readonly computed: { threadId: number }[] = []

  constructor(private readonly options: OddsThreadOptions = {}) {}

  /** The odds of a position, worked out in the worker. */
  compute(game: Game): Promise<Odds> {
    const worker = this.start()
    this.sendGame(worker, game)
    const statuses = this.sendTables(worker, game)
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject })
      worker.postMessage({ kind: 'compute', id, statuses } satisfies OddsRequest)
    })
  }

  async stop(): Promise<void> {
    const worker = this.worker
    this.worker = null
    for (const waiter of this.waiting.values()) waiter.reject(new Error('the odds worker stopped'))
    this.waiting.clear()
    await worker?.terminate()
  }

  private start(): Worker {
    if (this.worker) return this.worker
    const script = this.options.script ?? workerScript('odds-worker')
    const worker = new Worker(script.path, { execArgv: script.execArgv })
    worker.unref()
    worker.on('message', (answer: OddsAnswer) => {
      const waiter = this.waiting.get(answer.id)
      this.waiting.delete(answer.id)
      if (answer.kind === 'odds') {
        this.computed.push({ threadId: answer.threadId })
        waiter?.resolve(answer.odds)
      } else waiter?.reject(new Error(answer.error))
    })
    const fail = (error: Error): void => {
      if (this.worker !== worker) return
      this.worker = null
      this.sent = null
      this.tablesSent.clear()
      for (const waiter of this.waiting.values()) waiter.reject(error)
      this.waiting.clear()
    }
    worker.on('error', fail)
    worker.on('exit', (code) => fail(new Error(`the odds worker stopped (exit code ${code})`)))
    this.worker = worker
    this.sent = null
    return worker
  }

  /** Brings the worker's game to `game`: its new lines, a cut, or the whole record of another game. */
  private sendGame(worker: Worker, game: Game): void {
    const sent = this.sent
    this.sent = game
    if (sent && sent.header === game.header) {
      const common = commonLines(sent, game)
      if (common < sent.moves.length) worker.postMessage({ kind: 'truncate', count: common } satisfies OddsRequest)
      if (common < game.moves.length) worker.postMessage({ kind: 'append', moves: game.moves.slice(common) } satisfies OddsRequest)
      return
    }
    worker.postMessage({ kind: 'reset', header: game.header, moves: [...game.moves] } satisfies OddsRequest)
  }

  /**
   * Hands the worker the tables the position's odds depend on, once main has them, and says why
   * the others are missing. Which tables those are, the game says: its odds' `tablesKey` asks for
   * them (here of a source that notes each one asked for).
   */
  private sendTables(worker: Worker, game: Game): Record<string, string> {
    const tables = this.options.winTables
    const statuses: Record<string, string> = {}
    if (!tables) return statuses
    const asked: WinTable[] = []
    const noting: WinTableSource = {
      table: (spec) => {
        const table = tables.table(spec)
        if (table) asked.push(table)
        return table
      },
      status: (spec) => (statuses[specKey(spec)] = tables.status(spec))
    }
    moduleOf(game).odds.tablesKey?.(game.state, noting)
    for (const table of asked) {
      const key = specKey(table.spec)
      if (this.tablesSent.has(key)) continue
      worker.postMessage({ kind: 'table', table } satisfies OddsRequest)
      this.tablesSent.add(key)
    }
    return statuses
  }
}

function specKey(spec: WinSpec): string {
  return `${spec.game}|${spec.target}|${spec.entry}`
}

/** How many first lines two records of one game share (recorded lines are never changed, so the same object is the same line). */
function commonLines(a: Game, b: Game): number {
  const length = Math.min(a.moves.length, b.moves.length)
  // Most often one is the other plus a line or two: compare from the end of the shorter.
  if (a.moves[length - 1] === b.moves[length - 1]) return length
  let common = 0
  while (common < length && a.moves[common] === b.moves[common]) common++
  return common
}
