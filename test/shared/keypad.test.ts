import { describe, expect, it } from 'vitest'
import type { Offer } from '@shared/games/types'
import { keypadHint, keypadLegend, keysForDecisions, pressKey } from '@shared/keypad'
import { KEYBOARD_KEYS, KEYPAD_KEY_TABLE, KEYPAD_KEYS, keypadKeyOf } from '@shared/keypad-keys'

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

describe('the keypad key table', () => {
  it('lists every key of the screen API once, in its order', () => {
    expect(KEYPAD_KEYS).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'Enter', 'Backspace', '+', '-', '*', '/', '.'])
  })

  it('gives each keyboard character and each serial keypad name one key', () => {
    const keyboard = KEYPAD_KEY_TABLE.flatMap((info) => info.keyboard)
    const serial = KEYPAD_KEY_TABLE.flatMap((info) => info.serial.map((name) => name.toLowerCase()))
    expect(new Set(keyboard).size).toBe(keyboard.length)
    expect(new Set(serial).size).toBe(serial.length)
    expect([KEYBOARD_KEYS.get('Escape'), KEYBOARD_KEYS.get('7'), KEYBOARD_KEYS.get('a')]).toEqual(['.', '7', undefined])
    expect(['ENTER', 'Undo', 'C', '0'].map(keypadKeyOf)).toEqual(['Enter', '/', '.', '0'])
  })

  it("lists the keys of the game being played, the game's own keys in its words", () => {
    const legend = (game: Parameters<typeof keypadLegend>[0]): string => keypadLegend(game).map((entry) => `${entry.key} ${entry.does}`).join(' · ')
    expect(legend('foursies')).toBe(
      '1–6 type dice · Enter enter · Backspace delete a digit · + largest re-roll · * socks · − end the turn · . or Esc clear · / undo · Space roll'
    )
    expect(legend('farkle')).toBe('1–6 type dice · Enter enter · Backspace delete a digit · + keep the most · * bank · . or Esc clear · / undo · Space roll')
    expect(legend('fouche')).toBe(legend('farkle'))
    expect(legend('four-plus')).toBe('1–6 type dice · Enter enter · Backspace delete a digit · . or Esc clear · / undo · Space roll')
    expect(legend(null)).toBe(legend('four-plus'))
  })
})
