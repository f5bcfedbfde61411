// What Farkle and Fouche share beyond their engine: a member game is its descriptor, its rules
// (./rules with its own scoring table and end of the game) and the family's capabilities.
import type { GameDescriptor } from '../options'
import { rotateSeats } from '../rematch'
import type { GameDefinition, GameRules } from '../types'
import { sixDiceChoice, sixDicePrepare, sixDiceWaitNote } from './computer'
import { sixDiceHeldDice } from './dice-plan'
import { SIX_DICE_FIGURES, SIX_DICE_SEAT_FACTS, sixDiceFacts, sixDiceFigures, type SixDiceSeatFacts, type SixDiceStatistics } from './statistics'
import { sixDiceOdds, sixDiceOddsLines, sixDiceTablesKey, type SixDiceOdds } from './odds'
import type { SixDiceEvent, SixDiceOptions, SixDiceState } from './rules'
import type { WinTableSource } from './win-play'
import { describeSixDice } from './words'

export interface SixDiceTypes {
  state: SixDiceState
  options: SixDiceOptions
  event: SixDiceEvent
  odds: SixDiceOdds
  /** The chance-to-win tables (./win-solver), solved in the background. */
  tables: WinTableSource
  facts: SixDiceSeatFacts
  statistics: SixDiceStatistics
}

/** A six-dice game's whole definition, from its descriptor, its defaults, its rules and whether a solo game gets a computer opponent. */
export function sixDiceGame(
  descriptor: GameDescriptor,
  defaults: SixDiceOptions,
  rules: Omit<GameRules<SixDiceState, SixDiceOptions, SixDiceEvent>, 'describe'>,
  soloOpponent: boolean
): GameDefinition<SixDiceTypes> {
  return {
    ...descriptor,
    defaults,
    ...rules,
    describe: describeSixDice,
    odds: { figures: sixDiceOdds, lines: sixDiceOddsLines, tablesKey: sixDiceTablesKey },
    computer: { choose: sixDiceChoice, waitNote: sixDiceWaitNote, prepare: sixDicePrepare },
    heldDice: sixDiceHeldDice,
    statistics: { collect: sixDiceFacts, figures: sixDiceFigures, shown: SIX_DICE_FIGURES, seatFacts: SIX_DICE_SEAT_FACTS },
    keypad: [
      { key: '+', does: 'keep the most' },
      { key: '*', does: 'bank' }
    ],
    screens: { soloOpponent, scoreboard: 'score', sounds: { win: ['gameOver'], hotDice: ['hotDice'], farkle: ['farkle'] } },
    rematch: rotateSeats
  }
}
