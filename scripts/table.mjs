// `npm run table`: starts the headless host (src/host/table.ts) under plain Node.
//
// The host is bundled by esbuild into out/host/table.cjs and the bundle is run: loading one
// JavaScript file starts in well under a second, where compiling the host's TypeScript on each
// start (tsx) takes one to three seconds on this project's machines. The bundle is rebuilt when
// what it was built from changed: out/host/inputs.json holds a content hash of every source file
// esbuild read for it (its metafile's inputs, so a new import is followed without a list to keep),
// of this script (the entries and build options) and of the tsconfig files and package-lock.json
// (the esbuild version). Timestamps are not used: a checkout, a stash or a copy can make old content look new
// and new content look old. The screens are built by the host itself (src/host/renderer-build.ts).
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const outDir = join(root, 'out', 'host')
/** The host, and any script it starts as a worker thread, each bundled to out/host/<name>.cjs. */
const ENTRIES = { table: 'src/host/table.ts', 'win-table-worker': 'src/main/core/computer/win-table-worker.ts', 'odds-worker': 'src/main/core/computer/odds-worker.ts' }
const bundles = Object.keys(ENTRIES).map((name) => join(outDir, `${name}.cjs`))
const stampFile = join(outDir, 'inputs.json')
const ALWAYS = ['scripts/table.mjs', 'package-lock.json', ...readdirSync(root).filter((name) => /^tsconfig(\.[\w-]+)?\.json$/.test(name))]

function hashOf(path) {
  try {
    return createHash('sha256').update(readFileSync(join(root, path))).digest('hex')
  } catch {
    return 'missing'
  }
}

function stampOf(inputs) {
  return Object.fromEntries([...new Set([...inputs, ...ALWAYS])].sort().map((path) => [path, hashOf(path)]))
}

function isCurrent() {
  if (!existsSync(stampFile) || !bundles.every((bundle) => existsSync(bundle))) return false
  const recorded = JSON.parse(readFileSync(stampFile, 'utf8'))
  return Object.entries(recorded).every(([path, hash]) => hashOf(path) === hash) && ALWAYS.every((path) => path in recorded)
}

async function buildHost() {
  const { build } = await import('esbuild')
  const result = await build({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outdir: outDir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    sourcemap: 'inline',
    logLevel: 'warning'
  })
  const stamp = stampOf(Object.keys(result.metafile.inputs))
  mkdirSync(outDir, { recursive: true })
  // Written aside and renamed, so a host starting at the same moment never loads half a file.
  for (const file of result.outputFiles) writeAtomically(file.path, file.text)
  writeAtomically(stampFile, `${JSON.stringify(stamp, null, 1)}\n`)
}

function writeAtomically(path, text) {
  const aside = `${path}.${process.pid}.tmp`
  writeFileSync(aside, text)
  renameSync(aside, path)
}

if (!isCurrent()) await buildHost()
createRequire(import.meta.url)(join(outDir, 'table.cjs'))
