// `npx tsx scripts/dice-photos/failures.ts FOLDER [--tray auto|none] [--condition C] [--only TEXT]`:
// for a person improving the reader, every photo of FOLDER's manifest that is not read whole. With
// the manifest's boxes (renders), die by die: each true die with what the reader said about the
// die whose box is nearest, and the readings no true die claims; without (real photos), the true
// values and every reading (value@confidence, a die below the sure mark in brackets). Ends with
// the figures of `--eval` per condition. The tray is the manifest's calibrated one unless --tray
// says otherwise (auto: found by the reader; none: the whole picture).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { decodeImage } from '@main/devices/image-file'
import { evalSummaryLines } from '@cli/dice-photo-command'
import { scorePhoto, summarize, type PhotoScore } from '@shared/vision/eval'
import { loadOpenCv } from '@shared/vision/load-opencv'
import { parseManifest } from '@shared/vision/manifest'
import { readDiceFrame, type ReadOptions } from '@shared/vision/reader'
import { CONFIDENT, type Box, type DieReading } from '@shared/vision/types'

const [folder, ...rest] = process.argv.slice(2)
const option = (name: string): string | undefined => (rest.includes(name) ? rest[rest.indexOf(name) + 1] : undefined)
const trayMode = option('--tray')
const condition = option('--condition')
const only = option('--only')
const centre = (box: Box): [number, number] => [box[0] + box[2] / 2, box[1] + box[3] / 2]
const said = (die: DieReading): string => `${die.value ?? '-'} @${die.confidence.toFixed(2)}${die.unreadable ? ` (${die.unreadable})` : ''} box ${die.box.join(',')}`

function dieByDie(values: (number | null)[], boxes: Box[], dice: DieReading[]): void {
  const claimed = new Set<number>()
  values.forEach((value, index) => {
    const box = boxes[index]
    const [x, y] = centre(box)
    let nearest = -1
    let distance = Infinity
    dice.forEach((die, j) => {
      const d = Math.hypot(centre(die.box)[0] - x, centre(die.box)[1] - y)
      if (d < distance) [nearest, distance] = [j, d]
    })
    const die = nearest >= 0 && distance < box[2] ? dice[nearest] : null
    if (die) claimed.add(nearest)
    const ok = die && ((value === null && (die.value === null || die.confidence < CONFIDENT)) || (die.value === value && die.confidence >= CONFIDENT))
    console.log(`  ${ok ? ' ' : '*'} true ${value ?? '-'} at ${box.join(',')}: ${die ? said(die) : 'nothing'}`)
  })
  dice.forEach((die, j) => {
    if (!claimed.has(j)) console.log(`    extra ${said(die)}`)
  })
}

async function main(): Promise<void> {
  const { cv } = await loadOpenCv()
  const manifest = parseManifest(readFileSync(join(folder, 'manifest.jsonl'), 'utf8'))
  if (!manifest.ok) throw new Error(`manifest line ${manifest.line}: ${manifest.error}`)
  const byCondition = new Map<string, PhotoScore[]>()
  for (const line of manifest.lines) {
    if ((condition && line.condition !== condition) || (only && !line.file.includes(only))) continue
    const frame = decodeImage(readFileSync(join(folder, line.file)))
    const tray: ReadOptions['tray'] = trayMode === 'none' ? 'none' : trayMode === 'auto' || !line.tray ? 'auto' : { polygon: line.tray, width: frame.width, height: frame.height }
    const { dice } = readDiceFrame(cv, frame, { tray })
    const score = scorePhoto(line.values, dice)
    for (const name of ['all', line.condition ?? '']) if (name) byCondition.set(name, [...(byCondition.get(name) ?? []), score])
    if (score.throwRight) continue
    console.log(`${line.file} ${line.condition ?? ''}: true ${JSON.stringify(line.values)}, right ${score.right}, unread ${score.unread}, wrong ${score.wrong}`)
    if (line.boxes) dieByDie(line.values, line.boxes, dice)
    else console.log(`    read ${dice.map((die) => (die.value === null ? `-${die.unreadable ? `(${die.unreadable})` : ''}` : die.confidence >= CONFIDENT ? `${die.value}@${die.confidence}` : `[${die.value}@${die.confidence}]`)).join(' ')}`)
  }
  for (const [name, scores] of byCondition) console.log(evalSummaryLines(name, summarize(scores)))
}

void main()
