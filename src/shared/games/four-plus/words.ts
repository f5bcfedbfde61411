// The words 4-PLU$ uses: each event as a table can hear it.
import { listNames, numberWord } from '@shared/dice'
import { THROWS_PER_TURN, type FourPlusEvent } from './rules'

function nameOf(players: readonly string[], seat: number | undefined): string {
  return seat !== undefined && players[seat] !== undefined ? players[seat] : `Seat ${Number(seat) + 1}`
}

function namesOf(players: readonly string[], seats: readonly number[]): string {
  const names = seats.map((seat) => nameOf(players, seat))
  return names.length === 0 ? 'nobody' : listNames(names)
}

const COMBO_WORDS: Record<'fourFours' | 'fourOfAKind' | 'threeOfAKind' | 'pair' | 'nothing', string> = {
  fourFours: 'four 4s',
  fourOfAKind: 'four of a kind',
  threeOfAKind: 'three of a kind',
  pair: 'a pair',
  nothing: 'nothing'
}

const capitalized = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1)

/** Words for an event: "Four 1s! Ann is out". */
export function describeFourPlus(event: FourPlusEvent, players: readonly string[]): string {
  const who = nameOf(players, 'seat' in event ? event.seat : undefined)
  const kind: string = event.kind
  switch (event.kind) {
    case 'turn':
      return event.throws === THROWS_PER_TURN
        ? `${who} to throw: ${event.throws} throws`
        : `${who} to throw: ${event.throws} throws, one lost to three 1s`
    case 'round':
      return `Round ${event.round} of ${event.of}`
    case 'score':
      return `${who} throws ${COMBO_WORDS[event.combo]}: ${event.points} points, ${event.total} in all`
    case 'extra':
      return event.cause === 'fourFours' ? `Four 4s! ${who} gets an extra throw` : `Pair! ${who} gets an extra throw`
    case 'pairSpent':
      return `Another pair: ${who} has had the pair's extra throw this turn`
    case 'nothing':
      return event.ones === 1 ? `One 1: nothing for ${who}, no harm done` : `Nothing for ${who}`
    case 'twoOnes':
      return `Two 1s: ${who}'s turn ends`
    case 'threeOnes':
      return event.penalty ? `Three 1s: ${who} loses a throw next round` : `Three 1s: ${who}'s turn ends`
    case 'turnDone':
      return `${who}'s turn ends: ${event.points} this turn, ${event.total} in all`
    case 'out':
      switch (event.cause) {
        case 'fourOnes':
          return `Four 1s! ${who} is out`
        case 'ones':
          return `${capitalized(numberWord(event.count))} 1s: ${who} is out`
        case 'sixes':
          return `${capitalized(numberWord(event.count))} 6s: ${who} is out`
        case 'short':
          return `${who} falls short of ${event.standing}: ${who} is out`
        default:
          return `${who} is out`
      }
    case 'flashStart':
      return `Flash round between ${namesOf(players, event.seats)}`
    case 'flashScore':
      return `${who}'s flash score: ${event.score}`
    case 'standing':
      return event.raised ? `${who} raises the score to beat to ${event.standing}` : `${who} sets the score to beat: ${event.standing}`
    case 'mustReply':
      return `${namesOf(players, event.seats)} must reply to ${event.standing}`
    case 'matched':
      return `${who} matches ${event.standing} and stays in`
    case 'standingReset':
      return 'Everyone has replied: the score to beat is back to 0'
    case 'flashFourFours':
      return `Four 4s in a flash round!`
    case 'win':
      return `${who} wins`
    case 'noWinner':
      return 'Nobody wins: the best score is 0'
    default:
      return kind
  }
}
