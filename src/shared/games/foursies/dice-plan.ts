// Which physical dice hold their values in Foursies (docs/rules-readings.md, "Smart dice: which
// physical die"): after a re-roll or an odd man out the kept dice hold their values; while a
// decision is due every die holds its value; a run, socks and the opening throw take all four
// dice. A duel gives each duellist a die for the whole duel.
import type { HeldDice } from '../types'
import type { FoursiesState } from './rules'

export function foursiesHeldDice(s: FoursiesState): HeldDice {
  if (s.phase === 'duel') return 'duel'
  if (s.phase !== 'turn') return { values: [], why: () => '' }
  if (s.step === 'decide') return { values: s.dice, why: (v) => (v === 4 ? 'holds the 4 that scored' : `holds the ${v} of the throw in play`) }
  if (s.step === 'reroll' || s.step === 'odd') return { values: s.kept, why: (v) => (v === 4 ? 'holds the 4 that scored' : `holds the ${v} that stays`) }
  return { values: [], why: () => '' }
}
