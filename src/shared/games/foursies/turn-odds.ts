// Foursies: one turn as a finite Markov decision process, solved exactly.
//
// A turn's position is (the four dice on the table, the player's round score p = score at the
// start of the turn + points scored so far this turn, and what the next throw is: an ordinary
// throw, the odd-man-out resolving throw, or a socks throw with 1 or 2 left). The turn's
// result is its end score (0..4; a bust puts back the start score, a Devil's Number `reset`
// gives 0) or a foursies. A player's utility for each result is given (`TurnUtility`); every
// decision (each false-four re-roll, socks, end) is valued by the utility expected when the
// rest of the turn is played to maximise it.
//
// Each throw's outcomes are enumerated exactly (as multisets with their probabilities, see
// ./dice). Points never go down during a turn, so positions are solved level by level, from
// p = 4 down to the start score. Within one level a false-four re-roll can come back to a
// decision at the same level (2 2 1 3 -> re-roll 2+2 -> 1 3 1 3 ...), so each level is solved by
// value iteration (Gauss-Seidel sweeps until no figure moves by 1e-13; every re-roll has a
// chance of a 4 or of ending the turn, so every policy ends the turn with probability 1 and the
// iteration converges geometrically). Equal-utility options are broken in the engine's offer
// order (shortest re-roll first, then socks, then end).
//
// What a table of dice offers comes from the engine itself (factsOf); the scoring of a throw is
// re-implemented here for speed (about 10^5 throws per solve), and test/odds checks it against
// the engine's own offer/apply on every table and throw.

import { factsOf, tableCode, type FoursiesDevil, type TableFacts } from './rules'
import { mergeSorted, removeValues, sortedDice } from '@shared/dice'
import { outcomesOf } from '../dice-odds'

// ---------------------------------------------------------------------------------------------
// Table facts (the engine's reading of docs/rules/foursies.md)

/** The engine's own reading of a table (run, odd man out, socks, legal re-rolls). */
export type FoursiesFacts = TableFacts
export { factsOf, tableCode }

// ---------------------------------------------------------------------------------------------
// Figures

/** Indices of a figures vector. */
export const UTIL = 0
/** P(the turn ends with end score e and no foursies), e = 0..4, at E0 + e. Bust and reset included. */
export const E0 = 1
export const FOURSIES = 6
export const BUST = 7
export const RESET = 8
/** Expected end score (a foursies counts its score; a bust the start score; a reset 0). */
export const SCORE = 9
const N = 10

export type Figures = Float64Array

/** What each result of the turn is worth to the player. */
export interface TurnUtility {
  /** By end score 0..4 (no foursies). */
  end: readonly number[]
  /** A foursies (whatever the score). */
  foursies: number
}

export type FoursiesOption = { kind: 'reroll'; values: number[] } | { kind: 'socks' } | { kind: 'end' }

const enum Cls {
  Normal = 0,
  Odd = 1,
  Socks = 2
}

// ---------------------------------------------------------------------------------------------
// The turn's graph, built once per Devil's Number option (it depends on nothing else): every
// throw is a sparse row over the turn's results and the decisions it can lead to.

/** Results: 0..4 end on that score, 5..9 foursies on score 0..4, 10 bust, 11 reset. */
const T_FOURSIES = 5
const T_BUST = 10
const T_RESET = 11
const TERMINALS = 12

interface Row {
  /** Probability of each result straight away. */
  term: Float64Array
  /** Decisions reached (node ids) and their probabilities. */
  nodes: Int32Array
  probs: Float64Array
}

/** Four-dice tables that offer a decision (false four or socks): the decision nodes per level. */
const DECISION_TABLES: number[][] = outcomesOf(4)
  .map((o) => o.values)
  .filter((d) => {
    const f = factsOf(d)
    return f.equal === 0 && !f.run && (f.socks || f.rerolls.length > 0)
  })
const TABLE_INDEX = new Map<number, number>(DECISION_TABLES.map((d, i) => [tableCode(d), i]))
const TABLES = DECISION_TABLES.length
const nodeId = (tableIndex: number, p: number): number => p * TABLES + tableIndex

function optionList(dice: readonly number[]): FoursiesOption[] {
  const f = factsOf(dice)
  const out: FoursiesOption[] = f.rerolls.map((values) => ({ kind: 'reroll' as const, values }))
  if (f.socks) out.push({ kind: 'socks' })
  out.push({ kind: 'end' })
  return out
}

interface Graph {
  devil: FoursiesDevil
  throwRow(kept: readonly number[], k: number, p: number, cls: Cls, socksLeft: number): Row
  optionRow(dice: readonly number[], p: number, o: FoursiesOption): Row
  /** Per node id: its options and their rows. */
  nodeOptions: { option: FoursiesOption; row: Row }[][]
}

const graphs = new Map<FoursiesDevil, Graph>()

function graphFor(devil: FoursiesDevil): Graph {
  const hit = graphs.get(devil)
  if (hit) return hit
  const memo = new Map<number, Row>()
  const terminalRow = (t: number): Row => {
    const term = new Float64Array(TERMINALS)
    term[t] = 1
    return { term, nodes: new Int32Array(0), probs: new Float64Array(0) }
  }
  const endRows = [0, 1, 2, 3, 4].map(terminalRow)

  /** Where a throw that left `dice` (score p before four-of-a-kind) leads: a result, a node or a row. */
  function after(dice: number[], p: number, cls: Cls, socksLeft: number): number | Row {
    const f = factsOf(dice)
    if (f.equal === 1) return T_FOURSIES + p
    if (f.equal !== 0 && f.equal !== 4) p++
    if (f.sixes >= 3 && devil === 'reset') return T_RESET
    if ((f.sixes >= 3 && devil === 'bust') || p > 4) return T_BUST
    if (cls === Cls.Socks) return socksLeft <= 1 ? p : throwRow([], 4, p, Cls.Socks, socksLeft - 1)
    if (f.run) return throwRow([], 4, p, Cls.Normal, 0)
    if (f.odd !== 0 && cls !== Cls.Odd) return throwRow(removeValues(dice, [f.odd]), 1, p, Cls.Odd, 0)
    const t = TABLE_INDEX.get(tableCode(dice))
    if (t !== undefined) return -1 - nodeId(t, p)
    return p
  }

  function throwRow(kept: readonly number[], k: number, p: number, cls: Cls, socksLeft: number): Row {
    const key = ((((tableCode(kept) * 5 + k) * 5 + p) * 3 + cls) * 3 + socksLeft)
    const hit = memo.get(key)
    if (hit) return hit
    const term = new Float64Array(TERMINALS)
    const nodes = new Map<number, number>()
    for (const o of outcomesOf(k)) {
      let fours = 0
      for (const v of o.values) if (v === 4) fours++
      const r = after(mergeSorted(kept, o.values), p + fours, cls, socksLeft)
      if (typeof r === 'number') {
        if (r >= 0) term[r] += o.prob
        else nodes.set(-1 - r, (nodes.get(-1 - r) ?? 0) + o.prob)
      } else {
        for (let i = 0; i < TERMINALS; i++) term[i] += o.prob * r.term[i]
        for (let i = 0; i < r.nodes.length; i++) nodes.set(r.nodes[i], (nodes.get(r.nodes[i]) ?? 0) + o.prob * r.probs[i])
      }
    }
    const row: Row = { term, nodes: Int32Array.from(nodes.keys()), probs: Float64Array.from(nodes.values()) }
    memo.set(key, row)
    return row
  }

  function optionRow(dice: readonly number[], p: number, o: FoursiesOption): Row {
    if (o.kind === 'end') return endRows[p]
    if (o.kind === 'socks') return throwRow([], 4, p, Cls.Socks, 2)
    return throwRow(removeValues(dice, o.values), o.values.length, p, Cls.Normal, 0)
  }

  const nodeOptions: { option: FoursiesOption; row: Row }[][] = []
  for (let p = 0; p <= 4; p++) {
    for (let t = 0; t < TABLES; t++) {
      const dice = DECISION_TABLES[t]
      nodeOptions[nodeId(t, p)] = optionList(dice).map((option) => ({ option, row: optionRow(dice, p, option) }))
    }
  }
  const graph: Graph = { devil, throwRow, optionRow, nodeOptions }
  graphs.set(devil, graph)
  return graph
}

export interface TurnSolution {
  start: number
  devil: FoursiesDevil
  utility: TurnUtility
  /** Figures of each option at a decision with these dice and round score p (offer order). */
  options(dice: readonly number[], p: number): { option: FoursiesOption; figures: Figures }[]
  /** Figures of a throw of `k` dice beside `kept`, at score p; `socksLeft` > 0 for a socks throw. */
  throwFigures(kept: readonly number[], k: number, p: number, afterOdd: boolean, socksLeft: number): Figures
  /** Index (in `options`) of the best option. */
  bestOption(dice: readonly number[], p: number): number
}

/** Solves the turn of a player who starts it on `start` points, valuing results by `utility`. */
export function solveTurn(start: number, devil: FoursiesDevil, utility: TurnUtility): TurnSolution {
  const graph = graphFor(devil)
  // Figures of each result for this start and utility.
  const terminal: Float64Array[] = []
  for (let t = 0; t < TERMINALS; t++) {
    const v = new Float64Array(N)
    if (t <= 4) {
      v[UTIL] = utility.end[t]
      v[E0 + t] = 1
      v[SCORE] = t
    } else if (t < T_BUST) {
      v[UTIL] = utility.foursies
      v[FOURSIES] = 1
      v[SCORE] = t - T_FOURSIES
    } else if (t === T_BUST) {
      v[UTIL] = utility.end[start]
      v[E0 + start] = 1
      v[BUST] = 1
      v[SCORE] = start
    } else {
      v[UTIL] = utility.end[0]
      v[E0] = 1
      v[RESET] = 1
    }
    terminal.push(v)
  }
  const values: Float64Array[] = []
  const chosen = new Int32Array(5 * TABLES)

  function evaluate(row: Row, out: Float64Array): Float64Array {
    out.fill(0)
    for (let t = 0; t < TERMINALS; t++) {
      const q = row.term[t]
      if (q === 0) continue
      const v = terminal[t]
      for (let i = 0; i < N; i++) out[i] += q * v[i]
    }
    for (let j = 0; j < row.nodes.length; j++) {
      const q = row.probs[j]
      const v = values[row.nodes[j]]
      for (let i = 0; i < N; i++) out[i] += q * v[i]
    }
    return out
  }

  // Level by level, from 4 down to the start score. Within a level, an option's figures are a
  // constant part (results, and decisions at higher levels, already solved) plus decisions at
  // the same level: iterate the utility alone until the choices settle, then the figures of the
  // chosen options.
  for (let p = 4; p >= start; p--) {
    const lo = p * TABLES
    const hi = lo + TABLES
    const base: Float64Array[][] = []
    const same: { ids: Int32Array; probs: Float64Array }[][] = []
    for (let t = 0; t < TABLES; t++) {
      base.push([])
      same.push([])
      for (const { row } of graph.nodeOptions[lo + t]) {
        const b = new Float64Array(N)
        for (let k = 0; k < TERMINALS; k++) {
          const q = row.term[k]
          if (q !== 0) for (let i = 0; i < N; i++) b[i] += q * terminal[k][i]
        }
        const ids: number[] = []
        const probs: number[] = []
        for (let j = 0; j < row.nodes.length; j++) {
          const id = row.nodes[j]
          if (id >= lo && id < hi) {
            ids.push(id - lo)
            probs.push(row.probs[j])
          } else {
            const v = values[id]
            for (let i = 0; i < N; i++) b[i] += row.probs[j] * v[i]
          }
        }
        base[t].push(b)
        same[t].push({ ids: Int32Array.from(ids), probs: Float64Array.from(probs) })
      }
    }
    // Utility only.
    const util = new Float64Array(TABLES).fill(terminal[p][UTIL])
    for (let iteration = 0; iteration < 100_000; iteration++) {
      let change = 0
      for (let t = 0; t < TABLES; t++) {
        let best = -1
        let bestUtil = -Infinity
        const opts = same[t]
        for (let o = 0; o < opts.length; o++) {
          let u = base[t][o][UTIL]
          const { ids, probs } = opts[o]
          for (let j = 0; j < ids.length; j++) u += probs[j] * util[ids[j]]
          if (u > bestUtil + 1e-12) {
            best = o
            bestUtil = u
          }
        }
        const d = Math.abs(bestUtil - util[t])
        if (d > change) change = d
        util[t] = bestUtil
        chosen[lo + t] = best
      }
      if (change < 1e-15) break
    }
    // Figures of the chosen options.
    const vals: Float64Array[] = []
    for (let t = 0; t < TABLES; t++) vals.push(Float64Array.from(terminal[p]))
    for (let iteration = 0; iteration < 100_000; iteration++) {
      let change = 0
      for (let t = 0; t < TABLES; t++) {
        const o = chosen[lo + t]
        const { ids, probs } = same[t][o]
        const b = base[t][o]
        const cur = vals[t]
        for (let i = 0; i < N; i++) {
          let x = b[i]
          for (let j = 0; j < ids.length; j++) x += probs[j] * vals[ids[j]][i]
          const d = Math.abs(x - cur[i])
          if (d > change) change = d
          cur[i] = x
        }
      }
      if (change < 1e-15) break
    }
    for (let t = 0; t < TABLES; t++) values[lo + t] = vals[t]
  }

  const checkLevel = (p: number): void => {
    if (!(p >= start && p <= 4)) throw new RangeError(`score ${p} is outside this turn (start ${start})`)
  }
  return {
    start,
    devil,
    utility,
    options(dice, p) {
      checkLevel(p)
      const sorted = sortedDice(dice)
      return optionList(sorted).map((option) => ({
        option,
        figures: evaluate(graph.optionRow(sorted, p, option), new Float64Array(N))
      }))
    },
    throwFigures(kept, k, p, afterOdd, socksLeft) {
      checkLevel(p)
      const cls = socksLeft > 0 ? Cls.Socks : afterOdd ? Cls.Odd : Cls.Normal
      return evaluate(graph.throwRow(sortedDice(kept), k, p, cls, socksLeft), new Float64Array(N))
    },
    bestOption(dice, p) {
      checkLevel(p)
      const t = TABLE_INDEX.get(tableCode(sortedDice(dice)))
      if (t === undefined) return optionList(sortedDice(dice)).length - 1
      return chosen[nodeId(t, p)]
    }
  }
}
