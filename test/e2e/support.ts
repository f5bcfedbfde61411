// Runs the real headless host (`npm run table`'s entry) as a child process and drives Debian's
// Chromium against it with playwright-core.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { buildRenderer } from '../../src/host/build-renderer'

export const ROOT = join(__dirname, '..', '..')
export const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots')
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

function newestChange(path: string): number {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stat.mtimeMs)
}

/**
 * Builds the screens the host serves, once: test files run in parallel, so a lock folder makes
 * the others wait, and a build newer than every source is kept.
 */
export async function buildScreens(): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  mkdirSync(join(ROOT, 'out'), { recursive: true })
  const lock = join(ROOT, 'out', '.renderer-build-lock')
  for (let waited = 0; ; waited += 100) {
    try {
      mkdirSync(lock)
      break
    } catch {
      if (waited > 120_000) throw new Error(`${lock} is held too long: remove it if no test is running`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  try {
    const index = join(ROOT, 'out', 'renderer', 'index.html')
    const sources = Math.max(newestChange(join(ROOT, 'src', 'renderer')), newestChange(join(ROOT, 'src', 'shared')))
    if (!existsSync(index) || statSync(index).mtimeMs < sources) await buildRenderer(ROOT, join(ROOT, 'out', 'renderer'))
  } finally {
    rmdirSync(lock)
  }
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is needed at ${CHROMIUM} (apt-get install chromium), or set CHROMIUM_PATH`)
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run']
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
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'table.cjs'), '--port', String(port), '--data', dataDir, ...extraArguments], {
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
