// Farkle and Fouche for two players, solved for the chance to win (after Neller & Presser,
// "Optimal Play of Farkle and Two-Player Farkle"), with this project's rules: the target, the
// entry minimum, and the end of the game as the engine plays it. Pure TypeScript: the solve runs
// in a worker (src/main/core/computer/win-tables.ts); the game-time lookups run anywhere.
//
// States. Scores move in steps of 50, so a score is a level (points / 50). W[role][a][b] is the
// chance that the player to move wins, at the start of their turn, with a banked against the
// opponent's b (both below the target). Ties count 1/2 (a shared win). `role` is the seat for
// Fouche (seat 1 reaching the target ends the game at once; seat 0 reaching it gives seat 1 one
// final turn) and a single role for Farkle (either player reaching it gives the other one final
// turn). Within a turn, V(d, s) is the chance to win with d dice to throw and a + turn points = s:
//   V(d, s) = max(bank(s) when allowed, R(d, s))
//   R(d, s) = P(farkle with d) * (1 - W[opp][b][a])
//             + sum over the scoring outcomes o of d dice of P(o) * max over the keeps k of o of
//               V(dice left after k, or 6 after hot dice, s + points(k))
//   bank(s) = 1 - W[opp][b][s] below the target; at or above it, 1 - F(s - b) where F(g) is the
//             chance that the opponent, g behind with one final turn, passes (1/2 for a tie), or
//             1 for Fouche's seat 1 (the lap is complete: the game ends at once).
// Every keep adds at least one level, so within a turn V is computed from the top level down.
// Banks reach a higher a + b; only a farkle links W[role][a][b] to W[opp][b][a] (same sum), so
// the states are solved by descending a + b, each pair {W[role][a][b], W[opp][b][a]} as a
// two-unknown fixed point. Each turn value is convex and piecewise linear in the farkle value,
// so Newton's method (policy iteration) solves the pair exactly.
//
// Speed (see TurnFamily and KeepRanking below, and bench/README.md): the turns of one role
// against one opponent score b differ, for every own score a, only in the farkle value; they are
// kept as lines in it, and a new a evaluates only the levels whose policy changes (about 50 of
// several hundred). A throw's best keeps are found from a ranking of the few slots its keeps land
// on, kept sorted from one level to the next, instead of a scan of every keep of every outcome.
//
// Every keep on offer counts (not only the most points for a number of dice): near the target
// fewer points can be worth more (staying under the target rather than handing the opponent a
// final turn). The one approximation: a turn that gets LEAD_CAP points ahead of the opponent (at
// or above the target and the entry minimum) banks. Throwing on from there can gain at most the
// opponent's final-turn chance F(gap) <= F(LEAD_CAP), so no chance moves by more than that
// (1.6e-4 for 8,000 points; see the README).

import { FARKLE_TABLE } from '../farkle/rules'
import { FOUCHE_TABLE } from '../fouche/rules'
import { isFarkle, scoringSelections, type ScoringTable, type SixDiceGameId } from './rules'
import { outcomesOf } from '../dice-odds'

/**
 * Bump when the solver's model or a table's file (win-table-file.ts) changes: tables of another
 * version, shipped or cached, are refused and solved again. 2: values stored to 2^-33.
 */
export const WIN_TABLE_VERSION = 2
const STEP = 50
/**
 * A turn banks once its total is this far ahead of the opponent (and at or above the target and
 * the entry minimum): see the file comment.
 */
export const LEAD_CAP = 8000
/** Slots per level in the turn arrays: index d = 1..6 (dice to throw). */
const STRIDE = 8
/**
 * Largest target (and entry minimum) the app solves: the states grow with the square of the
 * target; above it the expected-points player plays.
 */
export const MAX_SOLVED_TARGET = 20_000

export interface WinSpec {
  game: SixDiceGameId
  target: number
  entry: number
}

/** How the engine ends a two-player game (./rules.ts endTurn, docs/rules). */
const END_RULE: Record<SixDiceGameId, 'one-more-turn-each' | 'complete-the-lap'> = {
  farkle: 'one-more-turn-each',
  fouche: 'complete-the-lap'
}

export function scoringTableOf(game: SixDiceGameId): ScoringTable {
  return game === 'farkle' ? FARKLE_TABLE : FOUCHE_TABLE
}

/** Whether the app solves a table for these options (else the expected-points player plays). */
export function solvable(spec: WinSpec): boolean {
  return spec.target <= MAX_SOLVED_TARGET && spec.entry <= MAX_SOLVED_TARGET
}

// ---------------------------------------------------------------------------------------------
// Throws, grouped: outcomes of d dice with the same set of keeps behave alike, so they are merged
// (Farkle: 923 non-farkle outcomes of 1-6 dice become 234 groups with 1,113 keeps in all).

export interface ThrowGroups {
  /** farkle[d]: chance that d dice score nothing. */
  farkle: Float64Array
  /** Groups of d dice are groupFrom[d] .. groupFrom[d + 1] - 1. */
  groupFrom: Int32Array
  groupProb: Float64Array
  /** Keeps of group g are keepFrom[g] .. keepFrom[g + 1] - 1. */
  keepFrom: Int32Array
  /** Levels the keep adds (points / 50). */
  keepLevels: Int32Array
  /** Dice to throw after the keep (6 after hot dice). */
  keepDice: Int8Array
  /** keepLevels * STRIDE + keepDice: the keep's slot relative to the current level. */
  keepSlot: Int32Array
  /** Most levels one keep adds. */
  maxLevels: number
  /** A hash of all of the above, so a cached table notices a changed scoring table. */
  fingerprint: string
}

const groupsCache = new Map<ScoringTable, ThrowGroups>()

export function throwGroups(table: ScoringTable): ThrowGroups {
  const hit = groupsCache.get(table)
  if (hit) return hit
  const farkle = new Float64Array(7)
  const groupFrom = [0, 0]
  const groupProb: number[] = []
  const keepFrom: number[] = [0]
  const keepLevels: number[] = []
  const keepDice: number[] = []
  for (let d = 1; d <= 6; d++) {
    const groups = new Map<string, { prob: number; keeps: [number, number][] }>()
    for (const o of outcomesOf(d)) {
      if (isFarkle(o.values, table)) {
        farkle[d] += o.prob
        continue
      }
      const keeps = new Map<string, [number, number]>()
      for (const s of scoringSelections(o.values, table)) {
        if (s.points % STEP !== 0 || s.points <= 0) throw new Error(`a keep worth ${s.points} points is not a positive multiple of ${STEP}`)
        const left = s.dice.length === d ? 6 : d - s.dice.length
        keeps.set(`${s.points / STEP}:${left}`, [s.points / STEP, left])
      }
      const list = [...keeps.values()].sort((x, y) => y[0] - x[0] || x[1] - y[1])
      const key = list.map((k) => k.join(':')).join(',')
      const group = groups.get(key)
      if (group) group.prob += o.prob
      else groups.set(key, { prob: o.prob, keeps: list })
    }
    for (const group of groups.values()) {
      groupProb.push(group.prob)
      for (const [levels, left] of group.keeps) {
        keepLevels.push(levels)
        keepDice.push(left)
      }
      keepFrom.push(keepLevels.length)
    }
    groupFrom.push(groupProb.length)
  }
  const keepSlot = keepLevels.map((levels, i) => levels * STRIDE + keepDice[i])
  const groups: ThrowGroups = {
    farkle,
    groupFrom: Int32Array.from(groupFrom),
    groupProb: Float64Array.from(groupProb),
    keepFrom: Int32Array.from(keepFrom),
    keepLevels: Int32Array.from(keepLevels),
    keepDice: Int8Array.from(keepDice),
    keepSlot: Int32Array.from(keepSlot),
    maxLevels: Math.max(...keepLevels),
    fingerprint: ''
  }
  groups.fingerprint = fingerprintOf(groups)
  groupsCache.set(table, groups)
  return groups
}

function fingerprintOf(g: ThrowGroups): string {
  let h = 0x811c9dc5
  const mix = (bytes: Uint8Array): void => {
    for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0
  }
  for (const a of [g.farkle, g.groupFrom, g.groupProb, g.keepFrom, g.keepLevels, g.keepDice]) mix(new Uint8Array(a.buffer, a.byteOffset, a.byteLength))
  return h.toString(16).padStart(8, '0')
}

// ---------------------------------------------------------------------------------------------
// One turn

/** The arrays one turn evaluation fills: slot level * STRIDE + d. */
export interface TurnArrays {
  /** V(d, s): chance to win with d dice to throw at level s, playing on as well as possible. */
  value: Float64Array
  /** dV/dL: how V moves with the farkle value L under the chosen policy (the farkle chance). */
  slope: Float64Array
  /** R(d, s): the same when throwing now. */
  roll: Float64Array
  /** bank(s) by level (meaningful from the first level where banking is allowed). */
  bank: Float64Array
}

export function turnArrays(levels: number): TurnArrays {
  return {
    value: new Float64Array(levels * STRIDE),
    slope: new Float64Array(levels * STRIDE),
    roll: new Float64Array(levels * STRIDE),
    bank: new Float64Array(levels)
  }
}

/**
 * Fills `arrays` for a turn that starts at level `start`: levels above `top` bank (their values
 * must be in arrays.bank up to top + maxLevels), levels from `bankFrom` on may bank, a farkle is
 * worth `farkleValue`. Computes levels top..start.
 */
export function evaluateTurn(g: ThrowGroups, arrays: TurnArrays, start: number, top: number, bankFrom: number, farkleValue: number): void {
  const { value, slope, roll, bank } = arrays
  const { groupFrom, groupProb, keepFrom, keepSlot, farkle } = g
  for (let s = top + 1; s <= top + g.maxLevels; s++) {
    const v = bank[s]
    for (let d = 1; d <= 6; d++) {
      value[s * STRIDE + d] = v
      slope[s * STRIDE + d] = 0
      roll[s * STRIDE + d] = v
    }
  }
  for (let s = top; s >= start; s--) {
    const base = s * STRIDE
    const canBank = s >= bankFrom
    const bankValue = bank[s]
    for (let d = 1; d <= 6; d++) {
      let r = farkle[d] * farkleValue
      let rs = farkle[d]
      const groupEnd = groupFrom[d + 1]
      for (let gi = groupFrom[d]; gi < groupEnd; gi++) {
        let best = -1
        let bestSlope = 0
        const keepEnd = keepFrom[gi + 1]
        for (let k = keepFrom[gi]; k < keepEnd; k++) {
          const at = base + keepSlot[k]
          const v = value[at]
          if (v > best) {
            best = v
            bestSlope = slope[at]
          }
        }
        r += groupProb[gi] * best
        rs += groupProb[gi] * bestSlope
      }
      roll[base + d] = r
      if (canBank && bankValue >= r) {
        value[base + d] = bankValue
        slope[base + d] = 0
      } else {
        value[base + d] = r
        slope[base + d] = rs
      }
    }
  }
}

/**
 * F(g) for every gap g = 0..maxGap levels: the chance that a player with one final turn, g levels
 * behind the leader, ends it ahead (1) or level (1/2), playing to maximise that, with no entry
 * minimum in the way. The value only depends on the levels still missing, so one pass from the
 * smallest gap up gives them all.
 */
export function finalTurnChances(g: ThrowGroups, maxGap: number): Float64Array {
  const off = g.maxLevels
  const size = maxGap + 1 + off
  const value = new Float64Array(size * STRIDE)
  const f = new Float64Array(maxGap + 1)
  // Index (r + off): r levels still missing to a tie; r < 0 is a lead, banked: 1.
  for (let r = -off; r < 0; r++) for (let d = 1; d <= 6; d++) value[(r + off) * STRIDE + d] = 1
  const { groupFrom, groupProb, keepFrom, keepLevels, keepDice } = g
  for (let r = 0; r <= maxGap; r++) {
    const base = (r + off) * STRIDE
    const stop = r === 0 ? 0.5 : 0
    for (let d = 1; d <= 6; d++) {
      let sum = 0
      for (let gi = groupFrom[d]; gi < groupFrom[d + 1]; gi++) {
        let best = -1
        for (let k = keepFrom[gi]; k < keepFrom[gi + 1]; k++) {
          const v = value[base - keepLevels[k] * STRIDE + keepDice[k]]
          if (v > best) best = v
        }
        sum += groupProb[gi] * best
      }
      value[base + d] = Math.max(stop, sum)
      if (d === 6) f[r] = sum // a turn starts with a throw: no banking 0
    }
  }
  return f
}

/** F(g) with an entry minimum of `entryLevels` (only different when it exceeds the gap). */
export function finalTurnChanceWithEntry(g: ThrowGroups, gap: number, entryLevels: number): number {
  const top = Math.max(gap + 1, entryLevels)
  const arrays = turnArrays(top + g.maxLevels + 1)
  for (let t = 0; t < arrays.bank.length; t++) arrays.bank[t] = t > gap ? 1 : t === gap ? 0.5 : 0
  evaluateTurn(g, arrays, 0, top - 1, Math.max(1, entryLevels), 0)
  return arrays.roll[6]
}

// ---------------------------------------------------------------------------------------------
// The whole game

export interface WinTable {
  spec: WinSpec
  version: number
  /** A banked score (points / 50) is below the target when it is below this. */
  belowTarget: number
  /** A turn banks once it is this many levels ahead of the opponent (see LEAD_CAP). */
  leadCapLevels: number
  roles: 1 | 2
  /** values[(role * belowTarget + a) * belowTarget + b]; NaN where not solved (partial solves). */
  values: Float64Array
  /** final[g]: F(g) with no entry minimum in the way. */
  final: Float64Array
  fingerprint: string
}

export interface SolveOptions {
  /** Called now and then with the share of the work done (0..1). */
  onProgress?: (share: number) => void
  /** Solve only the states with a + b >= fromSum levels (the end of the game; for tests). */
  fromSum?: number
  /** In points (default LEAD_CAP); for convergence tests. */
  leadCap?: number
}

/** A table's values with the rules around them: the solver's and the game-time lookups' model. */
class Model {
  readonly g: ThrowGroups
  readonly n: number
  readonly twoRoles: boolean
  readonly entryLevels: number
  readonly leadCapLevels: number
  private readonly finalWithEntry = new Map<number, number>()

  constructor(
    spec: WinSpec,
    leadCapLevels: number,
    readonly values: Float64Array,
    readonly final: Float64Array
  ) {
    this.g = throwGroups(scoringTableOf(spec.game))
    this.n = Math.ceil(spec.target / STEP)
    this.entryLevels = Math.ceil(spec.entry / STEP)
    this.leadCapLevels = leadCapLevels
    this.twoRoles = END_RULE[spec.game] === 'complete-the-lap'
  }

  /** The highest level any turn plays out. */
  get maxTop(): number {
    return Math.max(this.n, this.entryLevels, this.n - 1 + this.leadCapLevels)
  }

  index(role: number, a: number, b: number): number {
    return (role * this.n + a) * this.n + b
  }

  opponent(role: number): number {
    return this.twoRoles ? 1 - role : 0
  }

  /** F(gap) for a final-turn player with `banked` levels (the entry minimum applies at 0). */
  finalChance(gap: number, banked: number): number {
    if (banked === 0 && this.entryLevels > gap) {
      let hit = this.finalWithEntry.get(gap)
      if (hit === undefined) this.finalWithEntry.set(gap, (hit = finalTurnChanceWithEntry(this.g, gap, this.entryLevels)))
      return hit
    }
    return gap < this.final.length ? this.final[gap] : 0
  }

  /** What banking at level s is worth to `role` against an opponent on b. */
  bankValue(role: number, b: number, s: number): number {
    if (s < this.n) return 1 - this.values[this.index(this.opponent(role), b, s)]
    if (this.twoRoles && role === 1) return 1
    return 1 - this.finalChance(s - b, b)
  }

  /** First level of the turn where banking is allowed. */
  bankFrom(a: number): number {
    return a + Math.max(1, a === 0 ? this.entryLevels : 0)
  }

  /** The highest level of (role, a, b)'s turn that is played out; above it the turn banks. */
  topOf(role: number, a: number, b: number): number {
    const lead = this.twoRoles && role === 1 ? 0 : b + this.leadCapLevels
    return Math.max(this.n, a === 0 ? this.entryLevels : 0, lead)
  }

  /** Fills the turn arrays of (role, a, b) with farkle value `farkleValue`, up to at least `minTop`. */
  evaluate(arrays: TurnArrays, role: number, a: number, b: number, farkleValue: number, minTop = 0): number {
    const bank = arrays.bank
    const top = Math.max(minTop, this.topOf(role, a, b))
    for (let s = a + 1; s <= top + this.g.maxLevels; s++) bank[s] = this.bankValue(role, b, s)
    evaluateTurn(this.g, arrays, a, top, this.bankFrom(a), farkleValue)
    return top
  }

  /** The farkle value of (role, a, b): the opponent's turn from (b, a). */
  farkleValue(role: number, a: number, b: number): number {
    return 1 - this.values[this.index(this.opponent(role), b, a)]
  }
}

/** A table's final-turn chances F(g), for every gap its turns can reach. */
export function finalChancesOf(spec: WinSpec, leadCapLevels: number): Float64Array {
  const probe = new Model(spec, leadCapLevels, new Float64Array(0), new Float64Array(0))
  return finalTurnChances(probe.g, probe.maxTop + probe.g.maxLevels + 1)
}

function modelOf(table: WinTable): Model {
  return new Model(table.spec, table.leadCapLevels, table.values, table.final)
}

// ---------------------------------------------------------------------------------------------
// The solve: ranked keeps and turn values as lines in the farkle value

/**
 * The keeps of a throw, ranked. The keeps of d dice at level s land on few distinct slots
 * (candidates: 133 for 1-6 dice against 1,113 keeps in 234 groups, Farkle). With the candidates
 * ranked by value, a group's best keep is its first candidate in the ranking, so
 * R(d, s) = P(farkle) L + sum over candidates c of weight(c) V(c), weight(c) being the chance of
 * the groups whose first candidate is c. From one level to the next the ranking barely moves: it
 * is kept sorted by insertion, and each swap of two neighbours x, y hands the groups that hold
 * both and had x first to y. Weights count outcomes (of 6^d), so they stay whole numbers, exact.
 */
interface KeepRanking {
  /** Candidates of d dice are candFrom[d] .. candFrom[d + 1] - 1. */
  candFrom: Int32Array
  /** A candidate's slot relative to its level: levels * STRIDE + dice left. */
  candSlot: Int32Array
  /** Outcomes of d dice (of 6^d) that farkle. */
  farkleWays: Float64Array
  /** 6^-d. */
  scale: Float64Array
  /** Outcomes of d dice (of 6^d) in each group. */
  groupWays: Float64Array
  /** Groups holding candidates x and y of d dice: pairGroups[pairFrom[i] .. pairFrom[i + 1] - 1], i = pairBase[d] + x * K + y (x, y counted from candFrom[d], K of them). */
  pairBase: Int32Array
  pairFrom: Int32Array
  pairGroups: Int32Array
  /** The ranking: candidates of d dice, best first (its part candFrom[d] .. candFrom[d + 1] - 1). */
  order: Int32Array
  /** Each group's first candidate in the ranking. */
  first: Int32Array
  /** Outcomes whose best keep is the candidate (the groups whose first it is). */
  weight: Float64Array
}

function keepRanking(g: ThrowGroups): KeepRanking {
  const candFrom = new Int32Array(8)
  const candSlot: number[] = []
  const keepCand = new Int32Array(g.keepSlot.length)
  const pairBase = new Int32Array(8)
  const pairs: number[][] = []
  for (let d = 1; d <= 6; d++) {
    candFrom[d] = candSlot.length
    const bySlot = new Map<number, number>()
    for (let k = g.keepFrom[g.groupFrom[d]]; k < g.keepFrom[g.groupFrom[d + 1]]; k++) {
      let c = bySlot.get(g.keepSlot[k])
      if (c === undefined) bySlot.set(g.keepSlot[k], (c = candSlot.push(g.keepSlot[k]) - 1))
      keepCand[k] = c
    }
    const count = candSlot.length - candFrom[d]
    pairBase[d] = pairs.length
    for (let i = 0; i < count * count; i++) pairs.push([])
    for (let gi = g.groupFrom[d]; gi < g.groupFrom[d + 1]; gi++)
      for (let k = g.keepFrom[gi]; k < g.keepFrom[gi + 1]; k++)
        for (let j = g.keepFrom[gi]; j < g.keepFrom[gi + 1]; j++)
          if (j !== k) pairs[pairBase[d] + (keepCand[k] - candFrom[d]) * count + keepCand[j] - candFrom[d]].push(gi)
  }
  candFrom[7] = candSlot.length
  const pairFrom = new Int32Array(pairs.length + 1)
  for (let i = 0; i < pairs.length; i++) pairFrom[i + 1] = pairFrom[i] + pairs[i].length
  const farkleWays = new Float64Array(7)
  const scale = new Float64Array(7)
  const groupWays = new Float64Array(g.groupProb.length)
  const first = new Int32Array(g.groupProb.length)
  const weight = new Float64Array(candSlot.length)
  for (let d = 1; d <= 6; d++) {
    scale[d] = 1 / 6 ** d
    farkleWays[d] = Math.round(g.farkle[d] * 6 ** d)
    for (let gi = g.groupFrom[d]; gi < g.groupFrom[d + 1]; gi++) {
      groupWays[gi] = Math.round(g.groupProb[gi] * 6 ** d)
      // The starting ranking is the candidates' own order; a group's first is its lowest.
      first[gi] = Math.min(...Array.from(keepCand.subarray(g.keepFrom[gi], g.keepFrom[gi + 1])))
      weight[first[gi]] += groupWays[gi]
    }
  }
  return {
    candFrom,
    candSlot: Int32Array.from(candSlot),
    farkleWays,
    scale,
    groupWays,
    pairBase,
    pairFrom,
    pairGroups: Int32Array.from(pairs.flat()),
    order: Int32Array.from(candSlot.keys()),
    first,
    weight
  }
}

/**
 * A farkle value this little past an interval's bound still counts as inside: the policy held is
 * then worse than the best by less than this, and rounding cannot send a turn round and round.
 */
const BOUND_SLACK = 1e-12

/**
 * The turns of one role against one opponent score b, for every own score a at once: their
 * values differ only in the farkle value L = 1 - W[opp][b][a] (and the start level). Within a
 * policy each V(d, s) is a line in L, so the family keeps V(d, s) = intercept + slope L for the
 * levels above the current a, each with the interval of L in which its policy (the ranking of
 * every throw's candidates, bank or throw) stays the best one, given the lines above it. A turn
 * with a new L re-evaluates only the levels from the highest one whose interval does not hold it,
 * usually some 50 above a, instead of the whole turn (hundreds of levels), and the farkle pair's
 * fixed point is solved exactly from the start lines, checked against their intervals.
 */
class TurnFamily {
  /** lines[2 * (s * STRIDE + d)]: intercept of V(d, s); the next entry: its slope in L. */
  private readonly lines: Float64Array
  /** lo[s], hi[s]: the values of L for which every level from s up to the top keeps its policy. */
  private readonly lo: Float64Array
  private readonly hi: Float64Array
  /** Levels from builtFrom up to top are built (levels above top bank). */
  private builtFrom: number
  private top = -1
  private atZero = false

  constructor(
    private readonly model: Model,
    private readonly ranking: KeepRanking,
    /** A throw's candidates in ranking order while a level is built: value at L, intercept, slope. */
    private readonly scratch: { rankValue: Float64Array; rankIntercept: Float64Array; rankSlope: Float64Array },
    readonly role: number,
    readonly b: number,
    levels: number
  ) {
    this.lines = new Float64Array(2 * levels * STRIDE)
    this.lo = new Float64Array(levels)
    this.hi = new Float64Array(levels)
    this.builtFrom = levels
  }

  /** Makes levels top..a hold the turn (role, a, b) for farkle value L; level a is the throw alone (no bank yet). */
  prepare(a: number, farkleValue: number): void {
    const model = this.model
    const top = model.topOf(this.role, a, this.b)
    if (top !== this.top) {
      // A new family, or the start at 0 with an entry minimum above the other turns' top.
      this.top = top
      for (let s = top + 1; s <= top + model.g.maxLevels; s++) {
        const bank = model.bankValue(this.role, this.b, s)
        for (let d = 1; d <= 6; d++) {
          this.lines[2 * (s * STRIDE + d)] = bank
          this.lines[2 * (s * STRIDE + d) + 1] = 0
        }
      }
      this.builtFrom = top + 1
    }
    const bankFrom = model.bankFrom(a)
    if (a === 0 && !this.atZero) {
      // The start at 0 cannot bank below the entry minimum: those levels are built again.
      this.atZero = true
      this.builtFrom = Math.max(this.builtFrom, bankFrom)
    }
    // The highest level to build: the intervals narrow going down, so a binary search finds the
    // highest built level whose interval does not hold L.
    let from = this.builtFrom - 1
    let low = Math.max(a, this.builtFrom)
    if (low <= top && !this.holdsAt(low, farkleValue)) {
      let high = top + 1
      while (high - low > 1) {
        const mid = (low + high) >> 1
        if (this.holdsAt(mid, farkleValue)) high = mid
        else low = mid
      }
      from = Math.max(from, low)
    }
    for (let s = from; s >= a; s--) this.build(s, farkleValue, s > a && s >= bankFrom)
    this.builtFrom = Math.min(this.builtFrom, a)
  }

  private holdsAt(s: number, farkleValue: number): boolean {
    return farkleValue >= this.lo[s] - BOUND_SLACK && farkleValue <= this.hi[s] + BOUND_SLACK
  }

  /** Whether the built lines from a up are the turn's values at L. */
  holds(a: number, farkleValue: number): boolean {
    return this.builtFrom <= a && this.holdsAt(a, farkleValue)
  }

  /** The start line of the turn prepared at level a: W = intercept + slope L. */
  startIntercept(a: number): number {
    return this.lines[2 * (a * STRIDE + 6)]
  }

  startSlope(a: number): number {
    return this.lines[2 * (a * STRIDE + 6) + 1]
  }

  /** Level a, prepared as the throw alone, becomes a level that may bank (for the turns below it). */
  settle(a: number, farkleValue: number): void {
    const bank = this.model.bankValue(this.role, this.b, a)
    let lo = this.lo[a]
    let hi = this.hi[a]
    for (let d = 1; d <= 6; d++) {
      const at = 2 * (a * STRIDE + d)
      const intercept = this.lines[at]
      const slope = this.lines[at + 1]
      const roll = intercept + slope * farkleValue
      if (bank >= roll) {
        if (slope > 0) hi = Math.min(hi, farkleValue + (bank - roll) / slope)
        this.lines[at] = bank
        this.lines[at + 1] = 0
      } else if (slope > 0) lo = Math.max(lo, farkleValue - (roll - bank) / slope)
    }
    this.lo[a] = lo
    this.hi[a] = hi
  }

  /** Level s from the lines above it, at farkle value L (see KeepRanking), with its interval. */
  private build(s: number, farkleValue: number, canBank: boolean): void {
    const { candFrom, candSlot, farkleWays, scale, groupWays, pairBase, pairFrom, pairGroups, order, first, weight } = this.ranking
    const { rankValue, rankIntercept, rankSlope } = this.scratch
    const lines = this.lines
    const base = s * STRIDE
    const bank = canBank ? this.model.bankValue(this.role, this.b, s) : 0
    // How far L may move down and up with every level from s to the top keeping its policy.
    let down = s + 1 <= this.top ? farkleValue - this.lo[s + 1] : Infinity
    let up = s + 1 <= this.top ? this.hi[s + 1] - farkleValue : Infinity
    for (let d = 1; d <= 6; d++) {
      const from = candFrom[d]
      const end = candFrom[d + 1]
      // One pass down the ranking: each candidate's line and value at L, R's line, and how far L
      // may move before two neighbours cross. That holds when the ranking is still in order, as
      // for d < 5 it nearly always is; else the ranking is sorted again and R summed again.
      const x = order[from]
      let at = 2 * (base + candSlot[x])
      rankIntercept[from] = lines[at]
      rankSlope[from] = lines[at + 1]
      rankValue[from] = lines[at] + lines[at + 1] * farkleValue
      let rollIntercept = weight[x] * rankIntercept[from]
      let rollSlope = farkleWays[d] + weight[x] * rankSlope[from]
      let dDown = down
      let dUp = up
      let inOrder = true
      for (let i = from + 1; i < end; i++) {
        const y = order[i]
        at = 2 * (base + candSlot[y])
        const yIntercept = lines[at]
        const ySlope = lines[at + 1]
        const yValue = yIntercept + ySlope * farkleValue
        rankIntercept[i] = yIntercept
        rankSlope[i] = ySlope
        rankValue[i] = yValue
        if (!inOrder) continue
        const w = weight[y]
        rollIntercept += w * yIntercept
        rollSlope += w * ySlope
        const gap = rankValue[i - 1] - yValue
        if (gap < 0) inOrder = false
        // With gap >= 0 each test can hold only for its sign of closing (no branch on the sign).
        const closing = ySlope - rankSlope[i - 1]
        if (gap < dUp * closing) dUp = gap / closing
        if (gap < -dDown * closing) dDown = -gap / closing
      }
      if (inOrder) {
        down = dDown
        up = dUp
      } else {
        // Insertion sort of the ranking, best first; a swap moves the weight of the groups holding both.
        const count = end - from
        const pairs = pairBase[d]
        for (let i = from + 1; i < end; i++) {
          const c = order[i]
          const v = rankValue[i]
          if (rankValue[i - 1] >= v) continue
          const cIntercept = rankIntercept[i]
          const cSlope = rankSlope[i]
          let j = i
          while (j > from && rankValue[j - 1] < v) {
            const x = order[j - 1]
            const pair = pairs + (x - from) * count + (c - from)
            for (let q = pairFrom[pair]; q < pairFrom[pair + 1]; q++) {
              const gi = pairGroups[q]
              if (first[gi] === x) {
                first[gi] = c
                weight[x] -= groupWays[gi]
                weight[c] += groupWays[gi]
              }
            }
            order[j] = x
            rankValue[j] = rankValue[j - 1]
            rankIntercept[j] = rankIntercept[j - 1]
            rankSlope[j] = rankSlope[j - 1]
            j--
          }
          order[j] = c
          rankValue[j] = v
          rankIntercept[j] = cIntercept
          rankSlope[j] = cSlope
        }
        rollIntercept = 0
        rollSlope = farkleWays[d]
        for (let i = from; i < end; i++) {
          const w = weight[order[i]]
          rollIntercept += w * rankIntercept[i]
          rollSlope += w * rankSlope[i]
          if (i === from) continue
          const gap = rankValue[i - 1] - rankValue[i]
          const closing = rankSlope[i] - rankSlope[i - 1]
          if (gap < up * closing) up = gap / closing
          if (gap < -down * closing) down = -gap / closing
        }
      }
      rollIntercept *= scale[d]
      rollSlope *= scale[d]
      const roll = rollIntercept + rollSlope * farkleValue
      const slot = 2 * (base + d)
      if (canBank && bank >= roll) {
        if (bank - roll < up * rollSlope) up = (bank - roll) / rollSlope
        lines[slot] = bank
        lines[slot + 1] = 0
      } else {
        if (canBank && roll - bank < down * rollSlope) down = (roll - bank) / rollSlope
        lines[slot] = rollIntercept
        lines[slot + 1] = rollSlope
      }
    }
    this.lo[s] = farkleValue - down
    this.hi[s] = farkleValue + up
  }
}

/**
 * Solves the game for `spec` (see the file comment). Target 10,000: 40,000 states (Farkle),
 * 80,000 (Fouche: one table per seat); run it in a worker.
 */
export function solveWinTable(spec: WinSpec, options: SolveOptions = {}): WinTable {
  const leadCapLevels = Math.ceil((options.leadCap ?? LEAD_CAP) / STEP)
  const n = Math.ceil(spec.target / STEP)
  const g = throwGroups(scoringTableOf(spec.game))
  const roles: 1 | 2 = END_RULE[spec.game] === 'complete-the-lap' ? 2 : 1
  const values = new Float64Array(roles * n * n).fill(NaN)
  const final = finalChancesOf(spec, leadCapLevels)
  const model = new Model(spec, leadCapLevels, values, final)
  const ranking = keepRanking(g)
  const candidates = ranking.candSlot.length
  const scratch = { rankValue: new Float64Array(candidates), rankIntercept: new Float64Array(candidates), rankSlope: new Float64Array(candidates) }
  const fromSum = options.fromSum ?? 0
  // families[role * n + b]: made when its first turn is solved, dropped after its last (a = 0).
  const families: (TurnFamily | null)[] = new Array<TurnFamily | null>(roles * n).fill(null)
  const familyOf = (role: number, b: number): TurnFamily => {
    let family = families[role * n + b]
    if (!family) {
      const levels = Math.max(model.topOf(role, 0, b), model.topOf(role, 1, b)) + g.maxLevels + 1
      family = families[role * n + b] = new TurnFamily(model, ranking, scratch, role, b, levels)
    }
    return family
  }
  let total = 0
  for (let a = 0; a < n; a++) total += roles * Math.min(n, Math.max(0, n - Math.max(0, fromSum - a)))
  let done = 0
  let reported = 0
  const report = options.onProgress
  report?.(0)
  // A start for Newton's method from solved neighbours (higher sums): a plane through three.
  const guess = (role: number, a: number, b: number): number => {
    const at = (i: number, j: number): number => values[model.index(role, i, j)]
    if (a + 1 < n && b + 1 < n) return Math.min(1, Math.max(0, at(a + 1, b) + at(a, b + 1) - at(a + 1, b + 1)))
    if (a + 1 < n) return at(a + 1, b)
    if (b + 1 < n) return at(a, b + 1)
    return 0.5
  }
  for (let sum = 2 * (n - 1); sum >= fromSum; sum--) {
    for (let a = Math.max(0, sum - (n - 1)); a <= Math.min(sum, n - 1); a++) {
      const b = sum - a
      for (let role = 0; role < roles; role++) {
        const ix = model.index(role, a, b)
        if (!Number.isNaN(values[ix])) continue
        const partner = model.opponent(role)
        const iy = model.index(partner, b, a)
        const fx = familyOf(role, b)
        // Policy iteration (Newton's method on the convex, piecewise linear turn values): the
        // start lines at the current farkle values give the pair's fixed point exactly when it
        // lies within both lines' intervals; else again from there.
        if (ix === iy) {
          // One unknown: x = A + P (1 - x).
          let x = guess(role, a, b)
          for (let iteration = 0; ; iteration++) {
            fx.prepare(a, 1 - x)
            const slope = fx.startSlope(a)
            x = (fx.startIntercept(a) + slope) / (1 + slope)
            if (fx.holds(a, 1 - x) || iteration > 60) break
          }
          values[ix] = x
          if (a > 0) fx.settle(a, 1 - x)
          done += 1
        } else {
          const fy = familyOf(partner, a)
          let x = guess(role, a, b)
          let y = guess(partner, b, a)
          for (let iteration = 0; ; iteration++) {
            fx.prepare(a, 1 - y)
            fy.prepare(b, 1 - x)
            // x = A + P (1 - y), y = B + Q (1 - x).
            const p = fx.startSlope(a)
            const q = fy.startSlope(b)
            const intercept = fy.startIntercept(b)
            x = (fx.startIntercept(a) + p * (1 - intercept - q)) / (1 - p * q)
            y = intercept + q * (1 - x)
            if ((fx.holds(a, 1 - y) && fy.holds(b, 1 - x)) || iteration > 60) break
          }
          values[ix] = x
          values[iy] = y
          if (a > 0) fx.settle(a, 1 - y)
          if (b > 0) fy.settle(b, 1 - x)
          done += 2
        }
        if (a === 0) families[role * n + b] = null
        if (b === 0) families[partner * n + a] = null
      }
    }
    if (report && done - reported >= total / 200) {
      reported = done
      report(Math.min(1, done / total))
    }
  }
  report?.(1)
  return { spec: { ...spec }, version: WIN_TABLE_VERSION, belowTarget: n, leadCapLevels, roles, values, final, fingerprint: g.fingerprint }
}

// ---------------------------------------------------------------------------------------------
// Game-time lookups

/** The chances of one turn of a solved table: (role, a, b) at the start of the turn. */
export class WinTurn {
  private readonly model: Model
  private readonly arrays: TurnArrays
  private readonly top: number

  constructor(
    table: WinTable,
    readonly role: number,
    readonly a: number,
    readonly b: number,
    /** Play out at least up to this level (a turn already above the cap). */
    minTop = 0
  ) {
    this.model = modelOf(table)
    const top = Math.max(minTop, this.model.topOf(role, a, b))
    this.arrays = turnArrays(top + this.model.g.maxLevels + 1)
    this.top = this.model.evaluate(this.arrays, role, a, b, this.model.farkleValue(role, a, b), minTop)
  }

  /** Chance to win at the start of the turn (the throw of six dice is due). */
  get start(): number {
    return this.arrays.roll[this.a * STRIDE + 6]
  }

  /** Chance to win with d dice to throw at level s (a + turn points), playing on as well as possible. */
  value(d: number, s: number): number {
    return s <= this.top + this.model.g.maxLevels ? this.arrays.value[s * STRIDE + d] : this.model.bankValue(this.role, this.b, s)
  }

  /** The same when the d dice are thrown now. */
  roll(d: number, s: number): number {
    return s <= this.top ? this.arrays.roll[s * STRIDE + d] : this.model.bankValue(this.role, this.b, s)
  }

  /** Chance to win by banking at level s, or null when the rules do not allow it. */
  bank(s: number): number | null {
    return s >= this.model.bankFrom(this.a) ? this.model.bankValue(this.role, this.b, s) : null
  }
}

/** The highest level a WinTurn plays out (levels above bank): what caches of WinTurns key on. */
export function playedTop(table: WinTable, role: number, a: number, b: number, minTop = 0): number {
  return Math.max(minTop, modelOf(table).topOf(role, a, b))
}

/** The solved chance that the player to move wins, at the start of a turn (levels a, b), or NaN. */
export function startChance(table: WinTable, role: number, a: number, b: number): number {
  return table.values[(role * table.belowTarget + a) * table.belowTarget + b]
}

/**
 * The pair equations' largest residual over the solved states: how far each W is from the turn
 * value its own policy gives with the stored farkle and bank values (0 up to rounding when solved).
 */
export function residual(table: WinTable): number {
  const model = modelOf(table)
  const n = table.belowTarget
  const arrays = turnArrays(model.maxTop + model.g.maxLevels + 1)
  let worst = 0
  for (let role = 0; role < table.roles; role++)
    for (let a = 0; a < n; a++)
      for (let b = 0; b < n; b++) {
        const w = table.values[model.index(role, a, b)]
        if (Number.isNaN(w) || Number.isNaN(model.farkleValue(role, a, b))) continue
        model.evaluate(arrays, role, a, b, model.farkleValue(role, a, b))
        worst = Math.max(worst, Math.abs(arrays.roll[a * STRIDE + 6] - w))
      }
  return worst
}

/** Points per level: every score and keep is a multiple of it. */
export const WIN_STEP = STEP
