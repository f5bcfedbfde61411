// The final order of a game's players, computed by the engines so every screen shows the same one.
import type { Standing } from './types'

export interface RankInput {
  players: readonly string[]
  /** Winning seats: they come first whatever their figures. */
  winners: readonly number[]
  /** Per seat, the figures that order the rest, most important first; higher is better. */
  figures: (seat: number) => number[]
  /** Per seat, what to show ("1 tour · 2 rounds", "12"). */
  shown: (seat: number) => string
  /** Why a winner stands above a player with the same figures (a tie broken by a duel or flash round). */
  tieBreak?: string
  /** Seats whose tie the winner broke, if the engine knows it better than the figures do. */
  tieBroken?: boolean
}

function compareFigures(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const difference = (b[i] ?? 0) - (a[i] ?? 0)
    if (difference !== 0) return difference
  }
  return 0
}

/**
 * Winners first (in seat order), then everyone else by their figures; players with the same
 * figures share a place and keep seat order. A winner tied on figures with another player (or
 * whose tie the engine says was broken) gets the tie-break reason.
 */
export function rankPlayers(input: RankInput): Standing[] {
  const seats = input.players.map((_, seat) => seat)
  const winners = seats.filter((seat) => input.winners.includes(seat))
  const others = seats.filter((seat) => !input.winners.includes(seat)).sort((a, b) => compareFigures(input.figures(a), input.figures(b)) || a - b)
  const standings: Standing[] = winners.map((seat) => {
    const tied = input.tieBroken ?? others.some((other) => compareFigures(input.figures(seat), input.figures(other)) === 0)
    return {
      name: input.players[seat],
      place: 1,
      shown: input.shown(seat),
      winner: true,
      ...(tied && input.tieBreak ? { why: input.tieBreak } : {})
    }
  })
  others.forEach((seat, index) => {
    const previous = others[index - 1]
    const shared = previous !== undefined && compareFigures(input.figures(seat), input.figures(previous)) === 0
    standings.push({
      name: input.players[seat],
      place: shared ? standings[standings.length - 1].place : standings.length + 1,
      shown: input.shown(seat),
      winner: false
    })
  })
  return standings
}
