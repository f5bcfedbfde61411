// 4-PLU$: everything the game is, registered once in ../index.ts.
import { rotateSeats } from '../rematch'
import type { GameDefinition, SolvedTables } from '../types'
import { FOUR_PLUS_DESCRIPTOR } from './descriptor'
import { FOUR_PLUS_FIGURES, FOUR_PLUS_SEAT_FACTS, fourPlusFacts, fourPlusFigures, type FourPlusSeatFacts, type FourPlusStatistics } from './statistics'
import { fourPlusOdds, fourPlusOddsLines, type FourPlusOdds } from './odds'
import { describeFourPlus } from './words'
import { FOUR_PLUS_DEFAULTS, fourPlusRules, type FourPlusEvent, type FourPlusOptions, type FourPlusState } from './rules'

export interface FourPlusTypes {
  state: FourPlusState
  options: FourPlusOptions
  event: FourPlusEvent
  odds: FourPlusOdds
  tables: SolvedTables
  facts: FourPlusSeatFacts
  statistics: FourPlusStatistics
}

export const fourPlus: GameDefinition<FourPlusTypes> = {
  ...FOUR_PLUS_DESCRIPTOR,
  defaults: FOUR_PLUS_DEFAULTS,
  ...fourPlusRules,
  describe: describeFourPlus,
  odds: { figures: fourPlusOdds, lines: fourPlusOddsLines },
  // Every turn is throws: the computer only throws virtual dice.
  computer: null,
  // Every throw takes all four dice: none holds its value.
  heldDice: () => ({ values: [], why: () => '' }),
  statistics: { collect: fourPlusFacts, figures: fourPlusFigures, shown: FOUR_PLUS_FIGURES, seatFacts: FOUR_PLUS_SEAT_FACTS },
  // No decisions: the keypad types throws.
  keypad: [],
  screens: { soloOpponent: false, scoreboard: 'score', sounds: { win: ['win'] } },
  rematch: rotateSeats
}
