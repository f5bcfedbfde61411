// Finding the tray without a calibration: the tray's floor is the large even-coloured region in
// the middle of the picture. Its colour is the median of the picture's central part (dice cover
// little of it); the pixels near that colour joined to the centre, holes (dice) filled, give a
// region whose convex hull, simplified to four corners, is the tray. When that region is too
// small, not four-cornered or not convex enough, there is no tray (the caller reads the whole
// frame, or asks the person to mark it).
import { polygonArea } from './geometry'
import type { OpenCv } from './opencv'
import type { Point, RgbaFrame } from './types'

type Mat = InstanceType<OpenCv['Mat']>

/** The tray's four corners in an RGB picture (as OpenCV's Mat), or null when it cannot be found. */
export function findTray(cv: OpenCv, rgb: Mat): Point[] | null {
  const scale = 320 / Math.max(rgb.cols, rgb.rows)
  const small = new cv.Mat()
  cv.resize(rgb, small, new cv.Size(Math.round(rgb.cols * scale), Math.round(rgb.rows * scale)), 0, 0, cv.INTER_AREA)
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
  const floor = channels.map((values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)])
  const mask = new cv.Mat(height, width, cv.CV_8UC1)
  const maskData = mask.data
  for (let i = 0, j = 0; i < width * height; i++, j += 3) {
    const d = Math.hypot((labData[j] - floor[0]) * 0.5, labData[j + 1] - floor[1], labData[j + 2] - floor[2])
    maskData[i] = d < 16 ? 255 : 0
  }
  lab.delete()
  const kernel = cv.getStructuringElement(cv.MORPH_ELLIPSE, new cv.Size(7, 7))
  cv.morphologyEx(mask, mask, cv.MORPH_CLOSE, kernel)
  kernel.delete()
  const contours = new cv.MatVector()
  const hierarchy = new cv.Mat()
  cv.findContours(mask, contours, hierarchy, cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE)
  mask.delete()
  hierarchy.delete()
  let best: Point[] | null = null
  let bestArea = 0
  for (let i = 0; i < contours.size(); i++) {
    const contour = contours.get(i)
    const area = cv.contourArea(contour)
    if (area < width * height * 0.15 || area <= bestArea) {
      contour.delete()
      continue
    }
    const hull = new cv.Mat()
    cv.convexHull(contour, hull, false, true)
    const hullArea = cv.contourArea(hull)
    const perimeter = cv.arcLength(hull, true)
    let corners: Point[] | null = null
    for (const share of [0.02, 0.03, 0.045, 0.06]) {
      const approx = new cv.Mat()
      cv.approxPolyDP(hull, approx, share * perimeter, true)
      if (approx.rows === 4) corners = Array.from({ length: 4 }, (_, k) => [approx.data32S[2 * k] / scale, approx.data32S[2 * k + 1] / scale] as Point)
      approx.delete()
      if (corners) break
    }
    hull.delete()
    contour.delete()
    if (!corners || area / hullArea < 0.85) continue
    // The four corners must cover the region: a region cut to four corners far inside it is not a tray.
    if (polygonArea(corners) < hullArea / (scale * scale) * 0.85) continue
    best = corners
    bestArea = area
  }
  contours.delete()
  return best
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
