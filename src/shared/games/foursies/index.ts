// Foursies: everything the game is, registered once in ../index.ts.
import type { GameDefinition } from '../types'
import { FOURSIES_DESCRIPTOR } from './descriptor'
import { FOURSIES_DEFAULTS, foursiesRules, type FoursiesEvent, type FoursiesOptions, type FoursiesState } from './rules'

export interface FoursiesTypes {
  state: FoursiesState
  options: FoursiesOptions
  event: FoursiesEvent
}

export const foursies: GameDefinition<FoursiesTypes> = {
  ...FOURSIES_DESCRIPTOR,
  defaults: FOURSIES_DEFAULTS,
  ...foursiesRules
}
