// End to end with smart dice: a simulated hub on a real pseudo-terminal, the host started with
// `--serial`, and Chromium showing the Devices tab and the scoreboard following the thrown dice.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { SimulatedHub } from '../../src/main/devices/simulated-hub'
import { launchBrowser, SCREENSHOTS, startHost, type RunningHost } from './support'

let browser: Browser
let hub: SimulatedHub
let host: RunningHost

beforeAll(async () => {
  browser = await launchBrowser()
  const dir = mkdtempSync(join(tmpdir(), 'dice-referee-e2e-dice-'))
  hub = new SimulatedHub({ link: join(dir, 'hub'), speed: 0.1, heartbeatMs: 500 })
  await hub.start()
  host = await startHost(join(dir, 'data'), 0, ['--serial', hub.path])
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await host?.stop()
  await hub?.stop()
})

it('plays by throwing smart dice: the Devices tab shows the hub and the scoreboard follows the throws', async () => {
  const app = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
  await app.goto(host.url)
  await app.getByTestId('tab-devices').click()
  await expect.poll(() => app.getByTestId('device-DRH-SIM001').getAttribute('data-state'), { timeout: 10_000 }).toBe('connected')
  expect(await app.getByTestId('device-dice').locator('[data-testid^="die-chip-"]').count()).toBeGreaterThanOrEqual(4)

  await app.getByTestId('tab-setup').click()
  await app.getByTestId('game-four-plus').click()
  await app.getByTestId('player-name-0').fill('Ann')
  await app.getByTestId('player-name-1').fill('Bob')
  await app.getByTestId('start-game').click()
  const scoreboard = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
  await scoreboard.goto(`${host.url}scoreboard`)

  await hub.throw({ A: 5, B: 5, C: 5, D: 2 })
  await expect.poll(() => scoreboard.getByTestId('score-Ann').getAttribute('data-score'), { timeout: 10_000 }).toBe('3')
  await hub.throw({ A: 4, B: 4, C: 4, D: 4 })
  await expect.poll(() => scoreboard.getByTestId('score-Ann').getAttribute('data-score'), { timeout: 10_000 }).toBe('7')
  await expect.poll(() => app.getByTestId('log').textContent()).toContain('Ann')
  await app.getByTestId('tab-devices').click()
  // D out of the game (through the WebSocket and dispatch): its chip dims, its switch goes off.
  await app.getByTestId('assign-D').click()
  await expect.poll(() => app.getByTestId('die-chip-D').getAttribute('data-in-game'), { timeout: 10_000 }).toBe('false')
  expect(await app.getByTestId('assign-D').getAttribute('aria-checked')).toBe('false')
  await app.waitForTimeout(300) // the switch's slide, before the screenshot
  await app.screenshot({ path: join(SCREENSHOTS, 'devices.png') })
  await app.close()
  await scoreboard.close()
})
