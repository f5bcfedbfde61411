// The words Farkle and Fouche use: each event as a table can hear it.
import { diceText, formatPoints, listNames } from '@shared/dice'
import type { SixDiceEvent } from './rules'

/** Words for an event: "Ann keeps 1 1 1 for 1,000 (turn 1,000)", "Farkle! Bob loses 350". */
export function describeSixDice(event: SixDiceEvent, players: readonly string[]): string {
  const who = 'seat' in event ? (players[event.seat] ?? `Seat ${event.seat + 1}`) : ''
  const kind: string = event.kind
  switch (event.kind) {
    case 'throw':
      return `${who} throws ${diceText(event.dice)}`
    case 'farkle':
      return event.lost > 0 ? `Farkle! ${who} loses ${formatPoints(event.lost)}` : `Farkle! ${who} scores nothing this turn`
    case 'keep':
      return `${who} keeps ${diceText(event.dice)} for ${formatPoints(event.points)} (turn ${formatPoints(event.turn)})`
    case 'hotDice':
      return `Hot dice! ${who} throws all six again`
    case 'bank':
      return `${who} banks ${formatPoints(event.points)} and has ${formatPoints(event.total)}`
    case 'target':
      return event.turnsLeft > 0
        ? `${who} reaches ${formatPoints(event.target)}: final turns`
        : `${who} reaches ${formatPoints(event.target)}`
    case 'gameOver': {
      const ws = event.winners.map((w) => players[w] ?? `Seat ${w + 1}`)
      if (ws.length === 0) return 'The game is over'
      if (ws.length === 1) return `${ws[0]} wins with ${formatPoints(event.total)}`
      return `${listNames(ws)} share the win with ${formatPoints(event.total)}`
    }
    case 'nextTurn':
      return `${who}'s turn`
    default:
      return who ? `${who}: ${kind}` : kind
  }
}
