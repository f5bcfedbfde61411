// The camera's reader, off the page's main thread (the scoreboard and the keypad stay smooth): a
// Web Worker that loads OpenCV's WebAssembly build once and runs the dice reader of
// src/shared/vision on each frame the page hands it (ThrowReader: stillness, then a vote over
// three still frames). It answers with each settled throw, each die's picture cut out of the
// frame, and, in capture mode, the frames voted on as JPEG.
import { loadOpenCv } from '@shared/vision/load-opencv'
import type { OpenCv } from '@shared/vision/opencv'
import { readDiceFrame } from '@shared/vision/reader'
import { ThrowReader } from '@shared/vision/throw-reader'
import { findTrayInFrame } from '@shared/vision/tray'
import type { Box, FrameReading, RgbaFrame, TrayCalibration } from '@shared/vision/types'
import type { FromCameraWorker, ToCameraWorker, WorkerReading } from './camera-messages'

interface WorkerScope {
  onmessage: ((event: MessageEvent<ToCameraWorker>) => void) | null
  postMessage(message: FromCameraWorker): void
}
const scope = globalThis as unknown as WorkerScope

/** Frames voted on for one throw. */
const VOTE_FRAMES = 3
/** A die's picture: this many pixels a side, cut with a margin around its box. */
const THUMBNAIL_SIDE = 56

let cv: OpenCv | null = null
let reader: ThrowReader | null = null
let tray: TrayCalibration | 'auto' = 'auto'
let capture = false
/** The latest frames pushed (the ones a throw was voted on) and how long each push took. */
const recent: Array<{ bitmap: ImageBitmap; ms: number }> = []
const canvas = new OffscreenCanvas(1, 1)
const context = canvas.getContext('2d', { willReadFrequently: true })!

function post(message: FromCameraWorker): void {
  scope.postMessage(message)
}

function pixels(bitmap: ImageBitmap): RgbaFrame {
  if (canvas.width !== bitmap.width || canvas.height !== bitmap.height) {
    canvas.width = bitmap.width
    canvas.height = bitmap.height
  }
  context.drawImage(bitmap, 0, 0)
  const image = context.getImageData(0, 0, bitmap.width, bitmap.height)
  return { width: image.width, height: image.height, data: image.data }
}

function newReader(): ThrowReader {
  // Not at start: dice lying in the tray when the camera starts are the last throw's, not a new one.
  return new ThrowReader(cv!, { tray, voteFrames: VOTE_FRAMES, readAtStart: false })
}

async function base64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer())
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

/** Each die's picture, cut out of the frame (a square around its box). */
async function thumbnail(bitmap: ImageBitmap, box: Box): Promise<string> {
  const side = Math.max(box[2], box[3]) * 1.3
  const cx = box[0] + box[2] / 2
  const cy = box[1] + box[3] / 2
  const cut = new OffscreenCanvas(THUMBNAIL_SIDE, THUMBNAIL_SIDE)
  cut.getContext('2d')!.drawImage(bitmap, cx - side / 2, cy - side / 2, side, side, 0, 0, THUMBNAIL_SIDE, THUMBNAIL_SIDE)
  return `data:image/jpeg;base64,${await base64(await cut.convertToBlob({ type: 'image/jpeg', quality: 0.75 }))}`
}

async function withThumbnails(reading: FrameReading, bitmap: ImageBitmap): Promise<WorkerReading> {
  const dice = await Promise.all(reading.dice.map(async (die) => ({ ...die, thumbnail: await thumbnail(bitmap, die.box) })))
  return { dice, tray: reading.tray, width: bitmap.width, height: bitmap.height }
}

async function asJpeg(bitmap: ImageBitmap): Promise<Blob> {
  const whole = new OffscreenCanvas(bitmap.width, bitmap.height)
  whole.getContext('2d')!.drawImage(bitmap, 0, 0)
  return whole.convertToBlob({ type: 'image/jpeg', quality: 0.9 })
}

async function onFrame(bitmap: ImageBitmap, time: number): Promise<void> {
  const started = performance.now()
  const event = reader!.push(pixels(bitmap), time)
  recent.push({ bitmap, ms: performance.now() - started })
  while (recent.length > VOTE_FRAMES) recent.shift()!.bitmap.close()
  if (event?.kind === 'moving') post({ type: 'moving', time: event.time })
  if (event?.kind === 'throw') {
    const voted = recent.slice(-event.frames)
    const reading = await withThumbnails(event.reading, bitmap)
    const frames = capture ? await Promise.all(voted.map((frame) => asJpeg(frame.bitmap))) : null
    post({ type: 'throw', reading, settledAt: event.settledAt, readAt: event.readAt, readMs: voted.map((frame) => frame.ms), frames })
  }
}

async function onMessage(message: ToCameraWorker): Promise<void> {
  switch (message.type) {
    case 'configure':
      tray = message.tray
      capture = message.capture
      if (cv) {
        reader?.dispose()
        reader = newReader()
      }
      return
    case 'frame':
      if (!cv) return message.bitmap.close()
      await onFrame(message.bitmap, message.time)
      return post({ type: 'next' })
    case 'test': {
      if (!cv) return message.bitmap.close()
      const started = performance.now()
      const reading = readDiceFrame(cv, pixels(message.bitmap), { tray })
      const ms = performance.now() - started
      post({ type: 'tested', reading: await withThumbnails(reading, message.bitmap), ms })
      return message.bitmap.close()
    }
    case 'find-tray': {
      if (!cv) return message.bitmap.close()
      const corners = findTrayInFrame(cv, pixels(message.bitmap))
      post({ type: 'tray', corners, width: message.bitmap.width, height: message.bitmap.height })
      return message.bitmap.close()
    }
  }
}

// Messages are handled one at a time, in order (a frame's reading finishes before the next message).
let queue: Promise<void> = Promise.resolve()
scope.onmessage = (event) => {
  queue = queue.then(() => onMessage(event.data)).catch((error: unknown) => post({ type: 'failed', error: error instanceof Error ? error.message : String(error) }))
}

const loadStarted = performance.now()
queue = queue.then(async () => {
  try {
    cv = (await loadOpenCv()).cv
    reader = newReader()
    post({ type: 'ready', loadMs: performance.now() - loadStarted })
  } catch (error) {
    post({ type: 'failed', error: `The dice reader could not start: ${error instanceof Error ? error.message : String(error)}` })
  }
})
