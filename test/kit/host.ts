// The one way the tests start the real headless host (`npm run table`'s entry, scripts/table.mjs)
// as a child process: the end-to-end suite drives Chromium against it, the fault suite kills it,
// the host tests watch it refuse a folder. Vitest-free, so benches can use it too.
import { spawn, type ChildProcess } from 'node:child_process'
import { repoPath, ROOT } from './root'

export const HOST_ENTRY = repoPath('scripts', 'table.mjs')
/** What the host prints once it serves its screens. */
const READY = /Dice Referee is at (http:\/\/\S+\/)/

export interface SpawnedHost {
  child: ChildProcess
  /** Resolves with the host's address once it says it is ready; rejects if it exits first. */
  ready: Promise<string>
  /** Resolves when the process has ended, with how. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Everything it printed so far (standard output and error together, in order). */
  output: () => string
  /** Sends `signal` (SIGTERM unless said) and resolves once the process has ended. */
  stop: (signal?: NodeJS.Signals) => Promise<void>
}

/** Starts a host on `dataDir` (`--port 0` unless `port` says otherwise), with `extraArguments` after. */
export function spawnHost(dataDir: string, { port = 0, extraArguments = [] as string[], onOutput = (_output: string) => {} } = {}): SpawnedHost {
  const child = spawn(process.execPath, [HOST_ENTRY, '--port', String(port), '--data', dataDir, ...extraArguments], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  const ready = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer): void => {
      output += chunk.toString()
      onOutput(output)
      const match = READY.exec(output)
      if (match) resolve(match[1])
    }
    child.stdout!.on('data', read)
    child.stderr!.on('data', read)
    void exited.then(({ code, signal }) => reject(new Error(`the host exited (${signal ?? code}) before it was ready:\n${output}`)))
  })
  ready.catch(() => undefined)
  return {
    child,
    ready,
    exited,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      await exited
    }
  }
}
