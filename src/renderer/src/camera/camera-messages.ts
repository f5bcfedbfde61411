// What the page and its camera worker (camera.worker.ts) say to each other. The page sends the
// latest video frame each time the worker asks for one (frames that come meanwhile are never
// queued: reading is what takes the time); the worker answers with what it saw.
import type { CameraDie } from '@shared/camera'
import type { Point, TrayCalibration } from '@shared/vision/types'

export type ToCameraWorker =
  /** The tray to read in (the camera's calibration, or found in each frame), and whether to keep the frames of a throw. */
  | { type: 'configure'; tray: TrayCalibration | 'auto'; capture: boolean }
  /** The next frame of the watch for a throw; `time` is when it was grabbed (ms since 1970). */
  | { type: 'frame'; bitmap: ImageBitmap; time: number }
  /** A frame to read now, as it is (the calibration's test throw). */
  | { type: 'test'; bitmap: ImageBitmap }
  /** A frame to find the tray in. */
  | { type: 'find-tray'; bitmap: ImageBitmap }

/** A reading with each die's picture, in the frame's pixels. */
export interface WorkerReading {
  dice: CameraDie[]
  tray: Point[] | null
  width: number
  height: number
}

export type FromCameraWorker =
  /** OpenCV is loaded: frames may come. */
  | { type: 'ready'; loadMs: number }
  | { type: 'failed'; error: string }
  /** Done with a frame: the next one, please. */
  | { type: 'next' }
  /** The scene started moving (a throw, a hand). */
  | { type: 'moving'; time: number }
  /**
   * The dice settled and were read: `settledAt` the first still frame's time, `readAt` when the
   * vote was done, `readMs` the time each frame's reading took; `frames` the frames voted on, as
   * JPEG, when capture mode is on.
   */
  | { type: 'throw'; reading: WorkerReading; settledAt: number; readAt: number; readMs: number[]; frames: Blob[] | null }
  | { type: 'tested'; reading: WorkerReading; ms: number }
  | { type: 'tray'; corners: Point[] | null; width: number; height: number }
