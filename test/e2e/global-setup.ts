// Once per test run, before any end-to-end file: the app's own electron-vite build of the screens
// (out/renderer, as shipped; rebuilt only when its inputs changed) and the host's bundle, so no
// test file waits for a build and parallel files never build at the same time.
import { spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { ensureRendererBuilt } from '@host/renderer-build'
import { HOST_ENTRY, ROOT, SCREENSHOTS } from './support'

export default async function setup(): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  await ensureRendererBuilt(ROOT)
  // `--help` exits before the host starts, after scripts/table.mjs has bundled it when stale.
  const bundled = spawnSync(process.execPath, [HOST_ENTRY, '--help'], { cwd: ROOT, encoding: 'utf8' })
  if (bundled.status !== 0) throw new Error(`the host could not be bundled:\n${bundled.stderr}`)
}
