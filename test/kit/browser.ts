// Debian's Chromium, headless, driven by playwright-core: the end-to-end suite's browser and the
// benches'. Vitest-free, so benches can use it too.
import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Chromium, headless; `extraArgs` adds switches (a fake camera's, e.g.). */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is needed at ${CHROMIUM} (apt-get install chromium), or set CHROMIUM_PATH`)
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', ...extraArgs]
  })
}
