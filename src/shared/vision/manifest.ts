// A folder of dice photos with their true values: manifest.jsonl, one JSON object per line,
// {"file": "name.jpg", "values": [3, 5, null]} (null: a die that must be left unread, cocked or
// outside the tray). `referee dice-photo --eval` reads it; the camera's capture mode writes it
// (capture.ts); the rendered test sets add what the scene was (condition, tray, boxes).
import * as v from 'valibot'
import type { Point } from './types'

const ManifestLineSchema = v.object({
  file: v.pipe(v.string(), v.minLength(1), v.maxLength(400)),
  values: v.pipe(v.array(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(6)))), v.maxLength(100)),
  /** What kind of scene (the rendered sets: top-down, tilted...); eval gives figures per condition. */
  condition: v.optional(v.pipe(v.string(), v.maxLength(100))),
  /** The tray's inner corners in the photo, as calibrated (eval reads with this tray when present). */
  tray: v.optional(v.pipe(v.array(v.tuple([v.number(), v.number()])), v.minLength(3), v.maxLength(64))),
  /** Where each die is in the photo ([x, y, w, h], in the order of values), where known. */
  boxes: v.optional(v.array(v.tuple([v.number(), v.number(), v.number(), v.number()]))),
  /** When the throw was captured (ISO 8601), for captured throws. */
  time: v.optional(v.string()),
  /** The camera that took it, for captured throws. */
  camera: v.optional(v.string())
})

export interface PhotoManifestLine {
  file: string
  values: Array<number | null>
  condition?: string
  tray?: Point[]
  boxes?: Array<[number, number, number, number]>
  time?: string
  camera?: string
}

/** One manifest line as text (no newline). */
export function manifestLineText(line: PhotoManifestLine): string {
  return JSON.stringify(line)
}

/** Reads a manifest.jsonl; a bad line is refused with its number and what is wrong. */
export function parseManifest(text: string): { ok: true; lines: PhotoManifestLine[] } | { ok: false; line: number; error: string } {
  const lines: PhotoManifestLine[] = []
  const rows = text.split('\n')
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index].trim()
    if (row === '') continue
    let value: unknown
    try {
      value = JSON.parse(row)
    } catch {
      return { ok: false, line: index + 1, error: 'not JSON' }
    }
    const result = v.safeParse(ManifestLineSchema, value, { abortEarly: true })
    if (!result.success) {
      const issue = result.issues[0]
      const path = v.getDotPath(issue)
      return { ok: false, line: index + 1, error: `${path ? `${path}: ` : ''}${issue.message}` }
    }
    if (result.output.boxes && result.output.boxes.length !== result.output.values.length) {
      return { ok: false, line: index + 1, error: 'boxes: one box for each value is needed' }
    }
    lines.push(result.output as PhotoManifestLine)
  }
  return { ok: true, lines }
}
