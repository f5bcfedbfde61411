// What Farkle is on the Setup screen: its name, players, dice and the options of its rules page.
import type { GameDescriptor } from '../options'
import { sixDiceOptions } from '../six-dice/options'

export const FARKLE_DESCRIPTOR = {
  id: 'farkle',
  title: 'Farkle',
  blurb: 'Six dice, set aside scorers, bank or farkle',
  minPlayers: 1,
  diceCount: 6,
  options: sixDiceOptions(500)
} as const satisfies GameDescriptor
