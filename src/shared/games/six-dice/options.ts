// The options of Farkle's and Fouche's rules pages: the same two, with their own default entry minimum.
import type { OptionDescriptor } from '../options'

export const sixDiceOptions = (entry: number): OptionDescriptor[] => [
  { kind: 'number', key: 'entry', label: 'Entry minimum (0 = off)', default: entry, min: 0, step: 50 },
  { kind: 'number', key: 'target', label: 'Target', default: 10000, min: 1, step: 500 }
]
