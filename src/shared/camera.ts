// The camera as a dice source (docs/camera.md): what a screen with a camera sends main once the
// dice settled (a reading: each die's value, confidence, box and a small picture), what main makes
// of it, and what the screens are shown. Main decides (src/main/devices/camera-dice.ts) with
// `judgeCameraReading`: the rules' count of dice due against the dice in the tray, every die sure,
// or the reading goes to the keypad filled in. It never guesses a die.
import { listNames } from './dice'
import { CONFIDENT, type Box, type DieValue, type Point, type TrayCalibration, type UnreadableReason } from './vision/types'

/**
 * How a throw the camera saw was entered: read by the camera (taken at once, or confirmed on the
 * keypad), or the camera's reading corrected by hand. The live log and the Camera screen say it;
 * the record does not (its lines hold exactly the move and its time, docs/record-format.md).
 */
export type EnteredBy = 'camera' | 'camera-corrected'

/** How each way of entering reads in the log. */
export const ENTERED_BY_WORDS: Record<EnteredBy, string> = {
  camera: 'Read by the camera',
  'camera-corrected': 'Corrected by hand'
}

/** Limits of what a screen may send of the camera (checked by the screen API's schemas). */
export const CAMERA_LIMITS = {
  /** Dice in one reading (a game has at most 6; a tray may hold more). */
  dice: 24,
  /** One die's picture, as a data: URL (a 64×64 JPEG is 2–4 kB). */
  thumbnailChars: 16_000,
  /** A camera's name (its label, or the browser's id for it). */
  nameChars: 200,
  /** Cameras remembered with a calibration. */
  cameras: 32,
  /** Corners of a tray. */
  corners: 16,
  /** Frames of one throw saved in capture mode, and the size of each (base64 JPEG). */
  frames: 4,
  frameChars: 4_000_000,
  /** The largest frame side, in pixels. */
  side: 8192
} as const

export interface CameraDie {
  value: DieValue | null
  /** 0 to 1; CONFIDENT (0.8) and up is sure. */
  confidence: number
  /** Where the die is in the frame: [x, y, width, height]. */
  box: Box
  unreadable?: UnreadableReason
  /** The die's picture (data:image/jpeg;base64,…), for the screens. */
  thumbnail?: string
}

/** What a screen's camera read once the dice settled (the vote over a few still frames). */
export interface CameraReading {
  /** The screen's own id for this throw (to send its frames with, in capture mode). */
  id: string
  /** Which camera (its calibration's name). */
  camera: string
  /** The frame's size, in pixels. */
  width: number
  height: number
  dice: CameraDie[]
  /** The tray the reader used (calibrated or found), in frame pixels; null: the whole frame. */
  tray: Point[] | null
}

/** A camera throw as the control screens are shown it. */
export interface CameraThrowView {
  id: string
  camera: string
  /** The dice in the tray, left to right. */
  dice: CameraDie[]
  outcome: 'taken' | 'asked' | 'refused'
  /** What the table said of it. */
  text: string
  /** The values the table took for it; null until taken (or never: refused, or entered another way). */
  confirmed: number[] | null
  /** How it was taken: the camera's reading, or corrected by hand. */
  by: EnteredBy | null
  at: number
}

export interface CameraView {
  /** The tray of each camera, by its name. */
  calibrations: Record<string, TrayCalibration>
  /** Capture mode: each confirmed camera throw's frames are saved in the data folder. */
  capture: boolean
  /** Where capture mode saves them (shown on the host's screens only; null elsewhere). */
  captureFolder: string | null
  lastThrow: CameraThrowView | null
}

/** What the rules want now, for a camera throw: how many dice are due, and who throws them. */
export type CameraPlan = { due: number; throwers: string[] } | { blocked: string }

export type CameraVerdict =
  /** Every die sure, as many as are due: the throw, in the dice's order left to right. */
  | { kind: 'take'; values: DieValue[] }
  /** Not taken: the values read (possibly fewer than due) go to the keypad with these words. */
  | { kind: 'ask'; values: DieValue[]; text: string }
  /** Not taken, nothing filled in: the dice must be put right first (or the throw typed). */
  | { kind: 'refuse'; text: string }

/** A reading's dice left to right (then top to bottom): the order a person reads a tray in. */
export function diceLeftToRight<T extends { box: Box }>(dice: readonly T[]): T[] {
  return [...dice].sort((a, b) => a.box[0] + a.box[2] / 2 - (b.box[0] + b.box[2] / 2) || a.box[1] - b.box[1])
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`
}

/**
 * What a camera reading is to the table. Readings (docs/camera.md, "The camera at the table"):
 * - a die outside the tray is not part of the throw (the count is of the dice in the tray);
 * - a cocked die is refused: straightened (the camera reads the tray again when it is still) or
 *   the throw typed;
 * - the tray must hold exactly the dice due: the dice that stay (kept, held) are set aside, out
 *   of the tray, else the camera cannot tell them from the dice thrown, and asks;
 * - every die sure (CONFIDENT) and one thrower: taken; any die unsure or unread, or a duel (the
 *   camera cannot tell whose die is whose), goes to the keypad filled in, left to right.
 */
export function judgeCameraReading(dice: readonly CameraDie[], plan: CameraPlan): CameraVerdict {
  if ('blocked' in plan) return { kind: 'refuse', text: plan.blocked }
  const inTray = diceLeftToRight(dice.filter((die) => die.unreadable !== 'outside the tray'))
  const outside = dice.length - inTray.length
  const besides = outside > 0 ? ` (${count(outside, 'die is', 'dice are')} outside the tray: ${outside === 1 ? 'it does' : 'they do'} not count)` : ''
  const cocked = inTray.filter((die) => die.unreadable === 'cocked').length
  if (cocked > 0) {
    const text = cocked === 1 ? 'A die is tilted: straighten it or type the throw' : `${cocked} dice are tilted: straighten them or type the throw`
    return { kind: 'refuse', text: text + besides }
  }
  if (inTray.length !== plan.due) {
    const sees = `The camera sees ${count(inTray.length, 'die', 'dice')} in the tray and ${count(plan.due, 'die is', 'dice are')} due`
    const what =
      inTray.length > plan.due
        ? 'set the dice that stay aside, out of the tray, or type the throw'
        : inTray.length === 0
          ? 'throw them into the tray, or type the throw'
          : 'throw all of them into the tray, or type the throw'
    return { kind: 'refuse', text: `${sees}: ${what}${besides}` }
  }
  const values = inTray.flatMap((die) => (die.value === null ? [] : [die.value]))
  const sure = inTray.every((die) => die.value !== null && die.confidence >= CONFIDENT)
  if (sure && plan.throwers.length <= 1) return { kind: 'take', values }
  const unread = inTray.length - values.length
  const read = values.join(' ')
  let text: string
  if (unread > 0) {
    const missing = unread === 1 ? 'one die' : `${unread} dice`
    text = values.length > 0 ? `The camera read ${read} and could not read ${missing}: type ${unread === 1 ? 'it' : 'them'}, then Enter` : `The camera could not read the dice: type the throw`
  } else if (!sure) {
    const unsure = inTray.filter((die) => die.confidence < CONFIDENT).map((die) => String(die.value))
    text = `The camera is not sure of the ${listNames(unsure)}: Enter takes ${read}, or type the throw`
  } else {
    text = `Duel: the camera read ${read}, left to right for ${listNames(plan.throwers)}: Enter takes it in that order, or type the throw`
  }
  return { kind: 'ask', values, text: text + besides }
}
