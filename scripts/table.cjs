// `npm run table`: bundles the headless host once after each change (a plain Node start is much
// faster than compiling TypeScript on every start), then runs it with the given arguments.
const { buildSync } = require('esbuild')
const { existsSync, readdirSync, renameSync, statSync } = require('node:fs')
const { join } = require('node:path')

const root = join(__dirname, '..')
const bundle = join(root, 'out', 'host', 'table.cjs')

function newestChange(path) {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stat.mtimeMs)
}

const sources = ['src/host', 'src/main', 'src/shared'].map((folder) => newestChange(join(root, folder)))
if (!existsSync(bundle) || statSync(bundle).mtimeMs < Math.max(...sources)) {
  // Written aside and renamed, so a host starting at the same moment never loads half a file.
  const written = `${bundle}.${process.pid}.tmp`
  const options = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', packages: 'external', sourcemap: 'inline', logLevel: 'warning' }
  // The chance-to-win solver's worker thread: a script of its own, found next to the host bundle.
  const worker = join(root, 'out', 'host', 'win-table-worker.cjs')
  buildSync({ ...options, entryPoints: [join(root, 'src', 'main', 'core', 'win-table-worker.ts')], outfile: `${worker}.${process.pid}.tmp` })
  renameSync(`${worker}.${process.pid}.tmp`, worker)
  buildSync({ ...options, entryPoints: [join(root, 'src', 'host', 'table.ts')], outfile: written })
  renameSync(written, bundle)
}
require(bundle)
