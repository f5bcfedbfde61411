// End to end with a camera over the dice tray (issue 26): Chromium against the real headless host,
// its camera a canvas showing rendered photos of one tray (test/fixtures/camera-throws, made by
// scripts/dice-photos/camera-scenes.ts; ./fake-camera.ts). A game of Farkle: the tray marked by
// clicking its corners and checked with a test throw; six dice read and taken (the TV shows them);
// after a keep the three kept dice left in the tray are not read as thrown; a tilted die refused;
// a die the camera is unsure of filled into the keypad and confirmed with Enter; capture mode
// saving that throw's frames with the values taken. Figures are printed: the time from the dice
// settling to the throw on the TV, and the worker's reading times.
import { X509Certificate } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { request as httpsRequest } from 'node:https'
import type { TLSSocket } from 'node:tls'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { parseManifest } from '@shared/vision/manifest'
import { ScreenClient } from '@test/kit/screen-client'
import { CAMERA_THROWS, cameraPhotos, installFakeCamera, showPhoto, throwDice } from './fake-camera'
import { launchBrowser, SCREENSHOTS, startHost, type RunningHost } from './support'

/** A LAN address of this machine, or a second loopback address the host is told to share on (as phone.test.ts). */
const LAN_ADDRESS =
  Object.values(networkInterfaces())
    .flat()
    .find((address) => address && address.family === 'IPv4' && !address.internal)?.address ?? '127.0.0.2'
const SCENES = ['empty', 'six', 'six-kept-in-tray', 'three-one-tilted', 'three-one-leaning', 'three-touching']

let browser: Browser
let host: RunningHost
let api: ScreenClient
let dataDir: string

beforeAll(async () => {
  browser = await launchBrowser()
  dataDir = join(mkdtempSync(join(tmpdir(), 'dice-referee-e2e-camera-')), 'data')
  host = await startHost(dataDir, 0)
  api = await ScreenClient.open(host.url)
}, 120_000)

afterAll(async () => {
  api?.close()
  await browser?.close()
  await host?.stop()
})

/** The tray's corners of the rendered scenes, as the manifest gives them. */
function trayCorners(): Array<[number, number]> {
  const manifest = parseManifest(readFileSync(join(CAMERA_THROWS, 'manifest.jsonl'), 'utf8'))
  if (!manifest.ok) throw new Error(manifest.error)
  return manifest.lines[0].tray!
}

/** Clicks a point of the frame (in its pixels) on the camera's picture. */
async function clickFramePoint(page: Page, [x, y]: [number, number]): Promise<void> {
  const overlay = page.getByTestId('camera-overlay')
  const box = (await overlay.boundingBox())!
  const size = await overlay.evaluate((svg) => ({ width: (svg as SVGSVGElement).viewBox.baseVal.width, height: (svg as SVGSVGElement).viewBox.baseVal.height }))
  await page.mouse.click(box.x + (x / size.width) * box.width, box.y + (y / size.height) * box.height)
}

/** When the TV first shows these dice as the fresh throw (ms since 1970, in the browser). */
function tvShows(tv: Page, values: number[]): Promise<number> {
  return tv
    .waitForFunction(
      (wanted) => {
        const shown = Array.from(document.querySelectorAll('[data-testid="scoreboard-dice"] [data-testid="die"][data-fresh="true"]')).map((die) => Number(die.getAttribute('data-value')))
        return shown.sort().join() === [...wanted].sort().join() ? performance.timeOrigin + performance.now() : null
      },
      values,
      { polling: 'raf', timeout: 30_000 }
    )
    .then((handle) => handle.jsonValue() as Promise<number>)
}

it('reads a game of Farkle from the camera: taken, kept dice left in the tray, a tilted die, an unsure die confirmed on the keypad, capture mode', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } })
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text())
  })
  await page.addInitScript(installFakeCamera, cameraPhotos(SCENES))
  expect(await api.call('newGame', { game: 'farkle', players: ['Ann', 'Bob'] })).toEqual({ ok: true })
  await page.goto(host.url)
  const tv = await browser.newPage({ viewport: { width: 1280, height: 720 } })
  await tv.goto(`${host.url}scoreboard`)

  // The camera, the tray marked by its four corners, a test throw.
  await showPhoto(page, 'empty')
  await page.getByTestId('tab-camera').click()
  await page.getByTestId('camera-start').click()
  await page.locator('[data-testid="camera-status"][data-status="watching"]').waitFor({ timeout: 60_000 })
  await page.getByTestId('tray-mark').click()
  for (const corner of trayCorners()) await clickFramePoint(page, corner)
  await page.getByTestId('tray-save').click()
  await page.getByTestId('overlay-tray').waitFor()
  // Kept for this camera, by its name.
  expect(await page.getByTestId('camera-name').textContent()).toBe('Tray camera (test)')
  const kept = await api.getState()
  expect(Object.keys(kept.camera!.calibrations)).toEqual(['Tray camera (test)'])
  kept.camera!.calibrations['Tray camera (test)'].polygon.forEach(([x, y], index) => {
    expect(Math.abs(x - trayCorners()[index][0])).toBeLessThan(2)
    expect(Math.abs(y - trayCorners()[index][1])).toBeLessThan(2)
  })
  await showPhoto(page, 'three-touching')
  await page.getByTestId('camera-test-throw').click()
  await expect.poll(() => page.getByTestId('tested-die').evaluateAll((dice) => dice.map((die) => die.getAttribute('data-value')).sort())).toEqual(['2', '5', '5'])
  expect(await page.locator('[data-testid="overlay-die"][data-tone="sure"]').count()).toBe(3)
  await page.screenshot({ path: join(SCREENSHOTS, 'camera-test-throw-1280x720.png') })
  await showPhoto(page, 'empty')

  // Six dice thrown: read and taken; the TV shows them. (The page's long tasks are counted from here: a figure.)
  await page.getByTestId('tab-table').click()
  await page.evaluate(() => {
    const tasks: number[] = []
    ;(window as unknown as { __longTasks: number[] }).__longTasks = tasks
    new PerformanceObserver((list) => list.getEntries().forEach((entry) => tasks.push(entry.duration))).observe({ type: 'longtask', buffered: false })
  })
  const settled = await throwDice(page, 'six')
  const onTv = await tvShows(tv, [1, 1, 1, 5, 2, 3])
  await expect.poll(() => page.getByTestId('log').textContent()).toContain('Read by the camera')
  await expect.poll(() => page.getByTestId('camera-throw').getAttribute('data-outcome')).toBe('taken')
  expect(await page.getByTestId('camera-throw-die').count()).toBe(6)

  // Ann keeps the three 1s: three dice are due. Left in the tray beside three thrown, they are not read as thrown.
  for (const key of ['1', '1', '1', 'Enter']) await page.keyboard.press(key)
  await expect.poll(() => api.getState().then((state) => state.current?.offer.diceDue)).toBe(3)
  await throwDice(page, 'six-kept-in-tray')
  await expect.poll(() => page.getByTestId('message').textContent(), { timeout: 30_000 }).toContain('The camera sees 6 dice in the tray and 3 dice are due')

  // A tilted die: refused, nothing taken.
  await throwDice(page, 'three-one-tilted')
  await expect.poll(() => page.getByTestId('message').textContent(), { timeout: 30_000 }).toContain('A die is tilted: straighten it or type the throw')
  await expect.poll(() => page.getByTestId('camera-throw').getAttribute('data-outcome')).toBe('refused')

  // Capture mode on; a die the camera is unsure of: filled into this screen's keypad, Enter takes it.
  await page.getByTestId('tab-camera').click()
  await page.getByTestId('capture-toggle').click()
  await expect.poll(() => page.getByTestId('capture-toggle').getAttribute('aria-checked')).toBe('true')
  await page.getByTestId('tab-table').click()
  await throwDice(page, 'three-one-leaning')
  await expect.poll(() => page.getByTestId('keypad-buffer').textContent(), { timeout: 30_000 }).toBe('553')
  expect(await page.getByTestId('message').textContent()).toContain('The camera is not sure of the 5')
  await page.screenshot({ path: join(SCREENSHOTS, 'camera-asks.png') })
  await page.getByTestId('keypad-enter').click()
  await tvShows(tv, [5, 5, 3])
  await expect.poll(() => page.getByTestId('log').textContent()).toContain('Read by the camera')
  const record = readFileSync(join(dataDir, 'current.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
  const sorted = (values: unknown): number[] => [...(values as number[])].sort()
  // The record holds the moves and their times only, a camera's throw as any other.
  expect(record.slice(1).map((line) => [sorted(line.roll ?? line.keep), Object.keys(line).sort()])).toEqual([
    [[1, 1, 1, 2, 3, 5], ['at', 'roll']],
    [[1, 1, 1], ['at', 'keep']],
    [[3, 5, 5], ['at', 'roll']]
  ])
  // Its frames, with the values taken, in the manifest the eval reads.
  const manifestPath = join(dataDir, 'captures', 'manifest.jsonl')
  // Each frame's line is appended once its picture is written: wait for all three.
  const capturedValues = (): number[][] | null => {
    if (!existsSync(manifestPath)) return null
    const parsed = parseManifest(readFileSync(manifestPath, 'utf8'))
    return parsed.ok ? parsed.lines.map((line) => [...(line.values as number[])].sort()) : null
  }
  await expect.poll(capturedValues, { timeout: 30_000 }).toEqual([
    [3, 5, 5],
    [3, 5, 5],
    [3, 5, 5]
  ])
  const captured = parseManifest(readFileSync(manifestPath, 'utf8'))
  for (const line of captured.ok ? captured.lines : []) expect(existsSync(join(dataDir, 'captures', line.file))).toBe(true)

  // Figures: from the dice settling to the TV, the worker's readings, the page's own long tasks while it read five throws.
  const longTasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks)
  await page.getByTestId('tab-camera').click()
  const figures = await page.getByTestId('camera-figures').textContent()
  const timing = await page.getByTestId('camera-timing').textContent()
  console.log(
    `camera e2e: six dice on the TV ${Math.round(onTv - settled)} ms after they settled in front of the camera; last throw: ${timing?.trim()} ${figures}; ` +
      `the page's main thread had ${longTasks.length} tasks over 50 ms while the camera read (longest ${Math.round(Math.max(0, ...longTasks))} ms)`
  )
  expect(problems).toEqual([])
  await page.close()
  await tv.close()
}, 240_000)

it('reads from a camera device: Chromium’s own fake camera playing a file, asked for and allowed like a real one', async () => {
  // A motion JPEG of the empty tray, then six dice settled in it (played in a loop).
  const folder = mkdtempSync(join(tmpdir(), 'dice-referee-e2e-mjpeg-'))
  const file = join(folder, 'tray.mjpeg')
  const frame = (name: string): Buffer => readFileSync(join(CAMERA_THROWS, `${name}.jpg`))
  writeFileSync(file, Buffer.concat([...Array<Buffer>(15).fill(frame('empty')), ...Array<Buffer>(90).fill(frame('six'))]))
  const real = await launchBrowser(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${file}`])
  try {
    expect(await api.call('newGame', { game: 'farkle', players: ['Cy', 'Dee'] })).toEqual({ ok: true })
    const page = await real.newPage({ viewport: { width: 1280, height: 720 } })
    await page.goto(`${host.url}camera`)
    await page.getByTestId('camera-start').click()
    await page.locator('[data-testid="camera-status"][data-status="watching"]').waitFor({ timeout: 60_000 })
    await page.getByTestId('tab-table').click()
    await expect.poll(() => page.getByTestId('log').textContent(), { timeout: 60_000 }).toContain('Read by the camera')
    const state = await api.getState()
    expect([...(state.current?.lastThrow?.values ?? [])].sort()).toEqual([1, 1, 1, 2, 3, 5])
    await page.close()
  } finally {
    await real.close()
  }
}, 180_000)

it('a phone on a stand is the camera: the LAN served over HTTPS with the table’s own certificate, the phone paired, its camera read', async () => {
  const shared = await startHost(mkdtempSync(join(tmpdir(), 'dice-referee-e2e-https-')), 0, ['--share', '--https', '--lan', LAN_ADDRESS])
  const phoneBrowser = await browser.newContext({ viewport: { width: 390, height: 844 }, ignoreHTTPSErrors: true })
  try {
    await expect.poll(() => /SHA-256 fingerprint: ([0-9A-F:]+)/.test(shared.output()), { timeout: 30_000 }).toBe(true)
    const output = shared.output()
    const lan = /Shared on the LAN: (\S+\/)/.exec(output)![1]
    const code = /Pairing code for a phone that enters dice: (\d{8})/.exec(output)![1]
    expect(lan).toBe(`https://${LAN_ADDRESS}:${new URL(shared.url).port}/`)
    // The host answers over HTTPS with the certificate it printed, kept in its data folder for this user only.
    const certPath = /kept in (\S+cert\.pem)/.exec(output)![1]
    const cert = readFileSync(certPath, 'utf8')
    expect(/SHA-256 fingerprint: ([0-9A-F:]+)/.exec(output)![1]).toBe(new X509Certificate(cert).fingerprint256)
    if (process.platform !== 'win32') expect(statSync(certPath.replace(/cert\.pem$/, 'key.pem')).mode & 0o777).toBe(0o600)
    const served = await new Promise<string>((resolve, reject) => {
      const asked = httpsRequest(`${lan}camera`, { ca: cert }, (response) => {
        response.resume()
        resolve((response.socket as TLSSocket).getPeerX509Certificate()!.fingerprint256)
      })
      asked.on('error', reject)
      asked.end()
    })
    expect(served).toBe(new X509Certificate(cert).fingerprint256)

    const hostApi = await ScreenClient.open(shared.url)
    expect(await hostApi.call('newGame', { game: 'farkle', players: ['Ann', 'Bob'] })).toEqual({ ok: true })
    hostApi.close()
    const phone = await phoneBrowser.newPage()
    await phone.addInitScript(installFakeCamera, cameraPhotos(['empty', 'six']))
    await phone.goto(`${lan}table?pair=${code}`)
    await phone.getByTestId('tab-camera').waitFor()
    expect(await phone.evaluate(() => window.isSecureContext)).toBe(true)
    await showPhoto(phone, 'empty')
    await phone.getByTestId('tab-camera').click()
    await phone.getByTestId('camera-start').click()
    await phone.locator('[data-testid="camera-status"][data-status="watching"]').waitFor({ timeout: 60_000 })
    // A phone may mark its camera's tray; capture mode is the host's.
    expect(await phone.getByTestId('capture-toggle').count()).toBe(0)
    await throwDice(phone, 'six')
    await phone.getByTestId('tab-table').click()
    await expect.poll(() => phone.getByTestId('log').textContent(), { timeout: 30_000 }).toContain('Read by the camera')
  } finally {
    await phoneBrowser.close()
    await shared.stop()
  }
}, 180_000)
