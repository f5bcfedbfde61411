// Per-player statistics summed from the facts of many games. Only finished games count
// (docs/statistics.md). A player is a name; `personOf` lets a player list map several seat names
// (a rename, a merge) to one person. What a game's figures are is the game's own (its folder's
// statistics.ts, asked through the registry).
import { GAME_IDS, GAMES, isGameId, type AnyGameTypes, type GameId, type GameTypesOf } from '../games'
import { ratio } from '../games/statistics'
import type { StatisticsFigure } from '../games/types'
import { isPersonSeat, type GameFacts, type SeatFacts } from './facts'

export interface CommonStatistics {
  games: number
  wins: number
  /** wins / games; null with no games. */
  winRate: number | null
}

/** A player's figures per game kind played: the figures every game has, and the game's own. */
export type ByGame = { [Id in GameId]?: CommonStatistics & GameTypesOf<Id>['statistics'] }

export interface PlayerStatistics extends CommonStatistics {
  name: string
  byGame: ByGame
}

export interface StatisticsOptions {
  /** The person a seat name stands for (default: the name itself). */
  personOf?: (name: string) => string
}

/** The figures every game has, as the CSV export and a player's page list them. */
export const COMMON_FIGURES: readonly StatisticsFigure[] = [
  { key: 'games', label: 'Games' },
  { key: 'wins', label: 'Wins' },
  { key: 'winRate', label: 'Win rate', rate: true }
]

/** A game kind's figures in the order they are listed (the common ones, then the game's); only the common ones for a game no longer known. */
export function figuresOf(game: string): readonly StatisticsFigure[] {
  return isGameId(game) ? [...COMMON_FIGURES, ...GAMES[game].statistics.shown] : COMMON_FIGURES
}

interface Tally {
  name: string
  games: number
  wins: number
  byGame: Partial<Record<GameId, { games: number; wins: number; seats: SeatFacts[] }>>
}

/** Statistics of every player who held a seat in a finished game (a computer seat is no player), sorted by name. */
export function playerStatistics(allFacts: Iterable<GameFacts>, options: StatisticsOptions = {}): PlayerStatistics[] {
  const personOf = options.personOf ?? ((name: string) => name)
  const tallies = new Map<string, Tally>()
  for (const facts of allFacts) {
    if (!facts.finished) continue
    const game = facts.game
    for (let seat = 0; seat < facts.players.length; seat++) {
      if (!isPersonSeat(facts, seat)) continue
      const name = personOf(facts.players[seat])
      let tally = tallies.get(name)
      if (tally === undefined) {
        tally = { name, games: 0, wins: 0, byGame: {} }
        tallies.set(name, tally)
      }
      const perGame = (tally.byGame[game] ??= { games: 0, wins: 0, seats: [] })
      const won = facts.winners.includes(facts.players[seat])
      tally.games++
      perGame.games++
      if (won) {
        tally.wins++
        perGame.wins++
      }
      perGame.seats.push(facts.seats[seat])
    }
  }
  return [...tallies.values()]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((tally) => {
      const byGame: Partial<Record<GameId, CommonStatistics & AnyGameTypes['statistics']>> = {}
      for (const game of GAME_IDS) {
        const perGame = tally.byGame[game]
        if (perGame === undefined) continue
        const common: CommonStatistics = { games: perGame.games, wins: perGame.wins, winRate: ratio(perGame.wins, perGame.games) }
        byGame[game] = { ...common, ...GAMES[game].statistics.figures(perGame.seats) }
      }
      // Each game's figures sit under its own id: TypeScript cannot follow that through the loop's id.
      return { name: tally.name, games: tally.games, wins: tally.wins, winRate: ratio(tally.wins, tally.games), byGame: byGame as ByGame }
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
