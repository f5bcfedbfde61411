import type { GameView } from '@shared/api'
import type { ShownDie, Standing } from '@shared/games/types'
import { GAMES, isGameId } from '@shared/games'

// One formatter for every score: `toLocaleString` builds a new one at each call, and the TV
// formats every score at every push.
const points = new Intl.NumberFormat('en-US')

export function formatPoints(value: number): string {
  return points.format(value)
}

/** A count and its noun: "1 win", "2 wins", "1 die". */
export function countOf(count: number, one: string, many = `${one}s`): string {
  return `${points.format(count)} ${count === 1 ? one : many}`
}

/** A game's title from its id (as a record or the trash names it); the id itself when no game has it. */
export function gameTitle(id: string): string {
  return isGameId(id) ? GAMES[id].title : id
}

export function formatDate(milliseconds: number): string {
  return new Date(milliseconds).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit'
  })
}

/** Who acts next, in words: the player to play, or the duellists / flash-round players. */
export function whoActs(game: GameView): string | null {
  const toPlay = game.summary.toPlay
  if (toPlay) return toPlay
  const contenders = game.table.contenders
  if (!game.summary.finished && contenders && contenders.length > 0) {
    return contenders.map((seat) => game.players[seat]).filter(Boolean).join(' vs ')
  }
  return null
}

export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join('')
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
}

/**
 * The dice to show beside the scores: the engine's view of the turn while its thrower still
 * acts, else the dice the latest throw left, no longer marked fresh (main words the caption).
 */
export function shownThrow(game: GameView): { dice: ShownDie[]; caption: string; current: boolean } {
  const thrown = game.lastThrow
  if (!thrown) return { dice: [], caption: 'No throw yet', current: false }
  if (thrown.current) return { dice: game.table.dice, caption: thrown.caption, current: true }
  return { dice: thrown.dice.map((die) => ({ ...die, fresh: false })), caption: thrown.caption, current: false }
}

/** An ordinal: 1st, 2nd, 3rd, 4th, 11th, 21st. */
export function ordinal(place: number): string {
  const tens = place % 100
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][place % 10] ?? 'th')
  return `${place}${suffix}`
}

/** A standing's place as the screens show it: "1st", "2nd", and "2nd =" for a place others share. */
export function placeLabel(standing: Standing, standings: readonly Standing[]): string {
  const shared = standings.some((other) => other !== standing && other.place === standing.place)
  return shared ? `${ordinal(standing.place)} =` : ordinal(standing.place)
}
