// The computer player of Foursies: each decision on offer valued by the turn solver
// (./turn-odds) with what each end of the turn is worth to the player to act (a race against the
// others, or the final lap); see ../README.md.
import type { AiChoice, Decision, Move } from '../types'
import { percent } from '../dice-odds'
import { pickBest } from '../pick-best'
import { finishSolution } from './odds'
import type { FoursiesDevil, FoursiesState } from './rules'
import { E0, FOURSIES, BUST, UTIL, solveTurn, type TurnSolution, type TurnUtility, type FoursiesOption } from './turn-odds'

const solutions = new Map<string, TurnSolution>()

function cachedSolve(start: number, devil: FoursiesDevil, u: TurnUtility): TurnSolution {
  const key = `${start}|${devil}|${u.end.map((x) => x.toFixed(9)).join(',')}|${u.foursies.toFixed(9)}`
  let s = solutions.get(key)
  if (!s) {
    if (solutions.size > 400) solutions.clear()
    solutions.set(key, (s = solveTurn(start, devil, u)))
  }
  return s
}

/** Chance that a turn started on `score` finishes (on 4 or foursies), under the odds policy. */
export function finishChance(score: number, devil: FoursiesDevil): number {
  if (score >= 4) return 0
  const f = finishSolution(score, devil).throwFigures([], 4, score, false, 0)
  return f[E0 + 4] + f[FOURSIES]
}

const raceCache = new Map<string, number[]>()

/**
 * The race model's values W(s), s = 0..3: the discounted chance to finish first when each of my
 * later turns happens only if no opponent finished in between (probability delta), i.e.
 *   W(s) = max over turn policies of P(finish this turn) + delta * sum_e P(end on e) W(e).
 * Solved by policy iteration: solve the turns for utility (end e < 4: delta W(e); end on 4 or
 * foursies: 1), then W exactly from the 4x4 linear system of the chosen policies, until W settles.
 */
export function raceValues(delta: number, devil: FoursiesDevil): number[] {
  const key = `${delta}|${devil}`
  const hit = raceCache.get(key)
  if (hit) return hit
  let w = [0, 1, 2, 3].map((s) => finishChance(s, devil))
  for (let iteration = 0; iteration < 12; iteration++) {
    const u = raceUtility(delta, w)
    const P: number[][] = []
    const fin: number[] = []
    for (let s = 0; s < 4; s++) {
      const f = cachedSolve(s, devil, u).throwFigures([], 4, s, false, 0)
      P.push([0, 1, 2, 3].map((e) => f[E0 + e]))
      fin.push(f[E0 + 4] + f[FOURSIES])
    }
    // (I - delta P) W = fin
    const a = P.map((row, i) => row.map((x, j) => (i === j ? 1 : 0) - delta * x).concat(fin[i]))
    for (let c = 0; c < 4; c++) {
      let piv = c
      for (let r = c + 1; r < 4; r++) if (Math.abs(a[r][c]) > Math.abs(a[piv][c])) piv = r
      ;[a[c], a[piv]] = [a[piv], a[c]]
      for (let r = 0; r < 4; r++) {
        if (r === c) continue
        const k = a[r][c] / a[c][c]
        for (let j = c; j <= 4; j++) a[r][j] -= k * a[c][j]
      }
    }
    const next = a.map((row, i) => row[4] / row[i])
    const change = Math.max(...next.map((x, i) => Math.abs(x - w[i])))
    w = next
    if (change < 1e-7) break
  }
  raceCache.set(key, w)
  return w
}

function raceUtility(delta: number, w: number[]): TurnUtility {
  const r = (x: number): number => Math.round(x * 1e7) / 1e7
  return { end: [r(delta * w[0]), r(delta * w[1]), r(delta * w[2]), r(delta * w[3]), 1], foursies: 1 }
}

const EPS = 1e-6

/** What each result of this turn is worth to the player to act (see README). */
export function foursiesUtility(s: FoursiesState): { utility: TurnUtility; model: string } {
  const me = s.seat
  const devil = s.options.devilsNumber
  if (s.finalLap) {
    let foursies = 0
    let onFour = 0
    for (let i = 0; i < s.players.length; i++) {
      if (i === me) continue
      if (s.foursies[i]) foursies++
      else if (s.scores[i] === 4) onFour++
    }
    const ties = [0, EPS, 2 * EPS, 3 * EPS]
    if (foursies > 0) {
      return { utility: { end: [...ties, 4 * EPS], foursies: 1 / (foursies + 1) }, model: 'final lap: only a foursies can still win' }
    }
    return {
      utility: { end: [...ties, 1 / (onFour + 1)], foursies: 1 },
      model: 'final lap: must finish on 4 (or roll a foursies) to stay in the round'
    }
  }
  let delta = 1
  for (let i = 0; i < s.players.length; i++) if (i !== me) delta *= 1 - finishChance(s.scores[i], devil)
  delta = Math.min(0.95, Math.max(0.05, Math.round(delta * 20) / 20))
  const w = raceValues(delta, devil)
  return { utility: raceUtility(delta, w), model: 'race' }
}

function optionMatches(o: FoursiesOption, move: Move): boolean {
  if ('reroll' in move) return o.kind === 'reroll' && o.values.join() === [...move.reroll].sort((a, b) => a - b).join()
  if ('socks' in move) return o.kind === 'socks'
  return o.kind === 'end'
}

export function foursiesChoice(s: FoursiesState, decisions: Decision[], random: () => number): AiChoice {
  const start = s.scores[s.seat]
  const p = start + s.turnPoints
  const { utility } = foursiesUtility(s)
  const sol = cachedSolve(start, s.options.devilsNumber, utility)
  const figured = sol.options(s.dice, p)
  const scored = decisions.map((d) => {
    const f = figured.find((x) => optionMatches(x.option, d.move))
    if (!f) throw new Error(`no figures for ${d.label}`)
    return { d, f: f.figures }
  })
  const best = pickBest(scored, (x) => x.f[UTIL], random)
  // Words from the odds policy's figures (chance to finish this turn), which players can check.
  const odds = finishSolution(start, s.options.devilsNumber).options(s.dice, p)
  const of = (m: Move): Float64Array => (odds.find((x) => optionMatches(x.option, m)) as { figures: Float64Array }).figures
  const f = of(best.d.move)
  const fin = f[E0 + 4] + f[FOURSIES]
  let why: string
  if ('end' in best.d.move) {
    const alt = scored.filter((x) => x !== best).map((x) => of(x.d.move))
    const risk = alt.length ? Math.max(...alt.map((a) => a[BUST])) : 0
    why = p === 4 ? `ends the turn on 4: a re-roll risks a bust` : `ends the turn on ${p}: re-rolling risks up to ${percent(risk)} bust for too little`
  } else {
    const what = 'socks' in best.d.move ? 'takes socks' : `${best.d.label.toLowerCase()}s`.replace(/^re-roll (.*)s$/, 're-rolls $1')
    why = `${what}: ${percent(fin)} to finish on 4 this turn, ${percent(f[BUST])} bust`
  }
  return { move: best.d.move, why }
}
