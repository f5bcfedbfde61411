// The computer player: pure, from the game's state and its offer. It only takes decisions
// (throws come from virtual dice elsewhere); each game's folder has its own (computer.ts, asked
// through the registry); see src/shared/games/README.md for what it maximises in each game.
import type { AiChoice, SolvedTables } from './games/types'
import { moduleOf, offerOf, type Game } from './game'

export type { AiChoice } from './games/types'

/**
 * The computer player's decision for the player to act, or null when no decision is on offer
 * (a throw is due, a duel is on, the game is over, or the game has no decisions: 4-PLU$).
 * `random` only breaks exact ties between equally good decisions. With `tables` (solved
 * chance-to-win tables), Farkle and Fouche are played to win; without, or while the table for the
 * game's options is not solved yet, for the expected points (see the games' README).
 */
export function chooseMove(game: Game, random: () => number, tables?: SolvedTables): AiChoice | null {
  const offer = offerOf(game)
  const computer = moduleOf(game).computer
  if (offer.finished || offer.decisions.length === 0 || !computer) return null
  return computer.choose(game.state, offer.decisions, random, tables)
}
