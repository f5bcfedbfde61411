// `npx tsx scripts/dice-photos/failures.ts FOLDER [--condition C] [--tray auto]`: for a person
// improving the reader, every photo of FOLDER's manifest that is not read whole, die by die: each
// true die (by its manifest box) with what the reader said about the die whose box is nearest,
// and the readings no true die claims. Ends with the same per-condition counts as --eval.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { decodeImage } from '@main/devices/image-file'
import { scorePhoto, summarize, type PhotoScore } from '@shared/vision/eval'
import { loadOpenCv } from '@shared/vision/load-opencv'
import { parseManifest } from '@shared/vision/manifest'
import { readDiceFrame } from '@shared/vision/reader'
import type { Box } from '@shared/vision/types'

const args = process.argv.slice(2)
const folder = args[0]
const condition = args.includes('--condition') ? args[args.indexOf('--condition') + 1] : null
const auto = args.includes('--tray') && args[args.indexOf('--tray') + 1] === 'auto'
const centre = (box: Box): [number, number] => [box[0] + box[2] / 2, box[1] + box[3] / 2]

async function main(): Promise<void> {
  const { cv } = await loadOpenCv()
  const manifest = parseManifest(readFileSync(join(folder, 'manifest.jsonl'), 'utf8'))
  if (!manifest.ok) throw new Error(`manifest line ${manifest.line}: ${manifest.error}`)
  const byCondition = new Map<string, PhotoScore[]>()
  for (const line of manifest.lines) {
    if (condition && line.condition !== condition) continue
    const frame = decodeImage(readFileSync(join(folder, line.file)))
    const tray = auto || !line.tray ? 'auto' : { polygon: line.tray, width: frame.width, height: frame.height }
    const reading = readDiceFrame(cv, frame, { tray })
    const score = scorePhoto(line.values, reading.dice)
    byCondition.set(line.condition ?? '?', [...(byCondition.get(line.condition ?? '?') ?? []), score])
    if (score.throwRight) continue
    console.log(`${line.file}: right ${score.right}, unread ${score.unread}, wrong ${score.wrong}`)
    const claimed = new Set<number>()
    line.values.forEach((value, index) => {
      const box = line.boxes?.[index]
      if (!box) return
      const [x, y] = centre(box)
      let nearest = -1
      let distance = Infinity
      reading.dice.forEach((die, j) => {
        const d = Math.hypot(centre(die.box)[0] - x, centre(die.box)[1] - y)
        if (d < distance) [nearest, distance] = [j, d]
      })
      const die = nearest >= 0 && distance < box[2] ? reading.dice[nearest] : null
      if (die) claimed.add(nearest)
      const said = die ? `${die.value ?? '-'} @${die.confidence.toFixed(2)}${die.unreadable ? ` (${die.unreadable})` : ''} box ${die.box.join(',')}` : 'nothing'
      const ok = die && ((value === null && (die.value === null || die.confidence < 0.8)) || (die.value === value && die.confidence >= 0.8))
      console.log(`  ${ok ? ' ' : '*'} true ${value ?? '-'} at ${box.join(',')}: ${said}`)
    })
    reading.dice.forEach((die, j) => {
      if (!claimed.has(j)) console.log(`    extra ${die.value ?? '-'} @${die.confidence.toFixed(2)}${die.unreadable ? ` (${die.unreadable})` : ''} box ${die.box.join(',')}`)
    })
  }
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`
  for (const [name, scores] of byCondition) {
    const s = summarize(scores)
    console.log(`${name.padEnd(15)} dice ${String(s.dice).padStart(4)}  right ${pct(s.right.share)} (${pct(s.right.low)}–${pct(s.right.high)})  unread ${pct(s.unread.share)}  wrong ${pct(s.wrongConfident.share)} (${pct(s.wrongConfident.low)}–${pct(s.wrongConfident.high)})  throws ${pct(s.throwsRight.share)}`)
  }
  const s = summarize([...byCondition.values()].flat())
  console.log(`${'all'.padEnd(15)} dice ${String(s.dice).padStart(4)}  right ${pct(s.right.share)} (${pct(s.right.low)}–${pct(s.right.high)})  unread ${pct(s.unread.share)}  wrong ${pct(s.wrongConfident.share)} (${pct(s.wrongConfident.low)}–${pct(s.wrongConfident.high)})  throws ${pct(s.throwsRight.share)}`)
}

void main()
