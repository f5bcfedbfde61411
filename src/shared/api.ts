// The one API every screen talks to, whether through Electron's preload or the headless host's
// WebSocket. Screens show `TableState` and send requests; main owns the game and the rules.
import type { GameId, Move, Offer, Standing, Summary, TableView } from './engine/types'
import type { Odds } from './odds'
import type { DevicesView, PortView } from './devices'

export type { DevicesView, PortView } from './devices'

export interface GameSetup {
  game: GameId
  /** Names in seat order (clockwise). */
  players: string[]
  /** Options of the game's rules page (record header `rules`). */
  rules?: Record<string, unknown>
  /** Seats played by the computer (saved in the record header's `meta.computers`). */
  computers?: number[]
}

export interface LogEntry {
  /** The record line that produced this entry, numbered as `referee replay` numbers them (the header is line 1). */
  line: number
  text: string
  kind: string
  seat?: number
  /** The dice of the throw this entry comes from, in words ("4 4 5 6", or "Ann 3 · Bob 4" in a duel). */
  dice?: string
}

/** The latest throw and who threw it, as main words it for the screens. */
export interface LastThrow {
  /** Record line of the throw. */
  line: number
  /** Who threw, in seat order of the dice (several in a duel or flash round). */
  throwers: string[]
  values: number[]
  /** The throwers are still the ones to act: the throw is part of the play now. */
  current: boolean
  /** "Ann's throw", "Bob's last throw", "Duel throw: Ann 3 · Bob 4". */
  caption: string
}

/** What a screen is: the control app (table, setup, history) or the TV's scoreboard, which gets the move, never the reasons or odds. */
export type ScreenKind = 'control' | 'scoreboard'

export interface Announcement {
  text: string
  kind: string
  /** Increases with every announcement, so a screen can tell a repeat from a new one. */
  id: number
}

/** A decision with the keypad keys that choose it. */
export interface OfferedDecision {
  move: Move
  label: string
  points?: number
  keys: string
}

export interface GameView {
  game: GameId
  title: string
  players: string[]
  rules: Record<string, unknown>
  summary: Summary
  /** Every player in the game's own order, winners first (from the engine). */
  standings: Standing[]
  offer: Offer
  /** The offer's decisions with their keypad keys. */
  decisions: OfferedDecision[]
  table: TableView
  /** The latest throw with who threw it; null before the first throw. */
  lastThrow: LastThrow | null
  /** The latest entries of what happened, oldest first. */
  log: LogEntry[]
  announcement: Announcement | null
  moveCount: number
  startedAt: number
  /** Seats played by the computer. */
  computers: number[]
  /** What the computer player is doing now ("Computer is thinking…"), if it acts next. */
  thinking: { seat: number; text: string } | null
  /** Exact odds of the decisions on offer, when the table asked to see them (off by default). */
  odds: Odds | null
}

export type MessageLevel = 'info' | 'warning' | 'error'

export interface TableMessage {
  text: string
  level: MessageLevel
  id: number
}

export interface KeypadView {
  /** Digits typed so far. */
  buffer: string
  /** What Enter would do now, in words ("Enter a throw of 4 dice"). */
  hint: string
  /** The keys of this game and what each does ("+": "largest re-roll" in Foursies, "keep the most" in Farkle). */
  legend: Array<{ key: string; does: string }>
}

export interface HistoryEntry {
  id: string
  game: GameId
  title: string
  players: string[]
  winners: string[]
  startedAt: number
  /** When the game ended, or was abandoned unfinished. */
  finishedAt: number
  finished: boolean
  moves: number
  /** The final figures in the game's own order ("Bob 1 tour · 2 rounds"); absent in entries saved before they were kept. */
  standings?: Standing[]
}

export interface SharingView {
  enabled: boolean
  /** Addresses viewers on the LAN can open (scoreboard). */
  urls: string[]
  /** Pairing code that lets another device enter dice; shown on the host only. */
  pairingCode: string | null
  /** A QR code (SVG markup, made in main) of the first address, for a phone to scan. */
  qrSvg: string | null
}

export interface TableState {
  /** Increases with every change. */
  version: number
  current: GameView | null
  keypad: KeypadView
  message: TableMessage | null
  recentPlayers: string[]
  /** Whether the table screen shows the odds of each decision. */
  showOdds: boolean
  /** Whether this screen may send moves (LAN viewers cannot). */
  canControl: boolean
  sharing: SharingView | null
  /** Smart dice and serial keypads (host screens only; null for LAN viewers and where there is no device manager). */
  devices: DevicesView | null
}

export type Outcome = { ok: true } | { ok: false; error: string }

/** One step of a game from the history, as a screen steps through it. */
export interface ReplayStep {
  /** The record line of the step, as `referee replay` numbers it (the header is line 1). */
  line: number
  text: string
  summary: Summary
  table: TableView
}

export interface HistoryGame {
  entry: HistoryEntry
  record: string
  steps: ReplayStep[]
}

/** Keys of the keypad grammar (a numeric keypad, the screen's keypad, or a serial keypad). */
export const KEYPAD_KEYS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'Enter', 'Backspace', '+', '-', '*', '/', '.'] as const
export type KeypadKey = (typeof KEYPAD_KEYS)[number]

export interface TableApi {
  getState(): Promise<TableState>
  /** Called with every new state; returns a function that stops listening. */
  onState(listener: (state: TableState) => void): () => void
  newGame(setup: GameSetup): Promise<Outcome>
  /** Sends one record line (a throw or a decision) as entered on a screen. */
  submit(move: Move): Promise<Outcome>
  keypad(key: KeypadKey): Promise<Outcome>
  /** Throws exactly the dice that are due with virtual dice. */
  rollVirtual(): Promise<Outcome>
  undo(): Promise<Outcome>
  /** Leaves the current game unfinished (it stays in the history as abandoned). */
  abandon(): Promise<Outcome>
  exportRecord(): Promise<{ ok: true; record: string; fileName: string } | { ok: false; error: string }>
  importRecord(text: string): Promise<Outcome>
  listHistory(): Promise<HistoryEntry[]>
  openHistory(id: string): Promise<HistoryGame | { error: string }>
  /** Puts an abandoned, unfinished game of the history back on the table (the game on the table goes to the history). */
  resumeHistory(id: string): Promise<Outcome>
  /** At the end of a game: a new game with the same players and options, the seats rotated (see docs/rules-readings.md). */
  rematch(): Promise<Outcome>
  setSharing(enabled: boolean): Promise<Outcome>
  /** Shows or hides the odds of each decision on the table screen (the TV never shows them). */
  setShowOdds(on: boolean): Promise<Outcome>
  /** Displays the scoreboard window can open on (empty where there is no Electron). */
  listDisplays(): Promise<DisplayInfo[]>
  /** Opens the scoreboard fullscreen on a display (remembered); null closes it. */
  showScoreboard(displayId: number | null): Promise<Outcome>
  // Smart dice and serial keypads (main answers them even without a device manager).
  /** Serial ports the system lists, with USB details. */
  listPorts(): Promise<PortView[]>
  /** Opens a port and keeps it: the device is remembered by serial number and reconnected after an unplug. */
  connectDevice(path: string): Promise<Outcome>
  /** Closes a device (its `DeviceView.id`) and forgets it. */
  disconnectDevice(serial: string): Promise<Outcome>
  /** Lights a die up for a few seconds so people can find it. */
  identifyDie(serial: string, dieId: string): Promise<Outcome>
  /** Puts a die in the game or takes it out (remembered by the hub's serial and the die's id). */
  assignDie(deviceId: string, dieId: string, inGame: boolean): Promise<Outcome>
  /** Test mode: throws are shown, not sent to the game. */
  setDeviceTestMode(on: boolean): Promise<Outcome>
}

export interface DisplayInfo {
  id: number
  label: string
  width: number
  height: number
  primary: boolean
  /** The scoreboard is open on this display now. */
  showing: boolean
}

/** Methods a screen may call, i.e. every API method but the state subscription. */
export type ApiMethod = Exclude<keyof TableApi, 'onState'>

/** The headless host's WebSocket transport (path `/api`): requests, replies and state pushes. */
export interface WireRequest {
  id: number
  method: ApiMethod
  args: unknown[]
}
export type WireReply = { id: number; result: unknown } | { id: number; error: string }
export interface WirePush {
  state: TableState
}
