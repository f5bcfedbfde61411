// `referee dice-photo`: the real command once (a process, as a person runs it), then its body
// for the rest (OpenCV loaded once), and capture mode's writer whose folder it evaluates.
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runDicePhoto } from '@cli/dice-photo-command'
import { saveCapturedThrow } from '@main/devices/camera-capture'
import { decodeImage } from '@main/devices/image-file'
import { parseManifest } from '@shared/vision/manifest'
import type { OpenCv } from '@shared/vision/opencv'
import { openCvForTests } from './opencv-node'
import { ROOT } from '@test/kit/root'

const FIXTURES = join(ROOT, 'test', 'fixtures', 'dice-photos')
const manifest = parseManifest(readFileSync(join(FIXTURES, 'manifest.jsonl'), 'utf8'))
if (!manifest.ok) throw new Error(manifest.error)
const topDown = manifest.lines.find((line) => line.condition === 'top-down')!

let cv: OpenCv
beforeAll(async () => {
  cv = (await openCvForTests()).cv
}, 60_000)

async function run(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const status = await runDicePhoto(args, { readFile: (path) => readFileSync(path), stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) }, async () => ({ cv }))
  return { status, stdout, stderr }
}

describe('npm run -s referee -- dice-photo', () => {
  it('prints one JSON line per photo, as a process', () => {
    const photo = join(FIXTURES, topDown.file)
    const result = spawnSync('npm', ['run', '-s', 'referee', '--', 'dice-photo', photo, photo], { cwd: ROOT, encoding: 'utf8' })
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line))
    expect(lines).toHaveLength(2)
    expect(lines[0].file).toBe(photo)
    for (const die of lines[0].dice) {
      expect(Object.keys(die)).toEqual(['value', 'confidence', 'box'])
      expect(die.value === null || (Number.isInteger(die.value) && die.value >= 1 && die.value <= 6)).toBe(true)
      expect(die.confidence).toBeGreaterThanOrEqual(0)
      expect(die.confidence).toBeLessThanOrEqual(1)
      expect(die.box).toHaveLength(4)
    }
  }, 60_000)

  it('prints the figures of a folder, overall and per condition, each with its interval', async () => {
    // The committed photos, one of each condition: the figures take the same form for any folder
    // (the reader's own figures on every photo are reader.test.ts's, read once there).
    const folder = mkdtempSync(join(tmpdir(), 'dice-photo-eval-'))
    const kept = new Map<string, string>()
    for (const text of readFileSync(join(FIXTURES, 'manifest.jsonl'), 'utf8').split('\n')) {
      if (text.trim() === '') continue
      const line = JSON.parse(text) as { file: string; condition: string }
      if (kept.has(line.condition)) continue
      kept.set(line.condition, text)
      copyFileSync(join(FIXTURES, line.file), join(folder, line.file))
    }
    writeFileSync(join(folder, 'manifest.jsonl'), `${[...kept.values()].join('\n')}\n`)
    expect(kept.size).toBe(7)
    const result = await run(['--eval', folder])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    for (const name of ['all', 'top-down', 'tilted', 'touching', 'blur', 'surfaces', 'colours', 'cocked-outside']) expect(result.stdout).toMatch(new RegExp(`^${name}: \\d+ photos, \\d+ dice$`, 'm'))
    expect(result.stdout.match(/^ {2}dice right +\d+\.\d% \(\d+\.\d%–\d+\.\d%\)$/gm)).toHaveLength(8)
    expect(result.stdout.match(/^ {2}dice wrong, confident +\d+\.\d% \(\d+\.\d%–\d+\.\d%\)$/gm)).toHaveLength(8)
  }, 120_000)

  it('says what is wrong and changes nothing on bad input', async () => {
    expect(await run([])).toMatchObject({ status: 2, stderr: expect.stringContaining('give the photos to read, or --eval FOLDER') })
    expect(await run(['--tray', 'sideways', 'a.jpg'])).toMatchObject({ status: 2, stderr: expect.stringContaining("--tray is auto or none, not 'sideways'") })
    expect(await run(['--eval', FIXTURES, 'a.jpg'])).toMatchObject({ status: 2 })
    const empty = mkdtempSync(join(tmpdir(), 'dice-photo-'))
    expect(await run(['--eval', empty])).toMatchObject({ status: 2, stderr: expect.stringContaining('cannot read') })
    writeFileSync(join(empty, 'manifest.jsonl'), '{"file":"a.jpg","values":[9]}\n')
    expect(await run(['--eval', empty])).toMatchObject({ status: 1, stderr: expect.stringMatching(/manifest\.jsonl line 1: values\.0/) })
    const notAPicture = join(empty, 'notes.jpg')
    writeFileSync(notAPicture, 'hello')
    expect(await run([notAPicture])).toMatchObject({ status: 1, stdout: '', stderr: `${notAPicture}: not a JPEG or PNG picture\n` })
  })

  it('measures a folder that capture mode wrote', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'captures-'))
    const frame = decodeImage(readFileSync(join(FIXTURES, topDown.file)))
    const files = saveCapturedThrow(folder, [frame, frame], { values: topDown.values, time: new Date('2026-05-01T20:15:07Z'), camera: 'test', tray: topDown.tray })
    expect(files).toEqual(['throw-2026-05-01T20-15-07-000Z-1.jpg', 'throw-2026-05-01T20-15-07-000Z-2.jpg'])
    const written = parseManifest(readFileSync(join(folder, 'manifest.jsonl'), 'utf8'))
    expect(written.ok && written.lines.map((line) => line.file)).toEqual(files)
    const saved = decodeImage(readFileSync(join(folder, files[0])))
    expect([saved.width, saved.height]).toEqual([frame.width, frame.height])
    const result = await run(['--eval', folder])
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/^all: 2 photos, \d+ dice$/m)
    expect(result.stdout).toMatch(/dice wrong, confident 0\.0%/)
  }, 60_000)

  it('reads PNG photos too', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'png-'))
    copyFileSync(join(FIXTURES, topDown.file), join(folder, 'a.jpg'))
    const { PNG } = await import('pngjs')
    const frame = decodeImage(readFileSync(join(folder, 'a.jpg')))
    const png = new PNG({ width: frame.width, height: frame.height })
    png.data = Buffer.from(frame.data)
    writeFileSync(join(folder, 'a.png'), PNG.sync.write(png))
    const fromJpeg = JSON.parse((await run([join(folder, 'a.jpg')])).stdout)
    const fromPng = JSON.parse((await run([join(folder, 'a.png')])).stdout)
    expect(fromPng.dice).toEqual(fromJpeg.dice)
  }, 60_000)
})
