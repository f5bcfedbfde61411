// The dice reader in Node, through the same code the app uses (src/shared/vision), on the rendered
// photos in test/fixtures/dice-photos (made by scripts/dice-photos/generate.ts; docs/camera.md).
// The floors are the aims of the issue where the committed photos can show them, and what the
// reader does on them today elsewhere (measured figures are in docs/camera.md).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { decodeImage } from '@main/devices/image-file'
import { scorePhoto, summarize, type PhotoScore } from '@shared/vision/eval'
import { insidePolygon, polygonArea } from '@shared/vision/geometry'
import { parseManifest, type PhotoManifestLine } from '@shared/vision/manifest'
import type { OpenCv } from '@shared/vision/opencv'
import { readDiceFrame } from '@shared/vision/reader'
import { ThrowReader } from '@shared/vision/throw-reader'
import { findTrayInFrame } from '@shared/vision/tray'
import type { Box, FrameReading, Point, RgbaFrame } from '@shared/vision/types'
import { openCvForTests } from './opencv-node'
import { repoPath } from '@test/kit/root'

const FIXTURES = repoPath('test', 'fixtures', 'dice-photos')
/**
 * A test that reads many photos: seconds of work on a quiet machine, several times that with both
 * cores busy; the limit only ends a reading that would never end.
 */
const READING_TIMEOUT = 120_000
/** What the reader does on the committed photos with the tray it finds (a floor a regression would break). */
const AUTO_FLOOR = 0.85

let cv: OpenCv
let lines: PhotoManifestLine[]
/** Each photo's reading with its calibrated tray, and its score, read once for the whole file. */
const readings = new Map<string, FrameReading>()
const scores = new Map<string, PhotoScore>()
/** Each photo decoded once (the reader copies a frame, never writes it). */
const frames = new Map<string, RgbaFrame>()

function frameOf(file: string): RgbaFrame {
  let frame = frames.get(file)
  if (!frame) {
    frame = decodeImage(readFileSync(join(FIXTURES, file)))
    frames.set(file, frame)
  }
  return frame
}

beforeAll(async () => {
  cv = (await openCvForTests()).cv
  const manifest = parseManifest(readFileSync(join(FIXTURES, 'manifest.jsonl'), 'utf8'))
  if (!manifest.ok) throw new Error(`manifest line ${manifest.line}: ${manifest.error}`)
  lines = manifest.lines
  for (const line of lines) {
    const frame = frameOf(line.file)
    const reading = readDiceFrame(cv, frame, { tray: { polygon: line.tray!, width: frame.width, height: frame.height } })
    readings.set(line.file, reading)
    scores.set(line.file, scorePhoto(line.values, reading.dice))
  }
}, 180_000)

const centreOf = (box: Box): Point => [box[0] + box[2] / 2, box[1] + box[3] / 2]
const of = (condition: string): PhotoScore[] => lines.filter((line) => line.condition === condition).map((line) => scores.get(line.file)!)

describe('the dice reader on rendered photos (calibrated tray)', () => {
  it('has a photo of every condition, and every photo in the manifest', () => {
    const files = readdirSync(FIXTURES).filter((file) => file.endsWith('.jpg'))
    expect(files.sort()).toEqual(lines.map((line) => line.file).sort())
    expect(new Set(lines.map((line) => line.condition))).toEqual(new Set(['top-down', 'tilted', 'touching', 'blur', 'surfaces', 'colours', 'cocked-outside']))
  })

  it('reads most dice of the top-down photos right, and none wrongly', () => {
    const summary = summarize(of('top-down'))
    expect(summary.right.share).toBeGreaterThanOrEqual(0.85)
    expect(summary.wrongConfident.count).toBe(0)
  })

  it('never reads a flat die in the tray wrongly with confidence, in any condition', () => {
    const flat = lines.filter((line) => line.condition !== 'cocked-outside')
    const wrong = flat.filter((line) => scores.get(line.file)!.wrong > 0).map((line) => line.file)
    expect(wrong).toEqual([])
  })

  it('never gives a die outside the tray a value', () => {
    for (const line of lines.filter((l) => l.condition === 'cocked-outside')) {
      const reading = readings.get(line.file)!
      const outside = line.boxes!.filter((_, index) => line.values[index] === null && !insidePolygon(centreOf(line.boxes![index]), line.tray!))
      for (const box of outside) {
        const near = reading.dice.filter((die) => Math.hypot(centreOf(die.box)[0] - centreOf(box)[0], centreOf(die.box)[1] - centreOf(box)[1]) < box[2])
        for (const die of near) expect(die.value, line.file).toBeNull()
      }
    }
  })

  it('reads most dice in the harder conditions', () => {
    // What the reader does on these photos today (docs/camera.md has the figures of a larger set):
    // a floor that a regression would break, not an aim.
    const floors: Record<string, number> = { tilted: 0.75, touching: 0.9, blur: 0.8, surfaces: 0.8, colours: 0.7, 'cocked-outside': 0.75 }
    for (const [condition, floor] of Object.entries(floors)) {
      const summary = summarize(of(condition))
      expect(summary.right.share, condition).toBeGreaterThanOrEqual(floor)
    }
  })
})

describe('touching dice', () => {
  // touching-0063: three dice in an L beside a lone die; touching-0065: every die in a group (three
  // in an L, two flush of one colour), so no blob in the picture is one die's size.
  const touching = ['touching-0063.jpg', 'touching-0065.jpg']

  it('reads each die of a group on its own, none merged into another', () => {
    for (const file of touching) {
      const line = lines.find((l) => l.file === file)!
      const reading = readings.get(file)!
      expect(scorePhoto(line.values, reading.dice), file).toMatchObject({ right: line.values.length, wrong: 0, throwRight: true })
      // One reading per die, each centred on its own die (the manifest's box), with that die's value.
      expect(reading.dice, file).toHaveLength(line.values.length)
      line.boxes!.forEach((box, index) => {
        const on = reading.dice.filter((die) => insidePolygon(centreOf(die.box), [[box[0], box[1]], [box[0] + box[2], box[1]], [box[0] + box[2], box[1] + box[3]], [box[0], box[1] + box[3]]]))
        expect(on.map((die) => die.value), `${file} die ${index}`).toContain(line.values[index])
      })
    }
  })

  it('reads every touching photo whole', () => {
    const wrong = lines.filter((line) => line.condition === 'touching' && !scores.get(line.file)!.throwRight).map((line) => line.file)
    expect(wrong).toEqual([])
  })
})

describe('the tray', () => {
  it('is found without calibration in most photos: about the marked floor, every die in the tray inside it', () => {
    // Found here: 16 of 21 within 20 % of the marked floor's area (most a little smaller: the
    // floor in a wall's shadow is left out), 3 larger (rim and table taken in), 2 not found.
    const good = lines.filter((line) => {
      const found = findTrayInFrame(cv, frameOf(line.file))
      if (!found || found.length !== 4) return false
      const ratio = polygonArea(found) / polygonArea(line.tray!)
      const diceInside = line.boxes!.every((box, index) => line.values[index] === null || insidePolygon(centreOf(box), found))
      return ratio >= 0.8 && ratio <= 1.2 && diceInside
    })
    expect(good.length).toBeGreaterThanOrEqual(14)
  }, READING_TIMEOUT)

  it('reads a top-down photo with the tray it finds itself', () => {
    const line = lines.find((l) => l.condition === 'top-down')!
    const reading = readDiceFrame(cv, frameOf(line.file))
    expect(scorePhoto(line.values, reading.dice).wrong).toBe(0)
  }, READING_TIMEOUT)
})

describe('without a calibrated tray', () => {
  // The photos as a club's would come (a manifest of files and values only): the reader finds the
  // tray, or reads the whole picture when there is none.
  const resized = (frame: RgbaFrame, width: number, height: number, turn = false): RgbaFrame => {
    const source = new cv.Mat(frame.height, frame.width, cv.CV_8UC4)
    source.data.set(frame.data)
    const out = new cv.Mat()
    cv.resize(source, out, new cv.Size(width, height), 0, 0, width < frame.width ? cv.INTER_AREA : cv.INTER_CUBIC)
    if (turn) cv.rotate(out, out, cv.ROTATE_90_CLOCKWISE)
    const result = { width: out.cols, height: out.rows, data: new Uint8ClampedArray(out.data) }
    source.delete()
    out.delete()
    return result
  }
  const flatLines = (): PhotoManifestLine[] => lines.filter((line) => ['top-down', 'surfaces', 'colours'].includes(line.condition!))

  it('reads the committed photos with the tray it finds, no flat die wrong with confidence', () => {
    const auto = lines.map((line) => ({ line, score: scorePhoto(line.values, readDiceFrame(cv, frameOf(line.file), { tray: 'auto' }).dice) }))
    // Measured: 89.5 % of the dice right with the tray found (94.2 % with the calibrated one).
    expect(summarize(auto.map((a) => a.score)).right.share).toBeGreaterThanOrEqual(AUTO_FLOOR)
    expect(auto.filter((a) => a.line.condition !== 'cocked-outside' && a.score.wrong > 0).map((a) => a.line.file)).toEqual([])
  }, READING_TIMEOUT)

  // One test a size: each is a few seconds of reading, each under its own time limit.
  for (const [width, height, turn] of [[640, 360, false], [2560, 1440, false], [1280, 720, true]] as const) {
    it(`reads photos of other sizes and shapes alike: ${width}×${height}${turn ? ' turned to portrait' : ''}`, () => {
      const scores = flatLines().map((line) => scorePhoto(line.values, readDiceFrame(cv, resized(frameOf(line.file), width, height, turn), { tray: 'auto' }).dice))
      const summary = summarize(scores)
      expect(summary.right.share).toBeGreaterThanOrEqual(0.85)
      expect(summary.wrongConfident.count).toBe(0)
    }, READING_TIMEOUT)
  }

  it('reads dice with no tray in the picture (the floor alone, as dice on a mat): the whole picture', () => {
    let read = 0
    for (const line of flatLines()) {
      const frame = frameOf(line.file)
      // The tray's floor only, a little inside its corners: no rim, no table.
      const xs = line.tray!.map((p) => p[0])
      const ys = line.tray!.map((p) => p[1])
      const x0 = Math.ceil(Math.max(xs[0], xs[3])) + 12
      const y0 = Math.ceil(Math.max(ys[0], ys[1])) + 12
      const x1 = Math.floor(Math.min(xs[1], xs[2])) - 12
      const y1 = Math.floor(Math.min(ys[2], ys[3])) - 12
      const inside = line.boxes!.every(([x, y, w, h]) => x >= x0 && y >= y0 && x + w <= x1 && y + h <= y1)
      if (!inside) continue
      const data = new Uint8ClampedArray((x1 - x0) * (y1 - y0) * 4)
      for (let y = y0; y < y1; y++) data.set(frame.data.subarray((y * frame.width + x0) * 4, (y * frame.width + x1) * 4), (y - y0) * (x1 - x0) * 4)
      const mat: RgbaFrame = { width: x1 - x0, height: y1 - y0, data }
      const reading = readDiceFrame(cv, mat, { tray: 'auto' })
      expect(reading.tray, line.file).toBeNull()
      expect(scorePhoto(line.values, reading.dice).wrong, line.file).toBe(0)
      expect(scorePhoto(line.values, reading.dice).right, line.file).toBeGreaterThanOrEqual(line.values.length - 1)
      read++
    }
    // Five of the nine photos have every die clear of the floor's edge.
    expect(read).toBe(5)
  }, READING_TIMEOUT)
})

describe('a throw from frames', () => {
  it('waits for the picture to settle, reads three still frames and votes', () => {
    const line = lines.find((l) => l.condition === 'top-down')!
    const still = frameOf(line.file)
    // The same scene shifted: dice (and everything) still moving.
    const moving = (shift: number): RgbaFrame => {
      const data = new Uint8ClampedArray(still.data.length)
      const row = still.width * 4
      for (let y = 0; y < still.height; y++) data.set(still.data.subarray(y * row, (y + 1) * row - shift * 4), y * row + shift * 4)
      return { width: still.width, height: still.height, data }
    }
    const reader = new ThrowReader(cv, { tray: { polygon: line.tray!, width: still.width, height: still.height }, readAtStart: false })
    const events = [moving(40), moving(20), still, still, still, still, still].map((frame, index) => reader.push(frame, index * 100))
    // The first frame is the reference; the second moved; the first settled frame still differs
    // from the one before it; the next three are still and read, and the third ends the throw.
    expect(events.slice(0, 5)).toEqual([null, { kind: 'moving', time: 100 }, null, null, null])
    const thrown = events[5]!
    expect(thrown.kind).toBe('throw')
    if (thrown.kind !== 'throw') return
    expect(thrown.settledAt).toBe(300)
    expect(thrown.frames).toBe(3)
    expect(scorePhoto(line.values, thrown.reading.dice)).toMatchObject({ right: line.values.length, wrong: 0 })
    // Nothing more until the picture moves again.
    expect(events[6]).toBeNull()
  }, READING_TIMEOUT)
})
