// What `npm run table` builds, and when: the screens by electron-vite (src/host/renderer-build.ts)
// and the host's bundle by esbuild (scripts/table.mjs), each rebuilt when the content of what it
// was built from changed, config and dependencies included, and never for a timestamp alone.
// Run in a copy of the project (sources, configs, lock file; node_modules linked), so the
// checkout's out/ that other tests serve is never touched.
import { spawnSync } from 'node:child_process'
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureRendererBuilt, isRendererCurrent, rendererInputsHash } from '@host/renderer-build'
import { ROOT } from '@test/kit/root'

let copy = ''

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'dice-referee-builds-'))
  for (const name of readdirSync(ROOT)) {
    if (/^(src|scripts|electron\.vite\.config\.ts|package(-lock)?\.json|tsconfig.*\.json|types)$/.test(name)) cpSync(join(ROOT, name), join(copy, name), { recursive: true })
  }
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'))
})

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true })
})

/** Sets every file under `folder` a day into the future: a timestamp change without a content change. */
function touchAll(folder: string): void {
  const later = new Date(Date.now() + 86_400_000)
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) utimesSync(join(entry.parentPath, entry.name), later, later)
  }
}

describe('the screens (out/renderer, by electron-vite)', () => {
  it('the inputs hash follows content: renderer, shared, config and lock file, not timestamps or other folders', () => {
    const before = rendererInputsHash(copy)
    touchAll(join(copy, 'src'))
    expect(rendererInputsHash(copy)).toBe(before)
    appendFileSync(join(copy, 'src', 'main', 'core', 'settings.ts'), '\n// the core is not an input of the screens\n')
    expect(rendererInputsHash(copy)).toBe(before)
    for (const input of ['src/renderer/src/lib/format.ts', 'src/shared/keypad.ts', 'electron.vite.config.ts', 'package-lock.json']) {
      const path = join(copy, input)
      const original = readFileSync(path)
      writeFileSync(path, Buffer.concat([original, Buffer.from(input.endsWith('.json') ? ' ' : '\n// changed\n')]))
      expect(rendererInputsHash(copy), input).not.toBe(before)
      writeFileSync(path, original)
      expect(rendererInputsHash(copy), input).toBe(before)
    }
    writeFileSync(join(copy, 'src', 'shared', 'new-module.ts'), 'export const added = 1\n')
    expect(rendererInputsHash(copy)).not.toBe(before)
    rmSync(join(copy, 'src', 'shared', 'new-module.ts'))
  })

  it('builds once when missing, even when asked twice at the same moment; then only after a config change', async () => {
    expect(isRendererCurrent(copy)).toBe(false)
    const built = await Promise.all([ensureRendererBuilt(copy), ensureRendererBuilt(copy)])
    expect(built.sort()).toEqual([false, true])
    expect(isRendererCurrent(copy)).toBe(true)
    const index = readFileSync(join(copy, 'out', 'renderer', 'index.html'), 'utf8')
    expect(index).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js">/)

    touchAll(join(copy, 'src'))
    expect(await ensureRendererBuilt(copy)).toBe(false)

    // A config change with no source change: the screens are built again (the title goes in via a plugin).
    const config = join(copy, 'electron.vite.config.ts')
    const original = readFileSync(config, 'utf8')
    const changed = original.replace(
      'plugins: [vue()',
      "plugins: [{ name: 'probe', transformIndexHtml: (html: string) => html.replace('</head>', '<meta name=\"probe\"></head>') }, vue()"
    )
    expect(changed).not.toBe(original)
    writeFileSync(config, changed)
    expect(isRendererCurrent(copy)).toBe(false)
    expect(await ensureRendererBuilt(copy)).toBe(true)
    expect(readFileSync(join(copy, 'out', 'renderer', 'index.html'), 'utf8')).toContain('<meta name="probe">')
  }, 180_000)

  it('notices an out/renderer written by another build than the one it recorded', () => {
    expect(isRendererCurrent(copy)).toBe(true)
    appendFileSync(join(copy, 'out', 'renderer', 'index.html'), '<!-- another build -->\n')
    expect(isRendererCurrent(copy)).toBe(false)
  })
})

describe("the host's bundle (out/host/table.cjs, by esbuild)", () => {
  const bundle = (): string => join(copy, 'out', 'host', 'table.cjs')
  const help = (): number | null => spawnSync(process.execPath, [join(copy, 'scripts', 'table.mjs'), '--help'], { cwd: copy, stdio: 'ignore' }).status

  it('is bundled when missing, kept when only timestamps change, rebuilt when a source it reads changes', () => {
    expect(help()).toBe(0)
    const first = statSync(bundle()).mtimeMs
    touchAll(join(copy, 'src'))
    expect(help()).toBe(0)
    expect(statSync(bundle()).mtimeMs).toBe(first)

    appendFileSync(join(copy, 'src', 'main', 'core', 'files', 'settings.ts'), '\n;(globalThis as Record<string, unknown>).BUNDLE_PROBE = "rebuilt"\n')
    expect(help()).toBe(0)
    expect(readFileSync(bundle(), 'utf8')).toContain('BUNDLE_PROBE')
  }, 60_000)
})
