// A face seen at an angle, in its own frame.
//
// A camera at a slant (a webcam or a phone 30–40° from straight down, no tray to make the floor
// flat) sees a die's top face foreshortened: a square squashed along the direction towards the
// camera, nearly an affine map of it at a die's size, and its round pips squashed as much along
// the same direction. So the pips' own ellipses say the face's squash and its direction; stretched
// back along that direction, a flat face's pips lie in their square layout again (fitted as one
// seen from above), and a face whose pips and layout disagree (oval pips in a square layout, or
// round pips in a squashed one: a cocked die's face in a picture seen from above) does not.
// Hand-written: this is the geometry of one die's face (a few lines), not a vision-library problem.
import type { Point } from './types'

/** An ellipse's shape: its minor over its major axis, and the major axis's angle (radians, 0 = along x). */
export interface Ellipse {
  ratio: number
  axis: number
}

/** The mean shape of several small ellipses (each pip's ellipse of inertia, scaled to a major axis of 1). */
export function meanEllipse(shapes: Array<{ roundness: number; axis: number }>): Ellipse {
  let xx = 0
  let yy = 0
  let xy = 0
  for (const { roundness, axis } of shapes) {
    const c = Math.cos(axis)
    const s = Math.sin(axis)
    const minor = roundness * roundness
    xx += c * c + minor * s * s
    yy += s * s + minor * c * c
    xy += c * s * (1 - minor)
  }
  const half = (xx + yy) / 2
  const root = Math.sqrt(((xx - yy) / 2) ** 2 + xy * xy)
  const major = half + root
  const minor = Math.max(0, half - root)
  return { ratio: major > 0 ? Math.sqrt(minor / major) : 1, axis: 0.5 * Math.atan2(2 * xy, xx - yy) }
}

/** The points stretched along the ellipse's minor axis by 1 / ratio about their mean: a squashed square made square again. */
export function unsquash(points: Point[], { ratio, axis }: Ellipse): Point[] {
  const mx = points.reduce((sum, p) => sum + p[0], 0) / points.length
  const my = points.reduce((sum, p) => sum + p[1], 0) / points.length
  const c = Math.cos(axis)
  const s = Math.sin(axis)
  return points.map(([x, y]): Point => {
    const along = (x - mx) * c + (y - my) * s
    const across = (-(x - mx) * s + (y - my) * c) / ratio
    return [mx + along * c - across * s, my + along * s + across * c]
  })
}

/** The angle between two axes (directions without a sense), 0 to π/2. */
export function axisGap(a: number, b: number): number {
  const d = Math.abs(a - b) % Math.PI
  return Math.min(d, Math.PI - d)
}
