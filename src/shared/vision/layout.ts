// The six pip layouts of a standard die, and the check that a face's pips form one of them.
//
// Hand-written on purpose: which pip patterns count as a face is this project's rule, not a
// vision-library problem. The check is a least-squares similarity fit (Procrustes): the pips
// found, centred on their mean, are matched to the layout's pips in every order, and the best
// rotation and scale is fitted in closed form (with points as complex numbers, a = Σ conj(t)·p /
// Σ |t|²). A real face fits to within a few percent of the face's side whatever its turn on the
// table; a side face seen at an angle, two faces read as one, a stray speck or a pip missed do
// not. The face must be flat to the camera (the reader rectifies the tray first), so a cocked
// die's pips fit only a squashed layout: for four pips or more an affine fit measures that
// squash (the ratio of its two singular values).
import type { DieValue } from './types'

type Xy = [number, number]

/** Pip centres of each value on a face of side 1 centred on 0 (where dice makers put them, within a few percent). */
export const PIP_LAYOUTS: Record<DieValue, Xy[]> = {
  1: [[0, 0]],
  2: [[-0.25, -0.25], [0.25, 0.25]],
  3: [[-0.25, -0.25], [0, 0], [0.25, 0.25]],
  4: [[-0.25, -0.25], [0.25, -0.25], [-0.25, 0.25], [0.25, 0.25]],
  5: [[-0.25, -0.25], [0.25, -0.25], [0, 0], [-0.25, 0.25], [0.25, 0.25]],
  6: [[-0.25, -0.26], [0.25, -0.26], [-0.25, 0], [0.25, 0], [-0.25, 0.26], [0.25, 0.26]]
}

export interface LayoutFit {
  value: DieValue
  /** The face side the fit implies, in the pips' units (NaN for one pip: a single pip has no scale). */
  side: number
  /** Root-mean-square distance of the pips from the fitted layout, as a share of the face side. */
  error: number
  /** The face's turn (radians) the fit implies. */
  angle: number
  /** The smaller over the larger singular value of an affine fit (1: not squashed); 1 for fewer than four pips. */
  squash: number
  /** The layout's centre in the pips' units (the pips' mean). */
  centre: Xy
}

function permutations(n: number): number[][] {
  if (n === 1) return [[0]]
  const out: number[][] = []
  for (const rest of permutations(n - 1)) for (let i = 0; i <= rest.length; i++) out.push([...rest.slice(0, i), n - 1, ...rest.slice(i)])
  return out
}
const ORDERS: Record<number, number[][]> = { 1: permutations(1), 2: permutations(2), 3: permutations(3), 4: permutations(4), 5: permutations(5), 6: permutations(6) }

/** The best fit of `pips` (centres, any units) to the layout of as many pips (or to `template`), or null for 0 or more than 6 pips. */
export function fitLayout(pips: Xy[], template?: Xy[]): LayoutFit | null {
  const n = pips.length
  if (n < 1 || n > 6) return null
  const value = n as DieValue
  const mx = pips.reduce((sum, p) => sum + p[0], 0) / n
  const my = pips.reduce((sum, p) => sum + p[1], 0) / n
  if (n === 1) return { value, side: NaN, error: 0, angle: 0, squash: 1, centre: [mx, my] }
  const centred = pips.map(([x, y]) => [x - mx, y - my] as Xy)
  template ??= PIP_LAYOUTS[value]
  let best: { error: number; re: number; im: number; order: number[] } | null = null
  for (const order of ORDERS[n]) {
    // a = Σ conj(t)·p / Σ |t|²: the rotation and scale that bring the layout onto the pips.
    let re = 0
    let im = 0
    let norm = 0
    for (let i = 0; i < n; i++) {
      const [tx, ty] = template[order[i]]
      const [px, py] = centred[i]
      re += tx * px + ty * py
      im += tx * py - ty * px
      norm += tx * tx + ty * ty
    }
    re /= norm
    im /= norm
    let squared = 0
    for (let i = 0; i < n; i++) {
      const [tx, ty] = template[order[i]]
      const dx = centred[i][0] - (re * tx - im * ty)
      const dy = centred[i][1] - (im * tx + re * ty)
      squared += dx * dx + dy * dy
    }
    const scale = Math.hypot(re, im)
    const error = scale > 0 ? Math.sqrt(squared / n) / scale : Infinity
    if (best === null || error < best.error) best = { error, re, im, order }
  }
  if (best === null) return null
  const side = Math.hypot(best.re, best.im)
  const squash = n >= 4 ? affineSquash(centred, best.order.map((index) => template[index])) : 1
  return { value, side, error: best.error, angle: Math.atan2(best.im, best.re), squash, centre: [mx, my] }
}

/** The least-squares linear map from `from` to `to` (both centred), as its smaller over larger singular value. */
function affineSquash(to: Xy[], from: Xy[]): number {
  // Solve to ≈ M·from for the 2×2 M by the normal equations.
  let sxx = 0
  let sxy = 0
  let syy = 0
  const b = [0, 0, 0, 0]
  for (let i = 0; i < from.length; i++) {
    const [x, y] = from[i]
    sxx += x * x
    sxy += x * y
    syy += y * y
    b[0] += to[i][0] * x
    b[1] += to[i][0] * y
    b[2] += to[i][1] * x
    b[3] += to[i][1] * y
  }
  const det = sxx * syy - sxy * sxy
  if (Math.abs(det) < 1e-12) return 1
  const m00 = (b[0] * syy - b[1] * sxy) / det
  const m01 = (b[1] * sxx - b[0] * sxy) / det
  const m10 = (b[2] * syy - b[3] * sxy) / det
  const m11 = (b[3] * sxx - b[2] * sxy) / det
  // Singular values of M from its Frobenius norm and determinant.
  const frob = m00 * m00 + m01 * m01 + m10 * m10 + m11 * m11
  const d = Math.abs(m00 * m11 - m01 * m10)
  const root = Math.sqrt(Math.max(0, frob * frob - 4 * d * d))
  const big = Math.sqrt((frob + root) / 2)
  const small = Math.sqrt(Math.max(0, (frob - root) / 2))
  return big > 0 ? small / big : 1
}
