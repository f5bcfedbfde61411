// What Foursies is on the Setup screen: its name, players, dice and the options of its rules page
// (labels, defaults, choices). Its engine (./rules) takes its defaults and choices from here.
import type { GameDescriptor } from '../options'

export const FOURSIES_DESCRIPTOR = {
  id: 'foursies',
  title: 'Foursies',
  blurb: 'Four dice, race to exactly four points',
  minPlayers: 1,
  diceCount: 4,
  options: [
    {
      kind: 'choice',
      key: 'match',
      label: 'Match',
      default: 'round',
      choices: [
        { value: 'round', label: 'One round', help: 'First to end a turn on exactly 4' },
        { value: 'tour', label: 'Tour', help: 'Rounds until the tour is won' },
        { value: 'tour-de-fours', label: 'Tour de Fours', help: 'Tours until someone wins four' }
      ]
    },
    {
      kind: 'choice',
      key: 'tour',
      label: 'A tour is',
      default: 'first-to-four',
      choices: [
        { value: 'first-to-four', label: 'First to four round wins' },
        { value: 'four-rounds', label: 'Exactly four rounds' }
      ],
      hiddenWhen: { key: 'match', value: 'round' }
    },
    {
      kind: 'choice',
      key: 'devilsNumber',
      label: 'Devil’s Number (three 6s)',
      default: 'none',
      choices: [
        { value: 'none', label: 'Announce only' },
        { value: 'bust', label: 'Bust' },
        { value: 'reset', label: 'Score back to 0' }
      ]
    },
    { kind: 'seat', key: 'tab', label: 'Tab (starts the first round)', default: 0 }
  ]
} as const satisfies GameDescriptor
