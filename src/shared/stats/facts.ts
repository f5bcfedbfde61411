// What one game record says about each seat, for statistics: a fold of the record with the rules
// engine, reading the events it reports with the game's own collector (its folder's
// statistics.ts). Plain JSON, so it can be cached in the history index and summed over thousands
// of games without replaying them. Definitions: docs/statistics.md.
import { GAMES, type AnyGameTypes, type GameId } from '../games'
import { computerSeats, replayText, type Game } from '../game'
import type { ChartLine } from '../games/types'

/** What one seat did in one game: its game's own facts (see src/shared/games/<game>/statistics.ts). */
export type SeatFacts = AnyGameTypes['facts']

export interface GameFacts {
  game: GameId
  /** Seat names as the record holds them. */
  players: string[]
  /** Seats the computer played (the header's `meta.computers`): no person, so no player's statistics. */
  computers: number[]
  finished: boolean
  winners: string[]
  /** One entry per seat, in seat order; its shape depends on `game`. */
  seats: SeatFacts[]
}

/** Whether a person played this seat (not the computer). */
export function isPersonSeat(facts: GameFacts, seat: number): boolean {
  return !facts.computers.includes(seat)
}

/** The names of the seats people played. */
export function personSeatNames(facts: GameFacts): string[] {
  return facts.players.filter((_, seat) => isPersonSeat(facts, seat))
}

/** Every seat's score after each completed turn (Farkle/Fouche: banked totals; Foursies: round scores; 4-PLU$: totals). */
export type ScoreLine = number[][]

export type { ChartLine } from '../games/types'

/** Facts of a record given as text; null when the record does not replay. */
export function factsOfRecordText(text: string): GameFacts | null {
  const replayed = replayText(text, { tolerateTruncatedTail: true })
  return replayed.ok ? factsOfGame(replayed.game) : null
}

/** Folds the game's moves again from the start, collecting each seat's facts from the engine's events. */
export function factsOfGame(game: Game): GameFacts {
  return foldFacts(game).facts
}

/** The scores after each turn of a game, for a chart. */
export function scoreLineOf(game: Game): ScoreLine {
  return foldFacts(game).scoreLine
}

/** What a game's chart draws: the game says when not the scores after each turn (Foursies tours: rounds and tours won). */
export function chartLineOf(game: Game): ChartLine {
  const { scoreLine, chart } = foldFacts(game)
  return chart ?? { counts: 'points', line: scoreLine }
}

function foldFacts(game: Game): { facts: GameFacts; scoreLine: ScoreLine; chart: ChartLine | null } {
  const module = GAMES[game.header.game]
  const players = game.header.players
  const collector = module.statistics.collect(players, game.options)
  let state = module.init(players, game.options)
  for (const recorded of game.moves) {
    const applied = module.apply(state, recorded.move)
    if (!applied.ok) throw new Error(`a recorded move no longer applies: ${applied.error}`)
    collector.move(recorded.move, applied.events)
    state = applied.state
  }
  const summary = module.summary(state)
  const facts: GameFacts = {
    game: game.header.game,
    players: players.slice(),
    computers: computerSeats(game),
    finished: summary.finished,
    winners: summary.winners.slice(),
    seats: collector.seats
  }
  return { facts, scoreLine: collector.scoreLine, chart: collector.chart?.() ?? null }
}
