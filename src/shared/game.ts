// A game is a fold of its record: the state after N lines is the engine applied to those N
// lines. Undo, replay, crash recovery and import all come from here.
import { GAMES, type AnyGame } from './games'
import type { GameEvent, Move, Offer, Parsed, Summary, TableView } from './games/types'
import {
  isBlankLine,
  parseHeaderLine,
  parseMoveLine,
  serializeHeader,
  serializeMove,
  splitRecordLines,
  type Header,
  type RecordedMove
} from './record'

export interface Game {
  readonly header: Header
  readonly options: unknown
  readonly moves: readonly RecordedMove[]
  /** The engine's state after every move. */
  readonly state: unknown
}

export type Played = { ok: true; game: Game; events: GameEvent[] } | { ok: false; error: string }

export type Replayed =
  | { ok: true; game: Game; events: GameEvent[]; truncatedTail: boolean }
  | { ok: false; line: number; error: string }

export function moduleOf(game: Game | Header): AnyGame {
  return GAMES['header' in game ? game.header.game : game.game]
}

/** The seats the computer plays, from the header's `meta.computers` (seat indexes). */
export function computerSeats(game: Game | Header): number[] {
  const header = 'header' in game ? game.header : game
  const seats = header.meta?.computers
  if (!Array.isArray(seats)) return []
  return seats.filter((seat): seat is number => Number.isInteger(seat) && seat >= 0 && seat < header.players.length)
}

/** The computer seat that must act now, or null when a person (or nobody) acts (a duel of a computer and a person is the person's to throw). */
export function actingComputer(game: Game): number | null {
  const seats = computerSeats(game)
  if (seats.length === 0) return null
  const offer = offerOf(game)
  if (offer.finished) return null
  const actors = offer.toPlay !== null ? [offer.toPlay] : offer.throwers
  if (actors.length === 0 || !actors.every((seat) => seats.includes(seat))) return null
  return actors[0]
}

/** A line of the record in words, with who played it: "Bob’s throw 4 4 5 6", "Ann’s keep 1 1 1", "Cy’s bank". */
export function describeMove(before: Game, move: Move): string {
  const offer = offerOf(before)
  const seats = 'roll' in move ? offer.throwers : offer.toPlay !== null ? [offer.toPlay] : offer.throwers
  const who = seats.map((seat) => before.header.players[seat] ?? `Seat ${seat + 1}`)
  const whose = who.length === 1 ? `${who[0]}’s` : who.length > 1 ? 'the duel’s' : 'the'
  if ('roll' in move) return `${whose} throw ${move.roll.join(' ')}`
  if ('reroll' in move) return `${whose} re-roll of ${move.reroll.join(' ')}`
  if ('keep' in move) return `${whose} keep ${move.keep.join(' ')}`
  if ('socks' in move) return `${whose} socks`
  if ('end' in move) return `${whose} end of turn`
  return `${whose} bank`
}

/** The names of the seats people play: a computer seat is no person (player list, recent players, statistics). */
export function personNames(game: Game | Header): string[] {
  const computers = new Set(computerSeats(game))
  return ('header' in game ? game.header : game).players.filter((_, seat) => !computers.has(seat))
}

/** Starts a game from a checked header, refusing options the game's page does not allow. */
export function startGame(header: Header): Parsed<Game> {
  const module = GAMES[header.game]
  if (header.players.length < module.minPlayers) {
    return { ok: false, error: `${module.title} needs at least ${module.minPlayers} players` }
  }
  const options = module.parseOptions(header.rules, header.players.length)
  if (!options.ok) return options
  return { ok: true, value: { header, options: options.value, moves: [], state: module.init(header.players, options.value) } }
}

/** Applies one move; an illegal move is refused with the engine's reason and changes nothing. */
export function play(game: Game, recorded: RecordedMove): Played {
  const applied = moduleOf(game).apply(game.state, recorded.move)
  if (!applied.ok) return applied
  return { ok: true, game: { ...game, moves: [...game.moves, recorded], state: applied.state }, events: applied.events }
}

/** The game as it was before its last move (the same game when there is none). */
export function undo(game: Game): Game {
  if (game.moves.length === 0) return game
  return replayMoves(game, game.moves.length - 1)
}

/** The game after only its first `count` moves, folded again from the start. */
export function replayMoves(game: Game, count: number): Game {
  const module = moduleOf(game)
  let state = module.init(game.header.players, game.options)
  const moves = game.moves.slice(0, count)
  for (const recorded of moves) {
    const applied = module.apply(state, recorded.move)
    if (!applied.ok) throw new Error(`a recorded move no longer applies: ${applied.error}`)
    state = applied.state
  }
  return { ...game, moves, state }
}

export interface ReplayOptions {
  /**
   * After a crash the last line may be cut off mid-write. With this set, an unparsable last line
   * that has no line end is dropped (and reported as `truncatedTail`) instead of refusing the record.
   */
  tolerateTruncatedTail?: boolean
  /**
   * Called after each move with its index, what happened, the state the move was played on, and
   * its line number (1-based, blank lines counted, as `referee replay` numbers lines).
   */
  onMove?: (index: number, events: GameEvent[], before: unknown, line: number) => void
}

/** How many lines `replayTextInSteps` reads between two pauses. */
const LINES_PER_STEP = 500

/** Reads, checks and replays a whole record. The first bad line stops it, with its line number. */
export function replayText(text: string, options: ReplayOptions = {}): Replayed {
  const steps = replayTextInSteps(text, options)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/**
 * `replayText` in steps: it pauses (yields) every few thousand lines, so that a caller replaying
 * a very long record can let other work run between the steps.
 */
export function* replayTextInSteps(text: string, options: ReplayOptions = {}): Generator<void, Replayed> {
  const lines = splitRecordLines(text)
  const endsWithNewline = text.endsWith('\n')
  let headerAt = -1
  for (let i = 0; i < lines.length; i++) {
    if (!isBlankLine(lines[i])) {
      headerAt = i
      break
    }
  }
  if (headerAt < 0) return { ok: false, line: 1, error: 'the record is empty: the first line must be the header' }
  const header = parseHeaderLine(lines[headerAt])
  if (!header.ok) return { ok: false, line: headerAt + 1, error: `invalid header: ${header.error}` }
  const started = startGame(header.value)
  if (!started.ok) return { ok: false, line: headerAt + 1, error: `invalid header: ${started.error}` }

  const module = moduleOf(started.value)
  let state = started.value.state
  let events: GameEvent[] = []
  const moves: RecordedMove[] = []
  let truncatedTail = false
  for (let i = headerAt + 1; i < lines.length; i++) {
    if ((i - headerAt) % LINES_PER_STEP === 0) yield
    const line = lines[i]
    if (isBlankLine(line)) continue
    const parsed = parseMoveLine(line)
    if (!parsed.ok) {
      if (options.tolerateTruncatedTail && i === lines.length - 1 && !endsWithNewline) {
        truncatedTail = true
        break
      }
      return { ok: false, line: i + 1, error: parsed.error }
    }
    const applied = module.apply(state, parsed.value.move)
    if (!applied.ok) return { ok: false, line: i + 1, error: applied.error }
    const before = state
    state = applied.state
    events = applied.events
    moves.push(parsed.value)
    options.onMove?.(moves.length - 1, applied.events, before, i + 1)
  }
  return { ok: true, game: { ...started.value, moves, state }, events, truncatedTail }
}

/** The record as JSON Lines text, ending with a line end. */
export function recordText(game: Game): string {
  const steps = recordTextInSteps(game)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/** `recordText` in steps, pausing (yielding) every few thousand lines like `replayTextInSteps`. */
export function* recordTextInSteps(game: Game): Generator<void, string> {
  const lines = [serializeHeader(game.header)]
  for (let i = 0; i < game.moves.length; i++) {
    if (i % LINES_PER_STEP === LINES_PER_STEP - 1) yield
    lines.push(serializeMove(game.moves[i]))
  }
  return lines.join('\n') + '\n'
}

export function offerOf(game: Game): Offer {
  return moduleOf(game).offer(game.state)
}

export function summaryOf(game: Game): Summary {
  return moduleOf(game).summary(game.state)
}

export function tableOf(game: Game): TableView {
  return moduleOf(game).table(game.state)
}

export function describeEvent(game: Game, event: GameEvent): string {
  return moduleOf(game).describe(event, game.header.players)
}
