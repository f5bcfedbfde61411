// `npx tsx scripts/dice-photos/draw-pip-fixtures.ts`: draws the photos of test/fixtures/dice-pips
// (test/vision/pips.test.ts) with OpenCV, the way real photos defeat a die's blob: a lone ivory 6
// on an ivory floor with specks, a 5 seen at a slant with two side faces and their squashed pips
// and a shadow, a 4 filling a quarter of a 640×480 frame, and a white-pipped black 3 on white
// paper. Drawn, not rendered: each is a plain case of one failure, the same on every run.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { encodeJpeg } from '@main/devices/image-file'
import { loadOpenCv } from '@shared/vision/load-opencv'
import { PIP_LAYOUTS } from '@shared/vision/layout'
import type { OpenCv } from '@shared/vision/opencv'
import type { DieValue } from '@shared/vision/types'

type Rgb = [number, number, number]
type Mat = InstanceType<OpenCv['Mat']>
const OUT = join(__dirname, '..', '..', 'test', 'fixtures', 'dice-pips')

/** A small, fixed pseudo-random sequence (the same picture on every run). */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

async function main(): Promise<void> {
  const { cv } = await loadOpenCv()
  const scalar = ([r, g, b]: Rgb): InstanceType<OpenCv['Scalar']> => new cv.Scalar(r, g, b, 255)
  const polygon = (image: Mat, points: Array<[number, number]>, colour: Rgb): void => {
    const contour = cv.matFromArray(points.length, 1, cv.CV_32SC2, points.flat().map(Math.round))
    const contours = new cv.MatVector()
    contours.push_back(contour)
    cv.fillPoly(image, contours, scalar(colour), cv.LINE_AA)
    contours.delete()
    contour.delete()
  }
  /** A face of `value` centred at (x, y), side `side`, turned by `angle`, squashed along y by `squash` (a side face seen at a slant). */
  const face = (image: Mat, value: DieValue, [x, y]: [number, number], side: number, angle: number, colour: Rgb, pip: Rgb, squash = 1): void => {
    const at = (u: number, v: number): [number, number] => [x + u * Math.cos(angle) - v * squash * Math.sin(angle), y + u * Math.sin(angle) + v * squash * Math.cos(angle)]
    const h = side / 2
    polygon(image, [at(-h, -h), at(h, -h), at(h, h), at(-h, h)], colour)
    for (const [u, v] of PIP_LAYOUTS[value]) {
      const [px, py] = at(u * side, v * side)
      cv.ellipse(image, new cv.Point(Math.round(px), Math.round(py)), new cv.Size(Math.round(side * 0.085), Math.max(1, Math.round(side * 0.085 * squash))), (angle * 180) / Math.PI, 0, 360, scalar(pip), -1, cv.LINE_AA)
    }
  }
  const floor = (width: number, height: number, colour: Rgb, seed: number, specks = 0): Mat => {
    const image = new cv.Mat(height, width, cv.CV_8UC4, scalar(colour))
    const next = random(seed)
    for (let i = 0; i < specks; i++) cv.circle(image, new cv.Point(Math.round(next() * width), Math.round(next() * height)), 1 + Math.round(next() * 2), scalar([90, 85, 80]), -1, cv.LINE_AA)
    return image
  }
  const save = (name: string, image: Mat): void => {
    const blurred = new cv.Mat()
    cv.GaussianBlur(image, blurred, new cv.Size(3, 3), 0)
    writeFileSync(join(OUT, name), encodeJpeg({ width: blurred.cols, height: blurred.rows, data: new Uint8ClampedArray(blurred.data) }, 90))
    blurred.delete()
    image.delete()
    console.log(join(OUT, name))
  }

  // A lone ivory 6 on an ivory table with dark specks (a phone over a white table).
  const lone = floor(900, 1200, [228, 224, 214], 1, 120)
  cv.ellipse(lone, new cv.Point(560, 640), new cv.Size(90, 70), 0, 0, 360, scalar([196, 192, 184]), -1, cv.LINE_AA) // its shadow
  face(lone, 6, [460, 620], 150, 0.12, [236, 230, 204], [25, 25, 25])
  save('lone-ivory-6.jpg', lone)

  // A 5 seen at a slant: its top face, and below and to the right two side faces (a 3 and a 2)
  // darker, with squashed pips, and its shadow, on a wooden table.
  const slant = floor(1000, 750, [150, 105, 70], 2)
  cv.ellipse(slant, new cv.Point(560, 440), new cv.Size(120, 80), 0, 0, 360, scalar([95, 65, 45]), -1, cv.LINE_AA)
  face(slant, 3, [480, 455], 120, 0, [200, 196, 182], [30, 30, 30], 0.4) // the near side face
  face(slant, 2, [555, 395], 120, Math.PI / 2, [185, 180, 168], [30, 30, 30], 0.3) // the right side face
  face(slant, 5, [480, 370], 120, 0, [238, 234, 222], [25, 25, 25])
  save('slant-5.jpg', slant)

  // A 4 filling a quarter of a 640×480 webcam frame, on green felt.
  const large = floor(640, 480, [40, 110, 60], 3)
  face(large, 4, [330, 230], 270, 0.3, [240, 240, 236], [30, 30, 30])
  save('large-4.jpg', large)

  // A black die with white pips (a 3) on white paper.
  const black = floor(1000, 750, [235, 235, 232], 4, 40)
  face(black, 3, [500, 380], 110, -0.4, [35, 35, 38], [240, 240, 240])
  save('black-3.jpg', black)
}

void main()
