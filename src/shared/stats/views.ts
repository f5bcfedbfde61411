// What the statistics screens are sent (answers of the screen API's statistics methods).
import type { GameId } from '../games'
import type { HeadToHead, PlayerStatistics } from './aggregate'
import type { ChartLine } from './facts'
import type { Person } from './people'

export interface FormGame {
  id: string
  game: GameId
  /** When the game was played (its start, as the history list shows it). */
  startedAt: number
  won: boolean
  seats: number
}

export interface PlayerPage {
  person: Person
  statistics: PlayerStatistics | null
  /** Their latest finished games, in the order they were played. */
  form: FormGame[]
  /** Against every person they have shared a finished game with. */
  opponents: HeadToHead[]
}

export type GameChart = {
  players: string[]
  /** Each seat's colour, #rrggbb: the player list's, all different within the game (`gameColours`). */
  colours: string[]
} & ChartLine

export interface TrashEntry {
  id: string
  game: string
  players: string[]
  /** When it was put in the trash. */
  deletedAt: number
}
