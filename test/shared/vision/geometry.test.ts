import { describe, expect, it } from 'vitest'
import { applyHomography, insidePolygon, invert3, multiply3, trayView } from '@shared/vision/geometry'
import { greyGrid, gridDifference } from '@shared/vision/stillness'

/** The homography of a pinhole camera (focal f, principal point at the picture's centre) looking at the floor. */
function camera(f: number, tiltRadians: number, width: number, height: number, trayWidth: number, trayDepth: number, yaw = 0): number[] {
  // Camera at height 60 over the point (0, -60·tan(tilt)) of the floor, looking at the floor's origin.
  const c = Math.cos(tiltRadians)
  const s = Math.sin(tiltRadians)
  const distance = 60 / c
  // World (x, y on the floor) → camera: x right, y down the picture, z forward.
  const project = (tx: number, ty: number): [number, number] => {
    const x = tx * Math.cos(yaw) - ty * Math.sin(yaw)
    const y = tx * Math.sin(yaw) + ty * Math.cos(yaw)
    const cx = x
    const cy = -(y * c) + 0 * s
    const cz = y * s + distance
    return [width / 2 + (f * cx) / cz, height / 2 + (f * cy) / cz]
  }
  const corners = [project(-trayWidth / 2, trayDepth / 2), project(trayWidth / 2, trayDepth / 2), project(trayWidth / 2, -trayDepth / 2), project(-trayWidth / 2, -trayDepth / 2)]
  // The unit square's homography through its four corners, solved as the reader's OpenCV call would.
  return unitSquareTo(corners)
}

/** The projective map of the unit square onto four points (Heckbert's closed form, for the test only). */
function unitSquareTo(q: Array<[number, number]>): number[] {
  const [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = q
  const dx1 = x1 - x2
  const dx2 = x3 - x2
  const dx3 = x0 - x1 + x2 - x3
  const dy1 = y1 - y2
  const dy2 = y3 - y2
  const dy3 = y0 - y1 + y2 - y3
  const det = dx1 * dy2 - dx2 * dy1
  const g = (dx3 * dy2 - dx2 * dy3) / det
  const h = (dx1 * dy3 - dx3 * dy1) / det
  return [x1 - x0 + g * x1, x3 - x0 + h * x3, x0, y1 - y0 + g * y1, y3 - y0 + h * y3, y0, g, h, 1]
}

describe('what a tray tells of the camera', () => {
  it("finds the tray aspect and the nadir of a tilted camera, with its focal length or a webcam's usual one", () => {
    // Seen square-on the focal length cannot be told: the usual one (0.75 of the width) is taken.
    for (const [f, typical] of [[960, 0.75], [700, 700 / 1280]]) {
      const view = trayView(camera(f, 0.6, 1280, 720, 30, 20), 1280, 720, typical)
      expect(view.aspect).toBeCloseTo(1.5, 2)
      // Straight down from a camera tilted by t is f·tan(t) from the picture's centre, along its vertical.
      expect(Math.abs(view.nadir[0] - 640)).toBeLessThan(1)
      expect(Math.abs(view.nadir[1] - 360)).toBeCloseTo(f * Math.tan(0.6), 0)
    }
  })

  it('measures the focal length from a tray seen at an angle', () => {
    const view = trayView(camera(900, 0.6, 1280, 720, 30, 20, 0.5), 1280, 720, 2)
    expect(view.aspect).toBeCloseTo(1.5, 2)
    expect(Math.abs(view.nadir[0] - 640)).toBeLessThan(1)
    expect(Math.abs(view.nadir[1] - 360)).toBeCloseTo(900 * Math.tan(0.6), 0)
  })

  it('takes a view from straight above as straight down', () => {
    const view = trayView(camera(900, 0, 1280, 720, 30, 20), 1280, 720)
    expect(view.aspect).toBeCloseTo(1.5, 3)
    expect(view.nadir).toEqual([640, 360])
  })

  it('inverts and composes homographies, and tells inside from outside', () => {
    const h = camera(800, 0.3, 1280, 720, 30, 20)
    const round = applyHomography(multiply3(invert3(h), h), [0.3, 0.7])
    expect(round[0]).toBeCloseTo(0.3, 9)
    expect(round[1]).toBeCloseTo(0.7, 9)
    const square: Array<[number, number]> = [[0, 0], [10, 0], [10, 10], [0, 10]]
    expect(insidePolygon([5, 5], square)).toBe(true)
    expect(insidePolygon([11, 5], square)).toBe(false)
  })
})

describe('stillness', () => {
  const frame = (shift: number) => {
    const data = new Uint8ClampedArray(320 * 180 * 4)
    for (let y = 0; y < 180; y++) for (let x = 0; x < 320; x++) data.fill(x >= 100 + shift && x < 130 + shift && y >= 60 && y < 90 ? 240 : 40, (y * 320 + x) * 4, (y * 320 + x) * 4 + 3)
    return { width: 320, height: 180, data }
  }
  it('sees a die that moved, and nothing in the same picture again', () => {
    expect(gridDifference(greyGrid(frame(0)), greyGrid(frame(0))).largest).toBe(0)
    expect(gridDifference(greyGrid(frame(0)), greyGrid(frame(12))).largest).toBeGreaterThan(50)
  })
})
