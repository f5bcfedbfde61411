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
  /** How many of the leading figures `shown` says (all of them when absent). */
  shownFigures?: number
  /** A figure `shown` does not say, in words, for the seat it placed ("3 points in the last round"). */
  unshown?: (seat: number, figure: number) => string
  /** What players equal on every figure are tied on ("points"; "tours, rounds and last-round points"). */
  tiedOn: string
  /** Why a winner stands above a player with the same figures (a tie broken by a duel or flash round). */
  tieBreak?: string
  /** Seats whose tie the winner broke, if the engine knows it better than the figures do. */
  tieBroken?: boolean
}

function compareFigures(a: number[], b: number[], count = Math.max(a.length, b.length)): number {
  for (let i = 0; i < count; i++) {
    const difference = (b[i] ?? 0) - (a[i] ?? 0)
    if (difference !== 0) return difference
  }
  return 0
}

/**
 * Winners first (in seat order), then everyone else by their figures; players with the same
 * figures share a place and keep seat order. A winner tied on figures with another player (or
 * whose tie the engine says was broken) gets the tie-break reason; winners who share the win say
 * so. A player who shares a place says what they are tied on, and one whose place the shown
 * figures do not explain (level on them with someone placed apart) gets the figure that did:
 * "tied on points", "2 points in the last round", "tied, 0 points in the last round".
 */
export function rankPlayers(input: RankInput): Standing[] {
  const seats = input.players.map((_, seat) => seat)
  const figures = seats.map((seat) => input.figures(seat))
  const shownCount = input.shownFigures ?? Math.max(0, ...figures.map((one) => one.length))
  const winners = seats.filter((seat) => input.winners.includes(seat))
  const others = seats.filter((seat) => !input.winners.includes(seat)).sort((a, b) => compareFigures(figures[a], figures[b]) || a - b)
  const standings: Standing[] = winners.map((seat) => {
    const tied = input.tieBroken ?? others.some((other) => compareFigures(figures[seat], figures[other]) === 0)
    const why = tied && input.tieBreak ? input.tieBreak : winners.length > 1 ? 'shares the win' : undefined
    return { name: input.players[seat], place: 1, shown: input.shown(seat), winner: true, ...(why ? { why } : {}) }
  })
  others.forEach((seat, index) => {
    const previous = others[index - 1]
    const shared = previous !== undefined && compareFigures(figures[seat], figures[previous]) === 0
    const why = placeReason(input, figures, others, seat, shownCount)
    standings.push({
      name: input.players[seat],
      place: shared ? standings[standings.length - 1].place : standings.length + 1,
      shown: input.shown(seat),
      winner: false,
      ...(why ? { why } : {})
    })
  })
  return standings
}

/** Why a seat that is not a winner stands where it does, when its shown figures do not say it. */
function placeReason(input: RankInput, figures: number[][], others: number[], seat: number, shownCount: number): string | undefined {
  const lookAlike = others.filter((other) => other !== seat && compareFigures(figures[seat], figures[other], shownCount) === 0)
  if (lookAlike.length === 0) return undefined
  const tied = lookAlike.some((other) => compareFigures(figures[seat], figures[other]) === 0)
  // The figures past the shown ones that set this seat apart from those who look the same.
  const deciding = lookAlike.map((other) => firstDifference(figures[seat], figures[other])).filter((at) => at >= 0)
  const detail =
    deciding.length > 0 && input.unshown
      ? Array.from({ length: Math.max(...deciding) - shownCount + 1 }, (_, offset) => input.unshown!(seat, shownCount + offset)).join(' · ')
      : ''
  if (!tied) return detail || undefined
  return detail ? `tied, ${detail}` : `tied on ${input.tiedOn}`
}

function firstDifference(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return i
  return -1
}
