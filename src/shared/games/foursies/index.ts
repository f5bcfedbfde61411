// Foursies: everything the game is, registered once in ../index.ts.
import type { GameDefinition, SolvedTables } from '../types'
import { foursiesChoice } from './computer'
import { FOURSIES_DESCRIPTOR } from './descriptor'
import { FOURSIES_FIGURES, FOURSIES_SEAT_FACTS, foursiesFacts, foursiesFigures, type FoursiesSeatFacts, type FoursiesStatistics } from './statistics'
import { foursiesHeldDice } from './dice-plan'
import { foursiesOdds, foursiesOddsLines, type FoursiesOdds } from './odds'
import { describeFoursies } from './words'
import { FOURSIES_DEFAULTS, foursiesRules, type FoursiesEvent, type FoursiesOptions, type FoursiesState } from './rules'

export interface FoursiesTypes {
  state: FoursiesState
  options: FoursiesOptions
  event: FoursiesEvent
  odds: FoursiesOdds
  tables: SolvedTables
  facts: FoursiesSeatFacts
  statistics: FoursiesStatistics
}

export const foursies: GameDefinition<FoursiesTypes> = {
  ...FOURSIES_DESCRIPTOR,
  defaults: FOURSIES_DEFAULTS,
  ...foursiesRules,
  describe: describeFoursies,
  odds: { figures: foursiesOdds, lines: foursiesOddsLines },
  computer: { choose: foursiesChoice },
  heldDice: foursiesHeldDice,
  statistics: { collect: foursiesFacts, figures: foursiesFigures, shown: FOURSIES_FIGURES, seatFacts: FOURSIES_SEAT_FACTS },
  keypad: [
    { key: '+', does: 'largest re-roll' },
    { key: '*', does: 'socks' },
    { key: '-', does: 'end the turn' }
  ],
  screens: {
    soloOpponent: false,
    scoreboard: 'points-rounds-tours',
    sounds: { win: ['matchWon'], foursies: ['foursies'], bust: ['bust'], four: ['score', 'fourOfAKind'] }
  },
  // The same seats, and the tab passes on one seat, as from round to round.
  rematch: (previous, summary) => {
    const tab = Math.max(0, previous.players.indexOf(summary.tab ?? previous.players[0]))
    return { ...previous, rules: { ...previous.rules, tab: (tab + 1) % previous.players.length } }
  }
}
