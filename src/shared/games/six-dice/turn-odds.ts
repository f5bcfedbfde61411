// Farkle and Fouche: exact turn values by dynamic programming over (dice left to throw, turn points).
//
// Policy ("as well as possible" for the odds): maximise the expected points the turn banks
// (a farkle banks 0). V(d, t) is the expected banked points of a player who holds t turn points
// and may throw d dice (6 after hot dice), playing on optimally:
//   V(d, t) = max(t if banking is allowed, R(d, t))
//   R(d, t) = sum over the C(d+5,5) outcomes o of d dice of P(o) * (0 if o farkles, else
//             max over the scoring selections s of o of V(d - |s| or 6 when none left, t + points(s)))
// Every keep adds at least 50 points, so V is computed from high t down to 0: exact, no
// iteration. Above a cap (the entry minimum + 30,000 turn points) the player banks: with six
// dice a throw risks 2.3% farkle, so from about 17,000 turn points on banking is best anyway.
// Banking is allowed when the entry minimum is met (entry needed: the game's entry while the
// player has banked nothing, else 0), so the tables are built per (scoring table, entry needed),
// lazily on first use (about 10-30 ms each), then every figure is a lookup.
//
// The same machinery answers "chance to reach at least N turn points" (the final turn of a game:
// the points needed to pass the leader), with 1/0 in place of t.

import { isFarkle, scoringSelections, type ScoringTable } from './rules'
import { outcomesOf } from '../dice-odds'

const STEP = 50
const HEADROOM = 30_000

interface ThrowFacts {
  prob: number
  farkle: boolean
  /** Best points per number of dice kept (index 1..d), -1 when no selection uses that many. */
  bestByCount: number[]
}

const throwFactsCache = new WeakMap<ScoringTable, ThrowFacts[][]>()

/** Every outcome of d dice (d = 1..6) with its farkle flag and its best keep per dice count. */
export function throwFacts(table: ScoringTable): ThrowFacts[][] {
  let hit = throwFactsCache.get(table)
  if (hit) return hit
  hit = [[]]
  for (let d = 1; d <= 6; d++) {
    hit.push(
      outcomesOf(d).map((o) => {
        const best = new Array<number>(d + 1).fill(-1)
        for (const s of scoringSelections(o.values, table)) {
          if (s.points > best[s.dice.length]) best[s.dice.length] = s.points
        }
        return { prob: o.prob, farkle: isFarkle(o.values, table), bestByCount: best }
      })
    )
  }
  throwFactsCache.set(table, hit)
  return hit
}

/** Chance that a throw of d dice scores nothing (exact). */
const farkleCache = new WeakMap<ScoringTable, number[]>()

export function farkleChance(table: ScoringTable, d: number): number {
  let byDice = farkleCache.get(table)
  if (!byDice) {
    byDice = [1]
    for (let k = 1; k <= 6; k++) {
      let p = 0
      for (const o of throwFacts(table)[k]) if (o.farkle) p += o.prob
      byDice.push(p)
    }
    farkleCache.set(table, byDice)
  }
  return byDice[d]
}

export interface TurnValues {
  /** Expected banked points with t turn points and d dice to throw, playing on as well as possible. */
  value(d: number, t: number): number
  /** The same, when the player throws now (does not bank). */
  rollValue(d: number, t: number): number
  /** What banking t turn points now is worth (-Infinity when banking is not allowed). */
  bankValue(t: number): number
}

/**
 * Generic solver: `stop(t)` is what the player gets by banking t turn points (null when banking
 * is not allowed), `beyond(t)` is the value of a position above the cap.
 */
function solve(table: ScoringTable, cap: number, stop: (t: number) => number | null, beyond: (t: number) => number): TurnValues {
  const facts = throwFacts(table)
  const top = Math.ceil(cap / STEP)
  // v[d][i]: value with d dice to throw (1..6) and t = i * STEP; r[d][i]: value of throwing.
  const v: Float64Array[] = []
  const r: Float64Array[] = []
  for (let d = 0; d <= 6; d++) {
    v.push(new Float64Array(top + 1))
    r.push(new Float64Array(top + 1))
  }
  const at = (d: number, t: number): number => {
    const i = t / STEP
    return i > top ? beyond(t) : v[d][i]
  }
  for (let i = top; i >= 0; i--) {
    const t = i * STEP
    for (let d = 1; d <= 6; d++) {
      let sum = 0
      for (const o of facts[d]) {
        if (o.farkle) continue
        let best = -Infinity
        for (let k = 1; k <= d; k++) {
          const pts = o.bestByCount[k]
          if (pts < 0) continue
          const x = at(k === d ? 6 : d - k, t + pts)
          if (x > best) best = x
        }
        sum += o.prob * best
      }
      r[d][i] = sum
      const s = stop(t)
      v[d][i] = s === null ? sum : Math.max(s, sum)
    }
  }
  const index = (t: number): number => {
    if (t % STEP !== 0 || t < 0) throw new RangeError(`turn points ${t} are not a multiple of ${STEP}`)
    return t / STEP
  }
  return {
    value: (d, t) => (index(t) > top ? beyond(t) : v[d][index(t)]),
    rollValue: (d, t) => (index(t) > top ? beyond(t) : r[d][index(t)]),
    bankValue: (t) => stop(t) ?? -Infinity
  }
}

const expectedCache = new WeakMap<ScoringTable, Map<number, TurnValues>>()

/** Expected-points values for a player who needs `entryNeeded` turn points before banking. */
export function expectedValues(table: ScoringTable, entryNeeded: number): TurnValues {
  let byEntry = expectedCache.get(table)
  if (!byEntry) expectedCache.set(table, (byEntry = new Map()))
  const key = Math.ceil(entryNeeded / STEP) * STEP
  let hit = byEntry.get(key)
  if (!hit) {
    hit = solve(table, key + HEADROOM, (t) => (t >= key ? t : null), (t) => t)
    byEntry.set(key, hit)
  }
  return hit
}

const reachCache = new WeakMap<ScoringTable, Map<string, TurnValues>>()

/**
 * Chance values for a turn that must bank at least `need` turn points (ties count `tie`, e.g.
 * 1/2 for a shared win when banking exactly need - 1... see `tieAt`): value(d, t) is the chance
 * to end the turn with at least `need` points, playing to maximise it. Banking below `need`
 * is worth `tie` when it equals `tieAt`, else 0.
 */
export function reachValues(table: ScoringTable, need: number, entryNeeded = 0, tieAt = -1, tie = 0): TurnValues {
  let m = reachCache.get(table)
  if (!m) reachCache.set(table, (m = new Map()))
  const n = Math.max(STEP, Math.ceil(need / STEP) * STEP)
  const key = `${n}|${entryNeeded}|${tieAt}|${tie}`
  let hit = m.get(key)
  if (!hit) {
    // Turn points from the cap on count as reached, so the cap must also cover the entry minimum.
    hit = solve(
      table,
      Math.max(n, Math.ceil(entryNeeded / STEP) * STEP),
      (t) => (t < entryNeeded ? null : t >= n ? 1 : t === tieAt ? tie : 0),
      () => 1
    )
    if (m.size > 200) m.clear()
    m.set(key, hit)
  }
  return hit
}
