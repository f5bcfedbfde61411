// Offline packaging test: `npm run dist` as far as it goes without the Electron binary.
//
// The real Electron binary cannot be downloaded here, so electron-builder gets a stand-in Electron
// distribution (`electronDist`: a folder with a fake `electron` executable, `version`, `LICENSE`,
// `locales/`) and builds the unpacked `--dir` target for linux-x64 with the project's own
// electron-builder.yml. Then the result is read back: the app in resources/app.asar, serialport's
// native binaries in resources/app.asar.unpacked, and node-gyp-build's lookup replayed the way it
// runs inside the packaged app. See docs/packaging.md.
//
// To keep clear of other work in the same checkout, the app is built into a temporary staging
// folder (`electron-vite build --outDir`), which mirrors the project root: package.json,
// package-lock.json, electron-builder.yml, build/, resources/ and a copy of the production node_modules.
// Nothing in the repository is written. Set KEEP_PACKAGING_OUTPUT=1 to keep the temporary folder.
import { spawn } from 'node:child_process'
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import * as asar from '@electron/asar'
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses'
// The byte values of a fuse's state (not re-exported by the package's index).
import { FuseState } from '@electron/fuses/dist/constants'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '@test/kit/root'

const ELECTRON_VERSION = '45.5.0'
const BINDINGS = 'node_modules/@serialport/bindings-cpp'
const STEP_TIMEOUT_MS = 150_000

interface RunResult {
  code: number | null
  stdout: string
  output: string
}

/** Runs a command to completion; rejects when it fails (unless `allowFailure`) or hangs. */
function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; allowFailure?: boolean }): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      output += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), STEP_TIMEOUT_MS)
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (code === 0 || (options.allowFailure && signal === null)) resolvePromise({ code, stdout, output })
      else reject(new Error(`${[command, ...args].join(' ')} exited with ${code ?? signal}\n${output}`))
    })
  })
}

/** `npx electron-vite build`, with the output in `outDir` instead of the checkout's out/. */
async function buildApp(outDir: string): Promise<RunResult> {
  return run(process.execPath, [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', '--outDir', outDir], { cwd: ROOT })
}

/**
 * A stand-in for the unpacked Electron zip. electron-builder (app-builder-lib's
 * ElectronFramework `unpack`) copies an `electronDist` folder that holds no
 * `electron-v<version>-<platform>-<arch>.zip` as it is, then renames `electron` to the
 * executable name (linux), moves `LICENSE` to `LICENSE.electron.txt` and looks in `locales/` only
 * when `electronLanguages` is set. With `electronVersion` pinned in electron-builder.yml nothing
 * has to be read from an Electron binary or downloaded.
 */
function makeStandInElectron(dir: string): string {
  mkdirSync(join(dir, 'resources'), { recursive: true })
  mkdirSync(join(dir, 'locales'), { recursive: true })
  writeFileSync(join(dir, 'electron'), Buffer.concat([Buffer.from('#!/bin/sh\necho "stand-in for Electron, not a runnable build" >&2\nexit 1\n'), standInFuseWire()]))
  chmodSync(join(dir, 'electron'), 0o755)
  writeFileSync(join(dir, 'version'), ELECTRON_VERSION)
  writeFileSync(join(dir, 'LICENSE'), 'Stand-in for the Electron license file.\n')
  writeFileSync(join(dir, 'LICENSES.chromium.html'), '<!doctype html><title>stand-in</title>\n')
  writeFileSync(join(dir, 'locales', 'en-US.pak'), '')
  return dir
}

/**
 * The fuse wire as a real Electron 45 carries it (what @electron/fuses looks for): the sentinel,
 * wire version 1, the number of fuses, then one byte per fuse in Electron's shipped state.
 */
function standInFuseWire(): Buffer {
  const shipped: Record<FuseV1Options, FuseState> = {
    [FuseV1Options.RunAsNode]: FuseState.ENABLE,
    [FuseV1Options.EnableCookieEncryption]: FuseState.DISABLE,
    [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: FuseState.ENABLE,
    [FuseV1Options.EnableNodeCliInspectArguments]: FuseState.ENABLE,
    [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: FuseState.DISABLE,
    [FuseV1Options.OnlyLoadAppFromAsar]: FuseState.DISABLE,
    [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: FuseState.DISABLE,
    [FuseV1Options.GrantFileProtocolExtraPrivileges]: FuseState.ENABLE
  }
  const states = Object.values(FuseV1Options)
    .filter((option): option is FuseV1Options => typeof option === 'number')
    .map((option) => shipped[option])
  return Buffer.concat([Buffer.from('# dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'), Buffer.from([1, states.length, ...states]), Buffer.from('\n')])
}

/**
 * The production dependencies as npm sees them (what electron-builder's npm collector packs),
 * as paths relative to the project root, e.g. `node_modules/@serialport/bindings-cpp`.
 */
async function productionPackages(): Promise<string[]> {
  // npm ls exits 1 on any tree problem (an extraneous dev package, say) but still lists the tree.
  const { stdout } = await run('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT, allowFailure: true })
  const paths = stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith(join(ROOT, 'node_modules') + sep))
    .map((line) => relative(ROOT, line).split(sep).join('/'))
  if (paths.length === 0) throw new Error(`npm ls listed no production packages:\n${stdout}`)
  return [...new Set(paths)].sort()
}

/**
 * A copy of the project root for electron-builder: package.json, package-lock.json,
 * electron-builder.yml, build/ and the production packages of node_modules (a few MB). A real
 * copy, not a symlink: npm (which electron-builder asks for the dependency tree) follows a
 * symlinked node_modules only while its hidden lockfile is current, and this way nothing the
 * packager does can reach the checkout.
 */
function stageProject(stage: string, packages: string[]): void {
  for (const file of ['package.json', 'package-lock.json', 'electron-builder.yml']) cpSync(join(ROOT, file), join(stage, file))
  if (existsSync(join(ROOT, 'build'))) cpSync(join(ROOT, 'build'), join(stage, 'build'), { recursive: true })
  cpSync(join(ROOT, 'resources'), join(stage, 'resources'), { recursive: true })
  // Parents before their nested node_modules; a nested package copied with its parent is skipped.
  for (const pkg of packages) {
    if (!existsSync(join(stage, pkg))) cpSync(join(ROOT, pkg), join(stage, pkg), { recursive: true })
  }
}

/** An environment in which nothing can be signed, and any download would fail instead of hiding in a cache. */
function offlineEnv(work: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of Object.keys(env)) {
    // VITEST would make electron-builder's logger drop its info lines, which the test reads.
    if (/^(CSC_|WIN_CSC_|APPLE_|GH_TOKEN|GITHUB_TOKEN|EP_|ELECTRON_BUILDER_|VITEST)/.test(name)) delete env[name]
  }
  return {
    ...env,
    CSC_IDENTITY_AUTO_DISCOVERY: 'false',
    ELECTRON_CACHE: join(work, 'cache', 'electron'),
    ELECTRON_BUILDER_CACHE: join(work, 'cache', 'electron-builder'),
    HTTP_PROXY: 'http://127.0.0.1:9',
    HTTPS_PROXY: 'http://127.0.0.1:9',
    http_proxy: 'http://127.0.0.1:9',
    https_proxy: 'http://127.0.0.1:9',
    NO_PROXY: '',
    no_proxy: '',
    npm_config_offline: 'true'
  }
}

/** electron-builder's `--dir` target for linux-x64 with the stand-in Electron. */
async function packageDir(stage: string, electronDist: string, output: string, env: NodeJS.ProcessEnv): Promise<RunResult> {
  const cli = join(ROOT, 'node_modules', 'electron-builder', 'cli.js')
  return run(
    process.execPath,
    [cli, '--projectDir', stage, '--linux', 'dir', '--x64', '--publish', 'never', `-c.electronDist=${electronDist}`, `-c.directories.output=${output}`],
    { cwd: stage, env }
  )
}

interface Manifest {
  name: string
  version: string
  dependencies?: Record<string, string>
}

interface AsarNode {
  files?: Record<string, AsarNode>
  unpacked?: boolean
}

/** What Electron's fs.readdirSync returns for a folder inside app.asar: the names in the header. */
function asarReaddir(archive: string, dir: string): string[] {
  let node = asar.getRawHeader(archive).header as AsarNode
  for (const part of dir.split('/').filter(Boolean)) {
    node = node.files?.[part] ?? {}
  }
  return Object.keys(node.files ?? {})
}

interface Tags {
  file: string
  runtime?: string
  abi?: string
  napi?: boolean
}
interface Tuple {
  name: string
}
interface NodeGypBuild {
  path(dir: string): string
  parseTuple(name: string): Tuple | undefined
  matchTuple(platform: string, arch: string): (tuple: Tuple | undefined) => boolean
  parseTags(file: string): Tags | undefined
  matchTags(runtime: string, abi: string): (tags: Tags | undefined) => boolean
  compareTags(runtime: string): (a: Tags, b: Tags) => number
}

// The node-gyp-build that serialport's bindings load (its own copy if it has one, else the hoisted one).
const requireFromBindings = createRequire(join(ROOT, BINDINGS, 'package.json'))
const nodeGypBuild = requireFromBindings('node-gyp-build/node-gyp-build.js') as NodeGypBuild

// semver as electron-builder itself loads it (a dependency of app-builder-lib).
const semver = createRequire(join(ROOT, 'node_modules', 'app-builder-lib', 'package.json'))('semver') as {
  satisfies(version: string, range: string): boolean
}

const linuxX64Binaries = readdirSync(join(ROOT, BINDINGS, 'prebuilds', 'linux-x64')).filter((name) => name.endsWith('.node'))
const allPrebuilds = readdirSync(join(ROOT, BINDINGS, 'prebuilds'))

describe('npm run dist, offline (--dir with a stand-in Electron)', () => {
  let work = ''
  let stage = ''
  let appOutDir = ''
  let resources = ''
  let archive = ''
  let files: string[] = []
  let builderOutput = ''
  let production: string[] = []

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'dice-referee-dist-'))
    stage = join(work, 'stage')
    mkdirSync(stage)
    production = await productionPackages()
    stageProject(stage, production)
    await buildApp(join(stage, 'out'))
    const electronDist = makeStandInElectron(join(work, 'electron-dist'))
    builderOutput = (await packageDir(stage, electronDist, join(work, 'dist'), offlineEnv(work))).output
    appOutDir = join(work, 'dist', 'linux-unpacked')
    resources = join(appOutDir, 'resources')
    archive = join(resources, 'app.asar')
    files = asar.listPackage(archive, { isPack: false }).map((file) => file.replace(/\\/g, '/').replace(/^\//, ''))
  }, 2 * STEP_TIMEOUT_MS)

  afterAll(() => {
    if (work && !process.env.KEEP_PACKAGING_OUTPUT) rmSync(work, { recursive: true, force: true })
    else if (work) console.log(`packaging output kept in ${work}`)
  })

  it('ran without downloading, rebuilding or signing anything', () => {
    expect(builderOutput).toMatch(/using custom unpacked Electron distribution/)
    expect(builderOutput).toMatch(/skipped dependencies rebuild/)
    expect(builderOutput).not.toMatch(/download/i)
    expect(builderOutput).not.toMatch(/signing/i)
    expect(existsSync(join(work, 'cache', 'electron'))).toBe(false)
  })

  it('flips the fuses in the packaged executable (read back from its fuse wire)', async () => {
    const wire = await getCurrentFuseWire(join(appOutDir, 'dice-referee'))
    expect(wire).toEqual({
      version: '1',
      [FuseV1Options.RunAsNode]: FuseState.DISABLE,
      [FuseV1Options.EnableCookieEncryption]: FuseState.ENABLE,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: FuseState.DISABLE,
      [FuseV1Options.EnableNodeCliInspectArguments]: FuseState.DISABLE,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: FuseState.ENABLE,
      [FuseV1Options.OnlyLoadAppFromAsar]: FuseState.ENABLE,
      [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: FuseState.DISABLE,
      [FuseV1Options.GrantFileProtocolExtraPrivileges]: FuseState.DISABLE
    })
  })

  it('lays out the app folder: executable named dice-referee, Electron license kept', () => {
    expect(statSync(join(appOutDir, 'dice-referee')).mode & 0o111).not.toBe(0)
    expect(existsSync(join(appOutDir, 'LICENSE.electron.txt'))).toBe(true)
    expect(existsSync(archive)).toBe(true)
  })

  it('holds the built app in resources/app.asar, identical to the electron-vite output', () => {
    for (const file of ['out/main/index.js', 'out/preload/index.js', 'out/renderer/index.html', 'package.json']) {
      expect(files, file).toContain(file)
    }
    const builtRenderer = readdirSync(join(stage, 'out', 'renderer', 'assets'))
    expect(builtRenderer.length).toBeGreaterThan(0)
    for (const file of ['out/main/index.js', 'out/preload/index.js', 'out/renderer/index.html', ...builtRenderer.map((name) => `out/renderer/assets/${name}`)]) {
      expect(asar.extractFile(archive, file).equals(readFileSync(join(stage, file))), file).toBe(true)
    }
    const manifest = JSON.parse(asar.extractFile(archive, 'package.json').toString()) as { main: string; name: string; devDependencies?: unknown }
    expect(manifest.main).toBe('./out/main/index.js')
    expect(manifest.name).toBe('dice-referee')
    // The main bundle keeps serialport external, so it must come from the packed node_modules.
    expect(asar.extractFile(archive, 'out/main/index.js').toString()).toMatch(/require\(["']serialport["']\)/)
    // A sandboxed preload can require 'electron' only: the screen API's table and valibot are bundled in.
    const preload = asar.extractFile(archive, 'out/preload/index.js').toString()
    expect([...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((match) => match[1])).toEqual(['electron'])
    expect(preload).toContain('setDeviceTestMode')
    // The chance-to-win tables shipped for the most played rules, where out/main/index.js looks for them.
    for (const name of readdirSync(join(ROOT, 'resources', 'win-tables'))) {
      const file = `resources/win-tables/${name}`
      expect(files, file).toContain(file)
      expect(asar.extractFile(archive, file).equals(readFileSync(join(ROOT, file))), file).toBe(true)
    }
  })

  it('ships the very screens the headless host and the end-to-end tests serve (out/renderer, built once by electron-vite)', () => {
    // The e2e project's global setup built the checkout's out/renderer with the same electron-vite config.
    const shipped = readdirSync(join(stage, 'out', 'renderer'), { recursive: true }).map(String).sort()
    const served = readdirSync(join(ROOT, 'out', 'renderer'), { recursive: true }).map(String).sort()
    expect(served).toEqual(shipped)
    for (const file of shipped.filter((name) => statSync(join(stage, 'out', 'renderer', name)).isFile())) {
      expect(readFileSync(join(ROOT, 'out', 'renderer', file)).equals(asar.extractFile(archive, `out/renderer/${file}`)), file).toBe(true)
    }
  })

  it('packs the production dependencies and nothing dev-only', () => {
    for (const file of [
      'node_modules/serialport/package.json',
      'node_modules/@serialport/stream/package.json',
      'node_modules/@serialport/parser-readline/package.json',
      `${BINDINGS}/package.json`,
      `${BINDINGS}/dist/index.js`,
      'node_modules/node-gyp-build/node-gyp-build.js',
      'node_modules/ws/package.json',
      'node_modules/qrcode/package.json'
    ]) {
      expect(files, file).toContain(file)
    }
    const forbidden = [
      /^node_modules\/(electron|electron-vite|electron-builder|vite|vue|vitest|typescript|esbuild|pinia|playwright-core)\//,
      /^node_modules\/@types\//,
      /^node_modules\/undici-types\//,
      /^node_modules\/node-addon-api\//,
      /^node_modules\/@serialport\/bindings-cpp\/(src\/|binding\.gyp$)/,
      /^(src|test|bench|scripts|docs|build|out\/host)\//,
      /\.map$/,
      /^electron-builder\.yml$/,
      /^package-lock\.json$/
    ]
    const leaked = files.filter((file) => forbidden.some((pattern) => pattern.test(file)))
    expect(leaked).toEqual([])

    // The same packages (name@version) as npm's production tree, less what electron-builder.yml
    // leaves out on purpose. electron-builder hoists the tree its own way, so the folders may
    // differ from the checkout's; what counts is that every require() still finds its package.
    // typescript is only an optional peer of valibot (for its types): npm lists it, electron-builder leaves it out.
    const excluded = /^(@types\/.*|undici-types|node-addon-api|typescript)$/
    const wanted = new Set(
      production
        .map((pkg) => JSON.parse(readFileSync(join(ROOT, pkg, 'package.json'), 'utf8')) as Manifest)
        .filter((manifest) => !excluded.test(manifest.name))
        .map((manifest) => `${manifest.name}@${manifest.version}`)
    )
    const packed = new Map<string, Manifest>()
    for (const file of files) {
      const root = /^((?:node_modules\/(?:@[^/]+\/)?[^/]+\/)+)package\.json$/.exec(file)?.[1].replace(/\/$/, '')
      if (root) packed.set(root, JSON.parse(asar.extractFile(archive, file).toString()) as Manifest)
    }
    expect(new Set([...packed.values()].map((manifest) => `${manifest.name}@${manifest.version}`))).toEqual(wanted)

    // Node's lookup from each package (its own node_modules, then each parent's) finds a version
    // in range for every dependency, and for the app's own dependencies from the app root.
    const unresolved: string[] = []
    const check = (from: string, dependencies: Record<string, string> | undefined) => {
      for (const [name, range] of Object.entries(dependencies ?? {})) {
        if (excluded.test(name)) continue
        let dir = from
        let found: Manifest | undefined
        for (;;) {
          found = packed.get(`${dir ? `${dir}/` : ''}node_modules/${name}`)
          if (found || !dir) break
          dir = dir.replace(/\/?node_modules\/(@[^/]+\/)?[^/]+$/, '')
        }
        if (!found || !semver.satisfies(found.version, range)) unresolved.push(`${from || '<app>'} → ${name}@${range}: ${found?.version ?? 'missing'}`)
      }
    }
    check('', (JSON.parse(asar.extractFile(archive, 'package.json').toString()) as Manifest).dependencies)
    for (const [root, manifest] of packed) check(root, manifest.dependencies)
    expect(unresolved).toEqual([])
  })

  it("unpacks serialport's native binaries to resources/app.asar.unpacked", () => {
    expect(linuxX64Binaries.length).toBeGreaterThan(0)
    for (const name of linuxX64Binaries) {
      const inside = `${BINDINGS}/prebuilds/linux-x64/${name}`
      const unpacked = join(resources, 'app.asar.unpacked', inside)
      expect(existsSync(unpacked), unpacked).toBe(true)
      expect(readFileSync(unpacked).equals(readFileSync(join(ROOT, inside))), inside).toBe(true)
      // The header still lists the file, marked unpacked: that is what makes Electron redirect to it.
      expect((asar.statFile(archive, inside) as { unpacked?: boolean }).unpacked, inside).toBe(true)
    }
    // Every platform's prebuilds go along (they are small), so the same config serves win/mac builds.
    const unpackedPrebuilds = readdirSync(join(resources, 'app.asar.unpacked', BINDINGS, 'prebuilds'))
    expect(unpackedPrebuilds.sort()).toEqual([...allPrebuilds].sort())
    // The package itself is unpacked too, so node-gyp-build's package root has real files behind it.
    expect(existsSync(join(resources, 'app.asar.unpacked', BINDINGS, 'package.json'))).toBe(true)
  })

  it("node-gyp-build's lookup inside the packaged app ends at an unpacked N-API binary", () => {
    // Inside Electron, bindings-cpp calls nodeGypBuild('<resources>/app.asar/node_modules/@serialport/bindings-cpp').
    // Electron's fs lists prebuilds/ from the asar header, and process.dlopen sends an unpacked
    // entry to the same path under app.asar.unpacked. Replay that with node-gyp-build's own matching.
    const prebuildsDir = `${BINDINGS}/prebuilds`
    const tuple = asarReaddir(archive, prebuildsDir)
      .map((name) => nodeGypBuild.parseTuple(name))
      .filter(nodeGypBuild.matchTuple('linux', 'x64'))[0]
    expect(tuple?.name).toBe('linux-x64')
    // The prebuilds carry no runtime/abi tag (N-API), so any Electron ABI matches.
    const candidates = asarReaddir(archive, `${prebuildsDir}/linux-x64`)
      .map((file) => nodeGypBuild.parseTags(file))
      .filter((tags): tags is Tags => nodeGypBuild.matchTags('electron', 'any-electron-abi')(tags))
      .sort(nodeGypBuild.compareTags('electron'))
    const winner = candidates[0]
    expect(winner, 'a binary that matches electron/linux/x64').toBeDefined()
    expect(winner.abi).toBeUndefined()
    const inside = `${prebuildsDir}/linux-x64/${winner.file}`
    expect((asar.statFile(archive, inside) as { unpacked?: boolean }).unpacked).toBe(true)
    expect(existsSync(join(`${archive}.unpacked`, inside))).toBe(true)
  })

  it.runIf(process.platform === 'linux' && process.arch === 'x64')('the unpacked binary loads from app.asar.unpacked', async () => {
    // In a child Node process (plain Node has no asar support, so the unpacked package root is used
    // directly): node-gyp-build resolves and dlopen()s the binary the packaged app will use.
    const packageRoot = join(resources, 'app.asar.unpacked', BINDINGS)
    const script = `
      const load = require(${JSON.stringify(requireFromBindings.resolve('node-gyp-build'))})
      const file = load.path(${JSON.stringify(packageRoot)})
      console.log(JSON.stringify({ file, exports: Object.keys(require(file)) }))
    `
    const { output } = await run(process.execPath, ['-e', script], { cwd: work })
    const loaded = JSON.parse(output.trim().split('\n').pop() ?? '{}') as { file: string; exports: string[] }
    expect(loaded.file.startsWith(join(packageRoot, 'prebuilds', 'linux-x64'))).toBe(true)
    expect(loaded.exports).toEqual(expect.arrayContaining(['open', 'close', 'set', 'get', 'update', 'flush', 'drain']))
  })
})
