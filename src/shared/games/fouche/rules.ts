// Fouche, as docs/rules/fouche.md reads it (`// Rules:` comments name its sections). The turn
// logic lives in ../six-dice/rules.
import type { GameRules } from '../types'
import {
  defineTable,
  makeSixDiceGame,
  ofAKind,
  single,
  straight,
  threePairs,
  twoTriplets,
  type Combination,
  type ScoringTable,
  type SixDiceEvent,
  type SixDiceOptions,
  type SixDiceState
} from '../six-dice/rules'
import { optionDefaults } from '../options'
import { FOUCHE_DESCRIPTOR } from './descriptor'

export type FoucheOptions = SixDiceOptions
export type FoucheState = SixDiceState

// No four, five or six of a kind (except six 1s); ones and fives also score singly.
// Rules: "What dice set aside from one throw score".
const combinations: Combination[] = [
  single(1, 100),
  single(5, 50),
  ofAKind(6, 1, 5000),
  straight(2000),
  ...threePairs(2000),
  ...twoTriplets(1500),
  ofAKind(3, 1, 1000),
  ...[2, 3, 4, 5, 6].map((v) => ofAKind(3, v, v * 100))
]

/** Fouche's scoring table (compiled). */
export const FOUCHE_TABLE: ScoringTable = defineTable('fouche', combinations)

// The options and their defaults are defined once, as data, in ./descriptor.
export const FOUCHE_DEFAULTS = optionDefaults(FOUCHE_DESCRIPTOR.options) as unknown as FoucheOptions

export const foucheRules: Omit<GameRules<FoucheState, FoucheOptions, SixDiceEvent>, 'describe'> = makeSixDiceGame({
  id: FOUCHE_DESCRIPTOR.id,
  title: FOUCHE_DESCRIPTOR.title,
  table: FOUCHE_TABLE,
  defaults: FOUCHE_DEFAULTS,
  endRule: 'complete-the-lap'
})
