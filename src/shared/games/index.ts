import type { GameId, GameModule } from './types'
import { foursies } from './foursies/rules'
import { farkle } from './farkle/rules'
import { fouche } from './fouche/rules'
import { fourPlus } from './four-plus/rules'

/** A game module with its state type erased, for code that serves every game. */
export type AnyGameModule = GameModule<unknown, unknown>

export const GAMES: Record<GameId, AnyGameModule> = {
  foursies: foursies as AnyGameModule,
  farkle: farkle as AnyGameModule,
  fouche: fouche as AnyGameModule,
  'four-plus': fourPlus as AnyGameModule
}

export * from './types'
