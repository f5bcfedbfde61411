// Where a worker thread's script is: the built one next to the bundle (electron-vite's out/main,
// the host's out/host), else the TypeScript source run through tsx (tests, `tsx` runs).
import { existsSync } from 'node:fs'
import { join } from 'node:path'

export interface WorkerScript {
  path: string
  execArgv?: string[]
}

/** The script of the worker `name` (`win-table-worker`, `odds-worker`), found next to this module. */
export function workerScript(name: string, dir: string = __dirname): WorkerScript {
  for (const file of [`${name}.js`, `${name}.cjs`]) {
    const path = join(dir, file)
    if (existsSync(path)) return { path }
  }
  // Node 20 gives workers no ESM loader hooks from execArgv (nodejs/node#47747): tsx's require hook.
  return { path: join(dir, `${name}.ts`), execArgv: ['--require', 'tsx/cjs'] }
}
