// Which physical dice hold their values in Farkle and Fouche (docs/rules-readings.md, "Smart
// dice: which physical die"): dice set aside this turn hold their values (put them down showing
// them); while a keep is due every die holds its value; hot dice and a new turn take all six.
import type { HeldDice } from '../types'
import type { SixDiceState } from './rules'

export function sixDiceHeldDice(s: SixDiceState): HeldDice {
  if (s.step === 'keep') {
    return { values: [...s.thrown, ...s.setAside], why: (v) => `holds the ${v} of the throw in play` }
  }
  if (s.step === 'choose' && s.diceDue < 6) return { values: [...s.setAside, ...s.kept], why: (v) => `is set aside on ${v}` }
  return { values: [], why: () => '' }
}
