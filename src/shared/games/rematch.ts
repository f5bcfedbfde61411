// How a rematch seats the players in most games (docs/rules-readings.md): the seats rotate by one,
// so the second player starts, and each computer seat moves with its player.
import type { Seating } from './types'

export function rotateSeats(previous: Seating): Seating {
  const { players } = previous
  const rotatedSeat = (seat: number): number => (seat + players.length - 1) % players.length
  return { players: [...players.slice(1), players[0]], rules: previous.rules, computers: previous.computers.map(rotatedSeat) }
}
