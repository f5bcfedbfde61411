// `npx tsx scripts/dice-photos/misses.ts FOLDER [--tray auto|none|strip] [--only TEXT]`: the photos
// of FOLDER/manifest.jsonl not read whole, one line each: the true values, then what was read
// (value@confidence, a die below the sure mark in brackets); then the figures of `--eval`. For tuning the reader on a set
// (`referee dice-photo --eval` gives the totals); `strip` reads with the tray found, ignoring the
// manifest's calibrated one.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { decodeImage } from '@main/devices/image-file'
import { evalSummaryLines } from '@cli/dice-photo-command'
import { scorePhoto, summarize, type PhotoScore } from '@shared/vision/eval'
import { loadOpenCv } from '@shared/vision/load-opencv'
import { parseManifest } from '@shared/vision/manifest'
import { readDiceFrame, type ReadOptions } from '@shared/vision/reader'
import { CONFIDENT } from '@shared/vision/types'

const [folder, ...rest] = process.argv.slice(2)
const option = (name: string): string | undefined => (rest.includes(name) ? rest[rest.indexOf(name) + 1] : undefined)
const trayMode = option('--tray') ?? 'auto'
const only = option('--only')

async function main(): Promise<void> {
  const { cv } = await loadOpenCv()
  const manifest = parseManifest(readFileSync(join(folder, 'manifest.jsonl'), 'utf8'))
  if (!manifest.ok) throw new Error(`manifest line ${manifest.line}: ${manifest.error}`)
  const byCondition = new Map<string, PhotoScore[]>()
  for (const line of manifest.lines) {
    if (only && !line.file.includes(only)) continue
    const frame = decodeImage(readFileSync(join(folder, line.file)))
    const tray: ReadOptions['tray'] = trayMode === 'none' ? 'none' : trayMode === 'auto' && line.tray ? { polygon: line.tray, width: frame.width, height: frame.height } : 'auto'
    const read = readDiceFrame(cv, frame, { tray }).dice
    const score = scorePhoto(line.values, read)
    for (const name of ['all', line.condition ?? '']) if (name) byCondition.set(name, [...(byCondition.get(name) ?? []), score])
    if (score.throwRight) continue
    const shown = read.map((die) => (die.value === null ? `-${die.unreadable ? `(${die.unreadable})` : ''}` : die.confidence >= CONFIDENT ? `${die.value}@${die.confidence}` : `[${die.value}@${die.confidence}]`))
    console.log(`${line.file} ${line.condition ?? ''} truth ${JSON.stringify(line.values)} right ${score.right} wrong ${score.wrong}: ${shown.join(' ')}`)
  }
  for (const [name, scores] of byCondition) console.log(evalSummaryLines(name, summarize(scores)))
}

void main()
