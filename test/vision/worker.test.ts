// The same reader in a Web Worker in Chromium: the module is bundled as the app's build would,
// the page decodes a rendered photo with the browser's own JPEG decoder and hands the worker the
// RGBA frame; the worker reads it with OpenCV's wasm, as in Node.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scorePhoto } from '@shared/vision/eval'
import { parseManifest } from '@shared/vision/manifest'
import type { FrameReading } from '@shared/vision/types'
import { launchBrowser } from '../e2e/support'
import { repoPath } from '@test/kit/root'

const FIXTURES = repoPath('test', 'fixtures', 'dice-photos')
let browser: Browser
let bundle: string

beforeAll(async () => {
  const built = await build({
    entryPoints: [join(__dirname, 'reader-worker.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    // OpenCV's build asks for these only when it runs under Node.
    external: ['fs', 'path', 'crypto'],
    logLevel: 'silent'
  })
  bundle = built.outputFiles[0].text
  browser = await launchBrowser()
}, 120_000)

afterAll(async () => {
  await browser?.close()
})

describe('the dice reader in a browser Web Worker', () => {
  it('reads a rendered photo as it does in Node', async () => {
    const manifest = parseManifest(readFileSync(join(FIXTURES, 'manifest.jsonl'), 'utf8'))
    if (!manifest.ok) throw new Error(manifest.error)
    const line = manifest.lines.find((l) => l.condition === 'top-down')!
    const page = await browser.newPage()
    await page.route('http://vision.test/**', (route) => {
      const path = new URL(route.request().url()).pathname
      if (path === '/') return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>reader</title>' })
      if (path === '/worker.js') return route.fulfill({ contentType: 'text/javascript', body: bundle })
      if (path === '/photo.jpg') return route.fulfill({ contentType: 'image/jpeg', body: readFileSync(join(FIXTURES, line.file)) })
      return route.fulfill({ status: 404, body: '' })
    })
    await page.goto('http://vision.test/')
    const answer = await page.evaluate(async (tray) => {
      const bitmap = await createImageBitmap(await (await fetch('/photo.jpg')).blob())
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height)
      const context = canvas.getContext('2d')!
      context.drawImage(bitmap, 0, 0)
      const image = context.getImageData(0, 0, bitmap.width, bitmap.height)
      const worker = new Worker('/worker.js')
      const reply = new Promise<{ reading: unknown; ms: number }>((resolve, reject) => {
        worker.onmessage = (event) => resolve(event.data)
        worker.onerror = (event) => reject(new Error(event.message))
      })
      worker.postMessage({ frame: { width: image.width, height: image.height, data: image.data }, tray: { polygon: tray, width: image.width, height: image.height } })
      return reply
    }, line.tray!)
    const reading = answer.reading as FrameReading
    expect(scorePhoto(line.values, reading.dice)).toMatchObject({ right: line.values.length, wrong: 0 })
    await page.close()
  }, 120_000)
})
