import { describe, expect, it } from 'vitest'
import type { Offer } from '../../src/shared/games/types'
import { keypadHint, keysForDecisions, pressKey } from '../../src/shared/keypad'

const base: Offer = { finished: false, toPlay: 0, throwers: [0], diceDue: 4, decisions: [], blocked: [] }
const falseFours: Offer = {
  ...base,
  diceDue: 0,
  decisions: [
    { move: { reroll: [2, 2] }, label: 'Re-roll 2+2' },
    { move: { reroll: [1, 3] }, label: 'Re-roll 1+3' },
    { move: { reroll: [1, 2, 2, 3] }, label: 'Re-roll 2+2 and 1+3' },
    { move: { end: true }, label: 'End the turn' }
  ]
}
const afterKeep: Offer = {
  ...base,
  diceDue: 3,
  decisions: [{ move: { bank: true }, label: 'Bank 350', points: 350 }]
}

describe('keypad grammar', () => {
  it('types die values and deletes them with Backspace', () => {
    expect(pressKey('', '4', base)).toEqual({ type: 'buffer', buffer: '4' })
    expect(pressKey('42', 'Backspace', base)).toEqual({ type: 'buffer', buffer: '4' })
    expect(pressKey('42', '.', base)).toEqual({ type: 'buffer', buffer: '' })
  })

  it.each(['0', '7', '8', '9'] as const)('refuses %s: it is no die face', (key) => {
    expect(pressKey('12', key, base)).toEqual({ type: 'refused', error: `${key} is not a die face: use 1 to 6` })
  })

  it('enters a throw of exactly the dice due', () => {
    expect(pressKey('4226', 'Enter', base)).toEqual({ type: 'move', move: { roll: [4, 2, 2, 6] }, buffer: '' })
  })

  it('refuses a throw of the wrong number of dice', () => {
    expect(pressKey('422', 'Enter', base)).toEqual({ type: 'refused', error: '4 dice are due, not 3' })
    expect(pressKey('', 'Enter', base)).toEqual({ type: 'refused', error: 'Type the dice values first' })
  })

  it('chooses a false four by typing its dice, in any order', () => {
    expect(pressKey('31', 'Enter', falseFours)).toEqual({ type: 'move', move: { reroll: [1, 3] }, buffer: '' })
  })

  it('passes a re-roll that is not on offer to the rules, which say why', () => {
    expect(pressKey('23', 'Enter', falseFours)).toEqual({ type: 'move', move: { reroll: [2, 3] }, buffer: '' })
  })

  it('uses + for the largest re-roll, - to end, * for bank, / to undo', () => {
    expect(pressKey('', '+', falseFours)).toEqual({ type: 'move', move: { reroll: [1, 2, 2, 3] }, buffer: '' })
    expect(pressKey('', '-', falseFours)).toEqual({ type: 'move', move: { end: true }, buffer: '' })
    expect(pressKey('', '*', afterKeep)).toEqual({ type: 'move', move: { bank: true }, buffer: '' })
    expect(pressKey('1', '/', afterKeep)).toEqual({ type: 'undo', buffer: '' })
    expect(pressKey('', '*', falseFours)).toEqual({ type: 'refused', error: 'Neither socks nor bank is on offer now' })
  })

  it('names the keys next to each decision', () => {
    expect(keysForDecisions(falseFours).map((decision) => decision.keys)).toEqual(['22 Enter', '13 Enter', '1223 Enter or +', '-'])
    expect(keysForDecisions(afterKeep).map((decision) => decision.keys)).toEqual(['*'])
  })

  it('says what Enter does now', () => {
    expect(keypadHint(base)).toBe('Type the 4 dice thrown, then Enter')
    expect(keypadHint(falseFours)).toBe('Type the dice to re-roll, then Enter')
    expect(keypadHint(afterKeep)).toBe('Type the 3 dice thrown, then Enter')
  })
})
