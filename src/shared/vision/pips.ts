// The pip-first path: faces found from their pips, not from the die's blob.
//
// Why a second path: the blob path (reader.ts) finds a die as "pixels unlike the floor", which
// fails on real photos in ways the pips do not: an ivory die on a white table is the floor's
// colour, a die's shadow and its side faces (a phone at a slight angle) join its blob, and a
// large die's blob is measured wrongly. Pips are what a person looks at: dark (or light), round,
// alike spots on an even face. So here:
// 1. Pips: spots darker (or lighter) than their surround by a morphological black-hat (top-hat)
//    with a window wider than a pip, over a pyramid (full, half, quarter size) for pips of any
//    size, kept when round and solid.
// 2. Faces: for each pip, the sets of it and its nearest pips (one to six) are fitted to the
//    layout of as many pips (fitLayout); a set is a face when the fit is close, its pips are
//    alike in size, the pip size fits the face size the fit implies, no other pip of that size
//    lies on the face or just beyond (a 4 found inside a 6 is not a face), the face between the
//    pips is even and lighter than the pips (darker for light pips), it stands out from what is
//    around it (specks on an even floor do not) and its pips are not squashed (a side face seen
//    at a slant has oval pips). The best faces win, each pip in one face only.
// 3. One die, one face: faces closer than a face's side are faces of one die (its top and a
//    side face); the one with the roundest pips is its top, and when two are about as round the
//    die is unsure.
// 4. The two paths meet (withPipFaces): the pips confirm, complete or put in doubt the blob
//    path's dice.
// Faces are sized by their own pips, pips by the pyramid: no size is tied to the picture's.
// A lone pip (a 1) has no scale of its own and is not taken here; the blob path reads 1s.
// Hand-written: what a face of pips is, is this project's rule (as layout.ts); OpenCV does the
// pixel work.
import { fitLayout, type LayoutFit } from './layout'
import type { OpenCv } from './opencv'
import { insidePolygon } from './geometry'
import { median } from './median'
import { axisGap, meanEllipse, unsquash, type Ellipse } from './face-frame'
import { CONFIDENT, type Box, type DieReading, type DieValue, type FrameReading, type Point } from './types'

type Mat = InstanceType<OpenCv['Mat']>

export interface Pip {
  centre: Point
  /** Radius of the disc of the pip's area, work pixels. */
  radius: number
  /** Minor over major axis of the pip's ellipse of inertia (1: round). */
  roundness: number
  /** The angle of that ellipse's major axis (radians, 0 = along the picture's rows). */
  axis: number
  dark: boolean
  /** False for a spot too irregular or too large for a pip: not a pip, but it still spoils a face it lies on. */
  isPip: boolean
}

export interface PipFace {
  value: DieValue
  /** Work pixels. */
  centre: Point
  side: number
  angle: number
  confidence: number
  pips: Pip[]
  /** The mean roundness of its pips (a side face seen at a slant has oval pips). */
  roundness: number
  /** How square its layout is (fitLayout's squash; 1 for fewer than four pips). */
  squash: number
  /** Its pips fit the usual layout (a 6 with its rows a quarter of the side apart), not only another maker's. */
  standard: boolean
  /** The mean shape of its pips' ellipses: how much and along which axis the face is seen squashed. */
  tilt: Ellipse
  /**
   * Its pips are oval and its layout is squashed as much along the same axis (for two or three
   * pips, whose layout cannot show a squash: its pips are oval alike): a flat face seen at a slant,
   * or a cocked die's face, not told apart here (withPipFaces looks at the other faces and the view).
   */
  foreshortened: boolean
  /** Set when another face of the same die was about as likely its top. */
  doubtful?: boolean
}

const clamp01 = (x: number): number => Math.max(0, Math.min(1, x))
/** 1 at `good` or better, 0 at `bad` or worse, linear between. */
const ramp = (x: number, good: number, bad: number): number => clamp01((x - bad) / (good - bad))

/** The black-hat's window at every level of the pyramid (below), in that level's pixels. */
const WINDOW = 19

/** Spots darker (dark = true) or lighter than their surround in the grey picture, of a radius up to WINDOW / 2.4. */
function findPips(cv: OpenCv, grey: Mat, dark: boolean): Pip[] {
  const window = WINDOW
  const kernel = cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(window, window))
  const hat = new cv.Mat()
  cv.morphologyEx(grey, hat, dark ? cv.MORPH_BLACKHAT : cv.MORPH_TOPHAT, kernel)
  kernel.delete()
  const mask = new cv.Mat()
  cv.threshold(hat, mask, 40, 255, cv.THRESH_BINARY)
  hat.delete()
  const labels = new cv.Mat()
  const stats = new cv.Mat()
  const centroids = new cv.Mat()
  const count = cv.connectedComponentsWithStats(mask, labels, stats, centroids, 8, cv.CV_32S)
  mask.delete()
  const s = stats.data32S
  const c = centroids.data64F
  const minArea = 12
  // A spot nearly as wide as the window is cut by it: larger pips are the half-size pass's.
  const maxArea = Math.PI * (window / 2.4) ** 2
  // Second moments per label, for each spot's ellipse (one pass over the labels).
  const sxx = new Float64Array(count)
  const syy = new Float64Array(count)
  const sxy = new Float64Array(count)
  const data = labels.data32S
  const width = labels.cols
  for (let i = 0; i < data.length; i++) {
    const label = data[i]
    if (label === 0) continue
    const area = s[label * 5 + 4]
    if (area < minArea || area > maxArea * 4) continue
    const dx = (i % width) - c[label * 2]
    const dy = Math.floor(i / width) - c[label * 2 + 1]
    sxx[label] += dx * dx
    syy[label] += dy * dy
    sxy[label] += dx * dy
  }
  labels.delete()
  const pips: Pip[] = []
  for (let label = 1; label < count; label++) {
    const area = s[label * 5 + 4]
    if (area < minArea || area > maxArea * 4) continue
    const w = s[label * 5 + 2]
    const h = s[label * 5 + 3]
    // Solid: a disc fills π/4 of its box; a ring, a streak or a corner does not.
    const solid = area >= w * h * 0.55
    const a = sxx[label] / area
    const b = syy[label] / area
    const d = sxy[label] / area
    const root = Math.sqrt(((a - b) / 2) ** 2 + d * d)
    const major = (a + b) / 2 + root
    const minor = (a + b) / 2 - root
    const roundness = major > 0 ? Math.sqrt(Math.max(0, minor) / major) : 0
    const axis = 0.5 * Math.atan2(2 * d, a - b)
    pips.push({ centre: [c[label * 2], c[label * 2 + 1]], radius: Math.sqrt(area / Math.PI), roundness, axis, dark, isPip: solid && roundness >= 0.45 && area <= maxArea })
  }
  stats.delete()
  centroids.delete()
  return pips
}

/**
 * Pips of any size: the black-hat's window must be wider than a pip, and a window wide enough for
 * a die filling a quarter of the picture would join a small die's pips to its shadow (and costs
 * more the wider it is). So the same small window runs over the picture at full, half and
 * quarter size, each level keeping the pips too large for the one before, a pip found at two
 * kept once. Spots that are no pips come along from full size, for the check that nothing else
 * lies on a face (at smaller sizes two pips of one face can run together).
 */
function pipsAtAllSizes(cv: OpenCv, grey: Mat, dark: boolean): Pip[] {
  const fine = findPips(cv, grey, dark)
  const found = fine.filter((pip) => pip.isPip)
  const others = fine.filter((pip) => !pip.isPip)
  const overlap = (a: Pip, b: Pip): boolean => Math.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]) < Math.max(a.radius, b.radius)
  let level = grey
  for (const scale of [2, 4, 8]) {
    const smaller = new cv.Mat()
    cv.resize(level, smaller, new cv.Size(Math.round(grey.cols / scale), Math.round(grey.rows / scale)), 0, 0, cv.INTER_AREA)
    if (level !== grey) level.delete()
    level = smaller
    const larger = findPips(cv, level, dark)
      .filter((pip) => pip.isPip)
      .map((pip): Pip => ({ ...pip, centre: [(pip.centre[0] + 0.5) * scale - 0.5, (pip.centre[1] + 0.5) * scale - 0.5], radius: pip.radius * scale }))
      .filter((pip) => pip.radius > (WINDOW / 2.4) * (scale / 2) * 0.6 && !found.some((other) => overlap(other, pip)))
    found.push(...larger)
  }
  if (level !== grey) level.delete()
  return [...found, ...others.filter((spot) => !found.some((pip) => overlap(spot, pip)))]
}

/** The grey levels of a face's surface: its level where each pip lies, and how even it is. */
interface Surface {
  /** The face's grey level at a point (the lit or the shaded side of a shadow's edge across it). */
  levelAt: (p: Point) => number
  /** The absolute deviations' third quartile from the face's level. */
  spread: number
  /** Their near-worst (92nd percentile). */
  worst: number
}

/**
 * The grey level's median, its spread (the absolute deviations' third quartile) and its near-worst
 * deviation (92nd percentile) over the face square less its pips: a face is even all over, while
 * specks of a carpet or a die's edge and the floor beyond it are not. A face crossed by a shadow's
 * edge (a neighbour's shadow, a wall's) is even on each side of one straight line: it is measured
 * so (shadowSplit) when that is far more even than the whole and each side holds pips of its own,
 * dark (or light) against that side's level: what is beyond the line is then the same face in shade.
 */
function faceSurface(grey: Mat, centre: Point, side: number, angle: number, pips: Pip[]): Surface | null {
  const width = grey.cols
  const height = grey.rows
  const data = grey.data
  const samples: Array<{ x: number; y: number; value: number }> = []
  const cos = Math.cos(angle)
  const sin = Math.sin(angle)
  const steps = 12
  for (let i = 0; i < steps; i++) {
    for (let j = 0; j < steps; j++) {
      // Over the inner 80 % of the face (its rounded edges shade).
      const u = ((i + 0.5) / steps - 0.5) * side * 0.8
      const v = ((j + 0.5) / steps - 0.5) * side * 0.8
      const x = centre[0] + u * cos - v * sin
      const y = centre[1] + u * sin + v * cos
      if (pips.some((pip) => Math.hypot(pip.centre[0] - x, pip.centre[1] - y) < pip.radius * 1.4)) continue
      const xi = Math.round(x)
      const yi = Math.round(y)
      if (xi < 0 || yi < 0 || xi >= width || yi >= height) return null
      samples.push({ x, y, value: data[yi * width + xi] })
    }
  }
  if (samples.length < 12) return null
  const level = median(samples.map((sample) => sample.value))
  const whole = deviationsOf(samples.map((sample) => Math.abs(sample.value - level)))
  const split = shadowSplit(samples, (side * 0.8) / steps)
  if (split && split.spread < whole.spread * 0.6 && new Set(pips.map((pip) => split.sideOf(pip.centre))).size === 2) {
    return { levelAt: (p) => split.levels[split.sideOf(p)], spread: split.spread, worst: split.worst }
  }
  return { levelAt: () => level, ...whole }
}

function deviationsOf(absolute: number[]): { spread: number; worst: number } {
  const sorted = [...absolute].sort((p, q) => p - q)
  return { spread: sorted[Math.floor(sorted.length * 0.75)], worst: sorted[Math.floor(sorted.length * 0.92)] }
}

/**
 * The straight line that best parts a face's samples into a lighter and a darker side (a shadow's
 * edge), tried at every 11.25° and every place along it, with at most a twentieth of the samples
 * on the wrong side and a sixth or more on each; the two sides' levels and the deviations from
 * each side's own level. Null when no line parts them so.
 */
function shadowSplit(samples: Array<{ x: number; y: number; value: number }>, step: number): { levels: [number, number]; sideOf: (p: Point) => 0 | 1; spread: number; worst: number } | null {
  const values = samples.map((sample) => sample.value)
  const threshold = otsuOf(values)
  const n = samples.length
  let best: { wrong: number; nx: number; ny: number; at: number } | null = null
  for (let k = 0; k < 16; k++) {
    const nx = Math.cos((k / 16) * Math.PI)
    const ny = Math.sin((k / 16) * Math.PI)
    const order = samples.map((sample) => ({ along: sample.x * nx + sample.y * ny, light: sample.value > threshold })).sort((a, b) => a.along - b.along)
    // Sweep the line along (nx, ny): dark before it and light after, or the other way round.
    const lightTotal = order.filter((o) => o.light).length
    let lightBefore = 0
    for (let i = 0; i <= n; i++) {
      if (i > 0 && order[i - 1].light) lightBefore++
      if (i < Math.ceil(n / 6) || i > n - Math.ceil(n / 6)) continue
      const darkAfter = n - i - (lightTotal - lightBefore)
      const wrong = Math.min(lightBefore + darkAfter, i - lightBefore + (lightTotal - lightBefore))
      const at = i === 0 ? order[0].along - 1 : i === n ? order[n - 1].along + 1 : (order[i - 1].along + order[i].along) / 2
      if (!best || wrong < best.wrong) best = { wrong, nx, ny, at }
    }
  }
  if (!best || best.wrong > n / 20) return null
  const { nx, ny, at } = best
  const sideOf = ([x, y]: Point): 0 | 1 => (x * nx + y * ny < at ? 0 : 1)
  // The shadow's edge is soft (a penumbra): samples within a step of the grid of it are neither side's.
  const clear = samples.filter((sample) => Math.abs(sample.x * nx + sample.y * ny - at) > step)
  const levels: [number, number] = [0, 1].map((s) => median(clear.filter((sample) => sideOf([sample.x, sample.y]) === s).map((sample) => sample.value))) as [number, number]
  return { levels, sideOf, ...deviationsOf(clear.map((sample) => Math.abs(sample.value - levels[sideOf([sample.x, sample.y])]))) }
}

/**
 * Otsu's threshold of a few grey levels: the one that parts them into the two most distinct classes.
 * (OpenCV's THRESH_OTSU works on an image: for a face's hundred-odd samples a Mat costs more than this.)
 */
function otsuOf(values: number[]): number {
  const sorted = [...values].sort((p, q) => p - q)
  const total = sorted.reduce((sum, v) => sum + v, 0)
  let best = sorted[0]
  let bestScore = -1
  let below = 0
  for (let i = 1; i < sorted.length; i++) {
    below += sorted[i - 1]
    if (sorted[i] === sorted[i - 1]) continue
    const w0 = i
    const w1 = sorted.length - i
    const m0 = below / w0
    const m1 = (total - below) / w1
    const score = w0 * w1 * (m0 - m1) ** 2
    if (score > bestScore) {
      bestScore = score
      best = (sorted[i - 1] + sorted[i]) / 2
    }
  }
  return best
}

/**
 * A pip lies on an even face: the grey level on a ring just around it (1.6 of its radius from its
 * centre, clear of a 6's next pip) varies little against the step from the pip to that ring. A
 * speck of a carpet has the carpet's weave all round it.
 */
function onEvenGround(grey: Mat, pip: Pip): boolean {
  const levels: number[] = []
  for (let k = 0; k < 16; k++) {
    const angle = (k / 16) * 2 * Math.PI
    levels.push(greyAt(grey, [pip.centre[0] + Math.cos(angle) * pip.radius * 1.6, pip.centre[1] + Math.sin(angle) * pip.radius * 1.6]))
  }
  levels.sort((a, b) => a - b)
  const ground = levels[8]
  const step = Math.abs(ground - greyAt(grey, pip.centre))
  const deviations = levels.map((level) => Math.abs(level - ground)).sort((a, b) => a - b)
  return step >= 30 && deviations[11] <= step * 0.25
}

function greyAt(grey: Mat, [x, y]: Point): number {
  const xi = Math.min(grey.cols - 1, Math.max(0, Math.round(x)))
  const yi = Math.min(grey.rows - 1, Math.max(0, Math.round(y)))
  return grey.data[yi * grey.cols + xi]
}

/** Pips flatter than this (their mean minor over major axis) are a face seen at a slant, checked in its own frame. */
const FORESHORTENED = 0.92
/** A view at more than about 53° from straight down (pips flatter than this) is a side face's, not a top face's. */
const STEEPEST = 0.6

const SIX_APART = [0.26, 0.33, 0.4, 0.47]
const SIX_LAYOUTS: Array<Array<[number, number]>> = SIX_APART.map((apart) => [-1, 1].flatMap((column) => [-1, 0, 1].map((row) => [column * 0.25, row * apart] as [number, number])))

interface Candidate extends PipFace {
  indexes: number[]
}

/**
 * The share of points on a circle just beyond the face (0.8 of its side from its centre) whose
 * colour is far from the face's own: a die stands out from the floor somewhere around its face
 * (its edge, its side faces, its shadow, the floor's shade), while specks on an even floor that
 * happen to lie like pips have the same floor all round.
 */
function edgeShare(rgb: Mat, grey: Mat, centre: Point, side: number, level: number): number {
  const width = rgb.cols
  const channels = rgb.channels()
  const data = rgb.data
  // The face's colour: the median of each channel over points of the face's grey level.
  const inner: number[][] = [[], [], []]
  for (let k = 0; k < 16; k++) {
    const angle = (k / 16) * 2 * Math.PI
    const x = Math.round(centre[0] + Math.cos(angle) * side * 0.4)
    const y = Math.round(centre[1] + Math.sin(angle) * side * 0.4)
    if (x < 0 || y < 0 || x >= width || y >= rgb.rows || Math.abs(grey.data[y * width + x] - level) > 20) continue
    for (let c = 0; c < 3; c++) inner[c].push(data[(y * width + x) * channels + c])
  }
  if (inner[0].length < 4) return 0
  const faceColour = inner.map(median)
  let far = 0
  let all = 0
  for (let k = 0; k < 32; k++) {
    const angle = (k / 32) * 2 * Math.PI
    const x = Math.round(centre[0] + Math.cos(angle) * side * 0.8)
    const y = Math.round(centre[1] + Math.sin(angle) * side * 0.8)
    if (x < 0 || y < 0 || x >= width || y >= rgb.rows) continue
    all++
    const i = (y * width + x) * channels
    if (Math.hypot(data[i] - faceColour[0], data[i + 1] - faceColour[1], data[i + 2] - faceColour[2]) > 15) far++
  }
  return all > 0 ? far / all : 0
}

function faceOf(rgb: Mat, grey: Mat, pips: Pip[], indexes: number[], spots: Pip[]): Candidate | null {
  const chosen = indexes.map((index) => pips[index])
  const centres = chosen.map((pip) => pip.centre)
  // A 6's columns are closer or farther apart from maker to maker (their rows sit at a quarter of
  // the side from the centre, the pips in a row from a quarter to two fifths apart): the closest fit wins.
  const fitsOf = (points: Point[]): Array<LayoutFit | null> => (points.length === 6 ? SIX_LAYOUTS.map((template) => fitLayout(points, template)) : [fitLayout(points)])
  const bestFit = (points: Point[]): LayoutFit | null => fitsOf(points).reduce<LayoutFit | null>((best, f) => (f && (!best || f.error < best.error) ? f : best), null)
  const fits = fitsOf(centres)
  const fit: LayoutFit | null = fits.reduce<LayoutFit | null>((best, f) => (f && (!best || f.error < best.error) ? f : best), null)
  const standard = fits[0] !== null && fits[0].error < 0.06
  if (!fit || fit.value === 1) return null
  // Seen at a slant, the face is checked in its own frame: its pips stretched back along their
  // ellipses' minor axis. It is foreshortened when its layout is square there (a face of four pips
  // or more; two or three pips: oval alike, their layout cannot tell).
  const tilt = meanEllipse(chosen)
  const inFrame = tilt.ratio < FORESHORTENED && tilt.ratio >= STEEPEST ? bestFit(unsquash(centres, tilt)) : null
  const foreshortened = inFrame !== null && (chosen.length < 4 || (inFrame.squash >= 0.9 && inFrame.error <= Math.max(fit.error, 0.06)))
  const squash = foreshortened && inFrame ? inFrame.squash : fit.squash
  const error = foreshortened && inFrame ? Math.min(fit.error, inFrame.error) : fit.error
  const side = fit.side
  // The fit sizes a 6 by its columns (a quarter of the side from its centre). A maker whose lines
  // of three lie closer together spreads each line as far as another's (about 0.28 of the side
  // from the centre, as the other faces' corner pips): its face is larger than its columns say,
  // and its pips' size and the circle that must lie beyond it are measured at that size.
  const apart = fit.value === 6 ? SIX_APART[fits.indexOf(fit)] : 0
  const outerSide = apart > 0.28 ? (side * apart) / 0.28 : side
  const radii = chosen.map((pip) => pip.radius)
  const meanRadius = radii.reduce((sum, r) => sum + r, 0) / radii.length
  const radiusSpread = (Math.max(...radii) - Math.min(...radii)) / meanRadius
  const pipShare = meanRadius / outerSide
  if (error > 0.1 || radiusSpread > 0.6 || pipShare < 0.035 || pipShare > (fit.value === 2 ? 0.14 : 0.2) || squash < 0.65) return null
  // No other round pip of this size on the face or just beyond its pips' square (within 0.72 of
  // the side the fit implies): a 4 inside a 6, a 2 inside a 4 or a 5 are not faces, nor two rows of a
  // 6 whose rows are as far apart as its columns. A touching die's nearest pip is farther (its
  // own pips sit a quarter of a side in from its edge, whatever its turn). Any other blot (two
  // pips run together) counts on the face itself only: beyond its edge lie the floor and the gaps
  // between dice.
  const cos = Math.cos(fit.angle)
  const sin = Math.sin(fit.angle)
  const roundness = chosen.reduce((sum, pip) => sum + pip.roundness, 0) / chosen.length
  // One face's pips are seen at one slant: their shapes are alike (a highlight beside a pip is not).
  // Two or three pips have no layout to show a squash, so this is their check; from four up the
  // layout's fit and squash tell (and a top face's pips with a side face's stay a doubt there).
  const roundnessGap = chosen.length <= 3 ? Math.max(...chosen.map((pip) => pip.roundness)) - Math.min(...chosen.map((pip) => pip.roundness)) : 0
  for (const other of spots) {
    if (other.radius < meanRadius * 0.5 || chosen.some((pip) => Math.hypot(pip.centre[0] - other.centre[0], pip.centre[1] - other.centre[1]) < Math.max(pip.radius, other.radius))) continue
    const dx = other.centre[0] - fit.centre[0]
    const dy = other.centre[1] - fit.centre[1]
    const u = dx * cos + dy * sin
    const v = -dx * sin + dy * cos
    if (!other.isPip && other.roundness < 0.35) continue // a streak: a lit edge, a groove
    // A 4 looks farther: two rows of a 6 whose rows are as far apart as its columns are a 4. A pip
    // much flatter than the face's own is a side face's, seen more at a slant (near, below a top
    // face seen at a slant): beyond the face's edge, as any other blot.
    // So is a pip smaller and flatter than the face's whose ellipse lies along the face's edge
    // (squashed towards the face's centre): a side face's, seen more at a slant than the top.
    const radial = Math.atan2(dy, dx)
    const sideFace = other.radius < meanRadius && other.roundness < roundness - 0.08 && axisGap(other.axis, radial + Math.PI / 2) <= (30 * Math.PI) / 180
    const reach = other.isPip && other.radius < meanRadius * 2 && other.roundness >= 0.6 && other.roundness >= roundness - 0.15 && !sideFace ? (fit.value === 4 ? 0.8 : 0.72) : 0.4
    if (Math.hypot(u, v) < side * reach) return null
  }
  const surface = faceSurface(grey, fit.centre, side, fit.angle, chosen)
  if (!surface) return null
  const contrast = Math.min(...chosen.map((pip) => (pip.dark ? 1 : -1) * (surface.levelAt(pip.centre) - greyAt(grey, pip.centre))))
  if (contrast < 30 || surface.spread > contrast * 0.35 || surface.worst > contrast * 0.6) return null
  const standsOut = edgeShare(rgb, grey, fit.centre, outerSide, surface.levelAt(fit.centre))
  if (standsOut < 0.12) return null
  const confidence = Math.min(
    ramp(error, 0.04, 0.1),
    ramp(radiusSpread, 0.3, 0.6),
    ramp(squash, 0.8, 0.65),
    ramp(surface.spread / contrast, 0.15, 0.35),
    ramp(surface.worst / contrast, 0.3, 0.6),
    ramp(contrast, 60, 30),
    ramp(standsOut, 0.22, 0.12),
    ramp(roundness, 0.8, 0.6),
    ramp(roundnessGap, 0.2, 0.4)
  )
  return { value: fit.value, centre: fit.centre, side, angle: fit.angle, confidence, pips: chosen, roundness, squash: fit.squash, standard, tilt, foreshortened, indexes }
}

/**
 * How far apart two colours' hues are: the distance of their chromaticities (each channel over
 * their sum), which shade does not change. A face in its own shade (its rounded edge, a shadow
 * across it) keeps its hue; a floor of about the face's lightness but another tint (a white
 * table's grey against an ivory die, in dim light) does not. Dark colours' hues are noise: 0.
 */
function hueGap(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const sa = a[0] + a[1] + a[2]
  const sb = b[0] + b[1] + b[2]
  if (sa < 120 || sb < 120) return 0
  return Math.hypot(a[0] / sa - b[0] / sb, a[1] / sa - b[1] / sb, a[2] / sa - b[2] / sb)
}

/** Hues further apart than this are another surface's (the chromaticity's noise on a die's face is a few thousandths). */
const HUE_EDGE = 0.04

/** The shape of the outline where rays cast at even angles stopped (their ends' second moments). */
function outlineOf(reach: number[]): Ellipse {
  let xx = 0
  let yy = 0
  let xy = 0
  reach.forEach((d, k) => {
    const angle = (k / reach.length) * 2 * Math.PI
    xx += (d * Math.cos(angle)) ** 2
    yy += (d * Math.sin(angle)) ** 2
    xy += d * d * Math.cos(angle) * Math.sin(angle)
  })
  const root = Math.sqrt(((xx - yy) / 2) ** 2 + xy * xy)
  return { ratio: Math.sqrt(Math.max(0, (xx + yy) / 2 - root) / ((xx + yy) / 2 + root)), axis: 0.5 * Math.atan2(2 * xy, xx - yy) }
}

/** Rays cast from a lone pip to its face's edge. */
const RAYS = 16

/**
 * A lone pip as a 1: one pip centred in a face-sized region of one even colour (its die's top
 * face), whose outline (where rays cast from the pip first leave that colour) is centred on the
 * pip, closed all round, of a size that fits the pip, square or squashed as much and along the
 * same axis as the pip itself (a face seen at a slant), with nothing else of a pip's size on it.
 * Specks on a floor have the floor all round (no outline), a pip of a face whose other pips were
 * missed sits off its face's centre or has them inside its outline.
 */
function loneOne(rgb: Mat, pip: Pip, spots: Pip[]): PipFace | null {
  const width = rgb.cols
  const height = rgb.rows
  const channels = rgb.channels()
  const data = rgb.data
  const colourAt = (x: number, y: number): [number, number, number] | null => {
    const xi = Math.round(x)
    const yi = Math.round(y)
    if (xi < 0 || yi < 0 || xi >= width || yi >= height) return null
    const i = (yi * width + xi) * channels
    return [data[i], data[i + 1], data[i + 2]]
  }
  const r = pip.radius
  // The face's colour: the median of each channel on a ring just around the pip.
  const ring: number[][] = [[], [], []]
  for (let k = 0; k < RAYS; k++) {
    const angle = (k / RAYS) * 2 * Math.PI
    const colour = colourAt(pip.centre[0] + Math.cos(angle) * r * 1.8, pip.centre[1] + Math.sin(angle) * r * 1.8)
    if (!colour) return null
    for (let c = 0; c < 3; c++) ring[c].push(colour[c])
  }
  const face = ring.map((values) => values.sort((a, b) => a - b)[RAYS / 2])
  const pipColour = colourAt(pip.centre[0], pip.centre[1])
  if (!pipColour) return null
  const contrast = Math.hypot(pipColour[0] - face[0], pipColour[1] - face[1], pipColour[2] - face[2])
  if (contrast < 60) return null
  const edge = Math.max(20, contrast * 0.1)
  const reach: number[] = []
  for (let k = 0; k < RAYS; k++) {
    const angle = (k / RAYS) * 2 * Math.PI
    const cos = Math.cos(angle)
    const sin = Math.sin(angle)
    let found = NaN
    let off = 0
    for (let d = r * 1.8; d <= r * 12; d += 1) {
      const colour = colourAt(pip.centre[0] + cos * d, pip.centre[1] + sin * d)
      if (!colour) return null
      if (Math.hypot(colour[0] - face[0], colour[1] - face[1], colour[2] - face[2]) > edge || hueGap(colour, face) > HUE_EDGE) {
        // Two pixels running: a single odd pixel is noise.
        if (++off === 2) {
          found = d - 1
          break
        }
      } else off = 0
    }
    if (Number.isNaN(found)) return null // no edge all round: the floor, not a face
    reach.push(found)
  }
  // A square's rays are at most √2 apart (its corners against its edges): a few much shorter
  // rays stopped at other pips (a 5's corner pips around its middle one).
  const sorted = [...reach].sort((a, b) => a - b)
  if (sorted[2] < sorted[RAYS / 2] * 0.65) return null
  const mean = reach.reduce((sum, d) => sum + d, 0) / RAYS
  // Centred: each ray about as long as the opposite one (but two pairs: a ray may run on into a
  // side face of the die's colour).
  const offCentre = reach.slice(0, RAYS / 2).map((d, k) => Math.abs(d - reach[k + RAYS / 2])).sort((a, b) => a - b)[RAYS / 2 - 3] / mean
  // The outline's shape and size. A 1's face is centred on its pip, so where a ray and the opposite
  // one differ, one of them is not the face's edge: it ran on into a side face of the die's colour
  // (the shorter one is the edge) or stopped early at a shadow's edge or a neighbouring die across
  // the face (the longer one is). The outline as the rays say, or each pair at its shorter or its
  // longer: the one shaped most like the pip is the face's.
  const shapes = [reach, reach.map((d, k) => Math.min(d, reach[(k + RAYS / 2) % RAYS])), reach.map((d, k) => Math.max(d, reach[(k + RAYS / 2) % RAYS]))].map((rays) => {
    const outline = outlineOf(rays)
    return {
      outline,
      // A square's rays reach 0.56 of its side on average (half a side to its edges, more to its corners).
      side: rays.reduce((sum, d) => sum + d, 0) / RAYS / 0.56,
      // The pip and its face squashed alike (along the same axis when both are clearly squashed: a
      // near-round shape's axis is noise).
      shapeGap: Math.abs(outline.ratio - pip.roundness),
      axesAgree: Math.max(outline.ratio, pip.roundness) >= 0.88 || axisGap(outline.axis, pip.axis) <= (25 * Math.PI) / 180
    }
  })
  const { outline, side, shapeGap, axesAgree } = shapes.reduce((best, shape) => (shape.axesAgree && (!best.axesAgree || shape.shapeGap < best.shapeGap) ? shape : best))
  const pipShare = r / side
  if (offCentre > 0.35 || pipShare < 0.05 || pipShare > 0.22 || outline.ratio < STEEPEST || shapeGap > 0.2 || !axesAgree) return null
  // Nothing else of a pip's size on the face, nor where a ray stopped (a 3's middle pip has its
  // face cut short by its neighbours, as evenly on both sides).
  for (const other of spots) {
    if (other === pip || other.radius < r * 0.4) continue
    const dx = other.centre[0] - pip.centre[0]
    const dy = other.centre[1] - pip.centre[1]
    const distance = Math.hypot(dx, dy)
    if (distance < r * 1.2) continue // the pip itself, found again
    const k = Math.round(((Math.atan2(dy, dx) + 2 * Math.PI) % (2 * Math.PI)) / ((2 * Math.PI) / RAYS)) % RAYS
    // A pip much flatter than this one is a side face's, beyond the face's edge.
    const sideFace = other.roundness < pip.roundness - 0.15
    if (distance < reach[k] + other.radius * (sideFace ? 1 : 2)) return null
  }
  const confidence = Math.min(ramp(offCentre, 0.2, 0.35), ramp(shapeGap, 0.1, 0.2), ramp(pip.roundness, 0.8, 0.6))
  return {
    value: 1,
    centre: pip.centre,
    side,
    angle: outline.axis,
    confidence,
    pips: [pip],
    roundness: pip.roundness,
    squash: 1,
    standard: true,
    tilt: outline,
    foreshortened: outline.ratio < FORESHORTENED && axesAgree
  }
}

/** The faces whose pips the grey picture shows, dark pips and light, each pip in one face at most. */
export function findPipFaces(cv: OpenCv, image: Mat, debug?: (what: string, value: unknown) => void): PipFace[] {
  const grey = new cv.Mat()
  cv.cvtColor(image, grey, cv.COLOR_RGB2GRAY)
  try {
    const faces: PipFace[] = []
    for (const dark of [true, false]) {
      const spots = pipsAtAllSizes(cv, grey, dark)
      let pips = spots.filter((spot) => spot.isPip)
      debug?.('pips', { dark, pips: spots })
      // A textured floor (a carpet, a cloth's weave) is hundreds of spots: there only the spots on
      // even ground are kept, as a die's pips are (the face around a pip is one even shade).
      if (pips.length > 400) pips = pips.filter((pip) => onEvenGround(grey, pip))
      if (pips.length > 400) continue // texture, not pips
      const candidates: Candidate[] = []
      const seen = new Set<string>()
      for (let i = 0; i < pips.length; i++) {
        const near = pips
          .map((pip, index) => ({ index, distance: Math.hypot(pip.centre[0] - pips[i].centre[0], pip.centre[1] - pips[i].centre[1]) }))
          .filter(({ index, distance }) => index !== i && distance < pips[i].radius * 16 && pips[index].radius > pips[i].radius * 0.5 && pips[index].radius < pips[i].radius * 2)
          .sort((a, b) => a.distance - b.distance)
        // The nearest pips, and the nearest of much the same size (spots of a carpet or a shadow
        // can lie nearer than a face's far pips).
        const alike = near.filter(({ index }) => pips[index].radius > pips[i].radius * 0.75 && pips[index].radius < pips[i].radius * 1.33)
        for (const list of [near, alike]) {
          for (let m = 1; m <= Math.min(5, list.length); m++) {
            const indexes = [i, ...list.slice(0, m).map((n) => n.index)].sort((a, b) => a - b)
            const key = indexes.join(',')
            if (seen.has(key)) continue
            seen.add(key)
            const face = faceOf(image, grey, pips, indexes, spots)
            if (face) candidates.push(face)
            debug?.('candidate', { indexes, face })
          }
        }
      }
      // More pips that fit is less likely by chance: larger faces first, then the better, then the
      // rounder pips (a top face's, not a side face's seen at a slant); but a face too unsure to be
      // taken (a die's top face's pips with a side face's) takes no pips from one that is.
      const takes = (face: Candidate): number => (face.confidence >= FACE_FLOOR ? 1 : 0)
      candidates.sort((a, b) => takes(b) - takes(a) || b.pips.length - a.pips.length || b.confidence - a.confidence || b.roundness - a.roundness)
      // Each pip's face: the one that took it.
      const holder = new Map<number, PipFace>()
      for (const candidate of candidates) {
        if (candidate.indexes.some((index) => holder.has(index))) continue
        const { indexes, ...face } = candidate
        for (const index of indexes) holder.set(index, face)
        faces.push(face)
      }
      // The pips left over, or taken only by a face too unsure to be taken (a 1's pip and a speck
      // beside it that lie like a 2), may each be a 1: its face's outline gives the scale its lone
      // pip cannot. A 1 found so frees its pip from the unsure face.
      const taken = faces.filter((face) => face.confidence >= FACE_FLOOR)
      for (let i = 0; i < pips.length; i++) {
        const held = holder.get(i)
        if ((held && held.confidence >= FACE_FLOOR) || pips[i].roundness < 0.6 || taken.some((face) => Math.hypot(face.centre[0] - pips[i].centre[0], face.centre[1] - pips[i].centre[1]) < face.side)) continue
        const one = loneOne(image, pips[i], spots)
        debug?.('lone', { pip: pips[i], one })
        if (!one) continue
        if (held && faces.includes(held)) faces.splice(faces.indexOf(held), 1)
        faces.push(one)
      }
    }
    return oneFacePerDie(faces)
  } finally {
    grey.delete()
  }
}

/**
 * Faces closer than a face's side are one die's top and side faces: the roundest pips are its top.
 * A "face" holding smaller faces is none: its "pips" are whole dice, seen as spots at a coarse level.
 */
function oneFacePerDie(faces: PipFace[]): PipFace[] {
  const holdsFaces = (face: PipFace): boolean =>
    faces.some((other) => {
      if (other === face || other.confidence < FACE_FLOOR || other.side > face.side * 0.5) return false
      const dx = other.centre[0] - face.centre[0]
      const dy = other.centre[1] - face.centre[1]
      const u = dx * Math.cos(face.angle) + dy * Math.sin(face.angle)
      const v = -dx * Math.sin(face.angle) + dy * Math.cos(face.angle)
      return Math.max(Math.abs(u), Math.abs(v)) < face.side / 2
    })
  const order = faces.filter((face) => !holdsFaces(face)).sort((a, b) => b.roundness - a.roundness)
  const kept: PipFace[] = []
  for (const face of order) {
    // A die's faces are of one size: a small face near a large one is another die's, or specks.
    const rival = kept.find((other) => Math.hypot(other.centre[0] - face.centre[0], other.centre[1] - face.centre[1]) < Math.max(other.side, face.side) * 0.95 && Math.min(other.side, face.side) > Math.max(other.side, face.side) * 0.5)
    if (!rival) {
      kept.push(face)
      continue
    }
    if (rival.roundness - face.roundness < 0.08) rival.doubtful = true
  }
  return kept
}

/** Faces less sure than this are not taken as faces at all (two specks of the floor make a 2). */
const FACE_FLOOR = 0.5
/** A die only the pips found is said to be there from this confidence (below it: specks that happen to fit). */
const NEW_DIE_FLOOR = 0.6
/** A face seen at a slant has its pips squashed along the picture's columns, within this (radians). */
const SLANT_AXIS = (25 * Math.PI) / 180
/** 'ask, do not guess': the confidence of a die the two paths read differently. */
const DISAGREED = 0.5

/**
 * The blob path's dice with the pip-first faces. Each face goes to the die whose box holds it
 * (the nearest box's centre when boxes overlap).
 * - A die the blob path left unsure or unread takes its face's reading; several faces in its box
 *   are that many dice. A face in no box is a die the blob path missed (inside the tray only).
 * - A sure die changes only for a sure, trusted face (below): one that agrees keeps it sure, one
 *   that disagrees puts it to the keypad (the blob path's value shown). A sure 1 takes the reading
 *   of any face of several pips in its box (a single pip is what the blob path sees when its
 *   circle holds only the middle pip of a large face), unsure when the face is.
 * - Where the blob path read nothing surely, the pips make a die sure only with round pips in a
 *   square layout (`alone`).
 * - A sure die with no face of its own inside another's box of its value is that die seen twice;
 *   unread "dice" inside a sure face are its pips. Both go.
 * - Dice left unread for where they are (outside the tray, on its edge) stay so, and so do dice
 *   left unread as cocked, unless (in a picture not made flat, where the blob path's measure of
 *   squash is thrown by the view) their face lies flat.
 * - In a picture made flat (see `flat`) the pips neither make a die sure nor unsure: they only
 *   give a die the blob path could not read their value below the sure mark, for the keypad.
 */
export function withPipFaces(
  reading: FrameReading,
  findFaces: () => PipFace[],
  view: { toFrame: (p: Point) => Point; tray: Point[] | null; trayInFrame: Point[] | null },
  frame: { width: number; height: number }
): FrameReading {
  // A picture made flat (a four-cornered tray) is the blob path's own ground: there every flat
  // top face is a square of one size with round pips. A face that is not (a cocked die's, whose
  // 6 can pass for another maker's 6) is not trusted there. A "tray" found with three corners or
  // more on the picture's edge is a floor wider than the picture (a photo with no tray).
  const margin = Math.min(frame.width, frame.height) * 0.01
  const onEdge = (view.trayInFrame ?? []).filter(([x, y]) => x < margin || y < margin || x > frame.width - margin || y > frame.height - margin).length
  const flat = view.tray !== null && view.tray.length === 4 && onEdge < 3
  const sure = (die: DieReading): boolean => die.value !== null && die.confidence >= CONFIDENT
  // There the pips would change nothing the blob path read surely: when it read every die so,
  // they are not looked for (the time of a frame's read).
  if (flat && reading.dice.length > 0 && reading.dice.every(sure)) return reading
  const placed = findFaces().filter((face) => face.confidence >= FACE_FLOOR).map((face) => ({ face, centre: view.toFrame(face.centre), box: faceBox(face, view.toFrame) }))
  const lying = (face: PipFace): boolean => face.roundness >= 0.92 && face.squash >= 0.93
  // Where the blob path read nothing surely, the pips alone make a die sure only with round pips
  // in a square layout: a cocked die's face, or a carpet's specks, are oval or skewed.
  // Or seen at a slant (no tray made the picture flat: a webcam or a phone held at an angle): a
  // flat top face is foreshortened towards the camera's foot, below the picture for a camera tipped
  // down, so along the picture's columns, and every die's top face about as much. A face so
  // foreshortened (its layout square in its own frame), alike with every other sure face, is taken
  // as lying flat; a cocked die's face seen from above is squashed along any axis, unlike its
  // neighbours'. A lone die so seen is taken on the view alone (a cocked die leaning towards or
  // away from the camera looks the same: Limits in docs/camera.md).
  const alike = (a: Ellipse, b: Ellipse): boolean => Math.abs(a.ratio - b.ratio) <= 0.1 && (Math.min(a.ratio, b.ratio) >= FORESHORTENED || axisGap(a.axis, b.axis) <= SLANT_AXIS)
  const seenAtSlant = (face: PipFace): boolean =>
    !flat && face.foreshortened && !face.doubtful && axisGap(face.tilt.axis, 0) <= SLANT_AXIS && placed.every((other) => other.face === face || other.face.confidence < CONFIDENT || alike(other.face.tilt, face.tilt))
  const sizes = placed.filter((entry) => entry.face.confidence >= CONFIDENT && entry.face.standard).map((entry) => entry.face.side).sort((a, b) => a - b)
  const size = sizes.length >= 2 ? sizes[Math.floor(sizes.length / 2)] : NaN
  // A lone 1 shows no layout to be squashed: one whose face is much smaller than the other dice's
  // is seen foreshortened, a cocked die's (dice of two sizes in one throw would have their small
  // 1s asked).
  const fullSize = (face: PipFace): boolean => face.value !== 1 || Number.isNaN(size) || face.side >= size * 0.8
  const alone = (face: PipFace): boolean => fullSize(face) && ((face.roundness >= 0.85 && face.squash >= 0.85) || seenAtSlant(face))
  const trusted = (face: PipFace): boolean => !flat || (lying(face) && face.standard && (Number.isNaN(size) || Math.abs(face.side / size - 1) < 0.12))
  const inside = (box: Box, [x, y]: Point): boolean => x >= box[0] && y >= box[1] && x <= box[0] + box[2] && y <= box[1] + box[3]
  const boxCentreDistance = (box: Box, [x, y]: Point): number => Math.hypot(box[0] + box[2] / 2 - x, box[1] + box[3] / 2 - y)
  const owner = placed.map((entry) => {
    let best = -1
    reading.dice.forEach((die, index) => {
      if (inside(die.box, entry.centre) && (best < 0 || boxCentreDistance(die.box, entry.centre) < boxCentreDistance(reading.dice[best].box, entry.centre))) best = index
    })
    return best
  })
  const dieOf = (entry: (typeof placed)[number]): DieReading => ({
    value: entry.face.value,
    confidence: round3(entry.face.doubtful || !trusted(entry.face) || !alone(entry.face) ? Math.min(entry.face.confidence, DISAGREED) : entry.face.confidence),
    box: entry.box
  })
  const fragmentOf = (die: DieReading, entry: (typeof placed)[number]): boolean => !flat && die.box[2] < entry.box[2] * 0.6 && die.box[3] < entry.box[3] * 0.6
  const dice: DieReading[] = []
  reading.dice.forEach((die, index) => {
    const mine = placed.filter((_, k) => owner[k] === index)
    // In a picture made flat the blob path's sure reading stands, whatever the pips say.
    if (flat && sure(die)) {
      dice.push(die)
      return
    }
    const cocked = die.unreadable === 'cocked' && (flat || !(mine.length === 1 && mine[0].face.confidence >= CONFIDENT && (lying(mine[0].face) || seenAtSlant(mine[0].face))))
    const kept = die.unreadable === 'outside the tray' || die.unreadable === 'on the tray edge' || cocked
    if (mine.length === 0 || kept) {
      const twice = sure(die) && placed.some((entry, k) => owner[k] !== index && owner[k] >= 0 && entry.face.value === die.value && inside(die.box, entry.centre))
      if (!twice) dice.push(die)
      return
    }
    if (mine.length > 1) {
      if (sure(die) && mine.some((entry) => !trusted(entry.face))) dice.push(die)
      else dice.push(...mine.map((entry) => (flat ? { ...dieOf(entry), confidence: Math.min(entry.face.confidence, DISAGREED) } : dieOf(entry))))
      return
    }
    const face = dieOf(mine[0])
    // In a picture made flat a die the blob path did not read surely may be cocked so that its
    // top face still looks square (it leans on another die): the pips give their value, unsure.
    // A lone pip's 1 where the blob path saw another value is asked (pips of a 2 or 3 missed).
    const otherThanOne = face.value === 1 && die.value !== null && die.value !== 1
    if (!sure(die)) dice.push({ ...face, box: die.box, confidence: flat || otherThanOne ? Math.min(face.confidence, DISAGREED) : face.confidence })
    // A sure 1 holding a face of several pips (a face of the die's size: not specks of a carpet
    // beside it) takes the face's reading, sure or not (then asked); so does, in a picture not
    // made flat, a sure die much smaller than the face it holds (a piece of that face, two of a
    // 6's pips seen as a 2).
    else if ((die.value === 1 || fragmentOf(die, mine[0])) && face.value !== die.value && mine[0].box[2] >= die.box[2] * 0.5) dice.push({ ...face, box: die.box, confidence: flat ? Math.min(face.confidence, DISAGREED) : face.confidence })
    else if (!trusted(mine[0].face) || face.confidence < CONFIDENT) dice.push(die)
    else if (die.value === face.value) dice.push({ ...die, confidence: Math.max(face.confidence, die.confidence) })
    // A sure face of more pips than the blob path read, all of them on the die, is what its circle
    // saw part of (a face whose top the blob's smear put off its centre): pips are not invented.
    else if (die.value !== null && face.value !== null && face.value > die.value && mine[0].face.pips.every((pip) => inside(die.box, view.toFrame(pip.centre)))) dice.push({ ...face, box: die.box })
    else dice.push({ ...die, confidence: DISAGREED })
  })
  placed.forEach((entry, k) => {
    if (owner[k] >= 0 || entry.face.confidence < NEW_DIE_FLOOR || (view.tray !== null && !insidePolygon(entry.face.centre, view.tray))) return
    // In a picture made flat the blob path sees every die that lies flat: one it did not see at all
    // is likely cocked against another, and is asked.
    const die = dieOf(entry)
    dice.push(flat ? { ...die, confidence: Math.min(die.confidence, DISAGREED) } : die)
  })
  // An unread "die" much smaller than a sure face and inside it is one of its pips (a large die's
  // pips are as large as small dice).
  const pipOfFace = (die: DieReading): boolean =>
    die.value === null && placed.some((entry) => entry.face.confidence >= CONFIDENT && trusted(entry.face) && die.box[2] < entry.box[2] / 2 && inside(entry.box, [die.box[0] + die.box[2] / 2, die.box[1] + die.box[3] / 2]))
  return { ...reading, dice: dice.filter((die) => !pipOfFace(die)) }
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000

function faceBox(face: PipFace, toFrame: (p: Point) => Point): Box {
  const half = face.side / 2
  const corners = [
    [-half, -half],
    [half, -half],
    [half, half],
    [-half, half]
  ].map(([u, v]) => toFrame([face.centre[0] + u * Math.cos(face.angle) - v * Math.sin(face.angle), face.centre[1] + u * Math.sin(face.angle) + v * Math.cos(face.angle)]))
  const xs = corners.map((c) => c[0])
  const ys = corners.map((c) => c[1])
  const x = Math.round(Math.min(...xs))
  const y = Math.round(Math.min(...ys))
  return [x, y, Math.round(Math.max(...xs)) - x, Math.round(Math.max(...ys)) - y]
}
