// The keypad grammar shared by the screen's keypad, a USB numeric keypad and a serial keypad:
// what each key does to what has been typed and to the game. The keys themselves (what presses
// each on every kind of keypad) are one table, ./keypad-keys.ts; what a game's own keys (+, *, -)
// do is the game's (src/shared/games/<game>/index.ts, `keypad`).
import type { Decision, Move, Offer } from './games/types'
import { GAMES, type GameId } from './games'
import type { OfferedDecision } from './api'
import { keypadKeyInfo, type KeypadKey } from './keypad-keys'

export type KeypadAction =
  | { type: 'buffer'; buffer: string }
  | { type: 'move'; move: Move; buffer: string }
  | { type: 'undo'; buffer: string }
  | { type: 'refused'; error: string }

const MAX_TYPED = 12

function diceOf(move: Move): number[] | null {
  if ('keep' in move) return move.keep
  if ('reroll' in move) return move.reroll
  return null
}

function sameValues(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false
  const x = [...a].sort()
  const y = [...b].sort()
  return x.every((value, i) => value === y[i])
}

function largestDiceDecision(decisions: readonly Decision[]): Decision | undefined {
  let best: Decision | undefined
  for (const decision of decisions) {
    const dice = diceOf(decision.move)
    if (!dice) continue
    const bestDice = best ? diceOf(best.move)! : []
    if (!best || dice.length > bestDice.length || (dice.length === bestDice.length && (decision.points ?? 0) > (best.points ?? 0))) {
      best = decision
    }
  }
  return best
}

function decisionFor(offer: Offer, key: '*' | '-'): Decision | undefined {
  return offer.decisions.find((decision) =>
    key === '*' ? 'socks' in decision.move || 'bank' in decision.move : 'end' in decision.move
  )
}

/** The keypad keys that choose each decision on offer, for the screens to show. */
export function keysForDecisions(offer: Offer): OfferedDecision[] {
  const largest = largestDiceDecision(offer.decisions)
  return offer.decisions.map((decision) => {
    const dice = diceOf(decision.move)
    let keys: string
    if (dice) keys = `${dice.join('')} Enter` + (decision === largest ? ' or +' : '')
    else if ('socks' in decision.move || 'bank' in decision.move) keys = '*'
    else if ('end' in decision.move) keys = '-'
    else keys = ''
    return { move: decision.move, label: decision.label, points: decision.points, keys }
  })
}

/** The keys and what each does in this game (the game's own keys only once a game is on), for the screens to list. */
export function keypadLegend(game: GameId | null): Array<{ key: string; does: string }> {
  const entry = (key: KeypadKey, does?: string): { key: string; does: string } => {
    const info = keypadKeyInfo(key)
    return { key: info.legend ?? info.cap, does: does ?? info.does }
  }
  return [
    { key: '1–6', does: 'type dice' },
    entry('Enter'),
    entry('Backspace'),
    ...(game === null ? [] : GAMES[game].keypad.map((own) => entry(own.key, own.does))),
    entry('.'),
    entry('/'),
    // Not a keypad key: the Table screen's keyboard throws the dice due with virtual dice.
    { key: 'Space', does: 'roll' }
  ]
}

/** What Enter would do now, in words; `players` names the duellists in the order their dice are typed. */
export function keypadHint(offer: Offer, players: readonly string[] = []): string {
  if (offer.finished) return 'The game is over'
  if (offer.throwers.length > 1 && offer.diceDue === offer.throwers.length) {
    const names = offer.throwers.map((seat) => players[seat] ?? `seat ${seat + 1}`)
    return `Type one die each, in this order: ${names.map((name, index) => `${ordinal(index)} ${name}`).join(', ')}; then Enter`
  }
  const typed = offer.decisions.some((decision) => 'keep' in decision.move)
    ? 'Type the dice to keep, then Enter'
    : offer.decisions.some((decision) => 'reroll' in decision.move)
      ? 'Type the dice to re-roll, then Enter'
      : null
  const dice = offer.diceDue === 1 ? '1 die' : `${offer.diceDue} dice`
  if (offer.diceDue > 0) return typed ? `${typed}, or type the ${dice} thrown` : `Type the ${dice} thrown, then Enter`
  return typed ?? 'Choose a decision'
}

function ordinal(index: number): string {
  return ['1st', '2nd', '3rd'][index] ?? `${index + 1}th`
}

/** Applies one key to what has been typed so far; never changes anything on a refusal. */
export function pressKey(buffer: string, key: KeypadKey, offer: Offer): KeypadAction {
  if (key >= '1' && key <= '6' && key.length === 1) {
    if (buffer.length >= MAX_TYPED) return { type: 'refused', error: `At most ${MAX_TYPED} dice can be typed at once` }
    return { type: 'buffer', buffer: buffer + key }
  }
  switch (key) {
    case '0':
    case '7':
    case '8':
    case '9':
      return { type: 'refused', error: `${key} is not a die face: use 1 to 6` }
    case 'Backspace':
      return { type: 'buffer', buffer: buffer.slice(0, -1) }
    case '.':
      return { type: 'buffer', buffer: '' }
    case '/':
      return { type: 'undo', buffer: '' }
    case '*':
    case '-': {
      const decision = decisionFor(offer, key)
      if (!decision) {
        const blocked = offer.blocked.find((candidate) => (key === '*' ? 'bank' in candidate.move || 'socks' in candidate.move : 'end' in candidate.move))
        if (blocked) return { type: 'refused', error: `${blocked.label} is not allowed: ${blocked.reason}` }
        return { type: 'refused', error: key === '*' ? 'Neither socks nor bank is on offer now' : 'Ending the turn is not on offer now' }
      }
      return { type: 'move', move: decision.move, buffer: '' }
    }
    case '+': {
      const decision = largestDiceDecision(offer.decisions)
      if (!decision) return { type: 'refused', error: 'There is nothing to keep or re-roll now' }
      return { type: 'move', move: decision.move, buffer: '' }
    }
    case 'Enter':
      return enter(buffer, offer)
  }
  return { type: 'refused', error: `Unknown key ${key}` }
}

function enter(buffer: string, offer: Offer): KeypadAction {
  if (offer.finished) return { type: 'refused', error: 'The game is over' }
  if (buffer === '') return { type: 'refused', error: 'Type the dice values first' }
  const values = [...buffer].map(Number)
  const chosen = offer.decisions.find((decision) => {
    const dice = diceOf(decision.move)
    return dice !== null && sameValues(dice, values)
  })
  if (chosen) return { type: 'move', move: chosen.move, buffer: '' }
  if (offer.diceDue > 0 && values.length === offer.diceDue) return { type: 'move', move: { roll: values }, buffer: '' }
  // Not on offer as typed: let the rules say why (e.g. "a 2 and a 3 make 5, not a false four").
  if (offer.decisions.some((decision) => 'keep' in decision.move)) return { type: 'move', move: { keep: values }, buffer: '' }
  if (offer.decisions.some((decision) => 'reroll' in decision.move)) return { type: 'move', move: { reroll: values }, buffer: '' }
  if (offer.diceDue > 0) {
    return { type: 'refused', error: `${offer.diceDue} ${offer.diceDue === 1 ? 'die is' : 'dice are'} due, not ${values.length}` }
  }
  return { type: 'refused', error: 'No dice are due now: choose a decision' }
}
