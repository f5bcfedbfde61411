// Dice reading speed (docs/camera.md): how long one 1280×720 frame takes to read, and how long
// after the dice settle a throw is read (three still frames read and voted on, as the camera
// source does). `npx tsx bench/vision.ts [FOLDER]` (default: the rendered test photos). Prints
// wall time and this process's CPU time: on a shared machine the load stretches the first.
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { decodeImage } from '@main/devices/image-file'
import { parseManifest } from '@shared/vision/manifest'
import { loadOpenCv } from '@shared/vision/load-opencv'
import { readDiceFrame } from '@shared/vision/reader'
import { ThrowReader } from '@shared/vision/throw-reader'
import type { RgbaFrame } from '@shared/vision/types'
import { repoPath } from '@test/kit/root'

const quantile = (values: number[], q: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]
const figures = (values: number[]): string => `median ${quantile(values, 0.5).toFixed(0)} ms, p95 ${quantile(values, 0.95).toFixed(0)} ms, max ${Math.max(...values).toFixed(0)} ms`

function shifted(frame: RgbaFrame, shift: number): RgbaFrame {
  const data = new Uint8ClampedArray(frame.data.length)
  const row = frame.width * 4
  for (let y = 0; y < frame.height; y++) data.set(frame.data.subarray(y * row, (y + 1) * row - shift * 4), y * row + shift * 4)
  return { width: frame.width, height: frame.height, data }
}

export async function benchVision(folder = repoPath('test', 'fixtures', 'dice-photos')): Promise<void> {
  let started = performance.now()
  const { cv } = await loadOpenCv()
  console.log(`OpenCV loaded in ${(performance.now() - started).toFixed(0)} ms`)
  const manifest = parseManifest(readFileSync(join(folder, 'manifest.jsonl'), 'utf8'))
  if (!manifest.ok) throw new Error(`manifest line ${manifest.line}: ${manifest.error}`)
  const photos = manifest.lines.map((line) => ({ line, frame: decodeImage(readFileSync(join(folder, line.file))) }))
  const sizes = new Set(photos.map(({ frame }) => `${frame.width}×${frame.height}`))
  console.log(`${photos.length} photos (${[...sizes].join(', ')}), load average ${loadavg()[0].toFixed(1)} on this machine`)
  // Warm up (the first reads compile the JavaScript paths).
  for (const { line, frame } of photos.slice(0, 3)) readDiceFrame(cv, frame, { tray: line.tray ? { polygon: line.tray, width: frame.width, height: frame.height } : 'auto' })
  for (const mode of ['calibrated tray', 'tray found'] as const) {
    const wall: number[] = []
    const cpu: number[] = []
    for (const { line, frame } of photos) {
      const tray = mode === 'calibrated tray' && line.tray ? { polygon: line.tray, width: frame.width, height: frame.height } : 'auto'
      const cpuBefore = process.cpuUsage()
      started = performance.now()
      readDiceFrame(cv, frame, { tray })
      wall.push(performance.now() - started)
      const used = process.cpuUsage(cpuBefore)
      cpu.push((used.user + used.system) / 1000)
    }
    console.log(`One frame read (${mode}): wall ${figures(wall)}; CPU ${figures(cpu)}`)
  }
  // Each photo a tray of its own: the first throw after calibrating (the warp maps made while
  // reading it), then a second throw on the same tray, as every later throw at the table.
  const times = { first: { wall: [] as number[], cpu: [] as number[] }, later: { wall: [] as number[], cpu: [] as number[] } }
  for (const { line, frame } of photos) {
    const reader = new ThrowReader(cv, { tray: line.tray ? { polygon: line.tray, width: frame.width, height: frame.height } : 'auto', readAtStart: false })
    for (const which of ['first', 'later'] as const) {
      reader.push(shifted(frame, 30))
      reader.push(shifted(frame, 10))
      const cpuBefore = process.cpuUsage()
      started = performance.now()
      let event = null
      // From the first frame showing the settled dice: it differs from the frame before (still
      // moving), the next three are still, each read as it comes, and the third ends the throw.
      for (let i = 0; i < 4 && event?.kind !== 'throw'; i++) event = reader.push(frame)
      if (event?.kind !== 'throw') throw new Error(`${line.file}: no throw after three still frames`)
      times[which].wall.push(performance.now() - started)
      const used = process.cpuUsage(cpuBefore)
      times[which].cpu.push((used.user + used.system) / 1000)
    }
    reader.dispose()
  }
  const about = 'first settled frame, then 3 still frames read and voted; calibrated tray; frame waits not counted, 33 ms each at 30 fps'
  console.log(`Settled to throw read (${about}), first throw on a tray: wall ${figures(times.first.wall)}; CPU ${figures(times.first.cpu)}`)
  console.log(`Settled to throw read, a later throw on the same tray: wall ${figures(times.later.wall)}; CPU ${figures(times.later.cpu)}`)
  console.log(`Load average ${loadavg()[0].toFixed(1)} at the end`)
}

if (require.main === module) void benchVision(process.argv[2]).then(() => process.exit(0))
