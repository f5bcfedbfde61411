// The camera as a dice source beside the smart dice, keypads and virtual dice (docs/camera.md,
// "The camera at the table"). A screen with a camera reads the tray in a Web Worker and sends
// each settled reading here; this part decides with the rules' count of dice due
// (judgeCameraReading, src/shared/camera.ts): a sure reading of exactly the dice due is the
// throw; an unsure one is filled into that screen's keypad (one Enter takes it); a tilted die is
// refused. It remembers each camera's tray (the settings) and, in capture mode, saves the frames
// of each throw the table took with the values it took (camera-capture.ts).
import { join } from 'node:path'
import type { MessageLevel, Outcome } from '@shared/api'
import { diceLeftToRight, judgeCameraReading, type CameraDie, type CameraPlan, type CameraReading, type CameraThrowView, type CameraView } from '@shared/camera'
import { actingComputer, offerOf } from '@shared/game'
import type { Box, TrayCalibration } from '@shared/vision/types'
import type { GameTable, TableEvent } from '../core/game/game-table'
import { diskTrouble, type FolderNotWritableError } from '../core/files/durable-files'
import { log } from '../core/files/log'
import type { SettingsStore } from '../core/files/settings'
import type { TypedEntry } from '../core/screens/typed-entry'
import { Signal } from '../core/signal'
import { saveCapturedThrow } from './camera-capture'

/** The screen a reading came from: its keypad gets an unsure reading, its message the words. */
export interface CameraScreen {
  readonly id: string
  readonly entry: TypedEntry
  tell(text: string, level: MessageLevel): void
}

export interface CameraDiceOptions {
  game: GameTable
  settings: SettingsStore
  dataDir: string
  /** Why this process may not write the data folder (capture mode is then refused); null: it may. */
  readOnly?: FolderNotWritableError | null
  now?: () => number
}

/** Where capture mode saves its photos, in the data folder. */
export const CAPTURE_FOLDER = 'captures'
/** Camera throws remembered for capture mode's frames (a screen sends them once the throw is taken). */
const RECENT_THROWS = 8

interface RecentThrow {
  view: CameraThrowView
  screen: string
  reading: CameraReading
  saved: boolean
}

export class CameraDice {
  /** What the screens show of the camera changed. */
  readonly changes = new Signal()
  private readonly recent = new Map<string, RecentThrow>()
  private latest: RecentThrow | null = null
  /** The dice of each camera's last reading, to tell a throw from dice merely taken out of the tray. */
  private readonly lastDice = new Map<string, CameraDie[]>()
  private readonly now: () => number
  private readonly unsubscribe: () => void

  constructor(private readonly options: CameraDiceOptions) {
    this.now = options.now ?? Date.now
    this.unsubscribe = options.game.subscribe((event) => this.onTableEvent(event))
  }

  stop(): void {
    this.unsubscribe()
  }

  get captureFolder(): string {
    return join(this.options.dataDir, CAPTURE_FOLDER)
  }

  /** A screen's reading of the settled dice: taken, filled into that screen's keypad, or refused. */
  read(screen: CameraScreen, reading: CameraReading): Outcome<{ taken: boolean; text: string }> {
    const previous = this.lastDice.get(reading.camera)
    this.lastDice.set(reading.camera, reading.dice)
    // The dice that were there, where they were: some were taken out (kept, set aside), none thrown.
    if (previous && reading.dice.length > 0 && reading.dice.every((die) => previous.some((before) => sameDie(before, die)))) {
      return { ok: true, taken: false, text: 'The dice in the tray did not move: no throw' }
    }
    const plan = this.plan()
    const verdict = judgeCameraReading(reading.dice, plan)
    const inTray = diceLeftToRight(reading.dice.filter((die) => die.unreadable !== 'outside the tray'))
    const view: CameraThrowView = { id: reading.id, camera: reading.camera, dice: inTray, outcome: 'refused', text: '', confirmed: null, by: null, at: this.now() }
    const remembered: RecentThrow = { view, screen: screen.id, reading, saved: false }
    this.remember(remembered)
    const read = describeReading(reading.dice)
    switch (verdict.kind) {
      case 'take': {
        view.outcome = 'taken'
        view.text = `Read by the camera: ${verdict.values.join(' ')}`
        const outcome = this.options.game.submit({ roll: verdict.values }, { kind: 'camera', screen: screen.id, throwId: reading.id, by: 'camera' })
        if (!outcome.ok) {
          view.outcome = 'refused'
          view.text = outcome.error
          this.changes.emit()
          return outcome
        }
        log.info({ camera: reading.camera, screen: screen.id, values: verdict.values, read }, 'a throw read by the camera')
        return { ok: true, taken: true, text: view.text }
      }
      case 'ask': {
        view.outcome = 'asked'
        view.text = verdict.text
        const due = 'due' in plan ? plan.due : 0
        screen.entry.fillIn({ throwId: reading.id, values: verdict.values, complete: verdict.values.length === due })
        screen.tell(verdict.text, 'warning')
        log.info({ camera: reading.camera, screen: screen.id, read }, 'a camera throw asked on the keypad')
        this.changes.emit()
        return { ok: true, taken: false, text: verdict.text }
      }
      case 'refuse':
        view.text = verdict.text
        log.info({ camera: reading.camera, screen: screen.id, read, reason: verdict.text }, 'a camera throw refused')
        this.changes.emit()
        return { ok: false, error: verdict.text }
    }
  }

  /** Remembers (or, with null, forgets) a camera's tray. */
  calibrate(camera: string, calibration: TrayCalibration | null): Outcome {
    const calibrations = { ...this.options.settings.get().cameraCalibrations }
    if (calibration) {
      // The latest last: the file keeps the latest cameras when there are too many.
      delete calibrations[camera]
      calibrations[camera] = calibration
    } else delete calibrations[camera]
    const kept = Object.entries(calibrations).slice(-32)
    return this.updateSettings({ cameraCalibrations: Object.fromEntries(kept) }, 'the tray was not remembered')
  }

  setCapture(on: boolean): Outcome {
    if (on && this.options.readOnly) return { ok: false, error: `Capture mode needs a data folder this app may write: ${this.options.readOnly.message}` }
    return this.updateSettings({ cameraCapture: on }, 'capture mode was not changed')
  }

  /** Capture mode: the frames of a camera throw the table took, saved with the values it took. */
  saveCapture(screen: CameraScreen, id: string, frames: string[]): Outcome<{ files: string[] }> {
    if (!this.options.settings.get().cameraCapture) return { ok: false, error: 'Capture mode is off: the frames were not saved' }
    const remembered = this.recent.get(id)
    if (!remembered || remembered.screen !== screen.id) return { ok: false, error: 'No camera throw of this screen has that id (only the last few are kept)' }
    const { view, reading } = remembered
    if (view.confirmed === null) return { ok: false, error: 'That camera throw was not taken: its frames are saved once it is' }
    if (remembered.saved) return { ok: false, error: 'The frames of that throw are saved already' }
    const jpegs = frames.map((frame) => Buffer.from(frame, 'base64'))
    if (jpegs.some((jpeg) => !isJpeg(jpeg))) return { ok: false, error: 'A frame is not a whole JPEG picture: nothing was saved' }
    let files: string[]
    try {
      files = saveCapturedThrow(this.captureFolder, jpegs, {
        values: view.confirmed,
        time: new Date(view.at),
        camera: reading.camera,
        ...(reading.tray ? { tray: reading.tray } : {})
      })
    } catch (error) {
      const trouble = diskTrouble(error)
      return { ok: false, error: `${trouble.what}: the frames were not saved. ${trouble.remedy}` }
    }
    remembered.saved = true
    log.info({ camera: reading.camera, files: files.length, values: view.confirmed }, 'a camera throw captured')
    return { ok: true, files }
  }

  /** What a screen is shown of the camera (the capture folder on the host's screens only). */
  view(local: boolean): CameraView {
    const settings = this.options.settings.get()
    return {
      calibrations: settings.cameraCalibrations,
      capture: settings.cameraCapture,
      captureFolder: local ? this.captureFolder : null,
      lastThrow: this.latest?.view ?? null
    }
  }

  /** What the rules want of a camera throw now. */
  private plan(): CameraPlan {
    const game = this.options.game.current
    if (!game) return { blocked: 'Start a game first' }
    const offer = offerOf(game)
    if (offer.finished) return { blocked: 'The game is over' }
    const computer = actingComputer(game)
    if (computer !== null) return { blocked: `It is ${game.header.players[computer]}’s turn: the computer plays it` }
    if (offer.diceDue === 0) return { blocked: 'No throw is due now: choose a decision first' }
    return { due: offer.diceDue, throwers: offer.throwers.map((seat) => game.header.players[seat] ?? `Seat ${seat + 1}`) }
  }

  private remember(remembered: RecentThrow): void {
    this.recent.set(remembered.view.id, remembered)
    this.latest = remembered
    while (this.recent.size > RECENT_THROWS) this.recent.delete(this.recent.keys().next().value!)
  }

  /** A camera throw entered (at once, or with Enter on the keypad it was filled into): the values the table took. */
  private onTableEvent(event: TableEvent): void {
    if (event.type !== 'moved' || event.source.kind !== 'camera' || !('roll' in event.move)) return
    const remembered = this.recent.get(event.source.throwId)
    if (!remembered) return
    remembered.view.confirmed = [...event.move.roll]
    remembered.view.by = event.source.by
    remembered.view.outcome = 'taken'
    const corrected = event.source.by === 'camera-corrected'
    remembered.view.text = `${corrected ? 'Corrected by hand' : 'Read by the camera'}: ${event.move.roll.join(' ')}`
    if (corrected) log.info({ camera: remembered.reading.camera, read: describeReading(remembered.reading.dice), values: event.move.roll }, 'a camera throw corrected by hand')
    this.changes.emit()
  }

  private updateSettings(change: Parameters<SettingsStore['update']>[0], notDone: string): Outcome {
    try {
      this.options.settings.update(change)
    } catch (error) {
      const trouble = diskTrouble(error)
      return { ok: false, error: `${trouble.what}: ${notDone}. ${trouble.remedy} try again.` }
    }
    this.changes.emit()
    return { ok: true }
  }
}

/** The same die, not moved: the same value where it was (boxes overlapping by most of their area). */
function sameDie(before: CameraDie, now: CameraDie): boolean {
  return before.value === now.value && before.unreadable === now.unreadable && overlap(before.box, now.box) > 0.6
}

/** The share of the smaller box that the two boxes have in common. */
function overlap(a: Box, b: Box): number {
  const width = Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0])
  const height = Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1])
  if (width <= 0 || height <= 0) return 0
  return (width * height) / Math.max(1, Math.min(a[2] * a[3], b[2] * b[3]))
}

/** A reading for the log: "4 (0.93) 2 (0.88) ? (cocked)". */
function describeReading(dice: readonly CameraDie[]): string {
  return diceLeftToRight(dice)
    .map((die) => (die.value === null ? `? (${die.unreadable ?? 'unread'})` : `${die.value} (${die.confidence.toFixed(2)})`))
    .join(' ')
}

/** A whole JPEG: its start-of-image marker first and end-of-image marker last. */
function isJpeg(bytes: Buffer): boolean {
  return bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[bytes.length - 2] === 0xff && bytes[bytes.length - 1] === 0xd9
}
