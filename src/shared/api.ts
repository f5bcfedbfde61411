// What every screen is shown and what the screen API answers, whether through Electron's preload
// or the headless host's WebSocket. The methods themselves are one table: api-methods.ts.
// Screens show `TableState` and send requests; main owns the game and the rules.
import type { Move, Offer, ShownDie, Standing, Summary, TableView } from './games/types'
import type { GameId } from './games'
import type { Odds } from './odds'
import type { DevicesView, SmartDiceView } from './devices'
import type { CameraView } from './camera'

export type { DevicesView, PortView, SmartDiceView } from './devices'

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
  /** The dice as the throw left them: a Foursies re-roll beside the dice kept, Farkle's dice set aside apart. */
  dice: ShownDie[]
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
  /** What undo would take back, in words ("Bob’s throw 4 4 5 6"); null before the first move. */
  undo: string | null
  /** What redo would play again, in words; null when nothing was undone since the last move. */
  redo: string | null
  /**
   * The computer seat to play now and what it is doing ("Robo is thinking…"); null when a person
   * (or nobody) is to play. `waiting`: after an undo that landed on its turn it waits, so that undo
   * can go further, until a screen lets it play (`letComputerPlay`).
   */
  thinking: { seat: number; text: string; waiting?: true } | null
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
  /** A QR code (SVG markup, made in main) of the first address, for a TV or phone to scan and watch. */
  qrSvg: string | null
  /** A QR code of the first address with the pairing code, for the table's own phone to scan and pair; on the host only. */
  pairQrSvg: string | null
  /** The screens paired with the code, each trusted until the host withdraws it; on the host only. */
  paired: PairedScreenView[]
}

/** A screen that paired with the code (a phone used as the keypad), as the host lists it. */
export interface PairedScreenView {
  id: string
  /** What the screen called itself when it paired ("Phone (Android)"). */
  name: string
  pairedAt: number
  lastSeenAt: number
  /** It is connected now. */
  connected: boolean
}

/**
 * What a screen is to the table: on the host computer; paired on the LAN (enters dice); a LAN
 * viewer; or a LAN screen whose pairing the host withdrew (it can only watch, and forgets its token).
 */
export type ScreenTrust = 'host' | 'paired' | 'viewer' | 'withdrawn'

/** The club's league as the host's screens show it: the league this table joined, the one this computer hosts. */
export interface LeagueView {
  joined: {
    /** The league's address, without the password. */
    league: string
    /** This table's name in it. */
    table: string
    connected: boolean
    /** Documents the league has not confirmed yet (null until known). */
    pending: number | null
    lastError: string | null
  } | null
  hosting: { port: number } | null
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
  trust: ScreenTrust
  sharing: SharingView | null
  /** Smart dice and serial keypads (host screens only; null for LAN viewers and where no devices are wired). */
  devices: DevicesView | null
  /** The smart dice against the record: which to throw, which disagree (every screen, the TV too; null without smart dice in the game). */
  smartDice?: SmartDiceView | null
  /** The league (host screens only; null elsewhere and where there is no league to join, the tests). */
  league?: LeagueView | null
  /** The camera: trays, capture mode, the last camera throw (screens that may enter dice; null for viewers and the TV). */
  camera?: CameraView | null
}

/** A refused request: the one error shape of every method (see api-methods.ts). */
export interface Refusal {
  ok: false
  error: string
}
/** What a method answers: `ok: true` with what it answers, or a refusal that changed nothing. */
export type Outcome<T extends object = Record<never, never>> = ({ ok: true } & T) | Refusal

/** One step of a game from the history, as a screen steps through it. */
export interface ReplayStep {
  /** The record line of the step, as `referee replay` numbers it (the header is line 1). */
  line: number
  /** What happened on that line: its log entries, joined with " · ". */
  text: string
  summary: Summary
  table: TableView
}

export interface HistoryGame {
  entry: HistoryEntry
  record: string
  /** The name to ask for its steps by (`historyStep`), one at a time. */
  replay: string
  /** One step per move. */
  stepCount: number
}

/** A key of the keypad grammar (a numeric keypad, the screen's keypad, or a serial keypad): see ./keypad-keys.ts. */
export type { KeypadKey } from './keypad-keys'

export interface DisplayInfo {
  id: number
  label: string
  width: number
  height: number
  primary: boolean
  /** The scoreboard is open on this display now. */
  showing: boolean
}
