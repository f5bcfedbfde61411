// `referee dice-photo FILE…`: the dice in each photo, one JSON line per file
// {"file", "dice": [{"value": 1-6 or null, "confidence": 0-1, "box": [x, y, w, h]}]}.
// `referee dice-photo --eval FOLDER`: reads every photo of FOLDER's manifest.jsonl and prints how
// many dice were read right, left unread and read wrongly with confidence, and how many throws
// were read whole, each with its 95 % interval, overall and per condition (docs/camera.md).
import { join } from 'node:path'
import { decodeImage } from '@main/devices/image-file'
import { scorePhoto, summarize, type EvalSummary, type PhotoScore, type Share } from '@shared/vision/eval'
import { parseManifest } from '@shared/vision/manifest'
import type { OpenCv } from '@shared/vision/opencv'
import { readDiceFrame, type ReadOptions } from '@shared/vision/reader'
import { CONFIDENT } from '@shared/vision/types'
import { readCommandLine, USAGE_EXIT_STATUS, usageErrorLine } from './command-line'

export const DICE_PHOTO_USAGE = `usage: npm run -s referee -- dice-photo [--tray auto|none] FILE…
       npm run -s referee -- dice-photo --eval FOLDER [--tray auto|none]
  FILE…          JPEG or PNG photos: prints one JSON line per file,
                 {"file", "dice": [{"value": 1-6 or null, "confidence": 0-1, "box": [x, y, w, h]}]}
                 (null: cocked, outside the tray or unclear; a value below ${CONFIDENT} is a guess to confirm)
  --eval FOLDER  reads the photos listed in FOLDER/manifest.jsonl ({"file", "values"} per line) and
                 prints the share of dice read right, left unread and read wrongly with confidence,
                 and of throws read whole, with 95 % intervals, overall and per "condition"
  --tray MODE    auto (default): find the tray, unless the manifest line gives it ("tray");
                 none: read the whole picture`

export interface DicePhotoIo {
  readFile(path: string): Buffer
  stdout(text: string): void
  stderr(text: string): void
}

const percent = (x: number): string => `${(x * 100).toFixed(1)}%`
const interval = (share: Share): string => `${percent(share.share)} (${percent(share.low)}–${percent(share.high)})`

export function evalSummaryLines(name: string, summary: EvalSummary): string {
  return [
    `${name}: ${summary.photos} photos, ${summary.dice} dice`,
    `  dice right           ${interval(summary.right)}`,
    `  dice left unread     ${interval(summary.unread)}`,
    `  dice wrong, confident ${interval(summary.wrongConfident)}`,
    `  throws right         ${interval(summary.throwsRight)}`
  ].join('\n')
}

/**
 * `openCv` brings OpenCV in (the command's entry loads it; tests hand their own), wrapped: the
 * module has a `then` of its own, so a promise of the bare module never settles.
 */
export async function runDicePhoto(args: string[], io: DicePhotoIo, openCv: () => Promise<{ cv: OpenCv }>): Promise<number> {
  const read = readCommandLine('referee dice-photo', DICE_PHOTO_USAGE, args, { eval: { type: 'string' }, tray: { type: 'string' } }, true)
  if (read.kind === 'help') {
    io.stdout(read.text)
    return 0
  }
  if (read.kind === 'error') {
    io.stderr(read.line)
    return USAGE_EXIT_STATUS
  }
  const trayMode = read.values.tray ?? 'auto'
  if (trayMode !== 'auto' && trayMode !== 'none') {
    io.stderr(usageErrorLine('referee dice-photo', `--tray is auto or none, not '${trayMode}'`))
    return USAGE_EXIT_STATUS
  }
  const folder = read.values.eval
  if (folder === undefined && read.positionals.length === 0) {
    io.stderr(usageErrorLine('referee dice-photo', 'give the photos to read, or --eval FOLDER'))
    return USAGE_EXIT_STATUS
  }
  if (folder !== undefined && read.positionals.length > 0) {
    io.stderr(usageErrorLine('referee dice-photo', '--eval reads the photos of its manifest: give no FILE with it'))
    return USAGE_EXIT_STATUS
  }
  const { cv } = await openCv()
  const readPhoto = (path: string, tray: ReadOptions['tray']): ReturnType<typeof readDiceFrame> => readDiceFrame(cv, decodeImage(io.readFile(path)), { tray })
  if (folder === undefined) {
    let status = 0
    for (const file of read.positionals) {
      try {
        const reading = readPhoto(file, trayMode)
        io.stdout(`${JSON.stringify({ file, dice: reading.dice.map(({ value, confidence, box }) => ({ value, confidence, box })) })}\n`)
      } catch (error) {
        io.stderr(`${file}: ${(error as Error).message}\n`)
        status = 1
      }
    }
    return status
  }
  let manifestText: string
  try {
    manifestText = io.readFile(join(folder, 'manifest.jsonl')).toString('utf8')
  } catch (error) {
    io.stderr(`cannot read ${join(folder, 'manifest.jsonl')}: ${(error as Error).message}\n`)
    return 2
  }
  const manifest = parseManifest(manifestText)
  if (!manifest.ok) {
    io.stderr(`${join(folder, 'manifest.jsonl')} line ${manifest.line}: ${manifest.error}\n`)
    return 1
  }
  const byCondition = new Map<string, PhotoScore[]>()
  const all: PhotoScore[] = []
  for (const line of manifest.lines) {
    let score: PhotoScore
    try {
      const frame = decodeImage(io.readFile(join(folder, line.file)))
      const tray: ReadOptions['tray'] = trayMode === 'none' ? 'none' : line.tray ? { polygon: line.tray, width: frame.width, height: frame.height } : 'auto'
      score = scorePhoto(line.values, readDiceFrame(cv, frame, { tray }).dice)
    } catch (error) {
      io.stderr(`${line.file}: ${(error as Error).message}\n`)
      return 1
    }
    all.push(score)
    if (line.condition) byCondition.set(line.condition, [...(byCondition.get(line.condition) ?? []), score])
  }
  io.stdout(`${evalSummaryLines('all', summarize(all))}\n`)
  for (const [condition, scores] of byCondition) io.stdout(`${evalSummaryLines(condition, summarize(scores))}\n`)
  return 0
}
