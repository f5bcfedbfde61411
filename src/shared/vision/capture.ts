// Capture mode's record of a camera throw: the frames are saved as photos and each gets a line of
// manifest.jsonl with the values the table confirmed, so a club's own throws become a photo set
// for `referee dice-photo --eval` (the Node side that writes the files is
// src/main/devices/camera-capture.ts).
import { manifestLineText, type PhotoManifestLine } from './manifest'
import type { Point } from './types'

export interface CapturedThrow {
  /** The values the table confirmed, one per die in the tray (null for a die the table had re-thrown, e.g. cocked). */
  values: Array<number | null>
  /** When the throw settled. */
  time: Date
  /** Which camera (as the calibration names it). */
  camera: string
  /** The calibrated tray, if any, in the saved frames' pixels. */
  tray?: Point[]
}

/** The file name of frame `index` of a throw: sortable by time, safe on every file system. */
export function capturedFileName(captured: CapturedThrow, index: number): string {
  return `throw-${captured.time.toISOString().replace(/[:.]/g, '-')}-${index + 1}.jpg`
}

/** The manifest line of one saved frame (no newline). */
export function capturedManifestLine(captured: CapturedThrow, index: number): string {
  const line: PhotoManifestLine = { file: capturedFileName(captured, index), values: captured.values, time: captured.time.toISOString(), camera: captured.camera }
  if (captured.tray) line.tray = captured.tray
  return manifestLineText(line)
}
