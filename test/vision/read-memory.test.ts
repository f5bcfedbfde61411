// A throw's still frames share what depends only on the scene (read-memory.ts: the tray found, the
// floor's colour, the warp maps): the throw read with that memory is the throw each frame read
// alone and voted on would be, for a calibrated tray and a tray found, throw after throw.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { decodeImage } from '@main/devices/image-file'
import { parseManifest, type PhotoManifestLine } from '@shared/vision/manifest'
import type { OpenCv } from '@shared/vision/opencv'
import { readDiceFrame, type ReadOptions } from '@shared/vision/reader'
import { ThrowReader } from '@shared/vision/throw-reader'
import type { RgbaFrame } from '@shared/vision/types'
import { voteReadings } from '@shared/vision/vote'
import { openCvForTests } from './opencv-node'
import { repoPath } from '@test/kit/root'

const PHOTOS = repoPath('test', 'fixtures', 'dice-photos')
let cv: OpenCv
let lines: PhotoManifestLine[]

beforeAll(async () => {
  cv = (await openCvForTests()).cv
  const manifest = parseManifest(readFileSync(join(PHOTOS, 'manifest.jsonl'), 'utf8'))
  if (!manifest.ok) throw new Error(manifest.error)
  lines = manifest.lines
}, 120_000)

/** The scene shifted sideways: everything still moving. */
function shifted(frame: RgbaFrame, shift: number): RgbaFrame {
  const data = new Uint8ClampedArray(frame.data.length)
  const row = frame.width * 4
  for (let y = 0; y < frame.height; y++) data.set(frame.data.subarray(y * row, (y + 1) * row - shift * 4), y * row + shift * 4)
  return { width: frame.width, height: frame.height, data }
}

describe('the memory of a throw', () => {
  // Dice outside the tray (the floor's colour painted outside it), touching dice, a tray found.
  for (const [condition, mode] of [
    ['cocked-outside', 'calibrated'],
    ['touching', 'calibrated'],
    ['top-down', 'found']
  ] as const)
    it(`${condition}, ${mode} tray: each throw reads as its frames read alone`, () => {
      const line = lines.find((l) => l.condition === condition)!
      const frame = decodeImage(readFileSync(join(PHOTOS, line.file)))
      const tray: ReadOptions['tray'] = mode === 'calibrated' ? { polygon: line.tray!, width: frame.width, height: frame.height } : 'auto'
      const alone = readDiceFrame(cv, frame, { tray })
      expect(alone.dice.length).toBeGreaterThan(0)
      const reader = new ThrowReader(cv, { tray, readAtStart: false })
      // Two throws of the same scene with one reader: the second keeps the first's warp maps.
      for (let throwIndex = 0; throwIndex < 2; throwIndex++) {
        const events = [shifted(frame, 30), shifted(frame, 10), frame, frame, frame, frame].map((f) => reader.push(f))
        const thrown = events[5]
        expect(thrown?.kind).toBe('throw')
        if (thrown?.kind === 'throw') expect(thrown.reading).toEqual(voteReadings([alone, alone, alone]))
      }
      reader.dispose()
    })
})
