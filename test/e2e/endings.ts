// Games played to each way a game can end, for the TV's pictures: eight players (the most the TV
// lays out in one screen), each move chosen from what the table shows, sent over the screen API.
import type { GameView } from '@shared/api'
import type { GameId } from '@shared/games'
import type { Move } from '@shared/games/types'
import { ScreenClient } from '@test/kit/screen-client'

export const EIGHT_PLAYERS = ['Maximilian Alexander', 'Ann', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay', 'Gus']

export interface Ending {
  /** The picture's name. */
  name: string
  game: GameId
  rules?: Record<string, unknown>
  /** The next move, from what the table shows. */
  next: (game: GameView, seat: number) => Move
  /** Words the TV's "how it ended" must show. */
  says: string
}

const NOTHING = [3, 5, 6, 6] // Foursies: no 4, nothing to re-roll: the turn ends on 0
const ONE_POINT = [4, 2, 3, 3] // Foursies: one 4 and nothing to re-roll

/** The round being played in the current tour: one more than the rounds won in it so far. */
function roundOfTour(game: GameView): number {
  return game.summary.players.reduce((sum, player) => sum + (player.rounds ?? 0), 1)
}

function tourOfMatch(game: GameView): number {
  return game.summary.players.reduce((sum, player) => sum + (player.tours ?? 0), 1)
}

/** Foursies tours: the seat that ends the round on 4 (the others score 0 or 1: a few tie, a few differ in the last round). */
function foursiesTours(winnerOf: (tour: number, round: number) => number) {
  return (game: GameView, seat: number): Move => {
    if (game.table.phase.startsWith('Tie-break') || game.table.contenders?.length) return { roll: game.offer.throwers.map((_, index) => (index === 0 ? 4 : 2)) }
    return { roll: seat === winnerOf(tourOfMatch(game), roundOfTour(game)) ? [4, 4, 4, 4] : seat % 3 === 1 ? ONE_POINT : NOTHING }
  }
}

/** Farkle and Fouche: seats listed in `thousands` set aside three 1s and bank 1,000; the others farkle, or bank 50 where `banks`. */
function sixDice(thousands: number[], banks: boolean) {
  return (game: GameView, seat: number): Move => {
    if (game.offer.decisions.some((decision) => 'bank' in decision.move) && (game.table.turnPoints ?? 0) > 0) return { bank: true }
    if (game.offer.diceDue === 0) return thousands.includes(seat) ? { keep: [1, 1, 1] } : { keep: [5] }
    if (thousands.includes(seat)) return { roll: [1, 1, 1, 2, 3, 4] }
    return { roll: banks ? [5, 2, 2, 3, 3, 4] : [2, 2, 3, 3, 4, 6] }
  }
}

/** 4-PLU$: one throw per turn that counts (`points` of a seat: 5 four of a kind, 3 three of a kind, 0 nothing, -1 four 1s: out), then two 1s end the turn. */
function fourPlus(points: (seat: number) => number, flash: (seat: number) => number[]) {
  return (game: GameView, seat: number): Move => {
    if (game.table.phase === 'Flash round') return { roll: flash(seat) }
    if (game.lastThrow?.current && game.lastThrow.throwers[0] === game.players[seat]) return { roll: [1, 1, 2, 3] }
    const score = points(seat)
    return { roll: score === 5 ? [2, 2, 2, 2] : score === 3 ? [3, 3, 3, 6] : score === -1 ? [1, 1, 1, 1] : [2, 3, 5, 6] }
  }
}

export const ENDINGS: Ending[] = [
  {
    // Seat 0 ends on 4; in the last lap the last seat takes socks and busts: the bust ends the match.
    name: 'foursies-bust',
    game: 'foursies',
    next: (game, seat) => {
      if (seat === 0) return { roll: [4, 4, 4, 4] }
      if (seat < 7) return { roll: seat % 3 === 1 ? ONE_POINT : NOTHING }
      if (game.offer.decisions.some((decision) => 'socks' in decision.move)) return { socks: true }
      return { roll: game.table.dice.length === 0 || game.lastThrow?.throwers[0] !== game.players[7] ? [4, 4, 1, 1] : [4, 4, 4, 2] }
    },
    says: 'Bust! Gus stays on 0'
  },
  {
    // Seat 0 ends on 4; the last seat throws a foursies in the last lap, which beats the 4 points.
    name: 'foursies-foursies',
    game: 'foursies',
    next: (_game, seat) => ({ roll: seat === 0 ? [4, 4, 4, 4] : seat === 7 ? [1, 1, 1, 1] : seat % 3 === 1 ? ONE_POINT : NOTHING }),
    says: 'Foursies!'
  },
  {
    // Exactly four rounds, won by seats 0, 1, 0 and 2: seat 0 wins the tour; five seats have no round.
    name: 'foursies-tour',
    game: 'foursies',
    rules: { match: 'tour', tour: 'four-rounds' },
    next: foursiesTours((_tour, round) => [0, 1, 0, 2][round - 1]),
    says: 'Maximilian Alexander wins the tour'
  },
  {
    // Tours of four rounds until four are won: seats 0, 1, 0, 3, 0 and 0 win the tours.
    name: 'foursies-tour-de-fours',
    game: 'foursies',
    rules: { match: 'tour-de-fours', tour: 'four-rounds' },
    next: foursiesTours((tour, round) => {
      const winner = [0, 1, 0, 3, 0, 0][tour - 1]
      return round === 4 ? (winner + 2) % 8 : winner
    }),
    says: 'Maximilian Alexander wins the match'
  },
  {
    // Seat 0 banks 1,000 and reaches the target; everyone else farkles in the last lap, the last seat last.
    name: 'farkle-farkle',
    game: 'farkle',
    rules: { entry: 0, target: 1000 },
    next: sixDice([0], false),
    says: 'Farkle! Gus scores nothing this turn'
  },
  {
    // Seat 0 reaches the target; the others each bank 50, the last seat's bank ends the game.
    name: 'fouche-bank',
    game: 'fouche',
    rules: { entry: 0, target: 1000 },
    next: sixDice([0], true),
    says: 'Gus banks 50'
  },
  {
    // Seats 0 and 3 both bank 1,000: a shared win.
    name: 'farkle-tie',
    game: 'farkle',
    rules: { entry: 0, target: 1000 },
    next: sixDice([0, 3], false),
    says: 'Maximilian Alexander and Cy share the win'
  },
  {
    // One round: seat 2 scores 5, seats 1, 4 and 7 score 3, seat 5 throws four 1s and is out; the last turn ends the game.
    name: 'four-plus-last-round',
    game: 'four-plus',
    rules: { rounds: 1 },
    next: fourPlus((seat) => (seat === 2 ? 5 : seat === 5 ? -1 : seat % 3 === 1 ? 3 : 0), () => [2, 3, 5, 6]),
    says: "Two 1s: Gus's turn ends"
  },
  {
    // Seats 1 and 4 tie on 5: flash rounds; seat 1 throws two 6s and is out.
    name: 'four-plus-flash',
    game: 'four-plus',
    rules: { rounds: 1 },
    next: fourPlus((seat) => (seat === 1 || seat === 4 ? 5 : seat === 6 ? -1 : seat % 2 === 0 ? 3 : 0), (seat) => (seat === 1 ? [6, 6, 2, 3] : [2, 3, 5, 5])),
    says: 'Two 6s: Ann is out'
  }
]

/** Starts the ending's game with `players` and plays it to its end. */
export async function playToTheEnd(api: ScreenClient, ending: Ending, players: string[] = EIGHT_PLAYERS): Promise<GameView> {
  const started = await api.call('newGame', { game: ending.game, players, ...(ending.rules ? { rules: ending.rules } : {}) })
  if (!started.ok) throw new Error(`${ending.name}: ${started.error}`)
  for (let move = 0; move < 2000; move++) {
    const game = (await api.getState()).current
    if (!game) throw new Error(`${ending.name}: no game on the table`)
    if (game.summary.finished) return game
    const seat = game.offer.toPlay ?? game.offer.throwers[0]
    await api.play([ending.next(game, seat)])
  }
  throw new Error(`${ending.name}: no end after 2,000 moves`)
}
