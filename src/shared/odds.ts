// Exact odds for the position a game is in: one entry point, `oddsFor(game)`, returning plain
// JSON-friendly figures with words a table can read. Each game works its own out (its folder's
// odds.ts, asked through the registry); every figure comes from enumerating dice outcomes (never
// sampling). See src/shared/games/README.md for what "the rest of the turn played as well as
// possible" means in each game.
import type { AnyGameTypes, GameId } from './games'
import type { SolvedTables } from './games/types'
import { moduleOf, offerOf, type Game } from './game'

export interface FinishedOdds {
  game: GameId
  finished: true
  text: string
}

/** The odds of any game: each game's own (see its odds.ts), or those of a finished game. */
export type Odds = AnyGameTypes['odds'] | FinishedOdds

/**
 * Exact figures for the position `game` is in (see the games' odds for their policies).
 * `tables`: solved tables (Farkle and Fouche: the chance to win), so decisions also get their chance to win.
 */
export function oddsFor(game: Game, tables?: SolvedTables): Odds {
  const offer = offerOf(game)
  if (offer.finished) return { game: game.header.game, finished: true, text: 'The game is over: no odds to give' }
  return moduleOf(game).odds.figures(game.state, offer, tables)
}
