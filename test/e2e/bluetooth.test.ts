// End to end with Bluetooth dice: Chromium against the real headless host, with a fake
// navigator.bluetooth (test/e2e/fake-bluetooth.ts) serving two Pixels and two GoDice. The dice are
// connected from the Devices tab, thrown, and the throw reaches the scoreboard; a die that drops
// out is marked gone, and comes back by itself.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { installFakeBluetooth, type FakeDieSpec } from './fake-bluetooth'
import { launchBrowser, SCREENSHOTS, startHost, type RunningHost } from './support'

let browser: Browser
let host: RunningHost

const DICE: (FakeDieSpec & { dieId: string })[] = [
  { id: 'p1', name: 'Pixel Red', kind: 'pixels', pixelId: 0x1111, dieId: 'P00003DD' },
  { id: 'p2', name: 'Pixel Old', kind: 'pixels-legacy', pixelId: 0x2222, dieId: 'P00006QQ' },
  { id: 'g1', name: 'GoDice_00A1_K_v04', kind: 'godice', colour: 1, dieId: 'G00A1' },
  { id: 'g2', name: 'GoDice_00B2_K_v04', kind: 'godice', colour: 3, dieId: 'G00B2' }
]
const GODICE_FACE: Record<number, number[]> = { 1: [-64, 0, 0], 2: [0, 0, 64], 3: [0, 64, 0], 4: [0, -64, 0], 5: [0, 0, -64], 6: [64, 0, 0] }

beforeAll(async () => {
  browser = await launchBrowser()
  const dir = mkdtempSync(join(tmpdir(), 'dice-referee-e2e-bt-'))
  host = await startHost(join(dir, 'data'), 0)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await host?.stop()
})

const notify = (page: Page, id: string, bytes: number[]) =>
  page.evaluate(([die, data]) => (window as unknown as { __dice: { notify(id: string, bytes: number[]): void } }).__dice.notify(die, data), [id, bytes] as const)

async function throwDice(page: Page, faces: Record<string, number>): Promise<void> {
  for (const die of DICE) if (die.id in faces) await notify(page, die.id, die.kind === 'godice' ? [82] : [3, 3, 0])
  for (const die of DICE) {
    if (!(die.id in faces)) continue
    const face = faces[die.id]
    await notify(page, die.id, die.kind === 'godice' ? [83, ...GODICE_FACE[face].map((n) => (n + 256) % 256)] : [3, 1, face - 1])
  }
}

it('connects two Pixels and two GoDice, throws them onto the scoreboard, and shows a die that drops out as gone', async () => {
  const app = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
  await app.addInitScript(installFakeBluetooth, DICE)
  await app.goto(host.url)
  await app.getByTestId('tab-devices').click()
  await expect.poll(() => app.getByTestId('bluetooth-connect').isEnabled(), { timeout: 10_000 }).toBe(true)
  for (const die of DICE) {
    await app.evaluate((id) => ((window as unknown as { __dice: { next: string } }).__dice.next = id), die.id)
    await app.getByTestId('bluetooth-connect').click()
    await expect.poll(() => app.getByTestId(`die-chip-${die.dieId}`).count(), { timeout: 10_000 }).toBe(1)
  }
  // The picker was asked for dice only: Pixels by service, GoDice by name.
  const request = await app.evaluate(() => (window as unknown as { __dice: { requests: unknown[] } }).__dice.requests[0])
  expect(JSON.stringify(request)).toContain('a6b90001-7a5a-43f2-a962-350c8edc9b5b')
  expect(JSON.stringify(request)).toContain('GoDice_')
  await expect.poll(() => app.getByTestId('die-chip-G00A1').getAttribute('data-status')).not.toBe('offline')

  await app.getByTestId('tab-setup').click()
  await app.getByTestId('game-four-plus').click()
  await app.getByTestId('player-name-0').fill('Ann')
  await app.getByTestId('player-name-1').fill('Bob')
  await app.getByTestId('start-game').click()
  const scoreboard = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
  await scoreboard.goto(`${host.url}scoreboard`)

  await throwDice(app, { p1: 5, p2: 5, g1: 5, g2: 2 })
  await expect.poll(() => scoreboard.getByTestId('score-Ann').getAttribute('data-score'), { timeout: 10_000 }).toBe('3')
  await throwDice(app, { p1: 4, p2: 4, g1: 4, g2: 4 })
  await expect.poll(() => scoreboard.getByTestId('score-Ann').getAttribute('data-score'), { timeout: 10_000 }).toBe('7')

  // Identify lights a Pixel: the Blink message (29) reaches the die.
  await app.getByTestId('tab-devices').click()
  await app.getByTestId('identify-P00003DD').click()
  await expect
    .poll(() => app.evaluate(() => (window as unknown as { __dice: { writes(id: string): number[][] } }).__dice.writes('p1').some((w) => w[0] === 29)), { timeout: 10_000 })
    .toBe(true)

  // GoDice g2 drops out: gone on the Devices tab; back in range, it reconnects by itself.
  await app.evaluate(() => (window as unknown as { __dice: { drop(id: string): void } }).__dice.drop('g2'))
  await expect.poll(() => app.getByTestId('die-chip-G00B2').getAttribute('data-status'), { timeout: 10_000 }).toBe('offline')
  expect(await app.locator('[data-testid="bluetooth-link"][data-state="gone"]').count()).toBe(1)
  await app.screenshot({ path: join(SCREENSHOTS, 'bluetooth-gone.png') })
  await app.evaluate(() => (window as unknown as { __dice: { back(id: string): void } }).__dice.back('g2'))
  await expect.poll(() => app.getByTestId('die-chip-G00B2').getAttribute('data-status'), { timeout: 15_000 }).not.toBe('offline')
  expect(await app.locator('[data-testid="bluetooth-link"][data-state="gone"]').count()).toBe(0)
  await app.close()
  await scoreboard.close()
}, 90_000)
