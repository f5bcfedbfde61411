// What a game is on the Setup screen, as pure data: title, players, dice, and the options of its
// rules page with their defaults and what a Setup screen shows for them. Each game's folder
// holds its own (./<game>/descriptor.ts); its engine takes its defaults from there and checks a
// header's `rules` against the same keys (parseOptions); the Setup screen builds its form from it.

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
  /** The game's id: the record header's `game`, and its key in the registry. */
  id: string
  title: string
  /** One line for the Setup screen's list of games. */
  blurb: string
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

/** The default of every option of a rules page, keyed as in a header's `rules`. */
export function optionDefaults(options: readonly OptionDescriptor[]): Record<string, OptionValue> {
  const out: Record<string, OptionValue> = {}
  for (const option of options) out[option.key] = option.default
  return out
}

/** The values a choice option allows. */
export function choiceValues(options: readonly OptionDescriptor[], key: string): readonly string[] {
  const option = options.find((candidate) => candidate.key === key)
  return option?.kind === 'choice' ? option.choices.map((choice) => choice.value) : []
}
