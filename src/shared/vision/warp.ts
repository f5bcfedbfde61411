// The tray made flat: cv.warpPerspective's pixels, from maps worked out once per tray.
//
// warpPerspective works out, for every pixel of the flat picture, where it comes from in the
// frame (a division per pixel), then samples there (cv.remap). For one tray those places are the
// same every frame, so they are worked out once, here, the same way OpenCV does (in blocks of 64
// columns, in 1/32 of a pixel, rounded half to even): cv.remap with them gives warpPerspective's
// pixels exactly (test/vision/warp.test.ts), in about half the time (14 → 8 ms of CPU for a
// 1280×720 frame here).
import type { Matrix3 } from './geometry'
import type { OpenCv } from './opencv'
import type { ReadMemory } from './read-memory'

type Mat = InstanceType<OpenCv['Mat']>

const INTER_BITS = 5
const INTER_TAB_SIZE = 1 << INTER_BITS
/** OpenCV's warpPerspective works on blocks of 16 rows by 64 columns (BLOCK_SZ 32). */
const BLOCK_COLUMNS = 64
const INT_MIN = -2147483648
const INT_MAX = 2147483647

/** C's lrint (OpenCV's cvRound): to the nearest integer, halves to the even one. */
function roundHalfEven(value: number): number {
  const floor = Math.floor(value)
  const fraction = value - floor
  if (fraction > 0.5) return floor + 1
  if (fraction < 0.5) return floor
  return floor % 2 === 0 ? floor : floor + 1
}

interface WarpMaps {
  /** Source pixel (x, y), 16-bit pairs: the integer part. */
  xy: Mat
  /** The fraction, an index into OpenCV's interpolation table. */
  fraction: Mat
}

/** The maps of warpPerspective(…, flags = INTER_LINEAR | WARP_INVERSE_MAP) with `workToImage` (3×3, row by row), for a picture of width × height. */
function warpMaps(cv: OpenCv, m: Matrix3, width: number, height: number): WarpMaps {
  const xy = new cv.Mat(height, width, cv.CV_16SC2)
  const fraction = new cv.Mat(height, width, cv.CV_16UC1)
  const xyData = xy.data16S
  const fractionData = fraction.data16U
  const clampShort = (v: number): number => Math.max(-32768, Math.min(32767, v))
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x += BLOCK_COLUMNS) {
      const x0 = m[0] * x + m[1] * y + m[2]
      const y0 = m[3] * x + m[4] * y + m[5]
      const w0 = m[6] * x + m[7] * y + m[8]
      const end = Math.min(BLOCK_COLUMNS, width - x)
      for (let x1 = 0; x1 < end; x1++) {
        let w = w0 + m[6] * x1
        w = w ? INTER_TAB_SIZE / w : 0
        const fx = Math.max(INT_MIN, Math.min(INT_MAX, (x0 + m[0] * x1) * w))
        const fy = Math.max(INT_MIN, Math.min(INT_MAX, (y0 + m[3] * x1) * w))
        const X = Math.max(INT_MIN, Math.min(INT_MAX, roundHalfEven(fx)))
        const Y = Math.max(INT_MIN, Math.min(INT_MAX, roundHalfEven(fy)))
        const i = y * width + x + x1
        xyData[i * 2] = clampShort(X >> INTER_BITS)
        xyData[i * 2 + 1] = clampShort(Y >> INTER_BITS)
        fractionData[i] = (Y & (INTER_TAB_SIZE - 1)) * INTER_TAB_SIZE + (X & (INTER_TAB_SIZE - 1))
      }
    }
  }
  return { xy, fraction }
}

/**
 * cv.warpPerspective(rgb, out, workToImage, width × height, INTER_LINEAR | WARP_INVERSE_MAP,
 * BORDER_REPLICATE): with a memory, from maps kept while the homography and sizes stay the same.
 */
export function warpToWork(cv: OpenCv, rgb: Mat, workToImage: Matrix3, width: number, height: number, memory?: ReadMemory): Mat {
  const image = new cv.Mat()
  if (!memory) {
    const h = cv.matFromArray(3, 3, cv.CV_64F, workToImage)
    cv.warpPerspective(rgb, image, h, new cv.Size(width, height), cv.INTER_LINEAR | cv.WARP_INVERSE_MAP, cv.BORDER_REPLICATE, new cv.Scalar())
    h.delete()
    return image
  }
  const key = `${workToImage.join(',')} ${width}×${height} from ${rgb.cols}×${rgb.rows}`
  const maps = memory.lastingWhile('warp maps', key, () => warpMaps(cv, workToImage, width, height), (kept) => {
    kept.xy.delete()
    kept.fraction.delete()
  })
  cv.remap(rgb, image, maps.xy, maps.fraction, cv.INTER_LINEAR, cv.BORDER_REPLICATE, new cv.Scalar())
  return image
}
