// The pip-first path (src/shared/vision/pips.ts) through readDiceFrame, on the drawn photos of
// test/fixtures/dice-pips (scripts/dice-photos/draw-pip-fixtures.ts): each is one way real photos
// defeated the blob path alone (docs/camera.md, "How a throw is read").
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { decodeImage } from '@main/devices/image-file'
import type { OpenCv } from '@shared/vision/opencv'
import { axisGap, meanEllipse, unsquash } from '@shared/vision/face-frame'
import { fitLayout, PIP_LAYOUTS } from '@shared/vision/layout'
import { findPipFaces } from '@shared/vision/pips'
import { frameToMat, readDiceFrame } from '@shared/vision/reader'
import { CONFIDENT, type DieReading, type RgbaFrame } from '@shared/vision/types'
import { openCvForTests } from './opencv-node'
import { repoPath } from '@test/kit/root'

let cv: OpenCv

function frameOf(file: string): RgbaFrame {
  return decodeImage(readFileSync(repoPath('test', 'fixtures', 'dice-pips', file)))
}

const sure = (dice: DieReading[]): Array<number | null> => dice.filter((die) => die.value !== null && die.confidence >= CONFIDENT).map((die) => die.value)

beforeAll(async () => {
  cv = (await openCvForTests()).cv
}, 120_000)

describe('the pip-first path reads what the blob path alone could not', () => {
  for (const tray of ['none', 'auto'] as const) {
    it(`a lone ivory 6 on an ivory floor with specks (tray ${tray}): one die, a sure 6, no speck read as a die`, () => {
      const { dice } = readDiceFrame(cv, frameOf('lone-ivory-6.jpg'), { tray })
      expect(sure(dice)).toEqual([6])
      expect(dice).toHaveLength(1)
    })

    it(`a 5 seen at a slant with two side faces and a shadow (tray ${tray}): one die, a sure 5, no side face read`, () => {
      const { dice } = readDiceFrame(cv, frameOf('slant-5.jpg'), { tray })
      expect(sure(dice)).toEqual([5])
      expect(dice).toHaveLength(1)
    })

    it(`a 4 filling a quarter of a 640×480 frame (tray ${tray}): a 4, its pips not taken for dice`, () => {
      const { dice } = readDiceFrame(cv, frameOf('large-4.jpg'), { tray })
      expect(dice.map((die) => die.value)).toEqual([4])
      // Sure without a tray; the tray finder takes this die's large even face for the tray, and in
      // a tray made flat the pips alone never make a die sure.
      if (tray === 'none') expect(sure(dice)).toEqual([4])
      const [x, y, width, height] = dice[0].box
      expect(width).toBeGreaterThan(200)
      expect(x + width / 2).toBeCloseTo(330, -1)
      expect(y + height / 2).toBeCloseTo(230, -1)
    })

    it(`a black die with white pips on white paper (tray ${tray}): a sure 3`, () => {
      const { dice } = readDiceFrame(cv, frameOf('black-3.jpg'), { tray })
      expect(sure(dice)).toEqual([3])
      expect(dice).toHaveLength(1)
    })
  }
})

describe("a face seen at a slant, and a lone 1 (the pips in the face's own frame)", () => {
  for (const tray of ['none', 'auto'] as const) {
    for (const value of [5, 6]) {
      it(`one die seen by a webcam 35° from straight down, showing a ${value}, its near side face below it (tray ${tray}): one die, a sure ${value}`, () => {
        const { dice } = readDiceFrame(cv, frameOf(`webcam-35-${value}.jpg`), { tray })
        expect(sure(dice)).toEqual([value])
        expect(dice).toHaveLength(1)
      })
    }

    it(`the same 6 squashed along the picture's rows, as no camera tipped down sees a flat face (tray ${tray}): not read surely`, () => {
      const { dice } = readDiceFrame(cv, frameOf('sideways-squashed-6.jpg'), { tray })
      expect(dice).toHaveLength(1)
      expect(sure(dice)).toEqual([])
    })

    it(`a lone 1 on a floor of its own colour, with specks (tray ${tray}): one die, a sure 1, its box the face's`, () => {
      const { dice } = readDiceFrame(cv, frameOf('lone-1.jpg'), { tray })
      expect(sure(dice)).toEqual([1])
      expect(dice).toHaveLength(1)
      const [x, y, width, height] = dice[0].box
      expect(x + width / 2).toBeCloseTo(480, -1)
      expect(y + height / 2).toBeCloseTo(370, -1)
    })
  }
})

describe("real photos' misses, drawn plainly (docs/camera.md, 2 Dec 2026, 03:00 UTC)", () => {
  for (const tray of ['none', 'auto'] as const) {
    it(`a lone 6 whose lines of three lie close together, on a table of its colour (tray ${tray}): one die, a sure 6`, () => {
      const { dice } = readDiceFrame(cv, frameOf('narrow-6.jpg'), { tray })
      expect(sure(dice)).toEqual([6])
      expect(dice).toHaveLength(1)
    })

    it(`a 5 with a shadow's edge across its face, on a table of its colour (tray ${tray}): one die, a sure 5`, () => {
      const { dice } = readDiceFrame(cv, frameOf('shadow-edge-5.jpg'), { tray })
      expect(sure(dice)).toEqual([5])
      expect(dice).toHaveLength(1)
    })

    it(`a red 1 with an oval highlight on its corner, the two lying like a 2 (tray ${tray}): a sure 1`, () => {
      const { dice } = readDiceFrame(cv, frameOf('red-1-highlight.jpg'), { tray })
      expect(sure(dice)).toEqual([1])
      expect(dice).toHaveLength(1)
    })

    it(`a lone ivory 1 in dim light on a table as light as its face, differing in hue (tray ${tray}): one die, a sure 1`, () => {
      const { dice } = readDiceFrame(cv, frameOf('dim-ivory-1.jpg'), { tray })
      expect(sure(dice)).toEqual([1])
      expect(dice).toHaveLength(1)
    })
  }

  it("a 2 with its near side face's flattened pip just beyond its edge: the pips find the 2's own face, not the side face's pip with one of its own", () => {
    const frame = frameOf('two-side-pip.jpg')
    const rgb = frameToMat(cv, frame)
    const scale = 1000 / Math.max(frame.width, frame.height)
    const image = new cv.Mat()
    cv.resize(rgb, image, new cv.Size(Math.round(frame.width * scale), Math.round(frame.height * scale)), 0, 0, cv.INTER_AREA)
    rgb.delete()
    const faces = findPipFaces(cv, image).filter((face) => face.confidence >= CONFIDENT)
    image.delete()
    expect(faces.map((face) => face.value)).toEqual([2])
    // Drawn at (450, 560), its pips one above the other.
    expect(Math.hypot(faces[0].centre[0] / scale - 450, faces[0].centre[1] / scale - 560)).toBeLessThan(10)
  })
})

describe('a face in its own frame (face-frame.ts)', () => {
  it('reads the squash and its axis from the pips, and stretches a squashed 6 back into the usual layout', () => {
    const squash = 0.75
    const pips = PIP_LAYOUTS[6].map(([x, y]) => [x * 100, y * 100 * squash] as [number, number])
    const tilt = meanEllipse(pips.map(() => ({ roundness: squash, axis: 0 })))
    expect(tilt.ratio).toBeCloseTo(squash, 6)
    expect(axisGap(tilt.axis, 0)).toBeCloseTo(0, 6)
    expect(fitLayout(pips)!.squash).toBeCloseTo(squash, 2)
    const straightened = fitLayout(unsquash(pips, tilt))!
    expect(straightened.error).toBeLessThan(0.01)
    expect(straightened.squash).toBeCloseTo(1, 2)
  })

  it('leaves a face whose pips are round but whose layout is squashed (or the other way round) squashed', () => {
    const pips = PIP_LAYOUTS[5].map(([x, y]) => [x * 100 * 0.75, y * 100] as [number, number])
    const round = meanEllipse(pips.map(() => ({ roundness: 1, axis: 0 })))
    expect(fitLayout(unsquash(pips, round))!.squash).toBeCloseTo(0.75, 2)
    const wrongAxis = meanEllipse(pips.map(() => ({ roundness: 0.75, axis: 0 })))
    expect(fitLayout(unsquash(pips, wrongAxis))!.squash).toBeLessThan(0.6)
  })
})

describe('fitLayout with a template of its own', () => {
  it("fits a 6 whose rows are as far apart as its columns to such a template, and not to the usual 6", () => {
    const wide: Array<[number, number]> = [-1, 1].flatMap((column) => [-1, 0, 1].map((row) => [column * 25, row * 45] as [number, number]))
    const template = [-1, 1].flatMap((column) => [-1, 0, 1].map((row) => [column * 0.25, row * 0.45] as [number, number]))
    expect(fitLayout(wide, template)!.error).toBeLessThan(0.01)
    expect(fitLayout(wide)!.error).toBeGreaterThan(0.05)
    expect(fitLayout(PIP_LAYOUTS[6].map(([x, y]) => [x * 100, y * 100]))!.error).toBeLessThan(0.01)
  })
})
