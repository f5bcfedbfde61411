// What 4-PLU$ is on the Setup screen: its name, players, dice and the options of its rules page.
import type { GameDescriptor } from '../options'

export const FOUR_PLUS_DESCRIPTOR = {
  id: 'four-plus',
  title: '4-PLU$',
  blurb: 'Four dice, fixed rounds, mind the 1s',
  minPlayers: 2,
  diceCount: 4,
  options: [{ kind: 'number', key: 'rounds', label: 'Rounds', default: 3, min: 1, step: 1 }]
} as const satisfies GameDescriptor
