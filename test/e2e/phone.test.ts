// End to end (issue 24): the phone is the keypad. Two screens at once in Chromium against the real
// host: the host's own page (loopback) and a phone that pairs over the LAN with the code, upright
// (390×844) and on its side (844×390). The phone opens the host's LAN address (this machine's own,
// or 127.0.0.2 given with --lan where it has none, so the host treats the phone as remote either
// way). Checked: the keypad and Enter inside the phone's screen, nothing wider than it before or
// after pairing, each screen's own typed digits and its own refusals beside its keypad, a
// computer's turn refused to people, sharing off and on, a paired phone still paired after the
// host restarts (and no longer once revoked), a wrong code told. Figures are printed.
import { mkdtempSync } from 'node:fs'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { SCREENSHOTS, startHost, type RunningHost, useBrowserAndHosts } from './support'
import { ScreenClient } from '@test/kit/screen-client'
import { layoutProblems } from './layout'

/** A LAN address of this machine, or a second loopback address the host is told to share on. */
const LAN_ADDRESS =
  Object.values(networkInterfaces())
    .flat()
    .find((address) => address && address.family === 'IPv4' && !address.internal)?.address ?? '127.0.0.2'

const UPRIGHT = { width: 390, height: 844 }
const ON_ITS_SIDE = { width: 844, height: 390 }
const LAPTOP = { width: 1280, height: 720 }

const kept = useBrowserAndHosts()

interface SharedTable {
  dataDir: string
  host: RunningHost
  api: ScreenClient
  /** The table's address on the LAN (http://ADDRESS:PORT/). */
  lan: string
  code: string
}

async function shareTable(dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-phone-')), port = 0): Promise<SharedTable> {
  const host = await startHost(dataDir, port, ['--share', '--lan', LAN_ADDRESS])
  kept.keep(host)
  // The LAN lines follow the first line the host prints.
  await expect.poll(() => /Pairing code for a phone that enters dice: (\d{8})/.test(host.output()), { timeout: 10_000 }).toBe(true)
  const code = /Pairing code for a phone that enters dice: (\d{8})/.exec(host.output())![1]
  const lan = /Shared on the LAN: (http:\/\/\S+\/)/.exec(host.output())![1]
  expect(lan).toBe(`http://${LAN_ADDRESS}:${new URL(host.url).port}/`)
  const api = await ScreenClient.open(host.url)
  kept.keep(api)
  return { dataDir, host, api, lan, code }
}

async function openPage(url: string, viewport: { width: number; height: number }): Promise<Page & { problems: string[] }> {
  const page = (await kept.browser.newPage({ viewport })) as Page & { problems: string[] }
  page.problems = []
  page.on('pageerror', (error) => page.problems.push(error.message))
  await page.goto(url)
  return page
}

/** Pairs a LAN page with the code typed in its pairing band; resolves once it may enter dice. */
async function pair(phone: Page, code: string): Promise<void> {
  await phone.getByTestId('pairing-code').fill(code)
  // The page opens again with its token: a paired screen, keypad on.
  const reloaded = phone.waitForEvent('load')
  await phone.getByTestId('pairing-submit').click()
  await reloaded
  await phone.getByTestId('tab-table').waitFor()
  await phone.getByTestId('table-screen').waitFor()
  expect(await phone.getByTestId('view-only').count()).toBe(0)
}

const text = (page: Page, testId: string) => () => page.getByTestId(testId).first().textContent()
const box = async (page: Page, testId: string) => (await page.getByTestId(testId).first().boundingBox())!
const rounded = (b: { x: number; y: number; width: number; height: number }) => `x ${Math.round(b.x)}–${Math.round(b.x + b.width)}, y ${Math.round(b.y)}–${Math.round(b.y + b.height)}`

/** Layout problems (wider than the screen, overlaps, text cut) on each screen a LAN page may open, ending on the Table. */
async function problemsOnEveryScreen(page: Page, lan: string): Promise<string[]> {
  const problems: string[] = []
  for (const [path, testId] of [
    ['setup', 'setup-screen'],
    ['history', 'history-screen'],
    ['players', 'players-screen'],
    ['table', 'table-screen']
  ]) {
    await page.goto(`${lan}${path}`)
    await page.getByTestId(testId).waitFor()
    // The table's state is in (a game is on: its tab shows).
    await page.getByTestId('tab-table').waitFor()
    problems.push(...(await layoutProblems(page)).map((problem) => `/${path}: ${problem.kind} ${problem.what}`))
  }
  return problems
}

/** Taps keys on a page's on-screen keypad. */
async function tap(page: Page, keys: string[]): Promise<void> {
  for (const key of keys) await page.getByTestId(key === 'Enter' ? 'keypad-enter' : `keypad-${key}`).click()
}

/** Types on a page's physical keyboard, the focus on the page (not a field). */
async function type(page: Page, keys: string[]): Promise<void> {
  await page.locator('body').click({ position: { x: 2, y: 2 } })
  for (const key of keys) await page.keyboard.press(key)
}

describe('a phone paired over the LAN is a keypad of its own', () => {
  it.each([
    ['upright', UPRIGHT],
    ['on its side', ON_ITS_SIDE]
  ])(
    '%s: it fits (keypad, Enter, prompt and refusal in view, nothing wider than the screen), keeps its own digits and hears its own refusals',
    async (name, viewport) => {
      const table = await shareTable()
      await table.api.call('newGame', { game: 'foursies', players: ['Ann', 'Bob'] })
      const host = await openPage(table.host.url, LAPTOP)
      await host.getByTestId('keypad-enter').waitFor()

      const phone = await openPage(`${table.lan}table`, viewport)
      await phone.getByTestId('pairing-band').waitFor()
      expect(await phone.getByTestId('keypad-enter').isDisabled()).toBe(true)
      expect(await problemsOnEveryScreen(phone, table.lan)).toEqual([])
      if (name === 'upright') {
        // A wrong code is told, with the tries left; the page stays as it was.
        const wrong = table.code === '12345678' ? '87654321' : '12345678'
        await phone.getByTestId('pairing-code').fill(wrong)
        await phone.getByTestId('pairing-submit').click()
        await expect.poll(text(phone, 'pairing-refusal')).toMatch(/^Wrong code: .*\(\d+ more tries? at once, then one every 10 seconds\)$/)
        expect(await phone.getByTestId('view-only').count()).toBe(1)
        expect(await layoutProblems(phone)).toEqual([])
      }
      await pair(phone, table.code)
      expect(await problemsOnEveryScreen(phone, table.lan)).toEqual([])

      // Two screens, two entries: digits typed on the host stay the host's until its Enter.
      await type(host, ['4', '2'])
      await expect.poll(text(host, 'keypad-buffer')).toBe('42')
      await expect.poll(text(phone, 'keypad-buffer')).toBe('—')
      // The phone's own two digits and Enter: refused on the phone, beside its keypad; not on the host.
      await tap(phone, ['3', '1', 'Enter'])
      await expect.poll(text(phone, 'message')).toContain('4 dice are due, not 2')
      expect(await phone.getByTestId('message').getAttribute('data-level')).toBe('error')
      await expect.poll(text(host, 'keypad-buffer')).toBe('42')
      expect(await host.getByTestId('message').textContent()).not.toContain('4 dice are due')
      expect((await table.api.getState()).current!.moveCount).toBe(0)

      // Once paired, with a game on and a refusal shown: the prompt, the message and the whole keypad inside the screen.
      const enter = await box(phone, 'keypad-enter')
      const hint = await box(phone, 'keypad-hint')
      const message = await box(phone, 'message')
      const keys = await box(phone, 'keypad-1')
      const slash = await box(phone, 'keypad-slash')
      const toPlay = await box(phone, 'to-play')
      for (const part of [enter, hint, message, keys, slash, toPlay]) {
        expect(part.x).toBeGreaterThanOrEqual(0)
        expect(part.y).toBeGreaterThanOrEqual(0)
        expect(part.x + part.width).toBeLessThanOrEqual(viewport.width)
        expect(part.y + part.height).toBeLessThanOrEqual(viewport.height)
      }
      // Beside the keypad: under what was typed and the prompt, above the keys.
      expect(message.y).toBeGreaterThanOrEqual(hint.y + hint.height)
      expect(message.y + message.height).toBeLessThanOrEqual(keys.y)
      expect(await phone.evaluate(() => [document.documentElement.scrollWidth, window.scrollY])).toEqual([viewport.width, 0])
      expect(await layoutProblems(phone)).toEqual([])
      process.stdout.write(
        `phone ${viewport.width}×${viewport.height} paired: to play ${rounded(toPlay)}; prompt ${rounded(hint)}; message ${rounded(message)}; keys from y ${Math.round(keys.y)}; Enter ${rounded(enter)}; last key row ${rounded(slash)}\n`
      )
      await phone.screenshot({ path: join(SCREENSHOTS, `phone-table-${viewport.width}x${viewport.height}.png`) })

      // The phone's throw is its own four digits, whatever the host has typed.
      await tap(phone, ['3', '5', '6', '6', 'Enter'])
      await expect.poll(async () => (await table.api.getState()).current?.lastThrow?.values).toEqual([3, 5, 6, 6])
      await expect.poll(text(host, 'keypad-buffer')).toBe('42')
      await expect.poll(() => phone.getByTestId('message').getAttribute('data-level')).not.toBe('error')
      // And the host's own Enter enters the host's own digits (two: refused, on the host alone).
      await type(host, ['Enter'])
      await expect.poll(text(host, 'message')).toContain('4 dice are due, not 2')
      expect(await phone.getByTestId('message').textContent()).not.toContain('4 dice are due')

      // Farkle with a throw that offers many keeps: the decisions share one row, the keypad stays in view.
      await table.api.call('newGame', { game: 'farkle', players: ['Ann', 'Bob'] })
      await table.api.call('submit', { roll: [1, 1, 1, 5, 5, 2] })
      await expect.poll(() => phone.getByTestId('decision-5').count()).toBe(1)
      const keeps = await phone.locator('button[data-testid^="decision-"]').count()
      const farkleEnter = await box(phone, 'keypad-enter')
      const farkleHint = await box(phone, 'keypad-hint')
      for (const part of [farkleEnter, farkleHint]) expect(part.y + part.height).toBeLessThanOrEqual(viewport.height)
      expect(await layoutProblems(phone)).toEqual([])
      process.stdout.write(`phone ${viewport.width}×${viewport.height}, Farkle with ${keeps} keeps on offer: prompt ${rounded(farkleHint)}; Enter ${rounded(farkleEnter)}\n`)
      await phone.screenshot({ path: join(SCREENSHOTS, `phone-farkle-${viewport.width}x${viewport.height}.png`) })
      expect([...host.problems, ...phone.problems]).toEqual([])
      await host.close()
      await phone.close()
    },
    120_000
  )
})

describe('the computer’s turn, sharing, and a pairing that lasts', () => {
  it('a computer’s turn is refused to people on every screen, with a word; after an undo the phone can let it play', async () => {
    const table = await shareTable()
    // Robo plays first: its turn ends on Ann's.
    await table.api.call('newGame', { game: 'farkle', players: ['Robo', 'Ann'], computers: [0], rules: { entry: 0 } })
    const host = await openPage(table.host.url, LAPTOP)
    const phone = await openPage(`${table.lan}table`, UPRIGHT)
    await pair(phone, table.code)
    await expect.poll(async () => (await table.api.getState()).current?.summary.toPlay, { timeout: 60_000 }).toBe('Ann')
    // Undo lands on Robo's turn: it waits, and every screen says it is Robo's.
    await host.getByTestId('undo').click()
    await expect.poll(text(phone, 'keypad-hint')).toBe('Robo waits after the undo')
    await expect.poll(text(host, 'keypad-hint')).toBe('Robo waits after the undo')
    expect(await phone.getByTestId('keypad-enter').isDisabled()).toBe(true)
    // The host's roll and decision buttons are off too, saying why.
    const buttons = host.locator('[data-testid="roll-virtual"], button[data-testid^="decision-"]')
    expect(await buttons.count()).toBeGreaterThan(0)
    for (const button of await buttons.all()) {
      expect(await button.isDisabled()).toBe(true)
      expect(await button.getAttribute('title')).toBe('Robo waits after the undo: undo further, or let Robo play')
    }
    const moves = (await table.api.getState()).current!.moveCount
    // A person's key on the computer's turn: refused with the reason, on that screen, and nothing recorded.
    await type(host, ['Space'])
    await expect.poll(text(host, 'message')).toContain('It is Robo’s turn: the computer plays it')
    expect(await phone.getByTestId('message').textContent()).not.toContain('the computer plays it')
    expect(await table.api.call('submit', { bank: true })).toEqual({ ok: false, error: 'It is Robo’s turn: the computer plays it' })
    expect((await table.api.getState()).current!.moveCount).toBe(moves)
    // The phone lets Robo play: it plays on by itself to Ann's turn.
    await phone.getByTestId('let-computer-play').click()
    await expect.poll(async () => (await table.api.getState()).current!.moveCount, { timeout: 30_000 }).toBeGreaterThan(moves)
    await expect.poll(async () => (await table.api.getState()).current?.summary.toPlay, { timeout: 60_000 }).toBe('Ann')
    await expect.poll(() => phone.getByTestId('keypad-enter').isDisabled()).toBe(false)
    await host.close()
    await phone.close()
  }, 180_000)

  it('sharing goes off and on from the Table without a restart; a paired phone stays paired then and after the host restarts, until it is revoked', async () => {
    const table = await shareTable()
    await table.api.call('newGame', { game: 'four-plus', players: ['Ann', 'Bob'] })
    const phone = await openPage(`${table.lan}table`, UPRIGHT)
    await pair(phone, table.code)
    let host = await openPage(table.host.url, LAPTOP)
    await expect.poll(() => host.getByTestId('paired-screen').getAttribute('data-connected')).toBe('true')
    // The host's Table with sharing on and the phone paired, on a laptop and a big screen.
    expect(await layoutProblems(host)).toEqual([])
    await host.screenshot({ path: join(SCREENSHOTS, 'phone-host-table-1280x720.png'), fullPage: true })
    const big = await openPage(table.host.url, { width: 1920, height: 1080 })
    await expect.poll(() => big.getByTestId('paired-screen').getAttribute('data-connected')).toBe('true')
    expect(await layoutProblems(big)).toEqual([])
    await big.screenshot({ path: join(SCREENSHOTS, 'phone-host-table-1920x1080.png'), fullPage: true })
    await big.close()

    // Off: the phone loses the table (the LAN is not served); the host's switch stays, with the paired phone listed.
    await host.getByTestId('sharing-toggle').click()
    await expect.poll(() => host.getByTestId('sharing-state').textContent()).toBe('Off')
    await phone.getByTestId('reconnecting').waitFor()
    expect(await host.getByTestId('paired-name').count()).toBe(1)
    expect(await host.getByTestId('sharing-off').isVisible()).toBe(true)
    // On again: the phone comes back by itself, still paired.
    await host.getByTestId('sharing-toggle').click()
    await expect.poll(() => host.getByTestId('sharing-state').textContent()).toBe('On')
    await phone.getByTestId('reconnecting').waitFor({ state: 'detached', timeout: 30_000 })
    await expect.poll(() => phone.getByTestId('keypad-enter').isDisabled()).toBe(false)
    expect(await phone.getByTestId('view-only').count()).toBe(0)
    await tap(phone, ['2', '3', '5', '6', 'Enter'])
    await expect.poll(async () => (await table.api.getState()).current?.moveCount).toBe(1)

    // The host restarts (a new pairing code): the phone reconnects as the paired screen it was.
    await host.close()
    await table.host.stop()
    const again = await shareTable(table.dataDir, Number(new URL(table.host.url).port))
    expect(again.code).toMatch(/^\d{8}$/)
    await phone.getByTestId('reconnecting').waitFor({ state: 'detached', timeout: 30_000 })
    await expect.poll(() => phone.getByTestId('keypad-enter').isDisabled(), { timeout: 30_000 }).toBe(false)
    expect(await phone.getByTestId('view-only').count()).toBe(0)
    await tap(phone, ['2', '3', '5', '6', 'Enter'])
    await expect.poll(async () => (await again.api.getState()).current?.moveCount).toBe(2)
    // Its reconnects were no guesses: the host never told of a wrong code.
    expect(again.host.output()).not.toMatch(/wrong code/i)

    // Revoked on the host: the phone is told and can only watch.
    host = await openPage(again.host.url, LAPTOP)
    await expect.poll(() => host.getByTestId('paired-screen').getAttribute('data-connected')).toBe('true')
    await host.locator('[data-testid^="revoke-"]').click()
    await expect.poll(() => host.getByTestId('paired-screen').count()).toBe(0)
    await expect.poll(text(phone, 'pairing-withdrawn'), { timeout: 30_000 }).toContain('withdrew this screen’s pairing')
    expect(await phone.getByTestId('keypad-enter').isDisabled()).toBe(true)
    expect([...host.problems, ...phone.problems]).toEqual([])
    await host.close()
    await phone.close()
  }, 180_000)
})
