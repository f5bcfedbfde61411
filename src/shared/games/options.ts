// Each game's definition as pure data: title, players, dice, and the options of its rules page
// with their defaults and what a Setup screen shows for them. The engines take their defaults
// from here and check a header's `rules` against the same keys (parseOptions); the Setup screen
// builds its form from here. No engine code is imported, so a screen can import this cheaply.
import type { GameId } from './types'

/** One value among a few, e.g. Foursies' match. */
export interface ChoiceOption {
  kind: 'choice'
  key: string
  label: string
  default: string
  choices: readonly { value: string; label: string; help?: string }[]
  /** Shown only while another option does not have this value (e.g. tour only without a one-round match). */
  hiddenWhen?: { key: string; value: string }
}

/** A whole number (points, rounds). */
export interface NumberOption {
  kind: 'number'
  key: string
  label: string
  default: number
  min: number
  /** A step that suits the spinner (the rules take any whole number from min on). */
  step: number
}

/** A seat index (0 is the first player). */
export interface SeatOption {
  kind: 'seat'
  key: string
  label: string
  default: number
}

export type OptionDescriptor = ChoiceOption | NumberOption | SeatOption

export interface GameDescriptor {
  id: GameId
  title: string
  minPlayers: number
  /** How many dice the game uses. */
  diceCount: number
  /** The options of the game's rules page, in the order a header writes them. */
  options: readonly OptionDescriptor[]
}

/** A rule's value as a refusal quotes it: its JSON, except a number too large for JSON's text (1e400 is read as Infinity). */
export function valueText(value: unknown): string {
  return typeof value === 'number' && !Number.isFinite(value) ? String(value) : (JSON.stringify(value) ?? String(value))
}

/** An option value: a choice's value or a whole number. */
export type OptionValue = string | number

const sixDiceOptions = (entry: number): OptionDescriptor[] => [
  { kind: 'number', key: 'entry', label: 'Entry minimum (0 = off)', default: entry, min: 0, step: 50 },
  { kind: 'number', key: 'target', label: 'Target', default: 10000, min: 1, step: 500 }
]

export const GAME_DESCRIPTORS: Readonly<Record<GameId, GameDescriptor>> = {
  foursies: {
    id: 'foursies',
    title: 'Foursies',
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
  },
  farkle: { id: 'farkle', title: 'Farkle', minPlayers: 1, diceCount: 6, options: sixDiceOptions(500) },
  fouche: { id: 'fouche', title: 'Fouche', minPlayers: 1, diceCount: 6, options: sixDiceOptions(0) },
  'four-plus': {
    id: 'four-plus',
    title: '4-PLU$',
    minPlayers: 2,
    diceCount: 4,
    options: [{ kind: 'number', key: 'rounds', label: 'Rounds', default: 3, min: 1, step: 1 }]
  }
}

/** The default of every option of a game, keyed as in a header's `rules`. */
export function optionDefaults(game: GameId): Record<string, OptionValue> {
  const out: Record<string, OptionValue> = {}
  for (const option of GAME_DESCRIPTORS[game].options) out[option.key] = option.default
  return out
}

/** The values a choice option allows. */
export function choiceValues(game: GameId, key: string): readonly string[] {
  const option = GAME_DESCRIPTORS[game].options.find((candidate) => candidate.key === key)
  return option?.kind === 'choice' ? option.choices.map((choice) => choice.value) : []
}
