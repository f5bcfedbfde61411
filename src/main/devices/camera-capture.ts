// Capture mode (off by default): a camera throw's frames saved as JPEG photos with the values the
// table confirmed, in a folder with a manifest.jsonl (src/shared/vision/capture.ts), so a club can
// run `referee dice-photo --eval FOLDER` on its own throws. Each manifest line is appended after
// its photo is written, so a crash leaves no line without its photo.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { capturedFileName, capturedManifestLine, type CapturedThrow } from '@shared/vision/capture'
import type { RgbaFrame } from '@shared/vision/types'
import { encodeJpeg } from './image-file'

/**
 * Saves the frames of one throw into `folder` (made if missing); returns the files written. A
 * frame is RGBA pixels (encoded here) or a JPEG already (a screen's camera sends its frames so).
 */
export function saveCapturedThrow(folder: string, frames: Array<RgbaFrame | Uint8Array>, captured: CapturedThrow): string[] {
  mkdirSync(folder, { recursive: true })
  const files: string[] = []
  frames.forEach((frame, index) => {
    const file = capturedFileName(captured, index)
    writeFileSync(join(folder, file), frame instanceof Uint8Array ? frame : encodeJpeg(frame))
    appendFileSync(join(folder, 'manifest.jsonl'), `${capturedManifestLine(captured, index)}\n`)
    files.push(file)
  })
  return files
}
