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
    let candidates = 0
    const t0 = process.cpuUsage()
    for (let k = 0; k < 3; k++) findPipFaces(cv, image, (what) => { if (what === 'candidate') candidates++ })
    const t = process.cpuUsage(t0)
    const grey = new cv.Mat()
    cv.cvtColor(image, grey, cv.COLOR_RGB2GRAY)
    const t1 = process.cpuUsage()
    for (let k = 0; k < 3; k++) {
      const hat = new cv.Mat()
      const kernel = cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(Number(process.env.K), Number(process.env.K)))
      cv.morphologyEx(grey, hat, cv.MORPH_BLACKHAT, kernel)
      hat.delete(); kernel.delete()
    }
    const u = process.cpuUsage(t1)
    console.log(file, 'pips path', ((t.user + t.system) / 3000).toFixed(0), 'ms', candidates / 3, 'candidates; one blackhat', ((u.user + u.system) / 3000).toFixed(0), 'ms')
  }
}
void main()
