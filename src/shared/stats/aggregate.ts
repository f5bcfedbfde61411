// Per-player statistics summed from the facts of many games. Only finished games count
// (docs/statistics.md). A player is a name; `personOf` lets a player list map several seat names
// (a rename, a merge) to one person.
import { GAME_IDS, type GameId } from '../games'
import { isPersonSeat, type FourPlusSeatFacts, type FoursiesSeatFacts, type GameFacts, type SixDiceSeatFacts } from './facts'

export interface CommonStatistics {
  games: number
  wins: number
  /** wins / games; null with no games. */
  winRate: number | null
}

export interface FoursiesStatistics extends CommonStatistics {
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

export interface SixDiceStatistics extends CommonStatistics {
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

export interface FourPlusStatistics extends CommonStatistics {
  roundsSurvived: number
  deathsByOnes: number
  extraThrows: number
}

export interface ByGame {
  foursies?: FoursiesStatistics
  farkle?: SixDiceStatistics
  fouche?: SixDiceStatistics
  'four-plus'?: FourPlusStatistics
}

export interface PlayerStatistics extends CommonStatistics {
  name: string
  byGame: ByGame
}

export interface StatisticsOptions {
  /** The person a seat name stands for (default: the name itself). */
  personOf?: (name: string) => string
}

function ratio(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : numerator / denominator
}

interface Tally {
  name: string
  games: number
  wins: number
  byGame: Partial<Record<GameId, { games: number; wins: number; sums: Record<string, number>; best: number; turnsToTarget: number }>>
}

const SUMMED: Record<GameId, string[]> = {
  foursies: ['roundsWon', 'toursWon', 'foursies', 'busts', 'devilsNumbers', 'falseFours', 'tabsHeld', 'throws', 'foursThrown'],
  farkle: ['turns', 'banked', 'farkles', 'hotDice'],
  fouche: ['turns', 'banked', 'farkles', 'hotDice'],
  'four-plus': ['roundsSurvived', 'deathsByOnes', 'extraThrows']
}

/** Statistics of every player who held a seat in a finished game (a computer seat is no player), sorted by name. */
export function playerStatistics(allFacts: Iterable<GameFacts>, options: StatisticsOptions = {}): PlayerStatistics[] {
  const personOf = options.personOf ?? ((name: string) => name)
  const tallies = new Map<string, Tally>()
  for (const facts of allFacts) {
    if (!facts.finished) continue
    const game = facts.game
    const keys = SUMMED[game]
    for (let seat = 0; seat < facts.players.length; seat++) {
      if (!isPersonSeat(facts, seat)) continue
      const name = personOf(facts.players[seat])
      let tally = tallies.get(name)
      if (tally === undefined) {
        tally = { name, games: 0, wins: 0, byGame: {} }
        tallies.set(name, tally)
      }
      let perGame = tally.byGame[game]
      if (perGame === undefined) {
        perGame = { games: 0, wins: 0, sums: Object.fromEntries(keys.map((key) => [key, 0])), best: 0, turnsToTarget: 0 }
        tally.byGame[game] = perGame
      }
      const won = facts.winners.includes(facts.players[seat])
      tally.games++
      perGame.games++
      if (won) {
        tally.wins++
        perGame.wins++
      }
      const seatFacts = facts.seats[seat] as unknown as Record<string, number>
      for (const key of keys) perGame.sums[key] += seatFacts[key]
      if (game === 'farkle' || game === 'fouche') {
        const six = facts.seats[seat] as SixDiceSeatFacts
        if (six.bestTurn > perGame.best) perGame.best = six.bestTurn
        if (six.reachedTarget) {
          perGame.sums.gamesToTarget = (perGame.sums.gamesToTarget ?? 0) + 1
          perGame.turnsToTarget += six.turnsToTarget as number
        }
      }
    }
  }
  return [...tallies.values()]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((tally) => {
      const byGame: ByGame = {}
      for (const game of GAME_IDS) {
        const perGame = tally.byGame[game]
        if (perGame === undefined) continue
        const common: CommonStatistics = { games: perGame.games, wins: perGame.wins, winRate: ratio(perGame.wins, perGame.games) }
        const s = perGame.sums
        if (game === 'foursies') {
          byGame.foursies = {
            ...common,
            ...(s as unknown as Omit<FoursiesSeatFacts, never>),
            averageThrowsToFour: ratio(s.throws, s.foursThrown)
          }
        } else if (game === 'four-plus') {
          byGame['four-plus'] = { ...common, ...(s as unknown as FourPlusSeatFacts) }
        } else {
          const reached = s.gamesToTarget ?? 0
          byGame[game] = {
            ...common,
            turns: s.turns,
            banked: s.banked,
            averageTurn: ratio(s.banked, s.turns),
            bestTurn: perGame.best,
            farkles: s.farkles,
            farkleRate: ratio(s.farkles, s.turns),
            hotDice: s.hotDice,
            gamesToTarget: reached,
            averageTurnsToTarget: ratio(perGame.turnsToTarget, reached)
          }
        }
      }
      return { name: tally.name, games: tally.games, wins: tally.wins, winRate: ratio(tally.wins, tally.games), byGame }
    })
}

export interface HeadToHead {
  players: [string, string]
  /** Finished games both played in. */
  games: number
  /** Of those, games each of the two won (a shared win counts for both). */
  wins: [number, number]
  byGame: Partial<Record<GameId, { games: number; wins: [number, number] }>>
}

/** How two players fared in the finished games they both played. */
export function headToHead(allFacts: Iterable<GameFacts>, first: string, second: string, options: StatisticsOptions = {}): HeadToHead {
  const personOf = options.personOf ?? ((name: string) => name)
  const result: HeadToHead = { players: [first, second], games: 0, wins: [0, 0], byGame: {} }
  for (const facts of allFacts) {
    if (!facts.finished) continue
    const people = facts.players.map((name, seat) => (isPersonSeat(facts, seat) ? personOf(name) : null))
    const a = people.indexOf(first)
    const b = people.indexOf(second)
    if (a < 0 || b < 0 || a === b) continue
    const perGame = (result.byGame[facts.game] ??= { games: 0, wins: [0, 0] })
    result.games++
    perGame.games++
    const winners = new Set(facts.winners.map(personOf))
    if (winners.has(first)) {
      result.wins[0]++
      perGame.wins[0]++
    }
    if (winners.has(second)) {
      result.wins[1]++
      perGame.wins[1]++
    }
  }
  return result
}
