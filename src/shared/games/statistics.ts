// Helpers every game's statistics use (./<game>/statistics.ts; definitions in docs/statistics.md).
import * as v from 'valibot'

/** A count or a total in a seat's facts, as the statistics cache checks it. */
export const FIGURE = v.pipe(v.number(), v.finite())

/** numerator / denominator; null when the denominator is 0. */
export function ratio(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : numerator / denominator
}

/** The sum of each of `keys` over the seats' facts, as one object in the order of `keys`. */
export function sums<K extends string>(seats: readonly Readonly<Record<K, number>>[], keys: readonly K[]): Record<K, number> {
  const out = Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>
  for (const seat of seats) for (const key of keys) out[key] += seat[key]
  return out
}
