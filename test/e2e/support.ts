// Runs the real headless host (`npm run table`'s entry) as a child process and drives Debian's
// Chromium against it with playwright-core. The screens it serves are the app's electron-vite
// build, made once for the whole run by ./global-setup.ts.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { ROOT } from '@test/kit/root'

export { ROOT }
export const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots')
export const HOST_ENTRY = join(ROOT, 'scripts', 'table.mjs')
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Chromium, headless; `extraArgs` adds switches (a fake camera's, e.g.). */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is needed at ${CHROMIUM} (apt-get install chromium), or set CHROMIUM_PATH`)
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', ...extraArgs]
  })
}

export interface RunningHost {
  url: string
  process: ChildProcess
  output: () => string
  stop: (signal?: NodeJS.Signals) => Promise<void>
}

/** Starts the host and resolves once it prints its address. */
export function startHost(dataDir: string, port = 0, extraArguments: string[] = []): Promise<RunningHost> {
  const child = spawn(process.execPath, [HOST_ENTRY, '--port', String(port), '--data', dataDir, ...extraArguments], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the host did not start:\n${output}`)), 60_000)
    const onData = (chunk: Buffer): void => {
      output += chunk.toString()
      const match = /Dice Referee is at (http:\/\/\S+\/)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve({
          url: match[1],
          process: child,
          output: () => output,
          stop: (signal = 'SIGTERM') =>
            new Promise((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done()
              child.once('exit', () => done())
              child.kill(signal)
            })
        })
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => reject(new Error(`the host exited with ${code}:\n${output}`)))
  })
}
