// A camera throw, from frames: the scene moves (a throw), settles, and the next few still frames
// are read and voted on. Feed it the latest frame each time it returns (a Web Worker drops the
// frames that came in while it read: reading is what takes the time, ~0.1–0.2 s a frame).
import type { OpenCv } from './opencv'
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
      return wasStill ? { kind: 'moving', time } : null
    }
    if (!this.armed) return null
    if (this.readings.length === 0) this.settledAt = time
    this.readings.push(readDiceFrame(this.cv, frame, { tray: this.options.tray }))
    if (this.readings.length < this.voteFrames) return null
    const reading = voteReadings(this.readings)
    const frames = this.readings.length
    this.readings = []
    this.armed = false
    return { kind: 'throw', reading, settledAt: this.settledAt, readAt: this.now(), frames }
  }
}
