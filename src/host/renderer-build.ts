// The screens the headless host serves are the app's own renderer build: `out/renderer`, written
// by electron-vite from electron.vite.config.ts (the same command as `npm run build`). This module
// only decides whether that output is current and, when it is not, runs electron-vite's build.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, sep } from 'node:path'

/**
 * Everything the renderer output depends on. Source timestamps are not enough (a changed config or
 * dependency leaves every source older than the output), so the output is stamped with a content
 * hash of: the renderer's sources and the shared modules it imports (lint keeps it to those two
 * folders), electron.vite.config.ts and the path aliases it reads (scripts/path-aliases.mjs), package.json and package-lock.json (the versions of Vite, Vue
 * and every plugin), the tsconfig files (Vite reads their compiler options) and any .env file
 * (electron-vite passes RENDERER_VITE_/VITE_ variables into the build).
 */
const INPUT_FOLDERS = ['src/renderer', 'src/shared']
const INPUT_FILES = /^(electron\.vite\.config\.[cm]?[jt]s|package(-lock)?\.json|tsconfig(\.[\w-]+)?\.json|\.env(\..+)?)$/

const INPUT_SCRIPTS = ['scripts/path-aliases.mjs']

const STAMP = '.renderer-inputs.json'
const LOCK = '.renderer-build'

interface Stamp {
  /** Hash of the inputs the output was built from. */
  inputs: string
  /** Hash of the built index.html: it names every asset by content hash, so a build by another command shows. */
  output: string
}

function filesUnder(root: string, folder: string): string[] {
  const entries = readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(root, join(entry.parentPath, entry.name)))
}

/** A content hash of the renderer's inputs (paths and bytes), independent of timestamps and order on disk. */
export function rendererInputsHash(root: string): string {
  const files = [
    ...INPUT_FOLDERS.flatMap((folder) => filesUnder(root, folder)),
    ...readdirSync(root).filter((name) => INPUT_FILES.test(name)),
    ...INPUT_SCRIPTS
  ]
    .map((path) => path.split(sep).join('/'))
    .sort()
  const hash = createHash('sha256')
  for (const path of files) hash.update(`${path}\0`).update(readFileSync(join(root, path))).update('\0')
  return hash.digest('hex')
}

function outputHash(rendererDir: string): string | null {
  const index = join(rendererDir, 'index.html')
  return existsSync(index) ? createHash('sha256').update(readFileSync(index)).digest('hex') : null
}

function readStamp(outDir: string): Stamp | null {
  try {
    return JSON.parse(readFileSync(join(outDir, STAMP), 'utf8')) as Stamp
  } catch {
    return null
  }
}

/** Whether `out/renderer` was built from the inputs as they are now. */
export function isRendererCurrent(root: string): boolean {
  const outDir = join(root, 'out')
  const stamp = readStamp(outDir)
  return stamp !== null && stamp.output === outputHash(join(outDir, 'renderer')) && stamp.inputs === rendererInputsHash(root)
}

/**
 * Runs `electron-vite build` (main, preload and renderer, exactly as `npm run build`) unless
 * `out/renderer` is current. Builds are serialized across processes by a lock in out/ (two hosts
 * or test runs starting together must not write the same folder at once); whoever gets the lock
 * second finds the output current and does nothing. Resolves true when it built. Aborting `signal`
 * (the host is stopping) ends the build's process and rejects.
 */
export async function ensureRendererBuilt(root: string, onBuildStart: () => void = () => {}, signal?: AbortSignal): Promise<boolean> {
  if (isRendererCurrent(root)) return false
  const outDir = join(root, 'out')
  mkdirSync(outDir, { recursive: true })
  // proper-lockfile: a lock a crashed build left behind goes stale instead of blocking forever.
  const { lock } = await import('proper-lockfile')
  const release = await lock(outDir, {
    lockfilePath: join(outDir, LOCK),
    stale: 30_000,
    retries: { retries: 600, minTimeout: 200, maxTimeout: 500, factor: 1 }
  })
  try {
    if (isRendererCurrent(root)) return false
    onBuildStart()
    const inputs = rendererInputsHash(root)
    await electronViteBuild(root, signal)
    const stamp: Stamp = { inputs, output: outputHash(join(outDir, 'renderer')) ?? '' }
    writeFileSync(join(outDir, STAMP), `${JSON.stringify(stamp)}\n`)
    return true
  } finally {
    await release()
  }
}

/**
 * `electron-vite build` in a child process, as `npm run build` runs it. Not in this process: a
 * caller's environment must not change the output (under vitest, NODE_ENV=test made Vue compile
 * its development build), and Vite is never loaded into the host.
 */
function electronViteBuild(root: string, signal?: AbortSignal): Promise<void> {
  const cli = join(dirname(createRequire(join(root, 'package.json')).resolve('electron-vite/package.json')), 'bin', 'electron-vite.js')
  const env = { ...process.env }
  for (const name of Object.keys(env)) {
    if (/^(NODE_ENV|NODE_ENV_ELECTRON_VITE|TEST|VITEST.*)$/.test(name)) delete env[name]
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'build', '--logLevel', 'warn'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], signal })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code, signal) => {
      if (code === 0) resolve()
      else reject(new Error(`electron-vite build failed (${code ?? signal}):\n${output}`))
    })
  })
}
