// Random legal play from the engines' own offers: for property tests, benchmarks and simulations.
import type { Move } from './games/types'
import { GAME_IDS, GAMES, type GameId } from './games'
import { play, startGame, type Game } from './game'
import type { Header } from './record'

/** A small fast seeded generator (xorshift32), returning numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1
  return () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) / 2 ** 32
  }
}

export interface RandomGame {
  game: Game
  /** The engine offered nothing while the game was not finished. */
  stalled: boolean
}

/** Plays a random legal game: a random throw when one is due, otherwise a random decision on offer. */
export function playRandomGame(header: Header, random: () => number, maxLines = 5000): RandomGame {
  const started = startGame(header)
  if (!started.ok) throw new Error(started.error)
  let game = started.value
  const module = GAMES[header.game]
  for (let lines = 0; lines < maxLines; lines++) {
    const offer = module.offer(game.state)
    if (offer.finished) return { game, stalled: false }
    const choices: Move[] = offer.decisions.map((decision) => decision.move)
    if (offer.diceDue > 0) choices.push({ roll: Array.from({ length: offer.diceDue }, () => 1 + Math.floor(random() * 6)) })
    if (choices.length === 0) return { game, stalled: true }
    const move = choices[Math.floor(random() * choices.length)]
    const played = play(game, { move })
    if (!played.ok) throw new Error(`the engine refused its own offer ${JSON.stringify(move)}: ${played.error}`)
    game = played.game
  }
  return { game, stalled: false }
}

/** Players for a sample game of each kind: three, as many as any game needs. */
export const SAMPLE_PLAYERS = Object.fromEntries(GAME_IDS.map((id) => [id, ['Ann', 'Bob', 'Cy']])) as Readonly<Record<GameId, string[]>>
