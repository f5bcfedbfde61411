// Finding the tray without a calibration: the tray's floor is the large even-coloured region in
// the middle of the picture. Its colour is the median of the picture's central part (dice cover
// little of it); the pixels near that colour (after a median, so that a woven or checked cloth's
// pattern is no edge) make a region whose convex hull, simplified to four corners, is the tray.
// Each side is then the straight line fitted to the region's outline along it, and the corners
// are where those lines meet (a corner taken from the outline alone is off by a few pixels, and
// the floor flattened with it is skewed). A region that is not a tray (too small, not
// four-cornered, not convex enough, or running into three sides of the picture: the table)
// gives null: the caller reads the whole frame, or asks the person to mark the tray.
import { isShadow } from './floor-shadow'
import { median } from './median'
import { polygonArea } from './geometry'
import type { OpenCv } from './opencv'
import type { Point, RgbaFrame } from './types'

type Mat = InstanceType<OpenCv['Mat']>

/** The side of the picture the tray is looked for in, in pixels. */
const TRAY_SEARCH_SIZE = 480
/** The colour distance (Lab, lightness at half weight) from the floor's colour within which a pixel is floor. */
const FLOOR_LIMIT = 16

/** The tray's four corners in an RGB picture (as OpenCV's Mat), or null when it cannot be found. */
export function findTray(cv: OpenCv, rgb: Mat): Point[] | null {
  const scale = TRAY_SEARCH_SIZE / Math.max(rgb.cols, rgb.rows)
  const small = new cv.Mat()
  cv.resize(rgb, small, new cv.Size(Math.round(rgb.cols * scale), Math.round(rgb.rows * scale)), 0, 0, cv.INTER_AREA)
  // A median first: a woven or checked cloth's fine pattern is no edge.
  cv.medianBlur(small, small, 5)
  cv.GaussianBlur(small, small, new cv.Size(5, 5), 0)
  const lab = new cv.Mat()
  cv.cvtColor(small, lab, cv.COLOR_RGB2Lab)
  small.delete()
  const width = lab.cols
  const height = lab.rows
  // Mat.data makes a new view on each read: read it once.
  const labData = lab.data
  const channels: number[][] = [[], [], []]
  for (let y = Math.round(height * 0.35); y < height * 0.65; y++) {
    for (let x = Math.round(width * 0.35); x < width * 0.65; x++) {
      const j = (y * width + x) * 3
      for (let c = 0; c < 3; c++) channels[c].push(labData[j + c])
    }
  }
  const floor = channels.map(median)
  const distance = new Float32Array(width * height)
  const shaded = new Float32Array(width * height)
  for (let i = 0, j = 0; i < width * height; i++, j += 3) {
    const l = labData[j]
    distance[i] = Math.hypot((l - floor[0]) * 0.5, labData[j + 1] - floor[1], labData[j + 2] - floor[2])
    shaded[i] = l < floor[0] && isShadow(l, labData[j + 1] - 128, labData[j + 2] - 128, floor[0], floor[1] - 128, floor[2] - 128) ? 0 : distance[i]
  }
  lab.delete()
  const lit = trayRegion(cv, distance, width, height, FLOOR_LIMIT)
  // The floor in a wall's shadow is the floor: a tray found without it stops short of the wall and
  // cuts the dice lying there. Taken in only when it adds a band along the walls, not a rim or a
  // table of the floor's hue, darker (a wooden tray's rim is its floor's wood in less light).
  const withShade = lit ? trayRegion(cv, shaded, width, height, FLOOR_LIMIT) : null
  const best = withShade && lit && polygonArea(withShade.corners) <= polygonArea(lit.corners) * SHADE_GROWTH ? withShade : lit
  return best ? best.corners.map(([x, y]) => [x / scale, y / scale] as Point) : null
}

/**
 * How much larger the tray with the floor in shadow may be than the lit floor's (its area): the
 * shadow along a wall or two adds up to a tenth on the renders (and brings the tray within 2 % of
 * the calibrated one's area, from 5–10 % short); a rim of the floor's hue adds a quarter or more.
 */
const SHADE_GROWTH = 1.125

/** The tray-shaped region of pixels within `limit` of the floor's colour, in search pixels, or null. */
function trayRegion(cv: OpenCv, distance: Float32Array, width: number, height: number, limit: number): { corners: Point[]; area: number } | null {
  const mask = new cv.Mat(height, width, cv.CV_8UC1)
  const maskData = mask.data
  for (let i = 0; i < distance.length; i++) maskData[i] = distance[i] < limit ? 255 : 0
  const kernel = cv.getStructuringElement(cv.MORPH_ELLIPSE, new cv.Size(9, 9))
  cv.morphologyEx(mask, mask, cv.MORPH_CLOSE, kernel)
  kernel.delete()
  const contours = new cv.MatVector()
  const hierarchy = new cv.Mat()
  cv.findContours(mask, contours, hierarchy, cv.RETR_EXTERNAL, cv.CHAIN_APPROX_NONE)
  mask.delete()
  hierarchy.delete()
  let best: { corners: Point[]; area: number } | null = null
  for (let i = 0; i < contours.size(); i++) {
    const contour = contours.get(i)
    const area = cv.contourArea(contour)
    if (area < width * height * 0.15 || area <= (best?.area ?? 0)) {
      contour.delete()
      continue
    }
    const outline: Point[] = []
    const points = contour.data32S
    for (let k = 0; k < points.length; k += 2) outline.push([points[k], points[k + 1]])
    const hull = new cv.Mat()
    cv.convexHull(contour, hull, false, true)
    contour.delete()
    const hullArea = cv.contourArea(hull)
    const perimeter = cv.arcLength(hull, true)
    let rough: Point[] | null = null
    for (const share of [0.02, 0.03, 0.045, 0.06]) {
      const approx = new cv.Mat()
      cv.approxPolyDP(hull, approx, share * perimeter, true)
      if (approx.rows === 4) rough = Array.from({ length: 4 }, (_, k) => [approx.data32S[2 * k], approx.data32S[2 * k + 1]] as Point)
      approx.delete()
      if (rough) break
    }
    hull.delete()
    if (!rough || area / hullArea < 0.85) continue
    // The four corners must cover the region: a region cut to four corners far inside it is not a tray.
    if (polygonArea(rough) < hullArea * 0.85) continue
    // A region that runs into three sides of the picture or more is the table or a cloth, not a
    // tray (a tray may run off one side, or two at a corner).
    const edge = Math.max(2, Math.min(width, height) * 0.01)
    const sides = [outline.some(([x]) => x < edge), outline.some(([, y]) => y < edge), outline.some(([x]) => x > width - 1 - edge), outline.some(([, y]) => y > height - 1 - edge)]
    if (sides.filter(Boolean).length >= 3) continue
    const corners = refineCorners(rough, outline)
    if (!corners || polygonArea(corners) < hullArea * 0.85 || polygonArea(corners) > hullArea * 1.15) continue
    best = { corners, area }
  }
  contours.delete()
  return best
}

/**
 * Each side of the rough quadrilateral as the straight line through the outline's points along it
 * (those near the side and away from its ends, where corners round off and dice or shadows bite
 * in), by total least squares; the corners where consecutive lines meet. Null when a side has too
 * few points to fit.
 */
function refineCorners(rough: Point[], outline: Point[]): Point[] | null {
  const lines: Array<{ point: Point; direction: Point }> = []
  for (let k = 0; k < 4; k++) {
    const a = rough[k]
    const b = rough[(k + 1) % 4]
    const length = Math.hypot(b[0] - a[0], b[1] - a[1])
    const d: Point = [(b[0] - a[0]) / length, (b[1] - a[1]) / length]
    const near = outline.filter(([x, y]) => {
      const along = (x - a[0]) * d[0] + (y - a[1]) * d[1]
      const off = Math.abs(-(x - a[0]) * d[1] + (y - a[1]) * d[0])
      return along > length * 0.15 && along < length * 0.85 && off < Math.max(3, length * 0.03)
    })
    if (near.length < 10) return null
    const mx = near.reduce((sum, p) => sum + p[0], 0) / near.length
    const my = near.reduce((sum, p) => sum + p[1], 0) / near.length
    let sxx = 0
    let syy = 0
    let sxy = 0
    for (const [x, y] of near) {
      sxx += (x - mx) ** 2
      syy += (y - my) ** 2
      sxy += (x - mx) * (y - my)
    }
    const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy)
    lines.push({ point: [mx, my], direction: [Math.cos(angle), Math.sin(angle)] })
  }
  const corners: Point[] = []
  for (let k = 0; k < 4; k++) {
    const p = lines[(k + 3) % 4]
    const q = lines[k]
    const det = p.direction[0] * -q.direction[1] - p.direction[1] * -q.direction[0]
    if (Math.abs(det) < 0.2) return null
    const rx = q.point[0] - p.point[0]
    const ry = q.point[1] - p.point[1]
    const t = (rx * -q.direction[1] - ry * -q.direction[0]) / det
    corners.push([p.point[0] + t * p.direction[0], p.point[1] + t * p.direction[1]])
  }
  return corners
}

/** findTray on an RGBA frame: the calibration step's "find it for me". */
export function findTrayInFrame(cv: OpenCv, frame: RgbaFrame): Point[] | null {
  const rgba = new cv.Mat(frame.height, frame.width, cv.CV_8UC4)
  rgba.data.set(frame.data)
  const rgb = new cv.Mat()
  cv.cvtColor(rgba, rgb, cv.COLOR_RGBA2RGB)
  rgba.delete()
  try {
    return findTray(cv, rgb)
  } finally {
    rgb.delete()
  }
}
