// A worker thread that solves one chance-to-win table (see src/shared/games/six-dice/win-solver.ts) and
// hands it back, so the solve never holds up the main process (screens, dice, records).
import { parentPort, workerData } from 'node:worker_threads'
import { solveWinTable, type WinSpec, type WinTable } from '@shared/games/six-dice/win-solver'

export type WinWorkerMessage = { kind: 'progress'; share: number } | { kind: 'done'; table: WinTable }

const port = parentPort
if (port) {
  const spec = (workerData as { spec: WinSpec }).spec
  const table = solveWinTable(spec, { onProgress: (share) => port.postMessage({ kind: 'progress', share } satisfies WinWorkerMessage) })
  port.postMessage({ kind: 'done', table } satisfies WinWorkerMessage, [table.values.buffer as ArrayBuffer, table.final.buffer as ArrayBuffer])
}
