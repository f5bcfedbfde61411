// `npx tsx scripts/dice-photos/pip-debug.ts FILE…`: what the pip-first path (src/shared/vision/
// pips.ts) sees in each photo, read whole (no tray): every spot (X: not taken for a pip), how many
// sets of pips were tried, and the faces found. For tuning it; `failures.ts` gives the readings.
import { readFileSync } from 'node:fs'
import { decodeImage } from '@main/devices/image-file'
import { loadOpenCv } from '@shared/vision/load-opencv'
import { frameToMat } from '@shared/vision/reader'
import { findPipFaces } from '@shared/vision/pips'

async function main(): Promise<void> {
  const { cv } = await loadOpenCv()
  for (const file of process.argv.slice(2)) {
    const frame = decodeImage(readFileSync(file))
    const rgb = frameToMat(cv, frame)
    const scale = Math.min(1, 1000 / Math.max(frame.width, frame.height))
    const image = new cv.Mat()
    cv.resize(rgb, image, new cv.Size(Math.round(frame.width * scale), Math.round(frame.height * scale)), 0, 0, cv.INTER_AREA)
    let tried = 0
    const faces = findPipFaces(cv, image, (what, value) => {
      if (what === 'pips') {
        const v = value as { dark: boolean; pips: Array<{ centre: number[]; radius: number; roundness: number; isPip: boolean }> }
        console.log(file, v.dark ? 'dark' : 'light', v.pips.length, 'pips', v.pips.length < 1000 ? v.pips.map((p) => `${p.centre.map(Math.round).join(',')} r${p.radius.toFixed(1)} o${p.roundness.toFixed(2)}${p.isPip ? "" : " X"}`).join(' | ') : '')
      }
      if (what === 'candidate') tried++
    })
    console.log('  tried', tried, 'faces', faces.map((f) => `${f.value}@${f.confidence.toFixed(2)} at ${f.centre.map(Math.round).join(',')} side ${f.side.toFixed(0)} round ${f.roundness.toFixed(2)}${f.doubtful ? ' doubtful' : ''}`).join('; '))
  }
}
void main()
