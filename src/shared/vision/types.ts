// The shapes the dice reader works with. A frame is plain RGBA pixels, never a DOM object, so the
// same reader runs in Node (tests, the `referee` command) and in a browser Web Worker.

/** An image: `data` holds width × height × 4 bytes, RGBA, row by row. */
export interface RgbaFrame {
  width: number
  height: number
  data: Uint8ClampedArray
}

/** A point in a frame, in pixels: [x, y]. */
export type Point = [number, number]

/** [x, y, width, height] in the frame's pixels. */
export type Box = [number, number, number, number]

export type DieValue = 1 | 2 | 3 | 4 | 5 | 6

/** Why a die found in the picture has no value. */
export const UNREADABLE_REASONS = ['cocked', 'outside the tray', 'on the tray edge', 'pips unclear', 'not a die face', 'frames disagree'] as const
export type UnreadableReason = (typeof UNREADABLE_REASONS)[number]

export interface DieReading {
  /** The face up, or null when the die cannot be read (cocked, outside the tray, hidden, unclear). */
  value: DieValue | null
  /** 0 to 1: how sure the reader is of `value` (see CONFIDENT). A null value has confidence 0. */
  confidence: number
  /** Where the die is in the frame. */
  box: Box
  /** Why value is null (absent when the die was read). */
  unreadable?: UnreadableReason
}

export interface FrameReading {
  dice: DieReading[]
  /** The tray used, in frame pixels (calibrated or found), or null when the whole frame was read. */
  tray: Point[] | null
}

/**
 * The camera's calibration, kept per camera: the tray's inner corners as the camera sees them
 * (clockwise from any corner, usually four), measured at `width` × `height` (frames of another
 * size are scaled to it). Dice are read only inside this polygon; a die across its edge or
 * outside it is reported with value null.
 */
export interface TrayCalibration {
  polygon: Point[]
  width: number
  height: number
}

/** A reading is taken as the throw without asking when every die is at least this sure. */
export const CONFIDENT = 0.8
