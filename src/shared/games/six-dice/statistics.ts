// Farkle's and Fouche's statistics (docs/statistics.md, "Farkle and Fouche"): what each seat did
// in one game, from the engine's events, and a player's figures summed over many games.
import * as v from 'valibot'
import type { FactsCollector, StatisticsFigure } from '../types'
import { FIGURE, ratio, sums } from '../statistics'
import type { SixDiceOptions } from './rules'

export interface SixDiceSeatFacts {
  turns: number
  /** Points banked over all turns (a farkled turn banks nothing). */
  banked: number
  bestTurn: number
  farkles: number
  hotDice: number
  /** The seat's banked total reached the game's target. */
  reachedTarget: boolean
  /** The seat's own turns until its banked total first reached the target; null if it never did. */
  turnsToTarget: number | null
}

export interface SixDiceStatistics {
  turns: number
  banked: number
  /** banked / turns; null with no turns. */
  averageTurn: number | null
  bestTurn: number
  farkles: number
  /** farkles / turns; null with no turns. */
  farkleRate: number | null
  hotDice: number
  /** Games in which the player's banked total reached the target. */
  gamesToTarget: number
  /** Mean of the player's turns needed to reach the target, over those games; null when none. */
  averageTurnsToTarget: number | null
}

export function sixDiceFacts(players: readonly string[], options: SixDiceOptions): FactsCollector<SixDiceSeatFacts> {
  const n = players.length
  const target = options.target
  const seats: SixDiceSeatFacts[] = Array.from({ length: n }, () => ({
    turns: 0, banked: 0, bestTurn: 0, farkles: 0, hotDice: 0, reachedTarget: false, turnsToTarget: null
  }))
  const totals = new Array<number>(n).fill(0)
  const scoreLine: number[][] = []
  function turnDone(seat: number): void {
    const facts = seats[seat]
    facts.turns++
    if (!facts.reachedTarget && totals[seat] >= target) {
      facts.reachedTarget = true
      facts.turnsToTarget = facts.turns
    }
    scoreLine.push(totals.slice())
  }
  return {
    seats,
    scoreLine,
    move(_move, events) {
      for (const event of events) {
        const seat = event.seat as number
        if (event.kind === 'hotDice') seats[seat].hotDice++
        else if (event.kind === 'farkle') {
          seats[seat].farkles++
          turnDone(seat)
        } else if (event.kind === 'bank') {
          const points = event.points as number
          seats[seat].banked += points
          if (points > seats[seat].bestTurn) seats[seat].bestTurn = points
          totals[seat] = event.total as number
          turnDone(seat)
        }
      }
    }
  }
}

export function sixDiceFigures(seats: readonly SixDiceSeatFacts[]): SixDiceStatistics {
  const s = sums(seats, ['turns', 'banked', 'farkles', 'hotDice'])
  let best = 0
  let reached = 0
  let turnsToTarget = 0
  for (const seat of seats) {
    if (seat.bestTurn > best) best = seat.bestTurn
    if (seat.reachedTarget) {
      reached++
      turnsToTarget += seat.turnsToTarget as number
    }
  }
  return {
    turns: s.turns,
    banked: s.banked,
    averageTurn: ratio(s.banked, s.turns),
    bestTurn: best,
    farkles: s.farkles,
    farkleRate: ratio(s.farkles, s.turns),
    hotDice: s.hotDice,
    gamesToTarget: reached,
    averageTurnsToTarget: ratio(turnsToTarget, reached)
  }
}

export const SIX_DICE_FIGURES: readonly StatisticsFigure[] = [
  { key: 'turns', label: null },
  { key: 'banked', label: null },
  { key: 'averageTurn', label: 'Average turn' },
  { key: 'bestTurn', label: 'Best turn' },
  { key: 'farkles', label: null },
  { key: 'farkleRate', label: 'Farkle rate', rate: true },
  { key: 'hotDice', label: 'Hot dice' },
  { key: 'gamesToTarget', label: 'Games reaching the target' },
  { key: 'averageTurnsToTarget', label: 'Turns to the target' }
]

/** One seat's facts as the statistics cache keeps them. */
export const SIX_DICE_SEAT_FACTS = v.object({
  turns: FIGURE,
  banked: FIGURE,
  bestTurn: FIGURE,
  farkles: FIGURE,
  hotDice: FIGURE,
  reachedTarget: v.boolean(),
  turnsToTarget: v.nullable(FIGURE)
}) satisfies v.GenericSchema<unknown, SixDiceSeatFacts>
