import type { GameId, GameModule } from './types'
import { foursies } from './foursies'
import { farkle } from './farkle'
import { fouche } from './fouche'
import { fourPlus } from './four-plus'

/** A game module with its state type erased, for code that serves every game. */
export type AnyGameModule = GameModule<unknown, unknown>

export const GAMES: Record<GameId, AnyGameModule> = {
  foursies: foursies as AnyGameModule,
  farkle: farkle as AnyGameModule,
  fouche: fouche as AnyGameModule,
  'four-plus': fourPlus as AnyGameModule
}

export * from './types'
