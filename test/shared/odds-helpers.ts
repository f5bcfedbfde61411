import { play, startGame, type Game } from '@shared/game'
import type { Header } from '@shared/record'
import type { Move } from '@shared/games/types'

export function gameOf(header: Header, moves: Move[] = []): Game {
  const started = startGame(header)
  if (!started.ok) throw new Error(started.error)
  let game = started.value
  for (const move of moves) {
    const played = play(game, { move })
    if (!played.ok) throw new Error(played.error)
    game = played.game
  }
  return game
}

/** A game whose state is replaced (for positions a record reaches only by luck). */
export function withState(game: Game, patch: Record<string, unknown>): Game {
  return { ...game, state: { ...(game.state as object), ...patch } }
}
