// The table's parts as the rest of the app sees them (made and wired once by create-table.ts).
import type { DisplayInfo, Outcome } from '@shared/api'
import type { CameraDice } from '../devices/camera-dice'
import type { Devices } from '../devices/devices'
import type { Leagues } from '../league/leagues'
import type { ComputerPlayer } from './computer/computer-player'
import type { OddsService } from './computer/odds-service'
import type { WinTables } from './computer/win-tables'
import type { SettingsStore } from './files/settings'
import type { GameTable } from './game/game-table'
import type { HistoryService } from './history/history-service'
import type { PlayerRecords } from './players/player-records'
import type { Notices } from './screens/notices'
import type { ScreenViews } from './screens/screen-views'
import type { Screens } from './screens/screens'
import type { Pairing } from './screens/pairing'
import type { SharingState } from './screens/sharing-state'

export interface Table {
  readonly dataDir: string
  /** The game in progress and its record. */
  readonly game: GameTable
  /** The games put away, replays, resuming. */
  readonly history: HistoryService
  /** Players as people, their statistics and charts. */
  readonly players: PlayerRecords
  /** Smart dice, serial keypads, Bluetooth dice. */
  readonly devices: Devices
  /** The camera as a dice source: screens' readings, each camera's tray, capture mode. */
  readonly camera: CameraDice
  /** Plays the computer seats; null where they are played by hand (tests). */
  readonly computer: ComputerPlayer | null
  readonly odds: OddsService
  /** The chance-to-win tables being solved for Farkle and Fouche, or null where they are not solved here. */
  readonly winTables: WinTables | null
  readonly settings: SettingsStore
  /** What every screen is told. */
  readonly notices: Notices
  /** The screens connected, each with its own entry and messages. */
  readonly screens: Screens
  /** The state each screen is shown, and when it changes. */
  readonly views: ScreenViews
  /** Whether (and how) the table is shared on the LAN. */
  readonly sharing: SharingState
  /** Which LAN screens may enter dice (the pairing code, the paired screens). */
  readonly pairing: Pairing
  /** The league this table joined and the one this computer hosts (src/main/league). */
  readonly leagues: Leagues
  /** What only the desktop app's shell can do (nothing for the headless host). */
  readonly shell: ShellControl
  /** The HTTP + WebSocket server, while there is one (always for the headless host; while sharing for the desktop app). */
  readonly server: ServerInfo | null
  setShowOdds(on: boolean): Outcome
  /** Turns LAN sharing on or off. */
  setSharing(enabled: boolean): Promise<Outcome>
  /** Stops everything the table started (devices, computer, server, workers), and closes its record. */
  stop(): Promise<void>
}

export interface DisplayControl {
  listDisplays(): Promise<DisplayInfo[]>
  showScoreboard(displayId: number | null): Promise<Outcome>
}

/** What only the desktop app's shell can do (the headless host has none of it). */
export interface ShellControl {
  displays?: DisplayControl
  /** The desktop app's answer to Electron's Bluetooth device selection (src/main/bluetooth-chooser.ts). */
  chooseBluetoothDevice?: (deviceId: string | null) => Outcome
}

/** What the rest of the app asks of the table's HTTP + WebSocket server. */
export interface ServerInfo {
  readonly url: string
  readonly port: number
}
