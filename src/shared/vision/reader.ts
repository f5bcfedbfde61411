// Reads the dice in one frame: the tray made flat (rectified), each die found, its top face
// located, its pips found and checked against the six layouts. ThrowReader (throw-reader.ts)
// adds stillness and the vote over frames; readDiceFrame is one frame.
//
// How a die is found, and why (the project's own geometry; OpenCV does the pixel work):
// - The tray's floor is made a flat rectangle with its homography. The dice's top faces lie in a
//   plane parallel to the floor, which that same homography maps to a rectangle too, scaled and
//   shifted (H0⁻¹·Hh = I + v·e3ᵀ, a similarity): so in the rectified picture every flat top face
//   is a square of one size, whatever the camera's tilt, and its pips form a layout up to a
//   similarity, which fitLayout checks.
// - A die's side faces show as a smear from its top face towards the camera's foot (where
//   straight down from the camera meets the floor: trayView's nadir, carried into the rectified
//   picture). So the top face is the end of the die's blob farthest from the foot, and its
//   extent along that direction equals its width across it (a square's extents along any two
//   perpendicular directions are equal).
// - The pips are looked for inside the face's inscribed circle (radius just under half a side):
//   it holds every pip whatever the face's turn, and no pip of a side face.
// - The die's footprint (the blob's near end) decides whether it is in the tray.
import { applyHomography, circleInside, insidePolygon, invert3, multiply3, scalePolygon, trayView, type Matrix3 } from './geometry'
import { fitLayout } from './layout'
import type { OpenCv } from './opencv'
import { CONFIDENT, type Box, type DieReading, type FrameReading, type Point, type RgbaFrame, type TrayCalibration, type UnreadableReason } from './types'
import { findTray } from './tray'
import { findPipFaces, withPipFaces } from './pips'
import type { ReadMemory } from './read-memory'
import { warpToWork } from './warp'
import { openThenCloseWithDiscs } from './binary-morphology'
import { isShadow } from './floor-shadow'
import { median } from './median'

type Mat = InstanceType<OpenCv['Mat']>

export interface ReadOptions {
  /** The calibrated tray, 'auto' to look for it in the frame (the default), or 'none' to read the whole frame. */
  tray?: TrayCalibration | 'auto' | 'none'
  /** What the reader saw, for a person tuning it (not needed to read). */
  debug?: (what: string, value: unknown) => void
  /** What the still frames of one throw share (read-memory.ts: the tray found, the floor's colour, the warp maps), kept by ThrowReader. */
  memory?: ReadMemory
}

/** The longest side of the picture the reader works on, in pixels: enough for pips of 8 px or more on a 1280×720 webcam frame. */
const WORK_SIZE = 1000

interface WorkView {
  image: Mat
  /** Work pixels → frame pixels. */
  toFrame: (p: Point) => Point
  tray: Point[] | null
  trayInFrame: Point[] | null
  foot: Point
  /**
   * The picture is made flat by a tray's four corners, not three or more of them on the picture's
   * edge (a floor wider than the picture): the camera's foot is then known, not guessed.
   */
  flat: boolean
}

export function frameToMat(cv: OpenCv, frame: RgbaFrame): Mat {
  if (frame.data.length !== frame.width * frame.height * 4) throw new Error(`a frame of ${frame.width}×${frame.height} needs ${frame.width * frame.height * 4} bytes, not ${frame.data.length}`)
  const rgba = new cv.Mat(frame.height, frame.width, cv.CV_8UC4)
  rgba.data.set(frame.data)
  const rgb = new cv.Mat()
  cv.cvtColor(rgba, rgb, cv.COLOR_RGBA2RGB)
  rgba.delete()
  return rgb
}

/** How far a tray found in the picture (not calibrated) is widened on each side, as a share of its size, to say whether a die is in it. */
const FOUND_TRAY_WIDENING = 0.03

/** The tray's homography: the unit square's corners onto the polygon's (frame pixels). */
function unitToPolygon(cv: OpenCv, polygon: Point[]): Matrix3 {
  const src = cv.matFromArray(4, 1, cv.CV_32FC2, [0, 0, 1, 0, 1, 1, 0, 1])
  const dst = cv.matFromArray(4, 1, cv.CV_32FC2, polygon.flat())
  const m = cv.getPerspectiveTransform(src, dst)
  const unitToImage = Array.from(m.data64F)
  src.delete()
  dst.delete()
  m.delete()
  return unitToImage
}

/** The picture as the reader works on it: the tray flattened when there is one, else the whole picture at the work size. */
function workView(cv: OpenCv, rgb: Mat, polygon: Point[] | null, memory?: ReadMemory): WorkView {
  const width = rgb.cols
  const height = rgb.rows
  if (polygon && polygon.length === 4) {
    const unitToImage = unitToPolygon(cv, polygon)
    const view = trayView(unitToImage, width, height)
    const margin = 0.1
    const edge = (a: Point, b: Point): number => Math.hypot(a[0] - b[0], a[1] - b[1])
    const across = Math.max(edge(polygon[0], polygon[1]), edge(polygon[3], polygon[2]))
    // A large picture's tray is reduced to the work size, and a small picture's (a tray less than
    // 0.6 of it across: a 640×480 photo) enlarged to it, so that its pips are large enough to find.
    let trayWidth = across < WORK_SIZE * 0.6 ? WORK_SIZE / (1 + 2 * margin) : Math.min(across, WORK_SIZE / (1 + 2 * margin))
    let trayDepth = trayWidth / view.aspect
    if (trayDepth * (1 + 2 * margin) > WORK_SIZE) {
      trayDepth = WORK_SIZE / (1 + 2 * margin)
      trayWidth = trayDepth * view.aspect
    }
    const m0 = margin * Math.max(trayWidth, trayDepth)
    const workToUnit: Matrix3 = [1 / trayWidth, 0, -m0 / trayWidth, 0, 1 / trayDepth, -m0 / trayDepth, 0, 0, 1]
    const workToImage = multiply3(unitToImage, workToUnit)
    const image = warpToWork(cv, rgb, workToImage, Math.round(trayWidth + 2 * m0), Math.round(trayDepth + 2 * m0), memory)
    const imageToWork = invert3(workToImage)
    const tray: Point[] = [
      [m0, m0],
      [m0 + trayWidth, m0],
      [m0 + trayWidth, m0 + trayDepth],
      [m0, m0 + trayDepth]
    ]
    const nearEdge = Math.min(width, height) * 0.01
    const onEdge = polygon.filter(([x, y]) => x < nearEdge || y < nearEdge || x > width - nearEdge || y > height - nearEdge).length
    return { image, toFrame: (p) => applyHomography(workToImage, p), tray, trayInFrame: polygon, foot: applyHomography(imageToWork, view.nadir), flat: onEdge < 3 }
  }
  // The whole picture at the work size: reduced, or enlarged when it is small (as the tray above).
  const longest = Math.max(width, height)
  const scale = longest < WORK_SIZE * 0.8 ? WORK_SIZE / longest : Math.min(1, WORK_SIZE / longest)
  const image = new cv.Mat()
  if (scale === 1) rgb.copyTo(image)
  else cv.resize(rgb, image, new cv.Size(Math.round(width * scale), Math.round(height * scale)), 0, 0, scale < 1 ? cv.INTER_AREA : cv.INTER_LINEAR)
  return {
    image,
    toFrame: ([x, y]) => [x / scale, y / scale],
    tray: polygon ? polygon.map(([x, y]) => [x * scale, y * scale] as Point) : null,
    trayInFrame: polygon,
    foot: [(width * scale) / 2, (height * scale) / 2],
    flat: false
  }
}

/** The median of byte values, by counting (no sort). */
function median8(values: number[]): number {
  const counts = new Uint32Array(256)
  for (const value of values) counts[value]++
  let seen = 0
  for (let v = 0; v < 256; v++) {
    seen += counts[v]
    if (seen * 2 > values.length) return v
  }
  return 0
}

/** The value below which half the total lies (each value weighs itself). */
function weightedMedian(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const half = sorted.reduce((sum, value) => sum + value, 0) / 2
  let seen = 0
  for (const value of sorted) {
    seen += value
    if (seen >= half) return value
  }
  return NaN
}

function percentile(sorted: Float32Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]
}

const clamp01 = (x: number): number => Math.max(0, Math.min(1, x))

/** The tray floor's colour around each pixel: a median over a window larger than a few dice. */
function backgroundOf(cv: OpenCv, lab: Mat): Mat {
  const width = lab.cols
  const height = lab.rows
  const small = new cv.Mat()
  cv.resize(lab, small, new cv.Size(Math.round(width / 6), Math.round(height / 6)), 0, 0, cv.INTER_AREA)
  let k = Math.round((Math.min(width, height) / 6) * 0.2)
  if (k % 2 === 0) k++
  const smallBackground = new cv.Mat()
  cv.medianBlur(small, smallBackground, Math.max(7, k))
  const background = new cv.Mat()
  cv.resize(smallBackground, background, new cv.Size(width, height), 0, 0, cv.INTER_LINEAR)
  small.delete()
  smallBackground.delete()
  return background
}

/** A mask of the pixels inside (or, with `outside`, outside) the polygon. */
function polygonMask(cv: OpenCv, width: number, height: number, polygon: Point[], outside: boolean): Mat {
  const mask = new cv.Mat(height, width, cv.CV_8UC1, new cv.Scalar(outside ? 255 : 0))
  const points = cv.matFromArray(polygon.length, 1, cv.CV_32SC2, polygon.flatMap(([x, y]) => [Math.round(x), Math.round(y)]))
  const list = new cv.MatVector()
  list.push_back(points)
  cv.fillPoly(mask, list, new cv.Scalar(outside ? 0 : 255))
  list.delete()
  points.delete()
  return mask
}

/** The darkest a grey die on a tinted floor is taken for one, as (L* + 16) over the floor's: a photo's shadows lose their tint below. */
const GREY_DIE_DARKEST = 0.7

/**
 * A grey pixel (chroma under 2.5) on a floor with a tint (chroma 5.5 or more): a black or grey die
 * on tinted felt, as light as the floor or as dark as its shadow, whose shadow keeps the floor's
 * tint. Not in a deep shadow (under half the floor's L* + 16, as isShadow): there a photo's colour
 * is lost, and the shadow is grey.
 */
function greyOnTint(l: number, a: number, b: number, floorL: number, floorA: number, floorB: number): boolean {
  return a * a + b * b < 2.5 * 2.5 && floorA * floorA + floorB * floorB >= 5.5 * 5.5 && (l / 2.55 + 16) / (floorL / 2.55 + 16) >= GREY_DIE_DARKEST
}

/**
 * The pixels that differ from the floor around them: the dice and their pips. Inside the tray the
 * floor around a pixel is the median over a window with everything outside the tray painted the
 * floor's overall colour (so the rim does not leak into the tray's corners); outside, the plain median.
 */
function foregroundMask(cv: OpenCv, lab: Mat, tray: Point[] | null, memory?: ReadMemory): { inside: Mat; outside: Mat | null } {
  const width = lab.cols
  const height = lab.rows
  const floorModel = (): FloorModel => {
    if (!tray) return { background: backgroundOf(cv, lab), inTray: null, plainBackground: null }
    const inTray = polygonMask(cv, width, height, tray, false)
    // Mat.data makes a new view on each read: read it once per loop.
    const inTrayData = inTray.data
    const labData = lab.data
    const samples: number[][] = [[], [], []]
    for (let i = 0; i < width * height; i += 7) {
      if (!inTrayData[i]) continue
      for (let c = 0; c < 3; c++) samples[c].push(labData[i * 3 + c])
    }
    const floor = samples.map(median8)
    // A copy made with copyTo: this OpenCV build's Mat.clone() shares the pixels, so painting a
    // clone would paint the picture itself and hide every die outside the tray.
    const painted = new cv.Mat()
    lab.copyTo(painted)
    const outsideTray = polygonMask(cv, width, height, tray, true)
    painted.setTo(new cv.Scalar(floor[0], floor[1], floor[2]), outsideTray)
    outsideTray.delete()
    const background = backgroundOf(cv, painted)
    painted.delete()
    return { background, inTray, plainBackground: backgroundOf(cv, lab) }
  }
  // The floor is the same in every still frame of a throw: its model is made once (read-memory.ts).
  const model = memory ? memory.ofScene(`floor ${width}×${height} ${JSON.stringify(tray)}`, floorModel, deleteFloorModel) : floorModel()
  const { background, inTray, plainBackground } = model
  const differs = (back: Mat, keep: (i: number) => boolean): Mat => {
    const mask = new cv.Mat(height, width, cv.CV_8UC1)
    const pixels = lab.data
    const b = back.data
    const out = mask.data
    for (let i = 0, j = 0; i < out.length; i++, j += 3) {
      if (!keep(i)) {
        out[i] = 0
        continue
      }
      const dl = pixels[j] - b[j]
      if (dl < 0 && isShadow(pixels[j], pixels[j + 1] - 128, pixels[j + 2] - 128, b[j], b[j + 1] - 128, b[j + 2] - 128)) {
        out[i] = 0
        continue
      }
      // Darker than the floor counts less: a die's shadow is the floor, darker.
      const l = dl < 0 ? dl * 0.55 : dl
      const da = (pixels[j + 1] - b[j + 1]) * 1.6
      const db = (pixels[j + 2] - b[j + 2]) * 1.6
      out[i] = l * l + da * da + db * db > 30 * 30 || greyOnTint(pixels[j], pixels[j + 1] - 128, pixels[j + 2] - 128, b[j], b[j + 1] - 128, b[j + 2] - 128) ? 255 : 0
    }
    cleanMask(cv, mask)
    return mask
  }
  const inTrayData = inTray?.data
  const inside = differs(background, inTrayData ? (i) => inTrayData[i] !== 0 : () => true)
  let outside: Mat | null = null
  if (tray && inTray && plainBackground) {
    // Outside: away from the rim (a band of a tenth of the picture's short side round the tray).
    const band = Math.min(width, height) * 0.1
    const cx = tray.reduce((sum, p) => sum + p[0], 0) / tray.length
    const cy = tray.reduce((sum, p) => sum + p[1], 0) / tray.length
    const grown = tray.map(([x, y]) => {
      const d = Math.hypot(x - cx, y - cy)
      return [cx + ((x - cx) * (d + band * 1.42)) / d, cy + ((y - cy) * (d + band * 1.42)) / d] as Point
    })
    const near = polygonMask(cv, width, height, grown, false)
    const nearData = near.data
    outside = differs(plainBackground, (i) => nearData[i] === 0)
    near.delete()
  }
  if (!memory) deleteFloorModel(model)
  return { inside, outside }
}

/** The floor's colour around each pixel (inside the tray, and plain for outside it) and the tray's mask. */
interface FloorModel {
  background: Mat
  inTray: Mat | null
  plainBackground: Mat | null
}

function deleteFloorModel(model: FloorModel): void {
  model.background.delete()
  model.inTray?.delete()
  model.plainBackground?.delete()
}

function cleanMask(cv: OpenCv, mask: Mat): void {
  // Open with the 3×3 disc, close with the 5×5 disc: cv.morphologyEx's pixels, in under half its time (binary-morphology.ts).
  openThenCloseWithDiscs(mask.data, mask.cols, mask.rows)
  // Fill each blob's holes (pips the colour of the floor), those no larger than a die: a ring
  // (a tray's rim or wall, read whole or taken in by a tray found a little wide) keeps the floor
  // it encloses.
  const contours = new cv.MatVector()
  const hierarchy = new cv.Mat()
  cv.findContours(mask, contours, hierarchy, cv.RETR_CCOMP, cv.CHAIN_APPROX_SIMPLE)
  const links = hierarchy.data32S
  const largestHole = (Math.min(mask.cols, mask.rows) * 0.3) ** 2
  for (let i = 0; i < contours.size(); i++) {
    if (links[i * 4 + 3] < 0) continue
    const hole = contours.get(i)
    if (cv.contourArea(hole) <= largestHole) cv.drawContours(mask, contours, i, new cv.Scalar(255), -1)
    hole.delete()
  }
  contours.delete()
  hierarchy.delete()
}

interface Blob {
  xs: Int32Array
  ys: Int32Array
  area: number
}

function blobsOf(cv: OpenCv, mask: Mat): Blob[] {
  const labels = new cv.Mat()
  const stats = new cv.Mat()
  const centroids = new cv.Mat()
  const count = cv.connectedComponentsWithStats(mask, labels, stats, centroids, 8, cv.CV_32S)
  const areas = stats.data32S
  const blobs: Blob[] = []
  const fill: number[] = []
  for (let label = 0; label < count; label++) {
    const area = label === 0 ? 0 : areas[label * 5 + 4]
    blobs.push({ xs: new Int32Array(area), ys: new Int32Array(area), area })
    fill.push(0)
  }
  const data = labels.data32S
  const width = mask.cols
  for (let i = 0; i < data.length; i++) {
    const label = data[i]
    if (label === 0) continue
    const blob = blobs[label]
    blob.xs[fill[label]] = i % width
    blob.ys[fill[label]++] = Math.floor(i / width)
  }
  labels.delete()
  stats.delete()
  centroids.delete()
  return blobs.slice(1)
}

const SPLIT_SEED = 0x5eed

/** Splits a blob that holds `k` touching dice into k blobs (k-means on the pixels' positions). */
function splitBlob(cv: OpenCv, blob: Blob, k: number): Blob[] {
  const points = new cv.Mat(blob.area, 2, cv.CV_32F)
  const data = points.data32F
  for (let i = 0; i < blob.area; i++) {
    data[2 * i] = blob.xs[i]
    data[2 * i + 1] = blob.ys[i]
  }
  const labels = new cv.Mat()
  const centres = new cv.Mat()
  const criteria = new cv.TermCriteria(cv.TermCriteria_EPS + cv.TermCriteria_MAX_ITER, 20, 0.5)
  // k-means draws its first centres from OpenCV's one random generator, shared by the whole
  // process: unseeded, a photo's split (and so its reading) would depend on the photos read before.
  cv.setRNGSeed(SPLIT_SEED)
  // KMEANS_PP_CENTERS is in the build, not in its typings.
  cv.kmeans(points, k, labels, criteria, 3, (cv as unknown as { KMEANS_PP_CENTERS: number }).KMEANS_PP_CENTERS, centres)
  const parts: Array<{ xs: number[]; ys: number[] }> = Array.from({ length: k }, () => ({ xs: [], ys: [] }))
  const label = labels.data32S
  for (let i = 0; i < blob.area; i++) {
    parts[label[i]].xs.push(blob.xs[i])
    parts[label[i]].ys.push(blob.ys[i])
  }
  points.delete()
  labels.delete()
  centres.delete()
  return parts.map((part) => ({ xs: Int32Array.from(part.xs), ys: Int32Array.from(part.ys), area: part.xs.length }))
}

/**
 * Splits a blob of touching dice along the edges between them: dice have rounded edges, so two
 * dice side by side show a dark groove (or, of two colours, a colour edge) where they meet, while
 * each top face is one even colour. The blob less its edges (Canny on the Lab picture, widened a
 * pixel) falls apart into the faces, the pips' insides and slivers; the parts large enough and
 * square enough to be a top face (at least `minFace` pixels) seed a watershed on the picture, which
 * gives every pixel of the blob (side faces, edges) to one of them. Null when fewer than two faces
 * show: the blob is one die, or its dice meet without a visible edge.
 */
function splitByEdges(cv: OpenCv, image: Mat, lab: Mat, blob: Blob, minFace: number): Blob[] | null {
  const { x0, y0, w, h } = paddedBounds(blob, 4, lab)
  const rect = new cv.Rect(x0, y0, w, h)
  const labCrop = lab.roi(rect)
  const imageCrop = image.roi(rect)
  const edges = new cv.Mat()
  const blurred = new cv.Mat()
  cv.GaussianBlur(labCrop, blurred, new cv.Size(3, 3), 0)
  cv.Canny(blurred, edges, EDGE_LOW, EDGE_HIGH, 3, true)
  blurred.delete()
  const kernel = cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(3, 3))
  cv.dilate(edges, edges, kernel)
  const inBlob = new cv.Mat(h, w, cv.CV_8UC1, new cv.Scalar(0))
  const inBlobData = inBlob.data
  for (let i = 0; i < blob.area; i++) inBlobData[(blob.ys[i] - y0) * w + blob.xs[i] - x0] = 255
  const core = new cv.Mat()
  cv.erode(inBlob, core, kernel)
  kernel.delete()
  const coreData = core.data
  const edgeData = edges.data
  for (let i = 0; i < coreData.length; i++) if (edgeData[i]) coreData[i] = 0
  const labels = new cv.Mat()
  const stats = new cv.Mat()
  const centroids = new cv.Mat()
  const count = cv.connectedComponentsWithStats(core, labels, stats, centroids, 4, cv.CV_32S)
  const statsData = stats.data32S
  const seedOf = new Int32Array(count)
  let seeds = 0
  for (let label = 1; label < count; label++) {
    const [, , bw, bh, area] = statsData.slice(label * 5, label * 5 + 5)
    // A face: large, not a sliver, and filling much of its box (a square turned 45° fills half, less its pips).
    if (area < minFace || Math.min(bw, bh) < Math.sqrt(minFace) * 0.6 || area / (bw * bh) < 0.25) continue
    seedOf[label] = ++seeds
  }
  let parts: Blob[] | null = null
  if (seeds >= 2) {
    // Markers: each face its number, the picture outside the blob one more (so no face spreads onto the floor).
    const markers = new cv.Mat(h, w, cv.CV_32SC1, new cv.Scalar(0))
    const markerData = markers.data32S
    const labelData = labels.data32S
    for (let i = 0; i < markerData.length; i++) markerData[i] = !inBlobData[i] ? seeds + 1 : seedOf[labelData[i]]
    const rgb = imageCrop.clone()
    cv.watershed(rgb, markers)
    rgb.delete()
    const filled = markers.data32S
    const members: Array<{ xs: number[]; ys: number[] }> = Array.from({ length: seeds }, () => ({ xs: [], ys: [] }))
    for (let i = 0; i < blob.area; i++) {
      const label = filled[(blob.ys[i] - y0) * w + blob.xs[i] - x0]
      if (label < 1 || label > seeds) continue
      members[label - 1].xs.push(blob.xs[i])
      members[label - 1].ys.push(blob.ys[i])
    }
    markers.delete()
    parts = members.filter((part) => part.xs.length > 0).map((part) => ({ xs: Int32Array.from(part.xs), ys: Int32Array.from(part.ys), area: part.xs.length }))
  }
  labCrop.delete()
  imageCrop.delete()
  edges.delete()
  inBlob.delete()
  core.delete()
  labels.delete()
  stats.delete()
  centroids.delete()
  return parts
}

/** Canny's thresholds for the edges between touching dice (on the Lab picture, 3×3 Sobel, L2 gradient). */
const EDGE_LOW = 25
const EDGE_HIGH = 60

interface DieShape {
  blob: Blob
  /** Unit vector from the camera's foot towards the die. */
  u: Point
  faceCentre: Point
  footprint: Point
  across: number
  /** The blob's extent along u (top face and smear). */
  along: number
  smear: number
  side: number
  /** The blob's thickness over its length (from its second moments): 1 for a square, 1/3 for three dice in a row. */
  roundness: number
  /** The blob's thickness across its length, as a filled rectangle's (√(12·smallest variance)). */
  thickness: number
  touchesBorder: boolean
  /** A part of a split much larger than the others: likely two dice one of which gave no face to split by. */
  oversized?: boolean
  /** The blob this part was split from, when it was. */
  splitFrom?: Blob
}

function shapeOf(blob: Blob, foot: Point, width: number, height: number): DieShape {
  let cx = 0
  let cy = 0
  for (let i = 0; i < blob.area; i++) {
    cx += blob.xs[i]
    cy += blob.ys[i]
  }
  cx /= blob.area
  cy /= blob.area
  const dx = cx - foot[0]
  const dy = cy - foot[1]
  const distance = Math.hypot(dx, dy)
  const u: Point = distance < 1 ? [0, 1] : [dx / distance, dy / distance]
  const along = new Float32Array(blob.area)
  const across = new Float32Array(blob.area)
  let touchesBorder = false
  let sxx = 0
  let syy = 0
  let sxy = 0
  for (let i = 0; i < blob.area; i++) {
    const x = blob.xs[i] - cx
    const y = blob.ys[i] - cy
    sxx += x * x
    syy += y * y
    sxy += x * y
    along[i] = x * u[0] + y * u[1]
    across[i] = -x * u[1] + y * u[0]
    if (blob.xs[i] === 0 || blob.ys[i] === 0 || blob.xs[i] === width - 1 || blob.ys[i] === height - 1) touchesBorder = true
  }
  along.sort()
  across.sort()
  const lo = percentile(across, 0.01)
  const hi = percentile(across, 0.99)
  const near = percentile(along, 0.01)
  const far = percentile(along, 0.99)
  const width_ = hi - lo
  const smear = Math.max(0, far - near - width_)
  const mid = (lo + hi) / 2
  const spread = Math.sqrt((sxx - syy) ** 2 + 4 * sxy * sxy)
  const roundness = Math.sqrt(Math.max(0, sxx + syy - spread) / Math.max(1e-9, sxx + syy + spread))
  const at = (a: number): Point => [cx + a * u[0] - mid * u[1], cy + a * u[1] + mid * u[0]]
  return {
    blob,
    u,
    faceCentre: at(far - width_ / 2),
    footprint: at(near + width_ / 2),
    across: width_,
    along: far - near,
    smear,
    side: Math.sqrt(Math.max(blob.area - smear * width_, blob.area * 0.4)),
    roundness,
    thickness: Math.sqrt((12 * Math.max(0, sxx + syy - spread)) / 2 / blob.area),
    touchesBorder
  }
}

interface FaceRead {
  value: DieReading['value']
  confidence: number
  unreadable?: UnreadableReason
  detail: Record<string, number>
  /** The fitted layout's centre and face side in work pixels, when the pips fitted one. */
  fitted?: { centre: Point; side: number; error: number }
}

/** For a person tuning the reader: sees each face's pip mask (set by a scratch script, never by the app). */
export let faceProbe: ((face: { centre: Point; side: number; threshold: number; size: number; distance: Uint8Array; mask: Uint8Array }) => void) | null = null
export function setFaceProbe(probe: typeof faceProbe): void {
  faceProbe = probe
}

/** Otsu's threshold over values 0..255 (OpenCV's own needs an image; these are a disc's pixels). */
function otsu(values: Uint8Array): number {
  const histogram = new Float64Array(256)
  for (const value of values) histogram[value]++
  const total = values.length
  let sum = 0
  for (let i = 0; i < 256; i++) sum += i * histogram[i]
  let sumBelow = 0
  let countBelow = 0
  let best = 0
  let threshold = 0
  for (let t = 0; t < 256; t++) {
    countBelow += histogram[t]
    if (countBelow === 0) continue
    const countAbove = total - countBelow
    if (countAbove === 0) break
    sumBelow += t * histogram[t]
    const meanBelow = sumBelow / countBelow
    const meanAbove = (sum - sumBelow) / countAbove
    const between = countBelow * countAbove * (meanBelow - meanAbove) ** 2
    if (between > best) {
      best = between
      threshold = t
    }
  }
  return threshold
}

/**
 * Reads the face of side `side` centred on `centre`. `expected` is where the die's blob puts the
 * face's centre: pips centred far from it are a side face's or two dice's, not a top face.
 */
function readFace(cv: OpenCv, lab: Mat, centre: Point, side: number, expected: Point = centre, recentred = 0, onPips = false): FaceRead {
  const radius = side * 0.56
  const r = Math.ceil(radius)
  const x0 = Math.round(centre[0]) - r
  const y0 = Math.round(centre[1]) - r
  const size = 2 * r + 1
  const width = lab.cols
  const height = lab.rows
  if (x0 < 0 || y0 < 0 || x0 + size > width || y0 + size > height) return { value: null, confidence: 0, unreadable: 'on the tray edge', detail: {} }
  const labData = lab.data
  // The face's colour is taken inside its inscribed circle; pips are looked for a little beyond
  // it (a pip must not be cut off when the face's centre is a few pixels off) and kept when
  // their centre is inside it.
  const inDisc = new Uint8Array(size * size)
  const labs: number[][] = [[], [], []]
  const inner = side * 0.46
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if ((x - r) ** 2 + (y - r) ** 2 > radius * radius) continue
      inDisc[y * size + x] = 1
      if ((x - r) ** 2 + (y - r) ** 2 > inner * inner) continue
      const j = ((y0 + y) * width + x0 + x) * 3
      labs[0].push(labData[j])
      labs[1].push(labData[j + 1])
      labs[2].push(labData[j + 2])
    }
  }
  const face = labs.map(median8)
  const distance = new Uint8Array(size * size)
  const discValues: number[] = []
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (!inDisc[y * size + x]) continue
      const j = ((y0 + y) * width + x0 + x) * 3
      const d = Math.min(255, Math.hypot(labData[j] - face[0], (labData[j + 1] - face[1]) * 1.5, (labData[j + 2] - face[2]) * 1.5))
      distance[y * size + x] = d
      if ((x - r) ** 2 + (y - r) ** 2 <= inner * inner) discValues.push(d)
    }
  }
  const discArray = Uint8Array.from(discValues)
  const threshold = Math.max(22, otsu(discArray))
  // The face is where its own colour is: a blob's shadow or side faces can pull the first guess
  // of its centre a little off. Up to twice, read again centred on the face-coloured pixels.
  let sx = 0
  let sy = 0
  let faceCount = 0
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      // Close to the face's colour: not a pip, and not a side face (shaded otherwise).
      if (!inDisc[y * size + x] || distance[y * size + x] > Math.max(12, threshold * 0.35)) continue
      sx += x
      sy += y
      faceCount++
    }
  }
  const faceCentre: Point = faceCount > 0 ? [x0 + sx / faceCount, y0 + sy / faceCount] : centre
  if (recentred < 2 && Math.hypot(faceCentre[0] - centre[0], faceCentre[1] - centre[1]) > side * 0.06) return readFace(cv, lab, faceCentre, side, expected, recentred + 1, onPips)
  let sumHigh = 0
  let countHigh = 0
  let sumLow = 0
  for (const d of discArray) {
    if (d > threshold) {
      sumHigh += d
      countHigh++
    } else sumLow += d
  }
  const separation = countHigh > 0 ? sumHigh / countHigh - sumLow / (discArray.length - countHigh) : 0
  const mask = new cv.Mat(size, size, cv.CV_8UC1)
  const maskData = mask.data
  for (let i = 0; i < distance.length; i++) maskData[i] = inDisc[i] && distance[i] > threshold ? 255 : 0
  faceProbe?.({ centre, side, threshold, size, distance: Uint8Array.from(distance), mask: Uint8Array.from(maskData) })
  const labels = new cv.Mat()
  const stats = new cv.Mat()
  const centroids = new cv.Mat()
  const count = cv.connectedComponentsWithStats(mask, labels, stats, centroids, 8, cv.CV_32S)
  const pips: Point[] = []
  const areas: number[] = []
  /** Pip-like parts centred just outside the circle: a corner pip when the centre is a little off, or a side face's. */
  const nearPips: Point[] = []
  const statsData = stats.data32S
  const centroidsData = centroids.data64F
  // Each part's second moments, for its elongation: a round pip's is 1, two pips run together
  // (the close pips of a 6, on a small or blurred face) about 2.
  const moments = new Float64Array(count * 3)
  const labelData = labels.data32S
  for (let i = 0; i < labelData.length; i++) {
    const label = labelData[i]
    if (label === 0) continue
    const dx = (i % size) - centroidsData[label * 2]
    const dy = Math.floor(i / size) - centroidsData[label * 2 + 1]
    moments[label * 3] += dx * dx
    moments[label * 3 + 1] += dy * dy
    moments[label * 3 + 2] += dx * dy
  }
  for (let label = 1; label < count; label++) {
    const [, , w, h, area] = statsData.slice(label * 5, label * 5 + 5)
    const px = centroidsData[label * 2]
    const py = centroidsData[label * 2 + 1]
    const share = area / (side * side)
    const fromCentre = Math.hypot(px - r, py - r) / side
    const mxx = moments[label * 3] / area
    const myy = moments[label * 3 + 1] / area
    const mxy = moments[label * 3 + 2] / area
    const spread = Math.sqrt((mxx - myy) ** 2 + 4 * mxy * mxy)
    const major = (mxx + myy + spread) / 2
    const minor = Math.max(1e-6, (mxx + myy - spread) / 2)
    const elongation = Math.sqrt(major / minor)
    if (elongation >= 1.55 && elongation <= 3.2 && share >= 0.012 && share <= 0.16) {
      // Two round pips of radius ρ, d from their middle: major = ρ²/4 + d², minor = ρ²/4. Taken as
      // two pips only when each half is a round pip's area for that ρ (a streak is not).
      const halfArea = area / 2
      const roundArea = Math.PI * 4 * minor
      if (halfArea / roundArea < 0.6 || halfArea / roundArea > 1.5) continue
      const d = Math.sqrt(major - minor)
      const angle = 0.5 * Math.atan2(2 * mxy, mxx - myy)
      for (const sign of [-1, 1]) {
        const qx = px + sign * d * Math.cos(angle)
        const qy = py + sign * d * Math.sin(angle)
        if (Math.hypot(qx - r, qy - r) / side > 0.44) continue
        pips.push([qx, qy])
        areas.push(halfArea)
      }
      continue
    }
    if (share < 0.006 || share > 0.09) continue
    if (elongation >= 1.55 || Math.max(w, h) / Math.max(1, Math.min(w, h)) > 2.2 || area / (w * h) < 0.4) continue
    if (fromCentre > 0.44) {
      if (fromCentre <= 0.52) nearPips.push([px, py])
      continue
    }
    pips.push([px, py])
    areas.push(area)
  }
  mask.delete()
  labels.delete()
  stats.delete()
  centroids.delete()
  const detail: Record<string, number> = { pips: pips.length, separation }
  if (separation < 18 || pips.length === 0) return { value: null, confidence: 0, unreadable: 'pips unclear', detail }
  let fit = fitLayout(pips)
  if (!onPips && pips.length >= 2 && (fit === null || fit.error > 0.06)) {
    // The face's colour can put its centre a little off (a dark die's shaded edge, a shadow), and
    // then a corner pip falls just outside the circle looked in: once, read again centred on the
    // pips found, those just outside too, and keep that reading if it is one.
    const all = [...pips, ...nearPips]
    const mx = all.reduce((sum, p) => sum + p[0], 0) / all.length
    const my = all.reduce((sum, p) => sum + p[1], 0) / all.length
    // A small move only, and the layout must end up where it was looked for: a larger one is
    // another face's pips (a cocked die's side face, a neighbour's).
    const shift = Math.hypot(mx - r, my - r)
    if (shift > side * 0.05 && shift < side * 0.15) {
      const again = readFace(cv, lab, [x0 + mx, y0 + my], side, expected, 2, true)
      const moved = again.fitted ? Math.hypot(again.fitted.centre[0] - centre[0], again.fitted.centre[1] - centre[1]) : Infinity
      if (again.value !== null && moved < side * 0.15) return again
    }
  }

  let dropped = 0
  if (fit && fit.error > 0.06 && pips.length >= 2) {
    // One pip too many: a side face's pip at the edge. Without it the rest must fit a layout
    // well, and it must lie outside that face.
    for (let i = 0; i < pips.length; i++) {
      const rest = pips.filter((_, j) => j !== i)
      const better = fitLayout(rest)
      if (!better || better.error > 0.04 || (better.value === 1 && rest.length === 1)) continue
      const dx = pips[i][0] - better.centre[0]
      const dy = pips[i][1] - better.centre[1]
      const u = (dx * Math.cos(better.angle) + dy * Math.sin(better.angle)) / better.side
      const v = (-dx * Math.sin(better.angle) + dy * Math.cos(better.angle)) / better.side
      if (Math.max(Math.abs(u), Math.abs(v)) > 0.48 && (fit.error > 0.06 || better.error < fit.error)) {
        fit = better
        areas.splice(i, 1)
        dropped = 1
        break
      }
    }
  }
  if (fit === null) return { value: null, confidence: 0, unreadable: 'pips unclear', detail }
  detail.dropped = dropped
  const fittedCentre: Point = [x0 + fit.centre[0], y0 + fit.centre[1]]
  const fitted = { centre: fittedCentre, side: fit.side, error: fit.error }
  // A layout far from where the blob puts the face is a side face's or two dice's; a lone pip must
  // sit at the centre of the face's own colour.
  const offCentre = Math.hypot(fittedCentre[0] - expected[0], fittedCentre[1] - expected[1]) / side
  const offFace = Math.hypot(fittedCentre[0] - faceCentre[0], fittedCentre[1] - faceCentre[1]) / side
  const scale = fit.value === 1 ? 1 : fit.side / side
  const sizeSpread = fit.value === 1 ? 1 : Math.max(...areas) / Math.min(...areas)
  Object.assign(detail, { error: fit.error, offCentre, offFace, scale, squash: fit.squash, sizeSpread })
  if (fit.error > 0.1 || scale < 0.7 || scale > 1.35 || offCentre > 0.4 || sizeSpread > 2.6) return { value: null, confidence: 0, unreadable: 'pips unclear', detail, fitted }
  if (fit.squash < 0.86) return { value: null, confidence: 0, unreadable: 'cocked', detail, fitted }
  // Each measure maps to 1 where a clean flat face sits and falls to 0 at the edge of what is accepted above.
  const confidence = Math.min(
    clamp01(1 - (fit.error - 0.03) / 0.07),
    clamp01((separation - 15) / 20),
    // Every flat top face is one size in the rectified picture: a layout of another size is
    // likelier a cocked die's tilted face (a 1, 2 or 3 cannot show the squash).
    clamp01(1 - (Math.abs(scale - 1) - 0.06) / 0.2),
    // A lone pip off the centre is likelier a 2 or 3 with pips missed than a 1 (or a cocked die's).
    fit.value === 1 ? clamp01(1 - (offFace - 0.06) / 0.08) : 1,
    clamp01(1 - (offCentre - 0.3) / 0.1),
    fit.value >= 4 ? clamp01((fit.squash - 0.86) / 0.06) : 1,
    clamp01(1 - (sizeSpread - 1.6) / 1.0)
  )
  return { value: fit.value, confidence, detail, fitted }
}

/** Reads the dice in one frame. */
export function readDiceFrame(cv: OpenCv, frame: RgbaFrame, options: ReadOptions = {}): FrameReading {
  const debug = options.debug
  const rgb = frameToMat(cv, frame)
  const read = (polygon: Point[] | null, found = false): FrameReading => {
    const view = workView(cv, rgb, polygon, options.memory)
    try {
      // The pip-first path (pips.ts) checks and completes the blob path's dice.
      return withPipFaces(readWork(cv, view, debug, found, options.memory), () => findPipFaces(cv, view.image), view, frame)
    } finally {
      view.image.delete()
    }
  }
  try {
    const trayOption = options.tray ?? 'auto'
    if (trayOption === 'none') return read(null)
    if (trayOption !== 'auto') return read(scalePolygon(trayOption.polygon, trayOption, frame))
    const found = options.memory ? options.memory.ofScene('tray found', () => findTray(cv, rgb)) : findTray(cv, rgb)
    if (!found) return read(null)
    return doubtTray(found, read(found, true), (widened) => read(widened, true), () => read(null))
  } finally {
    rgb.delete()
  }
}

const sure = (die: DieReading): boolean => die.value !== null && die.confidence >= CONFIDENT

/**
 * A tray found in the picture (not calibrated) says where the tray is, but its corners, from the
 * floor's colour, can be a little off (a rim of the floor's colour taken in, a wall's shadow left
 * out), and flattening the floor with them squashes every face or cuts a die lying in the wall's
 * shadow: its dice then read as cocked or unclear. So when a die in it is not read surely, the
 * whole picture is read too, and the tray widened a little (the floor in a wall's shadow taken
 * in) when a die reached its edge; the one that reads the most dice surely inside the tray is
 * kept (the tray found's own reading on a tie); the dice the whole picture finds outside the
 * widened tray are said to be there and not read.
 */
function doubtTray(found: Point[], inTray: FrameReading, widenedTray: (polygon: Point[]) => FrameReading, wholePicture: () => FrameReading): FrameReading {
  if (inTray.dice.every((die) => sure(die) || die.unreadable === 'outside the tray')) return inTray
  const cx = found.reduce((sum, p) => sum + p[0], 0) / found.length
  const cy = found.reduce((sum, p) => sum + p[1], 0) / found.length
  const widened = found.map(([x, y]) => [cx + (x - cx) * (1 + FOUND_TRAY_WIDENING * 2), cy + (y - cy) * (1 + FOUND_TRAY_WIDENING * 2)] as Point)
  // The widened tray only where the tray found cut a die (its cost is a third reading).
  const wider = inTray.dice.some((die) => die.unreadable === 'on the tray edge') ? [{ ...widenedTray(widened), tray: found }] : []
  const whole = wholePicture()
  const dice = whole.dice.map((die): DieReading => {
    const [x, y, w, h] = die.box
    return insidePolygon([x + w / 2, y + h / 2], widened) ? die : { value: null, confidence: 0, box: die.box, unreadable: 'outside the tray' }
  })
  const sureCount = (reading: FrameReading): number => reading.dice.filter(sure).length
  return [...wider, { dice, tray: found }].reduce((best, reading) => (sureCount(reading) > sureCount(best) ? reading : best), inTray)
}

/**
 * `trayFound`: the tray's corners were found in the picture, not calibrated. Its edge then runs
 * where the floor's colour ends, and a die lying across it (on the floor in a wall's shadow,
 * which the tray found leaves out) is cut by it: what is left of its face can read as another
 * value (a 6 cut along a column is a 3). Such a die is not read here, and the whole picture is
 * read too (doubtTray).
 */
function readWork(cv: OpenCv, view: WorkView, debug: ReadOptions['debug'], trayFound = false, memory?: ReadMemory): FrameReading {
  const lab = new cv.Mat()
  cv.cvtColor(view.image, lab, cv.COLOR_RGB2Lab)
  const masks = foregroundMask(cv, lab, view.tray, memory)
  const width = lab.cols
  const height = lab.rows
  debug?.('mask', masks.inside)
  debug?.('work', view.image)
  const shortSide = Math.min(width, height)
  const dieSized = (blob: Blob): boolean => blob.area >= (shortSide * 0.03) ** 2 && blob.area <= (shortSide * 0.3) ** 2
  const allBlobs = blobsOf(cv, masks.inside)
  const outsideBlobs = masks.outside ? blobsOf(cv, masks.outside).filter(dieSized) : []
  // A die joined to a strip along the tray's wall (the wall's shadow or its foot) makes one blob
  // too large or too thin for a die: such blobs are opened with a disc smaller than a die, which
  // cuts the strip away and leaves the die (rescued below, once one die's size is known).
  // (A strip along all four walls is a ring, round by its moments: it is told by its span, far
  // larger than a group of dice's.)
  const spansTray = (blob: Blob): boolean => {
    const { minX, minY, maxX, maxY } = blobBounds(blob)
    return Math.max(maxX - minX, maxY - minY) > shortSide * 0.45
  }
  const joined = allBlobs.filter((blob) => blob.area > (shortSide * 0.3) ** 2 || (dieSized(blob) && (shapeOf(blob, view.foot, width, height).roundness <= 0.2 || spansTray(blob))))
  const blobs = allBlobs.filter((blob) => dieSized(blob) && !spansTray(blob))
  const joinedMask = joined.length > 0 ? new cv.Mat(height, width, cv.CV_8UC1, new cv.Scalar(0)) : null
  if (joinedMask) {
    const data = joinedMask.data
    for (const blob of joined) for (let i = 0; i < blob.area; i++) data[blob.ys[i] * width + blob.xs[i]] = 255
  }
  masks.inside.delete()
  masks.outside?.delete()
  try {
    // Thin streaks are the floor's edge or a shadow's, not dice.
    let shapes = blobs.map((blob) => shapeOf(blob, view.foot, width, height)).filter((shape) => shape.roundness > 0.2)
    // One die's area (top face and smear): the typical blob's among those shaped like one die. Blobs much larger hold touching dice.
    // In a picture made flat, not an L of three dice either (square enough by its moments, but
    // hollow at its corner): a die's blob there, face and smear, is convex. (Not in a picture read
    // whole: a carpet's specks, irregular, then make one die's size small and the specks dice.)
    const single = shapes.filter((shape) => shape.roundness > 0.62 && shape.smear < shape.across * 1.5 && (!view.flat || solidity(cv, shape.blob) > SINGLE_SOLIDITY))
    // With every die touching another, one die's size is the thickness of the thinnest group.
    // Weighted by area, so that specks of texture or shadow do not drag it down.
    const typical = single.length > 0 ? weightedMedian(single.map((shape) => shape.blob.area)) : Math.min(...shapes.map((shape) => shape.thickness)) ** 2 * 1.15
    const split: DieShape[] = []
    // One die's top face side, roughly: a single die's blob is its face and a smear.
    const typicalSide = single.length > 0 ? median(single.map((shape) => shape.side)) : Math.sqrt(typical)
    if (joinedMask && single.length > 0) {
      // At a quarter of the size (a die is still 10 px or more there; the opening's cost grows with
      // the disc's area), then back and kept to the mask's own pixels.
      const small = new cv.Mat()
      cv.resize(joinedMask, small, new cv.Size(Math.round(width / 4), Math.round(height / 4)), 0, 0, cv.INTER_AREA)
      cv.threshold(small, small, 127, 255, cv.THRESH_BINARY)
      const diameter = Math.max(3, Math.round((typicalSide * 0.6) / 4)) | 1
      const disc = cv.getStructuringElement(cv.MORPH_ELLIPSE, new cv.Size(diameter, diameter))
      const isDie = (blob: Blob): boolean => blob.area >= typical * 0.5 && blob.area <= typical * 1.5
      /** The dice the opening of `from` (quarter size) frees, and what is left of the joined blobs besides them. */
      const rescue = (from: Mat): { dice: DieShape[]; rest: Mat } => {
        const openedSmall = new cv.Mat()
        cv.morphologyEx(from, openedSmall, cv.MORPH_OPEN, disc)
        const opened = new cv.Mat()
        cv.resize(openedSmall, opened, new cv.Size(width, height), 0, 0, cv.INTER_NEAREST)
        openedSmall.delete()
        const kept = new cv.Mat()
        cv.bitwise_and(joinedMask, opened, kept)
        opened.delete()
        const dice = blobsOf(cv, kept)
          .filter(isDie)
          .map((blob) => shapeOf(blob, view.foot, width, height))
          .filter((shape) => shape.roundness > 0.62)
        kept.delete()
        // What is left: the joined blobs' pixels at the quarter size, less the dice freed (and a
        // pixel round them).
        const rest = new cv.Mat()
        from.copyTo(rest)
        const restData = rest.data
        for (const shape of dice) {
          for (let i = 0; i < shape.blob.area; i++) {
            const x = shape.blob.xs[i] >> 2
            const y = shape.blob.ys[i] >> 2
            for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) if (y + dy >= 0 && y + dy < rest.rows && x + dx >= 0 && x + dx < rest.cols) restData[(y + dy) * rest.cols + x + dx] = 0
          }
        }
        return { dice, rest }
      }
      const first = rescue(small)
      // A strip thicker than the disc (a wall's top taken in by a tray found a little wide, the
      // floor in a wall's shadow) stays joined to the die touching it: in a picture made flat the
      // strips along the walls (found in the whole joined blobs, not in what the dice freed left
      // of them) are then taken away, and what is left opened again. (Not first: a die in a
      // tray's corner, on both strips' lines, loses much of itself.)
      let fromStrips: DieShape[] = []
      if (view.flat) {
        const strips = wallStrips(cv, small, Math.max(5, Math.round((typicalSide * 3) / 4)))
        cv.subtract(first.rest, strips, first.rest)
        strips.delete()
        const again = rescue(first.rest)
        again.rest.delete()
        fromStrips = again.dice
      }
      small.delete()
      first.rest.delete()
      disc.delete()
      shapes = [...shapes, ...first.dice, ...fromStrips]
    }
    joinedMask?.delete()
    const thinnest = Math.min(...shapes.map((shape) => shape.thickness))
    // How many dice a blob holds is tested, not assumed: it is split into k parts for the likely
    // k (k-means on its pixels), each part's face read, and the k whose faces read best is kept.
    // A die far from the camera's foot has a longer smear (a larger blob), and groups in an L or
    // a row are not one die's size apart: the layout check settles it.
    // A face of a die in a group, for the split along edges: at least a little die's, and a share
    // of its blob (the "one die" size above is a group's own when every blob is a group).
    const minFace = (blob: Blob): number => Math.max((shortSide * 0.025) ** 2, Math.min((typicalSide * 0.5) ** 2, blob.area * 0.06))
    // The face side the pips of the blobs read as one die say (a layout of two pips or more that
    // fits well has a scale, even when other measures leave the reading unsure): parts split off a blob must each be a die that size, not a piece
    // of one die (a 5 cut along its pips' edges reads as a 1 and a 3).
    const meanConfidence = (parts: DieShape[]): number => parts.reduce((sum, part) => sum + (part.oversized ? 0 : readFace(cv, lab, part.faceCentre, part.side).confidence), 0) / parts.length
    const wholeReads = shapes.map((shape) => readFace(cv, lab, shape.faceCentre, shape.side))
    // The lower median: a group read as one die fits a layout larger than a die's.
    const wholePipSides = wholeReads.flatMap((read) => (read.value !== null && read.value >= 2 && read.fitted && read.fitted.error < 0.05 ? [read.fitted.side] : [])).sort((a, b) => a - b)
    const pipSide = wholePipSides.length > 0 ? wholePipSides[Math.floor((wholePipSides.length - 1) / 2)] : NaN
    const dieSizedPart = (part: DieShape): boolean => Number.isNaN(pipSide) || part.across >= pipSide * 0.8
    const edgeParts = (blob: Blob): DieShape[] | null => {
      const parts = splitByEdges(cv, view.image, lab, blob, minFace(blob))?.map((part) => shapeOf(part, view.foot, width, height)) ?? null
      if (!parts || !parts.every(dieSizedPart)) return null
      // The dice of a group are one size: a part much larger than the others holds a die whose
      // face the edges did not free (a 6's pips cut it up), and is read as neither.
      const smallest = Math.min(...parts.map((part) => part.blob.area))
      return parts.map((part) => (part.blob.area > smallest * 1.8 ? { ...part, oversized: true } : part))
    }
    for (const shape of shapes) {
      const area = shape.blob.area
      // Much smaller than one die: a speck, unless it reads as a die and is a die's size by the
      // pips (when every blob is a group of dice, "one die" above is a group's size, and a lone
      // die is much smaller).
      if (area < typical * 0.35 && (meanConfidence([shape]) < CONFIDENT || !dieSizedPart(shape) || (!Number.isNaN(pipSide) && area < (pipSide * 0.75) ** 2))) continue
      if (single.length > 0 && area < typical * 1.4) {
        // One die's size: one die, unless its edges show several that read better than it (a
        // group taken for one die when every die is in a group: two 2s side by side can read as one 2).
        // No part may lie towards the camera's foot from a part that does not read: that is likely
        // a die's own side face, which at a steep view shows its pips as clearly as the top face
        // (and the watershed can give it much of the top face too).
        const whole = meanConfidence([shape])
        const parts = edgeParts(shape.blob)
        const sideFaceOf = (a: DieShape, b: DieShape): boolean => {
          const dx = b.faceCentre[0] - a.faceCentre[0]
          const dy = b.faceCentre[1] - a.faceCentre[1]
          if (dx * shape.u[0] + dy * shape.u[1] >= -Math.hypot(dx, dy) * 0.6) return false
          // Two parts, each half a die's blob: a top face and its own side face, whose pips (a 1)
          // can read as surely as the top's; two dice would each make a die's blob. (Not three or
          // more: when every die is in a group, one die's size is a group's, an L of three.)
          if (parts?.length === 2 && a.blob.area < typical * SIDE_FACE_PART && b.blob.area < typical * SIDE_FACE_PART) return true
          return readFace(cv, lab, a.faceCentre, Number.isNaN(pipSide) ? a.side : pipSide).confidence < CONFIDENT
        }
        const sure = parts !== null && !parts.some((a) => parts.some((b) => a !== b && sideFaceOf(a, b)))
        if (parts && sure && meanConfidence(parts) > whole + 0.02) split.push(...parts.map((part) => ({ ...part, splitFrom: shape.blob })))
        else split.push(shape)
        continue
      }
      const likely = Math.round(area / typical)
      const most = single.length > 0 ? Math.min(6, likely + 1) : Math.min(6, Math.ceil(area / (thinnest * thinnest * 0.8)))
      const least = single.length > 0 ? Math.max(1, likely - 1) : 1
      let best: { parts: DieShape[]; score: number } | null = null
      // The split along the dice's own edges first: k-means parts must read clearly better to win.
      const byEdges = edgeParts(shape.blob)
      if (byEdges) best = { parts: byEdges, score: meanConfidence(byEdges) }
      for (let k = least; k <= most; k++) {
        const parts = k === 1 ? [shape] : splitBlob(cv, shape.blob, k).map((part) => shapeOf(part, view.foot, width, height))
        const score = meanConfidence(parts)
        if (best === null || score > best.score + 0.02) best = { parts, score }
      }
      // More than six dice's worth in one blob is no group of dice (a rim, a hand).
      if (best) split.push(...(best.parts.length > 1 ? best.parts.map((part) => ({ ...part, splitFrom: shape.blob })) : best.parts))
    }
    shapes = split
    const blobSide = median(shapes.filter((shape) => shape.blob.area < typical * 1.5).map((shape) => shape.side))
    // Long thin blobs are the tray's rim or a shadow's edge, not a die.
    shapes = shapes.filter((shape) => shape.across >= blobSide * 0.6 && shape.across <= blobSide * 2.2 && shape.smear <= blobSide * 2.2)
    const placed = shapes.map((shape) => {
      const inTray = view.tray === null || insidePolygon(shape.footprint, view.tray)
      const unreadable: UnreadableReason | null = !inTray ? 'outside the tray' : shape.touchesBorder ? 'on the tray edge' : shape.oversized ? 'pips unclear' : null
      // A die reaching a tray found's edge is read, and then kept only when its face lies inside
      // the tray (the edge cut its side face or the wall's foot, not its face).
      const onFoundEdge = unreadable === null && trayFound && view.tray !== null && reachesEdge(shape.blob, view.tray)
      return { shape, unreadable, onFoundEdge }
    })
    // Two passes: the blobs give each face's place and a first size; the pips that fit a layout then
    // give the faces' true size (the median over the dice) and each face's exact centre, and the
    // faces are read again with those.
    const first = placed.map(({ shape, unreadable, onFoundEdge }) => (unreadable || onFoundEdge ? null : readFace(cv, lab, shape.faceCentre, blobSide)))
    const pipSides = first.flatMap((read) => (read?.fitted && read.value !== null && read.value >= 2 && read.fitted.error < 0.05 ? [read.fitted.side] : []))
    const side = pipSides.length > 0 ? median(pipSides) : blobSide
    debug?.('side', { blobSide, side })
    const dice: DieReading[] = []
    for (const blob of outsideBlobs) {
      // A die-sized, die-shaped blob outside the tray: said to be there, never read.
      const shape = shapeOf(blob, view.foot, width, height)
      // Square-ish by itself (a rim's edge or a shadow's strip is not), and, with dice in the tray
      // to compare (side is NaN when there are none), their size.
      if (shape.roundness < 0.5) continue
      if (Number.isFinite(side) && (shape.across < side * 0.75 || shape.across > side * 1.7 || shape.side < side * 0.7 || shape.side > side * 1.4)) continue
      dice.push({ value: null, confidence: 0, box: frameBox(blob, view), unreadable: 'outside the tray' })
    }
    const cutGroups = new Set<Blob>()
    const placedDice: Array<{ shape: DieShape; die: DieReading }> = []
    placed.forEach(({ shape, unreadable, onFoundEdge }, index) => {
      const before = first[index]
      let reading: FaceRead
      if (unreadable) reading = { value: null, confidence: 0, unreadable, detail: {} }
      else {
        // Read at the blob's face centre and at the first fit's: the surer reading wins, and two
        // readings that disagree with some confidence each leave the die to the keypad.
        const centres = [shape.faceCentre, ...(before?.fitted && before.fitted.error < 0.1 ? [before.fitted.centre] : [])]
        const reads = centres.map((centre) => readFace(cv, lab, centre, side, shape.faceCentre))
        reading = reads.reduce((best, read) => (read.confidence > best.confidence ? read : best))
        if (reads.some((read) => read.value !== null && read.value !== reading.value && read.confidence >= 0.4)) reading = { ...reading, value: null, confidence: 0, unreadable: 'pips unclear' }
        // A die showing a side face's pips where a flat die shows none is cocked (where the
        // camera's foot is known: in a picture made flat).
        if (view.flat && reading.value !== null && reading.fitted && sidePips(cv, lab, shape, reading.fitted.centre, side) > 0) reading = { ...reading, value: null, confidence: 0, unreadable: 'cocked' }
        // A face not wholly inside a tray found (its corners, at any turn, within half a diagonal
        // of its centre) may be cut by its edge: what is left can read as another value (a 6 cut
        // along a column is a 3).
        if (onFoundEdge && view.tray && !(reading.fitted && circleInside(reading.fitted.centre, side * Math.SQRT1_2, view.tray))) reading = { value: null, confidence: 0, unreadable: 'on the tray edge', detail: {} }
      }
      debug?.('die', { face: shape.faceCentre, side: shape.side, across: shape.across, smear: shape.smear, area: shape.blob.area, areaRatio: shape.blob.area / typical, roundness: shape.roundness, ...reading })
      if (reading.unreadable === 'on the tray edge' && shape.splitFrom) cutGroups.add(shape.splitFrom)
      placedDice.push({ shape, die: { value: reading.value, confidence: reading.value === null ? 0 : Math.round(reading.confidence * 1000) / 1000, box: frameBox(shape.blob, view), ...(reading.unreadable ? { unreadable: reading.unreadable } : {}) } })
    })
    // A part of a split cut by a tray found's edge may be a piece of a die, not a die: what the
    // split gave beside it may be the rest of that die (a 3's two corner pips read as a sure 2).
    for (const { shape, die } of placedDice) dice.push(shape.splitFrom && cutGroups.has(shape.splitFrom) ? { value: null, confidence: 0, box: die.box, unreadable: 'on the tray edge' } : die)
    return { dice, tray: view.trayInFrame }
  } finally {
    lab.delete()
  }
}

/**
 * How many pips the die shows beside its top face, on a side face not towards the camera's foot.
 * A die lying flat shows its side faces only towards the foot (the smear, at a tilted view), and
 * hardly at all from above; a cocked die (on an edge, leaning on another die or a wall) shows a
 * side face in the direction it leans, whatever the camera, and that face's pips (squashed, but
 * pips). A cocked 1, 2 or 3 cannot show its tilt in its own layout (no squash to measure), so this
 * is what tells it. Pips are spots darker (or lighter, as the top face's own pips are) than around
 * them: a black-hat (top-hat) over the die's blob with a window of about two pips.
 */
function sidePips(cv: OpenCv, lab: Mat, shape: DieShape, centre: Point, side: number): number {
  const blob = shape.blob
  const { x0, y0, w, h } = paddedBounds(blob, Math.ceil(side * 0.2), lab)
  const channels = new cv.MatVector()
  const crop = lab.roi(new cv.Rect(x0, y0, w, h))
  cv.split(crop, channels)
  crop.delete()
  const light = channels.get(0)
  channels.delete()
  const inBlob = new cv.Mat(h, w, cv.CV_8UC1, new cv.Scalar(0))
  const inBlobData = inBlob.data
  for (let i = 0; i < blob.area; i++) inBlobData[(blob.ys[i] - y0) * w + blob.xs[i] - x0] = 255
  // Away from the blob's outline (the die's own edge against the floor is a dark line).
  const margin = Math.max(3, Math.round(side * 0.07)) | 1
  const erodeKernel = cv.getStructuringElement(cv.MORPH_ELLIPSE, new cv.Size(margin, margin))
  cv.erode(inBlob, inBlob, erodeKernel)
  erodeKernel.delete()
  const window = Math.max(5, Math.round(side * 0.35)) | 1
  const kernel = cv.getStructuringElement(cv.MORPH_ELLIPSE, new cv.Size(window, window))
  const dark = new cv.Mat()
  const bright = new cv.Mat()
  cv.morphologyEx(light, dark, cv.MORPH_BLACKHAT, kernel)
  cv.morphologyEx(light, bright, cv.MORPH_TOPHAT, kernel)
  kernel.delete()
  light.delete()
  // The top face's pips say which: the stronger response inside the face.
  const strongest = (mat: Mat): number => {
    const data = mat.data
    let best = 0
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        if (Math.hypot(x + x0 - centre[0], y + y0 - centre[1]) <= side * 0.45) best = Math.max(best, data[y * w + x])
      }
    }
    return best
  }
  const darkTop = strongest(dark)
  const brightTop = strongest(bright)
  const response = darkTop >= brightTop ? dark : bright
  const top = Math.max(darkTop, brightTop)
  ;(darkTop >= brightTop ? bright : dark).delete()
  const spots = new cv.Mat()
  cv.threshold(response, spots, Math.max(15, top * 0.45), 255, cv.THRESH_BINARY)
  response.delete()
  cv.bitwise_and(spots, inBlob, spots)
  inBlob.delete()
  const labels = new cv.Mat()
  const stats = new cv.Mat()
  const centroids = new cv.Mat()
  const count = cv.connectedComponentsWithStats(spots, labels, stats, centroids, 8, cv.CV_32S)
  const statsData = stats.data32S
  const centroidData = centroids.data64F
  const pipArea = Math.PI * (side * 0.085) ** 2
  let found = 0
  for (let label = 1; label < count; label++) {
    const [, , bw, bh, area] = statsData.slice(label * 5, label * 5 + 5)
    // A side face's pip is squashed (a die cocked 20–35° shows its side face a third to half as
    // wide), but not a sliver: a flat die's side face seen from above shows slivers of its pips.
    if (area < pipArea * 0.3 || area > pipArea * 1.6 || Math.max(bw, bh) > side * 0.3) continue
    const px = centroidData[label * 2] + x0
    const py = centroidData[label * 2 + 1] + y0
    const dx = px - centre[0]
    const dy = py - centre[1]
    const distance = Math.hypot(dx, dy)
    if (distance < side * 0.58) continue
    // Only away from the camera's foot: a flat die shows the side faces that face the foot.
    if (dx * shape.u[0] + dy * shape.u[1] < distance * 0.25) continue
    found++
  }
  spots.delete()
  labels.delete()
  stats.delete()
  centroids.delete()
  return found
}

/**
 * The strips along a flattened tray's walls in a mask: straight runs along the tray's sides (rows
 * and columns in a picture made flat) of `run` pixels or more, which no die holds when `run` is
 * three dice, and a pixel round them.
 */
function wallStrips(cv: OpenCv, mask: Mat, run: number): Mat {
  const strips = new cv.Mat()
  const columns = new cv.Mat()
  const row = cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(run, 1))
  const column = cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(1, run))
  cv.morphologyEx(mask, strips, cv.MORPH_OPEN, row)
  cv.morphologyEx(mask, columns, cv.MORPH_OPEN, column)
  cv.bitwise_or(strips, columns, strips)
  const grow = cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(3, 3))
  cv.dilate(strips, strips, grow)
  for (const mat of [columns, row, column, grow]) mat.delete()
  return strips
}

/** The blob's bounding box grown by `pad` pixels each way, within the picture. */
function paddedBounds(blob: Blob, pad: number, picture: Mat): { x0: number; y0: number; w: number; h: number } {
  const { minX, minY, maxX, maxY } = blobBounds(blob)
  const x0 = Math.max(0, minX - pad)
  const y0 = Math.max(0, minY - pad)
  return { x0, y0, w: Math.min(picture.cols, maxX + pad + 1) - x0, h: Math.min(picture.rows, maxY + pad + 1) - y0 }
}

/** Whether a blob reaches the polygon's edge (a pixel of it within two pixels of the outside). */
function reachesEdge(blob: Blob, polygon: Point[]): boolean {
  for (let i = 0; i < blob.area; i++) {
    const x = blob.xs[i]
    const y = blob.ys[i]
    if (!insidePolygon([x - 2, y], polygon) || !insidePolygon([x + 2, y], polygon) || !insidePolygon([x, y - 2], polygon) || !insidePolygon([x, y + 2], polygon)) return true
  }
  return false
}

/** A part of a die-sized blob's split under this share of one die's blob, lying towards the camera's foot from another such part, is their die's side face. */
const SIDE_FACE_PART = 0.75

/** The least share of its convex hull a blob of one die fills (an L of three dice fills about 0.86). */
const SINGLE_SOLIDITY = 0.9

/** The blob's area over its convex hull's. */
function solidity(cv: OpenCv, blob: Blob): number {
  // The hull of each row's two ends is the blob's hull, from far fewer points.
  const { minY, maxY } = blobBounds(blob)
  const left = new Int32Array(maxY - minY + 1).fill(0x7fffffff)
  const right = new Int32Array(maxY - minY + 1).fill(-1)
  for (let i = 0; i < blob.area; i++) {
    const row = blob.ys[i] - minY
    left[row] = Math.min(left[row], blob.xs[i])
    right[row] = Math.max(right[row], blob.xs[i])
  }
  const ends: number[] = []
  for (let row = 0; row < left.length; row++) if (right[row] >= 0) ends.push(left[row], row + minY, right[row], row + minY)
  const points = cv.matFromArray(ends.length / 2, 1, cv.CV_32SC2, ends)
  const hull = new cv.Mat()
  cv.convexHull(points, hull, false, true)
  // Pixels are unit squares: the hull through their centres is half a pixel short all round.
  const area = cv.contourArea(hull) + cv.arcLength(hull, true) / 2 + 1
  points.delete()
  hull.delete()
  return blob.area / area
}

/** The pixel bounds of a blob (inclusive). */
function blobBounds(blob: Blob): { minX: number; minY: number; maxX: number; maxY: number } {
  let minX = Infinity
  let minY = Infinity
  let maxX = -Infinity
  let maxY = -Infinity
  for (let i = 0; i < blob.area; i++) {
    minX = Math.min(minX, blob.xs[i])
    maxX = Math.max(maxX, blob.xs[i])
    minY = Math.min(minY, blob.ys[i])
    maxY = Math.max(maxY, blob.ys[i])
  }
  return { minX, minY, maxX, maxY }
}

function frameBox(blob: Blob, view: WorkView): Box {
  const { minX, minY, maxX, maxY } = blobBounds(blob)
  const corners = [view.toFrame([minX, minY]), view.toFrame([maxX + 1, minY]), view.toFrame([maxX + 1, maxY + 1]), view.toFrame([minX, maxY + 1])]
  const xs = corners.map((c) => c[0])
  const ys = corners.map((c) => c[1])
  const x = Math.round(Math.min(...xs))
  const y = Math.round(Math.min(...ys))
  return [x, y, Math.round(Math.max(...xs)) - x, Math.round(Math.max(...ys)) - y]
}
