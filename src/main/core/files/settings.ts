// The settings (settings.json in the data folder): conveniences, read the way every file the app
// owns is (owned-files.ts). A damaged file is kept aside and what can still be read of it is kept.
// In a folder this process may not write (opened read-only), a change holds until the app stops.
import { basename, join } from 'node:path'
import * as v from 'valibot'
import { CAMERA_LIMITS } from '@shared/camera'
import type { TrayCalibration } from '@shared/vision/types'
import type { FolderNotWritableError } from './durable-files'
import { readOwnedFile, writeOwnedFile } from './owned-files'

export interface Settings {
  recentPlayers: string[]
  /** The display the scoreboard opens on (Electron), by id. */
  scoreboardDisplayId: number | null
  /** The table screen shows the odds of each decision. */
  showOdds: boolean
  /**
   * Smart dice put in or out of the game on the Devices tab, keyed `SERIAL/DIE` (the hub's hello
   * serial and the die's id). A die not listed is in the game.
   */
  dieAssignments: Record<string, boolean>
  /** The tray as each camera sees it (its corners), by the camera's name (its label, or the browser's id for it). */
  cameraCalibrations: Record<string, TrayCalibration>
  /** Capture mode: each confirmed camera throw's frames are saved in the data folder (off by default). */
  cameraCapture: boolean
}

const DEFAULTS: Settings = { recentPlayers: [], scoreboardDisplayId: null, showOdds: false, dieAssignments: {}, cameraCalibrations: {}, cameraCapture: false }
const MAX_RECENT_PLAYERS = 24
/** `SERIAL/DIE`: a device id from a hello (as dispatch checks it) and a die id. */
const DIE_ASSIGNMENT_KEY = /^[A-Za-z0-9._+#-]{1,24}\/[A-Za-z0-9]{1,8}$/
const MAX_DIE_ASSIGNMENTS = 512

/** The die assignments of a settings file: well-formed keys with true or false, the rest left out. */
export function checkDieAssignments(value: unknown): Record<string, boolean> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {}
  const entries = Object.entries(value as Record<string, unknown>).filter(
    (entry): entry is [string, boolean] => DIE_ASSIGNMENT_KEY.test(entry[0]) && typeof entry[1] === 'boolean'
  )
  return Object.fromEntries(entries.slice(-MAX_DIE_ASSIGNMENTS))
}

/** A camera's tray as the settings file keeps it: 3 to 16 corners inside a frame of a sane size. */
const coordinate = v.pipe(v.number(), v.finite(), v.minValue(-CAMERA_LIMITS.side), v.maxValue(2 * CAMERA_LIMITS.side))
const frameSide = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(CAMERA_LIMITS.side))
const trayCalibration = v.object({
  polygon: v.pipe(v.array(v.tuple([coordinate, coordinate])), v.minLength(3), v.maxLength(CAMERA_LIMITS.corners)),
  width: frameSide,
  height: frameSide
})
const cameraName = v.pipe(v.string(), v.minLength(1), v.maxLength(CAMERA_LIMITS.nameChars))

/** The camera calibrations of a settings file: well-formed ones only, at most CAMERA_LIMITS.cameras (the latest). */
export function checkCameraCalibrations(value: unknown): Record<string, TrayCalibration> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {}
  const entries = Object.entries(value as Record<string, unknown>).flatMap(([name, calibration]): Array<[string, TrayCalibration]> => {
    const parsed = v.safeParse(trayCalibration, calibration)
    if (!v.is(cameraName, name) || !parsed.success) return []
    const { polygon, width, height } = parsed.output
    return [[name, { polygon: polygon.map(([x, y]) => [x, y]), width, height }]]
  })
  return Object.fromEntries(entries.slice(-CAMERA_LIMITS.cameras))
}

const settingsFile = v.object({
  recentPlayers: v.optional(v.array(v.string())),
  scoreboardDisplayId: v.optional(v.nullable(v.number())),
  showOdds: v.optional(v.boolean()),
  dieAssignments: v.optional(v.record(v.string(), v.boolean())),
  cameraCalibrations: v.optional(v.record(cameraName, trayCalibration)),
  cameraCapture: v.optional(v.boolean())
})

export class SettingsStore {
  private readonly path: string
  private settings: Settings
  /** Changes are held in memory only: the folder was opened read-only, or a damaged file could not be moved aside (never written over). */
  private readonly holdOnly: boolean
  /** What was wrong with the settings file at start, for the screens; null when nothing was. */
  readonly problem: string | null = null

  constructor(
    dataDir: string,
    /** Why this process may not write the data folder; null: it may. */
    readOnly: FolderNotWritableError | null = null
  ) {
    this.path = join(dataDir, 'settings.json')
    const file = readOwnedFile(this.path, settingsFile, Date.now, readOnly === null)
    const read = file.state === 'read' ? file.value : file.state === 'damaged' ? file.parsed : {}
    this.settings = { ...DEFAULTS, ...checkSettings(read) }
    this.holdOnly = readOnly !== null || (file.state === 'damaged' && file.keptAs === null)
    if (file.state === 'damaged') {
      const where = file.keptAs ? `it was kept as ${basename(file.keptAs)}` : 'it is left where it is, and not written over'
      this.problem = `The settings (settings.json) were damaged (${file.reason}): ${where}, and what could be read of them is kept.`
      // Written back at once (the damaged file is kept aside): a restart keeps what was read.
      if (file.keptAs) this.updateQuietly({})
    }
  }

  get(): Readonly<Settings> {
    return this.settings
  }

  /** Writes the change, then holds it (throws, changing nothing, when the disk refuses; held until the app stops when the file may not be written). */
  update(change: Partial<Settings>): void {
    const settings = { ...this.settings, ...change }
    if (!this.holdOnly) writeOwnedFile(this.path, settings)
    this.settings = settings
  }

  rememberPlayers(names: readonly string[]): void {
    const recent = [...names, ...this.settings.recentPlayers.filter((name) => !names.includes(name))]
    this.update({ recentPlayers: recent.slice(0, MAX_RECENT_PLAYERS) })
  }

  private updateQuietly(change: Partial<Settings>): void {
    try {
      this.update(change)
    } catch {
      // Held in memory; written with the next change the disk takes.
    }
  }
}

/** The settings a file holds, each checked on its own (a wrong one is left out). */
function checkSettings(value: unknown): Partial<Settings> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {}
  const parsed = value as Record<string, unknown>
  return {
    recentPlayers: Array.isArray(parsed.recentPlayers) ? parsed.recentPlayers.filter((name): name is string => typeof name === 'string').slice(0, MAX_RECENT_PLAYERS) : [],
    scoreboardDisplayId: typeof parsed.scoreboardDisplayId === 'number' ? parsed.scoreboardDisplayId : null,
    showOdds: parsed.showOdds === true,
    dieAssignments: checkDieAssignments(parsed.dieAssignments),
    cameraCalibrations: checkCameraCalibrations(parsed.cameraCalibrations),
    cameraCapture: parsed.cameraCapture === true
  }
}
