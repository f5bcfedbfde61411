// JPEG and PNG files as RGBA frames for the dice reader, decoded in plain JavaScript (jpeg-js,
// pngjs: pinned, no native build), so the command runs wherever Node does.
import jpeg from 'jpeg-js'
import { PNG } from 'pngjs'
import type { RgbaFrame } from '@shared/vision/types'

/** Photos larger than this are refused rather than decoded (a 50-megapixel photo needs 200 MB). */
const MAX_PIXELS = 50_000_000

export function decodeImage(bytes: Uint8Array): RgbaFrame {
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    const image = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_PIXELS / 1e6, maxMemoryUsageInMB: 1024 })
    return { width: image.width, height: image.height, data: new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length) }
  }
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) {
    const image = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length))
    if (image.width * image.height > MAX_PIXELS) throw new Error(`the picture is ${image.width}×${image.height}, more than ${MAX_PIXELS / 1e6} megapixels`)
    return { width: image.width, height: image.height, data: new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length) }
  }
  throw new Error('not a JPEG or PNG picture')
}

/** A frame as JPEG bytes (for captured throws). */
export function encodeJpeg(frame: RgbaFrame, quality = 90): Buffer {
  return jpeg.encode({ width: frame.width, height: frame.height, data: Buffer.from(frame.data.buffer, frame.data.byteOffset, frame.data.length) }, quality).data
}
