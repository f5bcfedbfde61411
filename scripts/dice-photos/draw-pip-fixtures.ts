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
  const face = (image: Mat, value: DieValue, [x, y]: [number, number], side: number, angle: number, colour: Rgb, pip: Rgb, squash = 1, layout = PIP_LAYOUTS[value], pipRadius = 0.085): void => {
    const at = (u: number, v: number): [number, number] => [x + u * Math.cos(angle) - v * squash * Math.sin(angle), y + u * Math.sin(angle) + v * squash * Math.cos(angle)]
    const h = side / 2
    polygon(image, [at(-h, -h), at(h, -h), at(h, h), at(-h, h)], colour)
    for (const [u, v] of layout) {
      const [px, py] = at(u * side, v * side)
      cv.ellipse(image, new cv.Point(Math.round(px), Math.round(py)), new cv.Size(Math.round(side * pipRadius), Math.max(1, Math.round(side * pipRadius * squash))), (angle * 180) / Math.PI, 0, 360, scalar(pip), -1, cv.LINE_AA)
    }
  }
  /**
   * A face seen at a slant: a face of `value` turned by `angle` on the table, then the picture
   * squashed along `axis` (radians: π/2 for the picture's columns, a camera tipped down) by
   * `squash`, the face and its pips alike (nearly an affine view of a die's face).
   */
  const slantFace = (image: Mat, value: DieValue, [x, y]: [number, number], side: number, angle: number, colour: Rgb, pip: Rgb, squash: number, axis = Math.PI / 2): void => {
    const ca = Math.cos(axis)
    const sa = Math.sin(axis)
    const at = (u: number, v: number): [number, number] => {
      const px = u * Math.cos(angle) - v * Math.sin(angle)
      const py = u * Math.sin(angle) + v * Math.cos(angle)
      const along = px * ca + py * sa
      const across = -px * sa + py * ca
      return [x + (along * squash) * ca - across * sa, y + (along * squash) * sa + across * ca]
    }
    const h = side / 2
    polygon(image, [at(-h, -h), at(h, -h), at(h, h), at(-h, h)], colour)
    const radius = side * 0.085
    for (const [u, v] of PIP_LAYOUTS[value]) {
      const [px, py] = at(u * side, v * side)
      // A round pip squashed along `axis`: an ellipse whose short axis lies along it.
      cv.ellipse(image, new cv.Point(Math.round(px), Math.round(py)), new cv.Size(Math.round(radius * squash), Math.round(radius)), (axis * 180) / Math.PI, 0, 360, scalar(pip), -1, cv.LINE_AA)
    }
  }
  /** One ivory die seen by a webcam at `tilt` from straight down, on a light wooden desk: its top face, the near side face below it, its shadow. */
  const webcamDie = (value: DieValue, side: DieValue, tilt: number, seed: number, axis = Math.PI / 2): Mat => {
    const image = floor(640, 480, [214, 200, 170], seed, 30)
    const size = 80
    const top = Math.cos(tilt)
    const near = Math.sin(tilt)
    const down: [number, number] = [Math.cos(axis), Math.sin(axis)]
    const centre: [number, number] = [320, 230]
    const nearCentre: [number, number] = [centre[0] + down[0] * (size * (top + near)) / 2, centre[1] + down[1] * (size * (top + near)) / 2]
    cv.ellipse(image, new cv.Point(372, 262), new cv.Size(50, 34), 0, 0, 360, scalar([170, 156, 128]), -1, cv.LINE_AA) // its shadow
    slantFace(image, side, nearCentre, size, 0, [200, 196, 178], [30, 30, 30], near, axis)
    slantFace(image, value, centre, size, 0.1, [240, 238, 226], [25, 25, 25], top, axis)
    return image
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

  // One ivory die seen by a webcam 35° from straight down (the picture's columns foreshortened):
  // a 5 and a 6, each with the near side face below it.
  save('webcam-35-5.jpg', webcamDie(5, 3, (35 * Math.PI) / 180, 5))
  save('webcam-35-6.jpg', webcamDie(6, 2, (35 * Math.PI) / 180, 6))
  // The same 6, but squashed along the picture's rows: no camera tipped down sees a flat face so
  // (a cocked die seen from above does).
  save('sideways-squashed-6.jpg', webcamDie(6, 2, (35 * Math.PI) / 180, 7, 0))
  // A lone 1 on a floor of its own colour: its face's outline is the die's rounded edge, shaded,
  // and its shadow.
  const one = floor(1000, 750, [232, 228, 216], 8, 60)
  cv.ellipse(one, new cv.Point(540, 420), new cv.Size(80, 60), 0, 0, 360, scalar([200, 196, 186]), -1, cv.LINE_AA) // its shadow
  face(one, 1, [480, 370], 130, 0.3, [205, 200, 188], [25, 25, 25]) // the rounded edge, in shade
  face(one, 1, [480, 370], 118, 0.3, [232, 228, 216], [25, 25, 25])
  save('lone-1.jpg', one)

  // Real photos' misses, each drawn plainly (docs/camera.md, "Where it stands", 2 Dec 03:00).
  // A lone ivory 6 of a maker whose lines of three lie close together (a third of the side apart,
  // each line spread to 0.29 of the side from the centre), on a table of its colour.
  const narrow = floor(900, 1200, [228, 224, 214], 9, 120)
  cv.ellipse(narrow, new cv.Point(500, 650), new cv.Size(80, 62), 0, 0, 360, scalar([200, 196, 188]), -1, cv.LINE_AA) // its shadow
  const narrowSix: Array<[number, number]> = [-1, 1].flatMap((column) => [-1, 0, 1].map((row): [number, number] => [column * 0.16, row * 0.29]))
  face(narrow, 6, [440, 620], 120, 0.5, [236, 230, 204], [25, 25, 25], 1, narrowSix, 0.1)
  save('narrow-6.jpg', narrow)

  // A 5 on a table of its colour, a shadow's edge across its face (a neighbour's, the camera's):
  // the third of the face beyond the edge as dark as the table in that shadow.
  const shaded = floor(900, 1200, [228, 224, 214], 10, 120)
  face(shaded, 5, [450, 600], 130, 0.2, [236, 230, 204], [25, 25, 25])
  const shadow = cv.Mat.zeros(shaded.rows, shaded.cols, cv.CV_8UC1)
  polygon(shadow, [[0, 522], [900, 702], [900, 1200], [0, 1200]], [255, 255, 255])
  const darker = new cv.Mat()
  shaded.convertTo(darker, -1, 0.6, 0)
  darker.copyTo(shaded, shadow)
  shadow.delete()
  darker.delete()
  save('shadow-edge-5.jpg', shaded)

  // A red die showing a 1 (a white pip) with a light's oval highlight on its corner, on wood: the
  // highlight and the pip lie like a 2.
  const red = floor(1000, 750, [160, 112, 70], 11)
  face(red, 1, [500, 380], 130, 0.25, [185, 28, 30], [240, 236, 232])
  cv.ellipse(red, new cv.Point(540, 334), new cv.Size(13, 6), -40, 0, 360, scalar([250, 235, 235]), -1, cv.LINE_AA)
  save('red-1-highlight.jpg', red)

  // A 2 turned so its pips lie one above the other, on a white table, with the near side face
  // below it seen at a slant: one of that face's pips, flattened, just beyond the 2's edge.
  const two = floor(900, 1200, [228, 226, 222], 12, 100)
  const h = 118 / Math.SQRT2
  const [right, bottom]: Array<[number, number]> = [[450 + h, 560], [450, 560 + h]]
  polygon(two, [right, bottom, [bottom[0] + 24, bottom[1] + 24], [right[0] + 24, right[1] + 24]], [206, 200, 178]) // the near side face
  cv.ellipse(two, new cv.Point(Math.round(450 + h / 2 + 11), Math.round(560 + h / 2 + 11)), new cv.Size(9, 7), 135, 0, 360, scalar([30, 30, 30]), -1, cv.LINE_AA) // its pip, flattened
  face(two, 2, [450, 560], 118, Math.PI / 4, [236, 230, 204], [25, 25, 25])
  save('two-side-pip.jpg', two)

  // A lone ivory 1 in dim light on a grey-beige table as light as its face: the table differs from
  // the face in hue (yellow against grey), hardly in shade, and darkens towards the die's shadow.
  const dim = floor(1000, 750, [112, 100, 80], 14, 40)
  cv.ellipse(dim, new cv.Point(520, 420), new cv.Size(100, 80), 0, 0, 360, scalar([106, 95, 76]), -1, cv.LINE_AA) // its shadow
  face(dim, 1, [480, 370], 120, 0.35, [118, 98, 62], [20, 16, 12])
  save('dim-ivory-1.jpg', dim)
}

void main()
