// A camera throw, from frames: the scene moves (a throw), settles, and the next few still frames
// are read and voted on. Feed it the latest frame each time it returns (a Web Worker drops the
// frames that came in while it read: reading is what takes the time, ~0.1–0.2 s a frame).
// The still frames of one throw share what depends only on the scene (read-memory.ts: the tray
// found, the floor's colour), made from the first of them; the warp maps last as long as the tray.
import type { OpenCv } from './opencv'
import { ReadMemory } from './read-memory'
import { readDiceFrame, type ReadOptions } from './reader'
import { greyGrid, gridDifference, STILL_THRESHOLD } from './stillness'
import type { FrameReading, RgbaFrame } from './types'
import { voteReadings } from './vote'

export interface ThrowReaderOptions {
  tray?: ReadOptions['tray']
  /** Still frames read and voted on for one throw (default 3). */
  voteFrames?: number
  /** Largest change of a grid cell, in grey levels, that still counts as still (default STILL_THRESHOLD). */
  stillThreshold?: number
  /** Read the scene that is there at the start, before anything moved (default true). */
  readAtStart?: boolean
}

export type ThrowEvent =
  | { kind: 'moving'; time: number }
  | { kind: 'throw'; reading: FrameReading; settledAt: number; readAt: number; frames: number }

export class ThrowReader {
  private previous: Float32Array | null = null
  private armed: boolean
  private readings: FrameReading[] = []
  private settledAt = 0
  private readonly voteFrames: number
  private readonly stillThreshold: number
  private readonly memory = new ReadMemory()

  constructor(
    private readonly cv: OpenCv,
    private readonly options: ThrowReaderOptions = {},
    private readonly now: () => number = () => Date.now()
  ) {
    this.voteFrames = options.voteFrames ?? 3
    this.stillThreshold = options.stillThreshold ?? STILL_THRESHOLD
    this.armed = options.readAtStart ?? true
  }

  /** Takes the next frame; says when the scene started moving and when a throw was read. */
  push(frame: RgbaFrame, time = this.now()): ThrowEvent | null {
    const grid = greyGrid(frame)
    const previous = this.previous
    this.previous = grid
    if (previous === null) return null
    if (gridDifference(grid, previous).largest > this.stillThreshold) {
      const wasStill = this.readings.length === 0 && !this.armed
      this.armed = true
      this.readings = []
      this.memory.newScene()
      return wasStill ? { kind: 'moving', time } : null
    }
    if (!this.armed) return null
    if (this.readings.length === 0) {
      this.settledAt = time
      this.memory.newScene()
    }
    this.readings.push(readDiceFrame(this.cv, frame, { tray: this.options.tray, memory: this.memory }))
    if (this.readings.length < this.voteFrames) return null
    const reading = voteReadings(this.readings)
    const frames = this.readings.length
    this.readings = []
    this.armed = false
    this.memory.newScene()
    return { kind: 'throw', reading, settledAt: this.settledAt, readAt: this.now(), frames }
  }

  /** Frees the OpenCV memory it keeps (the warp maps, a scene's floor): call when done with it. */
  dispose(): void {
    this.memory.forget()
  }
}
