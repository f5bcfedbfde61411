// Exact dice arithmetic for the odds: every outcome of k fair dice as a multiset with its
// probability (k!/(c1!...c6!) / 6^k). Equal dice are interchangeable in every game here, so a
// throw of k dice has C(k+5,5) outcomes instead of 6^k (4 dice: 126, 6 dice: 462).

import { faceCounts } from '../dice'

export interface Outcome {
  /** The values thrown, sorted ascending. */
  values: number[]
  /** Exact probability of this multiset. */
  prob: number
}

const FACT = [1, 1, 2, 6, 24, 120, 720]
const cache: Outcome[][] = []

/** All outcomes of a throw of `k` dice (0..6), as sorted multisets with their probabilities. */
export function outcomesOf(k: number): readonly Outcome[] {
  const hit = cache[k]
  if (hit) return hit
  const out: Outcome[] = []
  const total = 6 ** k
  const values: number[] = []
  const rec = (from: number, left: number): void => {
    if (left === 0) {
      const counts = faceCounts(values)
      let ways = FACT[k]
      for (let v = 1; v <= 6; v++) ways /= FACT[counts[v]]
      out.push({ values: values.slice(), prob: ways / total })
      return
    }
    for (let v = from; v <= 6; v++) {
      values.push(v)
      rec(v, left - 1)
      values.pop()
    }
  }
  rec(1, k)
  cache[k] = out
  return out
}

/** "31%" style: whole percents, "<1%" / ">99%" near the ends, exact 0% / 100% only when exact. */
export function percent(p: number): string {
  if (p <= 0) return '0%'
  if (p >= 1) return '100%'
  if (p < 0.005) return '<1%'
  if (p > 0.995) return '>99%'
  return `${Math.round(p * 100)}%`
}

/** Rounds a probability or value for JSON output (figures stay exact in the API). */
export function round(x: number, digits = 6): number {
  const f = 10 ** digits
  return Math.round(x * f) / f
}
