// Foursies' statistics (docs/statistics.md, "Foursies"): what each seat did in one game, from the
// engine's events, and a player's figures summed over many games.
import * as v from 'valibot'
import type { FactsCollector, StatisticsFigure } from '../types'
import { FIGURE, ratio, sums } from '../statistics'
import type { FoursiesOptions } from './rules'

export interface FoursiesSeatFacts {
  roundsWon: number
  toursWon: number
  foursies: number
  busts: number
  devilsNumbers: number
  /** Re-roll decisions (each re-roll of one or several disjoint false fours). */
  falseFours: number
  /** Rounds the seat started holding the tab. */
  tabsHeld: number
  /** Throws in the seat's own turns (duel throws not included). */
  throws: number
  /** Fresh 4s among those throws. */
  foursThrown: number
}

export interface FoursiesStatistics {
  roundsWon: number
  toursWon: number
  foursies: number
  busts: number
  devilsNumbers: number
  falseFours: number
  tabsHeld: number
  throws: number
  foursThrown: number
  /** throws / foursThrown; null when no 4 was thrown. */
  averageThrowsToFour: number | null
}

export function foursiesFacts(players: readonly string[], options: FoursiesOptions): FactsCollector<FoursiesSeatFacts> {
  const n = players.length
  const seats: FoursiesSeatFacts[] = Array.from({ length: n }, () => ({
    roundsWon: 0, toursWon: 0, foursies: 0, busts: 0, devilsNumbers: 0, falseFours: 0, tabsHeld: 0, throws: 0, foursThrown: 0
  }))
  const firstTab = options.tab
  seats[firstTab].tabsHeld++
  let seat = firstTab
  let duel = false
  const scores = new Array<number>(n).fill(0)
  const scoreLine: number[][] = []
  // Every seat's rounds won in the match after each decided round, and who won a tour there.
  const roundsWon = new Array<number>(n).fill(0)
  const rounds = { line: [] as number[][], tourWins: [] as number[][] }
  return {
    seats,
    scoreLine,
    // A match of tours charts rounds and tours won: its round scores go back to 0 every round.
    chart: () => (options.match !== 'round' ? { counts: 'rounds', line: rounds.line, tourWins: rounds.tourWins } : null),
    move(move, events) {
      const decided = events.filter((event) => event.kind === 'roundWon' || event.kind === 'tourWon')
      for (const event of decided) if (event.kind === 'roundWon') roundsWon[event.seat as number]++
      if (decided.length > 0) {
        rounds.line.push(roundsWon.slice())
        rounds.tourWins.push(decided.filter((event) => event.kind === 'tourWon').map((event) => event.seat as number))
      }
      if ('roll' in move && !duel) {
        seats[seat].throws++
        for (const value of (move as { roll: number[] }).roll) if (value === 4) seats[seat].foursThrown++
      }
      if ('reroll' in move) seats[seat].falseFours++
      for (const event of events) {
        const at = event.seat as number
        switch (event.kind) {
          case 'foursies':
            seats[at].foursies++
            scoreLine.push(scores.slice())
            break
          case 'bust':
            seats[at].busts++
            scores[at] = event.score as number
            scoreLine.push(scores.slice())
            break
          case 'devilsNumber':
            seats[at].devilsNumbers++
            if (event.effect === 'reset') {
              scores[at] = 0
              scoreLine.push(scores.slice())
            }
            break
          case 'score':
          case 'fourOfAKind':
            scores[at] = event.score as number
            break
          case 'turnEnd':
            scores[at] = event.score as number
            scoreLine.push(scores.slice())
            break
          case 'roundWon': seats[at].roundsWon++; duel = false; break
          case 'tourWon': seats[at].toursWon++; duel = false; break
          case 'duel': duel = true; break
          case 'turn': seat = at; break
          case 'roundStart':
            seat = at
            seats[at].tabsHeld++
            scores.fill(0)
            break
        }
      }
    }
  }
}

const SUMMED = ['roundsWon', 'toursWon', 'foursies', 'busts', 'devilsNumbers', 'falseFours', 'tabsHeld', 'throws', 'foursThrown'] as const

export function foursiesFigures(seats: readonly FoursiesSeatFacts[]): FoursiesStatistics {
  const s = sums(seats, SUMMED)
  return { ...s, averageThrowsToFour: ratio(s.throws, s.foursThrown) }
}

export const FOURSIES_FIGURES: readonly StatisticsFigure[] = [
  { key: 'roundsWon', label: 'Rounds won' },
  { key: 'toursWon', label: 'Tours won' },
  { key: 'foursies', label: 'Foursies' },
  { key: 'busts', label: 'Busts' },
  { key: 'devilsNumbers', label: "Devil's Numbers" },
  { key: 'falseFours', label: 'False fours re-rolled' },
  { key: 'tabsHeld', label: 'Tabs held' },
  { key: 'throws', label: null },
  { key: 'foursThrown', label: null },
  { key: 'averageThrowsToFour', label: 'Throws per 4' }
]

/** One seat's facts as the statistics cache keeps them. */
export const FOURSIES_SEAT_FACTS = v.object({
  roundsWon: FIGURE,
  toursWon: FIGURE,
  foursies: FIGURE,
  busts: FIGURE,
  devilsNumbers: FIGURE,
  falseFours: FIGURE,
  tabsHeld: FIGURE,
  throws: FIGURE,
  foursThrown: FIGURE
}) satisfies v.GenericSchema<unknown, FoursiesSeatFacts>
