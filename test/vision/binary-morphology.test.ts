// The mask's clean-up done on packed bits (binary-morphology.ts) gives cv.morphologyEx's pixels:
// masks of specks, discs and squares, some cut by the picture's edges, widths on and off 32.
import { beforeAll, describe, expect, it } from 'vitest'
import { openThenCloseWithDiscs } from '@shared/vision/binary-morphology'
import type { OpenCv } from '@shared/vision/opencv'
import { openCvForTests } from './opencv-node'

let cv: OpenCv

beforeAll(async () => {
  cv = (await openCvForTests()).cv
}, 120_000)

/** A mask of specks, holes, squares and discs, some cut by the edges (a fixed seed: the same mask each run). */
function mask(width: number, height: number, seed: number, specks: number): InstanceType<OpenCv['Mat']> {
  let state = seed
  const random = (): number => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state / 2147483648
  }
  const result = new cv.Mat(height, width, cv.CV_8UC1, new cv.Scalar(0))
  for (let k = 0; k < 14; k++) {
    const x = Math.round(random() * width)
    const y = Math.round(random() * height)
    if (k % 2 === 0) cv.circle(result, new cv.Point(x, y), 2 + Math.round(random() * 20), new cv.Scalar(255), -1)
    else cv.rectangle(result, new cv.Point(x, y), new cv.Point(x + 30, y + 25), new cv.Scalar(255), -1)
  }
  const data = result.data
  for (let i = 0; i < data.length; i++) if (random() < specks) data[i] = 255 - data[i]
  return result
}

describe('opening with the 3×3 disc, then closing with the 5×5 disc, on packed bits', () => {
  for (const [width, height] of [
    [160, 90],
    [161, 91],
    [97, 33],
    [33, 7],
    [500, 340]
  ])
    for (const specks of [0.02, 0.3])
      it(`${width}×${height}, ${specks * 100} % specks: OpenCV's pixels`, () => {
        const source = mask(width, height, width * 31 + height + specks * 100, specks)
        const expected = new cv.Mat()
        const small = cv.getStructuringElement(cv.MORPH_ELLIPSE, new cv.Size(3, 3))
        const large = cv.getStructuringElement(cv.MORPH_ELLIPSE, new cv.Size(5, 5))
        cv.morphologyEx(source, expected, cv.MORPH_OPEN, small)
        cv.morphologyEx(expected, expected, cv.MORPH_CLOSE, large)
        const actual = Uint8Array.from(source.data)
        openThenCloseWithDiscs(actual, width, height)
        const differing = expected.data.reduce((count: number, value: number, i: number) => count + (value === actual[i] ? 0 : 1), 0)
        expect(differing).toBe(0)
        // The operations changed the mask (the check is not of a mask left as it was).
        expect(source.data.some((value: number, i: number) => value !== actual[i])).toBe(true)
        for (const mat of [source, expected, small, large]) mat.delete()
      })
})
