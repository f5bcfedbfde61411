// The tray made flat from maps worked out once (warp.ts) gives cv.warpPerspective's own pixels,
// the picture's edge included (a tray's margin runs past the frame).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { decodeImage } from '@main/devices/image-file'
import { frameToMat } from '@shared/vision/reader'
import { ReadMemory } from '@shared/vision/read-memory'
import type { OpenCv } from '@shared/vision/opencv'
import { warpToWork } from '@shared/vision/warp'
import { openCvForTests } from './opencv-node'
import { repoPath } from '@test/kit/root'

let cv: OpenCv

beforeAll(async () => {
  cv = (await openCvForTests()).cv
}, 120_000)

/** The homography of a tray's corners to a flat picture with a 10 % margin (as the reader's), work pixels → frame pixels. */
function workToFrame(corners: Array<[number, number]>, width: number, height: number, margin: number): number[] {
  const src = cv.matFromArray(4, 1, cv.CV_32FC2, [margin, margin, width - margin, margin, width - margin, height - margin, margin, height - margin])
  const dst = cv.matFromArray(4, 1, cv.CV_32FC2, corners.flat())
  const m = cv.getPerspectiveTransform(src, dst)
  const h = Array.from(m.data64F)
  for (const mat of [src, dst, m]) mat.delete()
  return h
}

describe('the tray made flat from kept maps', () => {
  const photo = decodeImage(readFileSync(join(repoPath('test', 'fixtures', 'camera-throws'), 'six.jpg')))
  const cases: Array<[string, Array<[number, number]>, number, number]> = [
    ['a tray inside the frame', [[233.4, 88.9], [1046.6, 88.9], [1046.6, 631.1], [233.4, 631.1]], 976, 650],
    ['a tilted tray running past the frame', [[276.6, 53.8], [1065.3, 141.5], [1018.9, 679.3], [201.9, 585.1]], 947, 700],
    ['a tray wider than the frame', [[-40, -15.6], [1161.9, 30], [1200, 735], [141.6, 700]], 1000, 640]
  ]
  for (const [name, corners, width, height] of cases)
    it(`${name}: warpPerspective's pixels`, () => {
      const rgb = frameToMat(cv, photo)
      const h = workToFrame(corners, width, height, width * 0.08)
      const expected = warpToWork(cv, rgb, h, width, height)
      const memory = new ReadMemory()
      const first = warpToWork(cv, rgb, h, width, height, memory)
      const again = warpToWork(cv, rgb, h, width, height, memory)
      expect([first.cols, first.rows]).toEqual([width, height])
      const differing = (mat: InstanceType<OpenCv['Mat']>): number => expected.data.reduce((count: number, value: number, i: number) => count + (value === mat.data[i] ? 0 : 1), 0)
      expect(differing(first)).toBe(0)
      expect(differing(again)).toBe(0)
      memory.forget()
      for (const mat of [rgb, expected, first, again]) mat.delete()
    })
})
