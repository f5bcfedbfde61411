// The shape every game shares: the rules contract (`GameRules`: state, offer, apply, describe...)
// and the whole definition a game's folder registers (`GameDefinition`: its rules and every
// capability the rest of the app asks the registry for). Pure data and functions: no Node, DOM or
// Electron. Nothing here names a game; ./index.ts registers them.
//
// States are plain JSON-serialisable objects and are never mutated: `apply` returns a new state.
// One style of update in every engine: `apply` takes one fresh copy of the state with the
// engine's `copyState` (every field listed, so every state has one shape, which keeps a long
// replay fast), changes fields of that copy only, copies an array before changing it, and
// returns the copy. Helpers that take the copy say so ("a fresh copy owned by apply").
import type * as v from 'valibot'
import type { KeypadKey } from '../keypad-keys'
import type { GameDescriptor } from './options'

/** One line of a game record after the header: a throw or a decision. */
export type Move =
  | { roll: number[] }
  | { reroll: number[] }
  | { socks: true }
  | { end: true }
  | { keep: number[] }
  | { bank: true }

/** A decision the rules offer now, ready to be sent back as a move. */
export interface Decision {
  move: Move
  /** What a player reads on the button, e.g. "Re-roll 2+2", "Keep 1 1 1 (1,000)", "Bank 650". */
  label: string
  /** Points this decision is worth where that is meaningful (a keep's points, a bank's total). */
  points?: number
}

/** A decision the table might look for that the rules do not allow right now, and why. */
export interface BlockedDecision {
  move: Move
  label: string
  reason: string
}

/** What the rules allow next. */
export interface Offer {
  finished: boolean
  /** Seat that acts next; null when finished, and during a Foursies duel (all duellists throw at once). */
  toPlay: number | null
  /** Seats whose dice the next `roll` line holds, in the order of its values (a duel: several). */
  throwers: number[]
  /** How many values the next `roll` line must hold; 0 when no throw is allowed now. */
  diceDue: number
  /** Why the throw is due, in words, when it is not an ordinary throw ("Odd man out: re-roll the 2"). */
  throwNote?: string
  /** Decision lines allowed now (never `roll`). Each false four, socks, end; each keep; bank. */
  decisions: Decision[]
  /** Decisions not allowed now, with the reason (e.g. bank below the entry minimum). */
  blocked: BlockedDecision[]
}

/**
 * Something that just happened. `describe` turns it into words a table can hear. Each game has
 * its own union of event types (FoursiesEvent, SixDiceEvent, FourPlusEvent), each one of these.
 */
export interface GameEvent {
  kind: string
  seat?: number
  /** A big scoreboard word for this event, if it deserves one: "Bust!", "Foursies!", "Duel!"... */
  announce?: string
  [detail: string]: unknown
}

export type Applied<S, E extends GameEvent = GameEvent> = { ok: true; state: S; events: E[] } | { ok: false; error: string }
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string }

/** The `referee replay` output, per docs/record-format.md. More keys may follow these. */
export interface Summary {
  /** The game's id (the record header's `game`). */
  game: string
  finished: boolean
  winners: string[]
  players: SummaryPlayer[]
  toPlay: string | null
  tab?: string
  [more: string]: unknown
}

/** One line of the standings: place 1 is the best; players tied on everything share a place. */
export interface Standing {
  name: string
  place: number
  /** The figures that placed the player, in words: "1 tour · 2 rounds", "12,000". */
  shown: string
  winner: boolean
  /** Why a winner stands above a player with the same figures: "won the tie-break duel". */
  why?: string
}

export interface SummaryPlayer {
  name: string
  score: number
  rounds?: number
  tours?: number
  out: boolean
  [more: string]: unknown
}

/** One die as a screen shows it. */
export interface ShownDie {
  value: number
  /** Thrown in the latest throw. */
  fresh: boolean
  /** Set aside earlier this turn (Farkle/Fouche) rather than on the table. */
  setAside?: boolean
}

/** What a screen needs beyond the summary: the dice, the turn, the phase, in display form. */
export interface TableView {
  /** e.g. "Round 2 · Tour 1", "Round 3 of 3", "Final turns", "Flash round", "Duel". */
  phase: string
  /** The dice of the current (or just-ended) turn. Empty before the first throw of a turn. */
  dice: ShownDie[]
  /** Points the player to act has made this turn so far (null where the game has no turn points). */
  turnPoints: number | null
  /** Seats still duelling (Foursies) or in flash rounds (4-PLU$). */
  contenders?: number[]
  /** Per seat extra facts a scoreboard may show, e.g. "owes a reply", "1 throw fewer". */
  notes?: Record<number, string>
}

/** A game's rules engine: a fold of the record's lines, and what the screens read of its state. */
export interface GameRules<S, O, E extends GameEvent = GameEvent> {
  /**
   * Checks a header's `rules` object (undefined when absent): unknown keys, wrong types and
   * out-of-range values are refused with a reason. Missing keys take their default.
   */
  parseOptions(raw: Record<string, unknown> | undefined, playerCount: number): Parsed<O>
  init(players: readonly string[], options: O): S
  offer(state: S): Offer
  /** Applies one record line. An illegal line is refused with a reason a player understands. */
  apply(state: S, move: Move): Applied<S, E>
  /** Words for an event: "Ann scores a 4 and has 3", "Bust! Bob stays on 2". */
  describe(event: E, players: readonly string[]): string
  summary(state: S): Summary
  /** Every player in the game's own order (winners first, then what the rules rank by), for the standings screens show. */
  standings(state: S): Standing[]
  table(state: S): TableView
}

/**
 * Tables the app solves in the background (a worker thread, a cache on disk) for a game's odds and
 * computer player, by a spec of the game's own: today Farkle's and Fouche's chance-to-win tables
 * (./six-dice/win-play.ts WinTableSource). Code that serves every game passes them along unread.
 */
export interface SolvedTables {
  /** The solved table for a spec, or null (being solved, or never: `status` says which). */
  table(spec: never): unknown
  /** Why there is no table, in words. */
  status(spec: never): string
}

/** What a game's odds say of a position still being played: plain JSON, with a headline in words. */
export interface PositionOdds {
  game: string
  finished: false
  /** The headline: the odds that matter now, in words. */
  text: string
}

/** One line of the odds panel under the headline. */
export interface OddsLine {
  text: string
  /** The decision the odds policy picks. */
  best: boolean
  /** The decision with the highest chance to win, where the game knows it. */
  bestToWin?: boolean
}

/** A game's exact odds: every figure from enumerating dice outcomes, never sampling. */
export interface GameOdds<S, Odds, Tables> {
  /** The figures for a position that is not finished; `offer` is what the rules offer in it. */
  figures(state: S, offer: Offer, tables?: Tables): Odds
  /** How the odds panel lists them under their headline (`text`). */
  lines(odds: Odds): OddsLine[]
  /** What the figures depend on besides the position (a table being solved), so a cache of them knows when to work them out again. */
  tablesKey?(state: S, tables: Tables): string
}

/** A computer player's decision, and why. */
export interface AiChoice {
  /**
   * The decision line to take, always one of the offer's decisions; null when the best play is
   * to throw the dice due instead (Farkle/Fouche: throw on rather than bank).
   */
  move: Move | null
  /** Why, in plain words: "banks 650: rolling 2 dice risks 44% farkle". */
  why: string
}

/** A game's computer player. It only takes decisions: its throws are virtual dice, thrown by the app. */
export interface GameComputer<S, Tables> {
  /** One of `decisions` (never empty), or a throw of the dice due; `random` only breaks exact ties. */
  choose(state: S, decisions: Decision[], random: () => number, tables?: Tables): AiChoice
  /** What to add to "is thinking…" while the tables it plays by are being solved ('' when nothing). */
  waitNote?(state: S, tables: Tables): string
  /** Asks early for the tables it will play this game by, so they are being solved before they are needed. */
  prepare?(state: S, tables: Tables): void
}

/**
 * Which dice of the throw in play must stay on the table for the next throw or decision (a smart
 * die that holds one must not be thrown), and why each stays, in words to follow the die's name
 * ("holds the 4 that scored"); or 'duel': each thrower throws a die of their own (src/shared/dice-plan.ts).
 */
export type HeldDice = { values: number[]; why: (value: number) => string } | 'duel'

/** Collects each seat's facts from the events of a game's moves, and the scores after each turn. */
export interface FactsCollector<Facts> {
  /** One entry per seat, in seat order. */
  readonly seats: Facts[]
  /** Every seat's score after each completed turn. */
  readonly scoreLine: number[][]
  move(move: Move, events: readonly GameEvent[]): void
  /** What the game's chart draws, when not the scores after each turn (Foursies tours: rounds and tours won). */
  chart?(): ChartLine | null
}

/**
 * What a game's chart draws: every seat's score after each turn, or for Foursies tours (where
 * round scores go back to 0 every round) every seat's rounds won in the match after each decided
 * round, with the seats that won a tour at each of those steps.
 */
export type ChartLine = { counts: 'points'; line: number[][] } | { counts: 'rounds'; line: number[][]; tourWins: number[][] }

/** A figure of a player's statistics: its key, and its name on a player's page (null: in the CSV only). */
export interface StatisticsFigure {
  key: string
  label: string | null
  /** A share from 0 to 1, shown as a percentage. */
  rate?: true
}

/** A game's statistics (docs/statistics.md): what each seat did in one game, summed per player over many. */
export interface GameStatistics<O, Facts, Figures> {
  /** A collector of the facts of a game with these players and options (plain JSON facts, cached in the history index). */
  collect(players: readonly string[], options: O): FactsCollector<Facts>
  /** A player's figures in this game, from the facts of their seats in its finished games (in the order played). */
  figures(seats: readonly Facts[]): Figures
  /** The figures, in the order the CSV export and a player's page list them. */
  shown: readonly StatisticsFigure[]
  /** The shape of one seat's facts (the statistics cache keeps them: a line of another shape is worked out again). */
  seatFacts: v.GenericSchema<unknown, Facts>
}

/** A keypad key whose meaning is the game's own (`+`, `*`, `-`: src/shared/keypad.ts), and what it does in the game. */
export interface GameKeypadKey {
  key: KeypadKey
  /** In the keyboard legend's words: "largest re-roll", "bank". */
  does: string
}

/** The TV's short sounds (made in the page: src/renderer/src/lib/sound.ts). */
export type SoundKind = 'four' | 'bust' | 'foursies' | 'farkle' | 'hotDice' | 'win'

/** What the screens show differently for a game. */
export interface GameScreens {
  /** A game set up with one person gets a computer opponent in the first seat, who moves first. */
  soloOpponent: boolean
  /**
   * The scoreboard's columns: 'score', one score with the turn's points beside it; or
   * 'points-rounds-tours', the round's points (shown as four pips), rounds and tours won.
   */
  scoreboard: 'score' | 'points-rounds-tours'
  /** Which of the game's events make each sound on the TV (the loudest sound of a line wins). */
  sounds: Partial<Record<SoundKind, readonly string[]>>
}

/** Who sits where, with which options and which seats the computer plays: what a rematch starts from and gives. */
export interface Seating {
  players: string[]
  rules: Record<string, unknown>
  computers: number[]
}

/** The types one game is made of: each definition names its own, the registry's erased view has `unknown`. */
export interface GameTypes {
  state: unknown
  options: unknown
  event: GameEvent
  /** Its odds of a position (see GameOdds). */
  odds: PositionOdds
  /** The solved tables its odds and computer player use, if any. */
  tables: SolvedTables
  /** What one seat did in one game, for statistics (plain JSON). */
  facts: object
  /** A player's figures in this game, summed over the facts of many games. */
  statistics: object
}

/**
 * Everything a game is, registered once in ./index.ts: what the Setup screen shows (title,
 * players, dice, the options of its rules page with their defaults), its rules engine, and each
 * capability the rest of the app asks for by the game's id.
 */
export interface GameDefinition<T extends GameTypes = GameTypes> extends GameDescriptor, GameRules<T['state'], T['options'], T['event']> {
  /** The default value of every option on the game's rules page. */
  defaults: T['options']
  /** Its exact odds, and how the odds panel shows them. */
  odds: GameOdds<T['state'], T['odds'], T['tables']>
  /** Its computer player, or null when the game has no decisions to take (every turn is throws). */
  computer: GameComputer<T['state'], T['tables']> | null
  /** The dice that hold their values now, for the smart dice's plan of which dice to throw. */
  heldDice(state: T['state']): HeldDice
  /** Its statistics: facts per seat, figures per player. */
  statistics: GameStatistics<T['options'], T['facts'], T['statistics']>
  /** The keypad keys the game gives a meaning of its own, in the order the keyboard legend lists them. */
  keypad: readonly GameKeypadKey[]
  /** What the screens show differently for it. */
  screens: GameScreens
  /** The next game with the same players and options once this one is over (docs/rules-readings.md). */
  rematch(previous: Seating, summary: Summary): Seating
}
