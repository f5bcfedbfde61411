import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeDurably } from './durable-files'

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
}

const DEFAULTS: Settings = { recentPlayers: [], scoreboardDisplayId: null, showOdds: false, dieAssignments: {} }
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

export class SettingsStore {
  private readonly path: string
  private settings: Settings

  constructor(dataDir: string) {
    this.path = join(dataDir, 'settings.json')
    this.settings = { ...DEFAULTS, ...this.read() }
  }

  get(): Readonly<Settings> {
    return this.settings
  }

  update(change: Partial<Settings>): void {
    this.settings = { ...this.settings, ...change }
    writeDurably(this.path, `${JSON.stringify(this.settings, null, 2)}\n`)
  }

  rememberPlayers(names: readonly string[]): void {
    const recent = [...names, ...this.settings.recentPlayers.filter((name) => !names.includes(name))]
    this.update({ recentPlayers: recent.slice(0, MAX_RECENT_PLAYERS) })
  }

  private read(): Partial<Settings> {
    if (!existsSync(this.path)) return {}
    try {
      const parsed = JSON.parse(readFileSync(this.path, 'utf8')) as Partial<Settings>
      const recentPlayers = Array.isArray(parsed.recentPlayers) ? parsed.recentPlayers.filter((name) => typeof name === 'string') : []
      const scoreboardDisplayId = typeof parsed.scoreboardDisplayId === 'number' ? parsed.scoreboardDisplayId : null
      return { recentPlayers, scoreboardDisplayId, showOdds: parsed.showOdds === true, dieAssignments: checkDieAssignments(parsed.dieAssignments) }
    } catch {
      return {}
    }
  }
}
