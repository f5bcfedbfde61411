// Which history entries a filter keeps: by person (any of their names), game and the day the game
// was played (its start, the date the history list shows).
import type { GameId } from '../games'

export interface HistoryFilter {
  /** A person's name; a game is kept when one of its seats stands for that person. */
  person?: string | null
  game?: GameId | null
  /** Played (started) on or after this day (YYYY-MM-DD, local to the screen that asks). */
  from?: string | null
  /** Played (started) on or before this day (YYYY-MM-DD). */
  to?: string | null
}

interface Filterable {
  game: GameId
  players: string[]
  startedAt: number
}

function dayOf(time: number): string {
  const date = new Date(time)
  const pad = (n: number): string => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

export function filterHistory<E extends Filterable>(entries: readonly E[], filter: HistoryFilter, personOf: (name: string) => string = (n) => n): E[] {
  return entries.filter((entry) => {
    if (filter.game && entry.game !== filter.game) return false
    if (filter.person && !entry.players.some((name) => personOf(name) === filter.person)) return false
    const day = dayOf(entry.startedAt)
    if (filter.from && day < filter.from) return false
    if (filter.to && day > filter.to) return false
    return true
  })
}
