// The dice reader as a browser Web Worker would run it (bundled by worker.test.ts): a frame in,
// its reading out. Nothing here but the message plumbing: the reader is the app's own module.
import { loadOpenCv } from '@shared/vision/load-opencv'
import { readDiceFrame, type ReadOptions } from '@shared/vision/reader'
import type { RgbaFrame } from '@shared/vision/types'

interface WorkerScope {
  onmessage: ((event: { data: { frame: RgbaFrame; tray: ReadOptions['tray'] } }) => void) | null
  postMessage(message: unknown): void
}
const scope = globalThis as unknown as WorkerScope

scope.onmessage = (event) => {
  void loadOpenCv().then(({ cv }) => {
    const started = performance.now()
    const reading = readDiceFrame(cv, event.data.frame, { tray: event.data.tray })
    scope.postMessage({ reading, ms: performance.now() - started })
  })
}
