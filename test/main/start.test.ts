// `npm start` (scripts/start.cjs) in a project folder of its own: the real electron package
// without its program (the download refused), and with a program, where it hands over to a
// stand-in electron-vite.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '@test/kit/root'

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dice-referee-start-'))
  mkdirSync(join(dir, 'scripts'))
  cpSync(join(ROOT, 'scripts', 'start.cjs'), join(dir, 'scripts', 'start.cjs'))
  const electron = join(dir, 'node_modules', 'electron')
  mkdirSync(electron, { recursive: true })
  for (const file of ['package.json', 'index.js', 'install.js', 'checksums.json']) cpSync(join(ROOT, 'node_modules', 'electron', file), join(electron, file))
  // What electron's installer needs, as installed.
  for (const name of ['@electron', '@electron-internal']) symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name))
  return dir
}

function start(dir: string, args: string[] = []) {
  return spawnSync(process.execPath, [join(dir, 'scripts', 'start.cjs'), ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
    // Every download is refused at once, and no cached Electron zip can be found.
    env: { ...process.env, ELECTRON_MIRROR: 'http://127.0.0.1:9/', electron_config_cache: join(dir, 'cache'), ELECTRON_OVERRIDE_DIST_PATH: '' }
  })
}

describe('npm start', () => {
  it('without Electron’s program says so plainly, names the fetch command and the browser alternative, and fails', () => {
    const result = start(project())
    expect(result.status).toBe(1)
    const message = result.stderr.trim().split('\n')
    expect(message).toHaveLength(2)
    expect(message[0]).toMatch(/^Dice Referee cannot open: Electron's program is not installed and could not be downloaded \(.+\)\.$/)
    expect(message[1]).toBe('Run `npx install-electron` once you are online, or play in a browser now with `npm run table`.')
    expect(result.stderr + result.stdout).not.toMatch(/^\s+at /m)
  })

  it('with Electron’s program there, builds and opens the app through electron-vite preview, passing arguments on', () => {
    const dir = project()
    const electron = join(dir, 'node_modules', 'electron')
    mkdirSync(join(electron, 'dist'))
    writeFileSync(join(electron, 'path.txt'), 'electron')
    writeFileSync(join(electron, 'dist', 'electron'), '')
    const electronVite = join(dir, 'node_modules', 'electron-vite')
    mkdirSync(join(electronVite, 'bin'), { recursive: true })
    writeFileSync(join(electronVite, 'package.json'), '{"name":"electron-vite","version":"0.0.0"}')
    writeFileSync(join(electronVite, 'bin', 'electron-vite.js'), 'console.log(JSON.stringify(process.argv.slice(2))); process.exit(3)\n')
    const result = start(dir, ['--verbose'])
    expect(result.stderr).toBe('')
    expect(JSON.parse(result.stdout)).toEqual(['preview', '--', '--verbose'])
    expect(result.status).toBe(3)
  })
})
