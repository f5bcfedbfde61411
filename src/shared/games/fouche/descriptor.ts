// What Fouche is on the Setup screen: its name, players, dice and the options of its rules page.
import type { GameDescriptor } from '../options'
import { sixDiceOptions } from '../six-dice/options'

export const FOUCHE_DESCRIPTOR = {
  id: 'fouche',
  title: 'Fouche',
  blurb: 'Farkle’s cousin with equal turns',
  minPlayers: 1,
  diceCount: 6,
  options: sixDiceOptions(0)
} as const satisfies GameDescriptor
