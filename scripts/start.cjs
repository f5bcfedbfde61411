// `npm start`: makes sure Electron's program is there, then builds and opens the app
// (`electron-vite preview`, extra arguments passed on). The electron package holds no program of
// its own: it downloads it on first use. Fetched here first, so that a machine without the
// internet gets two plain sentences and a non-zero exit instead of electron's stack trace.
const { spawn, spawnSync } = require('node:child_process')
const { existsSync, readFileSync } = require('node:fs')
const { dirname, join } = require('node:path')

const FETCH_COMMAND = 'npx install-electron'
const FETCH_TIMEOUT_MS = 15 * 60 * 1000

const electronDir = dirname(require.resolve('electron/package.json'))

/** Electron's program as electron's own index.js finds it, when it is there. */
function installedElectron() {
  const pathFile = join(electronDir, 'path.txt')
  if (!existsSync(pathFile)) return null
  const program = join(process.env.ELECTRON_OVERRIDE_DIST_PATH || join(electronDir, 'dist'), readFileSync(pathFile, 'utf8'))
  return existsSync(program) ? program : null
}

/** The last line electron's installer printed that says what went wrong, without its stack. */
function reasonFrom(output) {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('at '))
  return lines.at(-1) ?? 'no reason given'
}

if (!installedElectron()) {
  process.stdout.write('Fetching Electron (once, about 100 MB)...\n')
  const fetched = spawnSync(process.execPath, [join(electronDir, 'install.js')], { encoding: 'utf8', timeout: FETCH_TIMEOUT_MS })
  if (!installedElectron()) {
    const reason = fetched.error ? fetched.error.message : reasonFrom(`${fetched.stdout ?? ''}\n${fetched.stderr ?? ''}`)
    process.stderr.write(
      `Dice Referee cannot open: Electron's program is not installed and could not be downloaded (${reason}).\n` +
        `Run \`${FETCH_COMMAND}\` once you are online, or play in a browser now with \`npm run table\`.\n`
    )
    process.exit(1)
  }
}

const electronVite = join(dirname(require.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js')
// electron-vite hands what follows `--` to Electron (e.g. `npm start -- --verbose`).
const electronArgs = process.argv.slice(2)
const child = spawn(process.execPath, [electronVite, 'preview', ...(electronArgs.length ? ['--', ...electronArgs] : [])], { stdio: 'inherit' })
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
