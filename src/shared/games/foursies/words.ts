// The words Foursies uses: each event as a table can hear it.
import { diceText, listNames, numberWord } from '@shared/dice'
import type { FoursiesEvent } from './rules'

/** Words for an event: "Ann scores a 4 and has 3", "Bust! Bob stays on 2". */
export function describeFoursies(e: FoursiesEvent, players: readonly string[]): string {
  const name = 'seat' in e ? (players[e.seat] ?? `Seat ${e.seat + 1}`) : ''
  const names = (seats: readonly number[]): string => listNames(seats.map((i) => players[i] ?? `Seat ${i + 1}`))
  const kind: string = e.kind
  switch (e.kind) {
    case 'throw':
      return `${name} throws ${diceText(e.dice)}`
    case 'score': {
      const count = e.count
      return `${name} scores ${count === 1 ? 'a 4' : `${numberWord(count)} 4s`} and has ${e.score}`
    }
    case 'fourOfAKind':
      return `Four of a kind! ${name} has ${e.score}`
    case 'foursies':
      return 'Foursies!'
    case 'devilsNumber':
      return e.effect === 'reset' ? `Devil's Number! ${name} drops to 0` : "Devil's Number!"
    case 'bust':
      return `Bust! ${name} stays on ${e.score}`
    case 'run':
      return 'Run! Re-roll all four'
    case 'oddManOut':
      return `Odd man out: re-roll the ${e.value}`
    case 'socks':
      return `${name} takes socks: two throws of all four dice`
    case 'reroll':
      return `${name} re-rolls ${e.values.join(' ')}`
    case 'turnEnd':
      return `${name} ends the turn on ${e.score}`
    case 'finalLap':
      return e.foursies ? `${name} rolled a foursies: final lap` : `${name} is on 4: final lap`
    case 'turn':
      return `${name} to throw`
    case 'duel':
      return `Duel between ${names(e.seats)}`
    case 'duelThrow': {
      const fours = e.fours
      if (fours.length === 1) return `${names(fours)} throws the 4`
      if (fours.length === 0) return 'No 4: throw again'
      return `${names(fours)} throw 4s and duel on`
    }
    case 'roundWon':
      return `${name} wins the round`
    case 'tourWon':
      return `${name} wins the tour`
    case 'matchWon':
      return `${name} wins the match`
    case 'roundStart':
      return `Round ${e.round}: ${name} holds the tab and throws first`
    default:
      return kind
  }
}
