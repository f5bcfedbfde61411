// Scoring readings against true values, for `referee dice-photo --eval` and the tests.
//
// A manifest gives each photo's true values without saying which die is where, so dice are
// matched by value (the project's own rule, written here): each confident reading (value set,
// confidence ≥ CONFIDENT) of a value the photo has is a die read right; a confident reading left
// over is a die read wrongly (a misread, a confident value for a die that had to be left unread,
// or a die that is not there); a true value no confident reading matched is a die left unread. A
// die whose true value is null (cocked, outside the tray) is right when nothing confident is left
// over for it.
import { CONFIDENT, type DieReading } from './types'

export interface PhotoScore {
  dice: number
  right: number
  wrong: number
  unread: number
  /** Every die right and nothing read that was not there. */
  throwRight: boolean
}

export function scorePhoto(truth: Array<number | null>, read: DieReading[]): PhotoScore {
  const wanted = new Map<number, number>()
  for (const value of truth) if (value !== null) wanted.set(value, (wanted.get(value) ?? 0) + 1)
  let matched = 0
  let leftOver = 0
  for (const die of read) {
    if (die.value === null || die.confidence < CONFIDENT) continue
    const left = wanted.get(die.value) ?? 0
    if (left > 0) {
      wanted.set(die.value, left - 1)
      matched++
    } else leftOver++
  }
  const numbered = truth.filter((value) => value !== null).length
  const nulls = truth.length - numbered
  // Left-over confident readings go first to numbered dice not matched (misreads), then to null dice.
  const misreadNumbered = Math.min(leftOver, numbered - matched)
  const misreadNull = Math.min(nulls, leftOver - misreadNumbered)
  const right = matched + nulls - misreadNull
  const wrong = Math.min(truth.length - right, leftOver)
  return { dice: truth.length, right, wrong, unread: truth.length - right - wrong, throwRight: right === truth.length && leftOver === 0 }
}

export interface Share {
  count: number
  of: number
  share: number
  /** Wilson score interval at 95 %. */
  low: number
  high: number
}

/** A proportion with its 95 % Wilson score interval (good near 0 and 1, unlike the normal approximation). */
export function wilson(count: number, of: number): Share {
  if (of === 0) return { count, of, share: NaN, low: NaN, high: NaN }
  const z = 1.959964
  const p = count / of
  const denominator = 1 + (z * z) / of
  const centre = (p + (z * z) / (2 * of)) / denominator
  const half = (z * Math.sqrt((p * (1 - p)) / of + (z * z) / (4 * of * of))) / denominator
  return { count, of, share: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) }
}

export interface EvalSummary {
  photos: number
  dice: number
  right: Share
  unread: Share
  wrongConfident: Share
  throwsRight: Share
}

export function summarize(scores: PhotoScore[]): EvalSummary {
  const dice = scores.reduce((sum, s) => sum + s.dice, 0)
  const total = (key: 'right' | 'wrong' | 'unread'): number => scores.reduce((sum, s) => sum + s[key], 0)
  return {
    photos: scores.length,
    dice,
    right: wilson(total('right'), dice),
    unread: wilson(total('unread'), dice),
    wrongConfident: wilson(total('wrong'), dice),
    throwsRight: wilson(scores.filter((s) => s.throwRight).length, scores.length)
  }
}
