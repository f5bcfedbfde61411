// The registry: every game, once. A game is its folder (./<id>/, whose index.ts exports its
// whole definition, see ./types GameDefinition) and one line below; the rest of the app asks
// GAMES[id] for what it needs and never compares game names (README, "Adding a game").
import type { GameDefinition, GameTypes } from './types'
import { foursies } from './foursies'
import { farkle } from './farkle'
import { fouche } from './fouche'
import { fourPlus } from './four-plus'

/** One line per game: its id (a record header's `game`, and its folder's name) and its definition. */
const REGISTERED = {
  foursies,
  farkle,
  fouche,
  'four-plus': fourPlus
}

export type GameId = keyof typeof REGISTERED

/** Every game's id, in the order the Setup screen lists them. */
export const GAME_IDS = Object.keys(REGISTERED) as GameId[]

/** One game's own types (state, options, events...), for code that names that game's figures. */
export type GameTypesOf<Id extends GameId> = (typeof REGISTERED)[Id] extends GameDefinition<infer T> ? T : never

/** What any game gives out of a kind (its odds, facts, figures): the union of every registered game's. */
type OfAnyGame<Kind extends keyof GameTypes> = { [Id in GameId]: GameTypesOf<Id>[Kind] }[GameId]

/**
 * The types of a game as the code that serves every game sees it: what it takes back (its
 * state, options, events, tables) `unknown`; what it gives out (its odds, facts and figures) the union of every
 * game's, so a screen can still tell one game's figures from another's.
 */
export interface AnyGameTypes extends GameTypes {
  odds: OfAnyGame<'odds'>
  facts: OfAnyGame<'facts'>
  statistics: OfAnyGame<'statistics'>
}

export type AnyGame = GameDefinition<AnyGameTypes>

/**
 * Every game by id. The app's one erasure of game types: each definition is typed with its own
 * state, options and events, and seen here with them `unknown`. That is sound because a state is
 * only ever handed back to the definition that made it (the game of the record's header), so
 * nothing outside a game's folder reads one game's state as its type.
 */
export const GAMES: Readonly<Record<GameId, AnyGame>> = REGISTERED

/** Whether `id` names a game (a record's header, a screen's request). */
export function isGameId(id: unknown): id is GameId {
  return typeof id === 'string' && Object.hasOwn(GAMES, id)
}
