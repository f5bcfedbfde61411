// What the league page and the league TV are sent (by the league host, or by a table that joined
// a league): made in the main process from the documents it accepted; the pages only show it.
import type { GameId } from '../games'
import { moduleOf, summaryOf, type Game } from '../game'
import type { HeadToHead } from '../stats'
import type { LeagueMerge } from './documents'
import type { GameStandings } from './standings'

/** One table's game now, for the TV. */
export interface LiveTable {
  table: string
  /** When the table last wrote it (its own clock). */
  updatedAt: number
  game: LiveGame | null
}

export interface LiveGame {
  game: GameId
  title: string
  finished: boolean
  toPlay: string | null
  moves: number
  /** Best first, as the table's own scoreboard orders them; `person` is the league's person. */
  standings: { name: string; person: string; place: number; shown: string; winner: boolean }[]
}

/** A document of the league that was not taken, and why (the page lists the latest). */
export interface RefusedDocument {
  id: string
  reason: string
}

export interface LeagueView {
  /** The league database's name. */
  league: string
  /** The time zone nights are dates in. */
  timeZone: string
  /** Nights with games, newest first (YYYY-MM-DD). */
  nights: string[]
  /** The night shown, or null for every night. */
  night: string | null
  standings: GameStandings[]
  /** Everyone who played a league game. */
  people: string[]
  tables: LiveTable[]
  merges: LeagueMerge[]
  /** Finished games in the league (each record once). */
  gameCount: number
  refused: RefusedDocument[]
  /** Whether the league can be read now (a table whose league is down shows what it read last). */
  reachable: boolean
  /** What went wrong reading it, if anything. */
  problem: string | null
  /** Whether this page may merge people (the league host asks for its password; a table's own screens may). */
  canMerge: 'password' | 'yes' | 'no'
}

export interface HeadToHeadView extends HeadToHead {
  night: string | null
}

/** A table's live game for the TV; `personOf` names each seat's league person. */
export function liveGameOf(game: Game, personOf: (name: string) => string): LiveGame {
  const summary = summaryOf(game)
  return {
    game: game.header.game,
    title: moduleOf(game).title,
    finished: summary.finished,
    toPlay: summary.toPlay,
    moves: game.moves.length,
    standings: moduleOf(game)
      .standings(game.state)
      .map((standing) => ({ name: standing.name, person: personOf(standing.name), place: standing.place, shown: standing.shown, winner: standing.winner }))
  }
}
