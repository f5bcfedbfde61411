import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeDurably } from './record-store'

export interface Settings {
  recentPlayers: string[]
  /** The display the scoreboard opens on (Electron), by id. */
  scoreboardDisplayId: number | null
  /** The table screen shows the odds of each decision. */
  showOdds: boolean
}

const DEFAULTS: Settings = { recentPlayers: [], scoreboardDisplayId: null, showOdds: false }
const MAX_RECENT_PLAYERS = 24

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
      return { recentPlayers, scoreboardDisplayId, showOdds: parsed.showOdds === true }
    } catch {
      return {}
    }
  }
}
