// 4-PLU$: the chance of each outcome of the next throw, by enumerating the 1,296 throws of four dice.
import { classifyThrow, flashOutcome, type FlashKind, type ThrowKind } from './rules'
import { outcomesOf } from '../dice-odds'

const THROW_KINDS: ThrowKind[] = ['fourOnes', 'threeOnes', 'twoOnes', 'fourFours', 'fourOfAKind', 'threeOfAKind', 'pair', 'nothing']
const FLASH_KINDS: FlashKind[] = ['fourFours', 'ones', 'sixes', 'fourOfAKind', 'threeOfAKind', 'pair', 'nothing']

/** P(kind) of a normal-round throw, exact. */
export const THROW_ODDS: Readonly<Record<ThrowKind, number>> = (() => {
  const out = Object.fromEntries(THROW_KINDS.map((k) => [k, 0])) as Record<ThrowKind, number>
  for (const o of outcomesOf(4)) out[classifyThrow(o.values).kind] += o.prob
  return out
})()

/** P(kind) of a flash-round throw, exact. */
export const FLASH_ODDS: Readonly<Record<FlashKind, number>> = (() => {
  const out = Object.fromEntries(FLASH_KINDS.map((k) => [k, 0])) as Record<FlashKind, number>
  for (const o of outcomesOf(4)) out[flashOutcome(o.values).kind] += o.prob
  return out
})()

/** Points a flash kind scores. */
export const FLASH_SCORE: Readonly<Record<FlashKind, number>> = {
  fourFours: 0, ones: 0, sixes: 0, fourOfAKind: 5, threeOfAKind: 3, pair: 1, nothing: 0
}

const expectedMemo = new Map<string, number>()

/**
 * Expected points of the rest of a turn with `throwsLeft` throws due and the pair's extra throw
 * used or not (no decisions: every throw is made). Four 4s give back the throw they use.
 */
export function expectedTurnPoints(throwsLeft: number, pairUsed: boolean): number {
  if (throwsLeft <= 0) return 0
  const key = `${throwsLeft}|${pairUsed}`
  const hit = expectedMemo.get(key)
  if (hit !== undefined) return hit
  const o = THROW_ODDS
  const pair = pairUsed ? 0 : o.pair
  const nothing = o.nothing + (pairUsed ? o.pair : 0)
  // E = o44 (4 + E) + o5 (5 + E') + o3 (3 + E') + pair E(n, used) + nothing E'   (E' = E(n-1, same))
  const next = expectedTurnPoints(throwsLeft - 1, pairUsed)
  const pairPart = pairUsed ? 0 : pair * expectedTurnPoints(throwsLeft, true)
  const rest = o.fourFours * 4 + o.fourOfAKind * (5 + next) + o.threeOfAKind * (3 + next) + pairPart + nothing * next
  const e = rest / (1 - o.fourFours)
  expectedMemo.set(key, e)
  return e
}
