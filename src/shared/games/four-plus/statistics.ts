// 4-PLU$'s statistics (docs/statistics.md, "4-PLU$"): what each seat did in one game, from the
// engine's events, and a player's figures summed over many games.
import * as v from 'valibot'
import type { FactsCollector, StatisticsFigure } from '../types'
import { FIGURE, sums } from '../statistics'

export interface FourPlusSeatFacts {
  /** Turns of the regular rounds that did not put the seat out. */
  roundsSurvived: number
  /** Outs by four 1s in a turn or two or more 1s in a flash round. */
  deathsByOnes: number
  extraThrows: number
}

export interface FourPlusStatistics {
  roundsSurvived: number
  deathsByOnes: number
  extraThrows: number
}

export function fourPlusFacts(players: readonly string[]): FactsCollector<FourPlusSeatFacts> {
  const n = players.length
  const seats: FourPlusSeatFacts[] = Array.from({ length: n }, () => ({ roundsSurvived: 0, deathsByOnes: 0, extraThrows: 0 }))
  const totals = new Array<number>(n).fill(0)
  const scoreLine: number[][] = []
  // The first turn starts with the game (seat 0), without a turn event.
  let inTurn: number | null = 0
  function closeTurn(survived: boolean): void {
    if (inTurn === null) return
    if (survived) seats[inTurn].roundsSurvived++
    scoreLine.push(totals.slice())
    inTurn = null
  }
  return {
    seats,
    scoreLine,
    move(_move, events) {
      for (const event of events) {
        const seat = event.seat as number
        switch (event.kind) {
          case 'turn':
            closeTurn(true)
            inTurn = seat
            break
          case 'score':
            totals[seat] = event.total as number
            break
          case 'extra':
            seats[seat].extraThrows++
            break
          case 'out':
            if (event.cause === 'fourOnes' || event.cause === 'ones') seats[seat].deathsByOnes++
            if (inTurn === seat) closeTurn(false)
            break
          case 'flashStart':
          case 'win':
          case 'noWinner':
            closeTurn(true)
            break
        }
      }
    }
  }
}


export function fourPlusFigures(seats: readonly FourPlusSeatFacts[]): FourPlusStatistics {
  return sums(seats, ['roundsSurvived', 'deathsByOnes', 'extraThrows'])
}

export const FOUR_PLUS_FIGURES: readonly StatisticsFigure[] = [
  { key: 'roundsSurvived', label: 'Rounds survived' },
  { key: 'deathsByOnes', label: 'Deaths by ones' },
  { key: 'extraThrows', label: 'Extra throws' }
]

/** One seat's facts as the statistics cache keeps them. */
export const FOUR_PLUS_SEAT_FACTS = v.object({ roundsSurvived: FIGURE, deathsByOnes: FIGURE, extraThrows: FIGURE }) satisfies v.GenericSchema<unknown, FourPlusSeatFacts>
