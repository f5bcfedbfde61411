// Plane geometry the reader needs around OpenCV's own: 3×3 homographies as 9 numbers (row by
// row), and what a tray's homography says about the camera.
import type { Point } from './types'

export type Matrix3 = number[]

export function applyHomography(h: Matrix3, [x, y]: Point): Point {
  const w = h[6] * x + h[7] * y + h[8]
  return [(h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w]
}

export function multiply3(a: Matrix3, b: Matrix3): Matrix3 {
  const out: Matrix3 = []
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) out.push(a[r * 3] * b[c] + a[r * 3 + 1] * b[3 + c] + a[r * 3 + 2] * b[6 + c])
  return out
}

export function invert3(m: Matrix3): Matrix3 {
  const [a, b, c, d, e, f, g, h, i] = m
  const A = e * i - f * h
  const B = -(d * i - f * g)
  const C = d * h - e * g
  const det = a * A + b * B + c * C
  return [A / det, -(b * i - c * h) / det, (b * f - c * e) / det, B / det, (a * i - c * g) / det, -(a * f - c * d) / det, C / det, -(a * h - b * g) / det, (a * e - b * d) / det]
}

/** Whether `p` is inside the polygon (crossing number: a few lines, no image needed). */
export function insidePolygon([x, y]: Point, polygon: Point[]): boolean {
  let inside = false
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]
    const [xj, yj] = polygon[j]
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside
  }
  return inside
}

/** Whether the circle lies wholly inside the (convex) polygon: its centre inside, and as far as its radius from every side. */
export function circleInside(centre: Point, radius: number, polygon: Point[]): boolean {
  if (!insidePolygon(centre, polygon)) return false
  return polygon.every((a, k) => {
    const b = polygon[(k + 1) % polygon.length]
    const length = Math.hypot(b[0] - a[0], b[1] - a[1])
    return Math.abs((b[0] - a[0]) * (centre[1] - a[1]) - (b[1] - a[1]) * (centre[0] - a[0])) / length >= radius
  })
}

export function polygonArea(polygon: Point[]): number {
  let sum = 0
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) sum += (polygon[j][0] + polygon[i][0]) * (polygon[j][1] - polygon[i][1])
  return Math.abs(sum) / 2
}

export interface TrayView {
  /** Width over depth of the tray, as the camera's perspective says. */
  aspect: number
  /** Where straight down from the camera meets the picture (the vanishing point of the vertical), in pixels. */
  nadir: Point
}

/**
 * What a rectangle's homography says about the camera: the rectangle's true aspect and the
 * picture's nadir. `unitToImage` maps the unit square's corners (0,0) (1,0) (1,1) (0,1) onto the
 * tray's corners in the picture. With square pixels and the principal point at the picture's
 * centre, the two sides' directions being at right angles fix the focal length
 * (f² = −(h11·h12 + h21·h22) / (h31·h32)); the sides' lengths then give the aspect, and the third
 * rotation column (their cross product) the nadir. When the picture cannot tell the focal length
 * (a tray seen square-on, or from straight above: h31·h32 near 0), a webcam's usual one is taken
 * (`typicalFocal`, a share of the picture's width: 0.75 is a 67° horizontal field of view).
 */
export function trayView(unitToImage: Matrix3, width: number, height: number, typicalFocal = 0.75): TrayView {
  const cx = width / 2
  const cy = height / 2
  // The homography with the principal point moved to 0.
  const shift = [1, 0, -cx, 0, 1, -cy, 0, 0, 1]
  const h = multiply3(shift, unitToImage)
  const [h11, h12, , h21, h22, , h31, h32] = h
  const measured = Math.sqrt(-(h11 * h12 + h21 * h22) / (h31 * h32))
  const f = Number.isFinite(measured) && measured > 0.3 * width && measured < 3 * width ? measured : typicalFocal * width
  const r1 = [h11 / f, h21 / f, h31]
  const r2 = [h12 / f, h22 / f, h32]
  const n1 = Math.hypot(...r1)
  const n2 = Math.hypot(...r2)
  const a = r1.map((x) => x / n1)
  const b = r2.map((x) => x / n2)
  const r3 = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
  const nadir: Point = Math.abs(r3[2]) < 1e-9 ? [cx, cy + 1e6] : [cx + (f * r3[0]) / r3[2], cy + (f * r3[1]) / r3[2]]
  return { aspect: n1 / n2, nadir }
}

/** A calibrated polygon measured on a frame of another size, scaled to this one. */
export function scalePolygon(polygon: Point[], from: { width: number; height: number }, to: { width: number; height: number }): Point[] {
  const sx = to.width / from.width
  const sy = to.height / from.height
  return polygon.map(([x, y]) => [x * sx, y * sy])
}
