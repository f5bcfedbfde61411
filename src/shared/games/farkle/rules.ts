// Farkle, as docs/rules/farkle.md reads it (`// Rules:` comments name its sections). The turn
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
import { FARKLE_DESCRIPTOR } from './descriptor'

export type FarkleOptions = SixDiceOptions
export type FarkleState = SixDiceState

// Rules: "What dice set aside from one throw score".
const combinations: Combination[] = [
  single(1, 100),
  single(5, 50),
  ofAKind(3, 1, 1000),
  ...[2, 3, 4, 5, 6].map((v) => ofAKind(3, v, v * 100)),
  ...[1, 2, 3, 4, 5, 6].map((v) => ofAKind(4, v, 1000, 'four of a kind')),
  ...[1, 2, 3, 4, 5, 6].map((v) => ofAKind(5, v, 2000, 'five of a kind')),
  ...[1, 2, 3, 4, 5, 6].map((v) => ofAKind(6, v, 3000, 'six of a kind')),
  straight(1500),
  ...threePairs(1500),
  ...twoTriplets(2500)
]

/** Farkle's scoring table (compiled). */
export const FARKLE_TABLE: ScoringTable = defineTable('farkle', combinations)

// The options and their defaults are defined once, as data, in ./descriptor.
export const FARKLE_DEFAULTS = optionDefaults(FARKLE_DESCRIPTOR.options) as unknown as FarkleOptions

export const farkleRules: Omit<GameRules<FarkleState, FarkleOptions, SixDiceEvent>, 'describe'> = makeSixDiceGame({
  id: FARKLE_DESCRIPTOR.id,
  title: FARKLE_DESCRIPTOR.title,
  table: FARKLE_TABLE,
  defaults: FARKLE_DEFAULTS,
  endRule: 'one-more-turn-each'
})
