// End to end with smart dice: a simulated hub on a real pseudo-terminal, the host started with
// `--serial`, and Chromium showing the Devices tab and the scoreboard following the thrown dice.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { SimulatedHub } from '@scripts/simulated-hub'
import { launchBrowser, SCREENSHOTS, settled, startHost, type RunningHost } from './support'

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
  await settled(app) // the switch's slide, before the screenshot
  await app.screenshot({ path: join(SCREENSHOTS, 'devices.png') })
  await app.close()
  await scoreboard.close()
})

it('names the dice to throw, and the table screen and the TV say when a die disagrees with the record', async () => {
  const app = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
  await app.goto(host.url)
  await app.getByTestId('tab-devices').click()
  await expect.poll(() => app.getByTestId('device-DRH-SIM001').getAttribute('data-state'), { timeout: 10_000 }).toBe('connected')
  if ((await app.getByTestId('die-chip-D').getAttribute('data-in-game')) === 'false') {
    await app.getByTestId('assign-D').click()
    await expect.poll(() => app.getByTestId('die-chip-D').getAttribute('data-in-game'), { timeout: 10_000 }).toBe('true')
  }
  await app.getByTestId('tab-setup').click()
  await app.getByTestId('game-foursies').click()
  await app.getByTestId('player-name-0').fill('Ann')
  await app.getByTestId('player-name-1').fill('Bob')
  await app.getByTestId('start-game').click()
  const scoreboard = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
  await scoreboard.goto(`${host.url}scoreboard`)

  await expect.poll(() => app.getByTestId('dice-to-throw-call').textContent(), { timeout: 10_000 }).toBe('Throw A (Red), B (Blue), C (Ivory) and D (Green)')
  await hub.throw({ A: 4, B: 2, C: 6, D: 3 })
  await expect.poll(() => app.getByTestId('smart-die-A').getAttribute('data-role'), { timeout: 10_000 }).toBe('hold')
  // Re-roll the false four 6-2 from the keyboard: B and C are named.
  for (const key of ['2', '6', 'Enter']) await app.keyboard.press(key)
  await expect.poll(() => app.getByTestId('dice-to-throw-call').textContent(), { timeout: 10_000 }).toBe('Throw B (Blue) and C (Ivory)')
  expect(await app.getByTestId('smart-die-B').getAttribute('data-role')).toBe('throw')
  expect(await app.getByTestId('smart-die-A').getAttribute('data-role')).toBe('hold')

  // A, the 4 that scored, is thrown instead: refused, and both screens say so.
  await hub.throw({ A: 5 })
  const wrong = 'Die A (Red) holds the 4 that scored: put it back on 4'
  await expect.poll(() => app.getByTestId('dice-disagreement').textContent(), { timeout: 10_000 }).toContain(wrong)
  await expect.poll(() => scoreboard.getByTestId('dice-disagreement').textContent(), { timeout: 10_000 }).toContain(wrong)
  expect(await app.getByTestId('smart-die-A').getAttribute('data-agrees')).toBe('false')
  await app.screenshot({ path: join(SCREENSHOTS, 'smart-dice-disagreement.png') })
  await scoreboard.screenshot({ path: join(SCREENSHOTS, 'smart-dice-disagreement-tv.png') })

  // Put back: the disagreement goes away everywhere; the right dice complete the throw.
  hub.nudge('A', 4)
  await expect.poll(() => scoreboard.getByTestId('dice-disagreement').count(), { timeout: 10_000 }).toBe(0)
  await expect.poll(() => app.getByTestId('dice-disagreement').count(), { timeout: 10_000 }).toBe(0)
  await hub.throw({ B: 4, C: 2 })
  await expect.poll(() => scoreboard.getByTestId('score-Ann').getAttribute('data-score'), { timeout: 10_000 }).toBe('2')
  await app.close()
  await scoreboard.close()
})
