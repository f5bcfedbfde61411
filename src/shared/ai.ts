// The computer player: pure, from the game's state and its offer. It only takes decisions
// (throws come from virtual dice elsewhere); see ./README.md for what it maximises in each game.
import type { FoursiesDevil, FoursiesState } from './games/foursies/rules'
import { formatPoints, type SixDiceState } from './games/six-dice/rules'
import type { Decision, Move } from './games/types'
import { offerOf, type Game } from './game'
import { percent } from './games/dice-odds'
import { finishSolution } from './games/foursies/odds'
import { E0, FOURSIES, BUST, UTIL, solveTurn, type TurnSolution, type TurnUtility, type FoursiesOption } from './games/foursies/turn-odds'
import { expectedValues, farkleChance, reachValues, type TurnValues } from './games/six-dice/turn-odds'
import { inFinalTurn, specOf, winChances, type WinChances, type WinTableSource } from './games/six-dice/win-play'
import { scoringTableOf, solvable } from './games/six-dice/win-solver'

export interface AiChoice {
  /**
   * The decision line to take, always one of the offer's decisions; null when the best play is
   * to throw the dice due instead (Farkle/Fouche: throw on rather than bank).
   */
  move: Move | null
  /** Why, in plain words: "banks 650: rolling 2 dice risks 44% farkle". */
  why: string
}

/**
 * The computer player's decision for the player to act, or null when no decision is on offer
 * (a throw is due, a duel is on, the game is over, or the game has no decisions: 4-PLU$).
 * `random` only breaks exact ties between equally good decisions. With `wins` (solved
 * chance-to-win tables), Farkle and Fouche are played to win; without, or while the table for the
 * game's options is not solved yet, for the expected points (see README).
 */
export function chooseMove(game: Game, random: () => number, wins?: WinTableSource): AiChoice | null {
  const offer = offerOf(game)
  if (offer.finished || offer.decisions.length === 0) return null
  switch (game.header.game) {
    case 'foursies':
      return foursiesChoice(game, offer.decisions, random)
    case 'farkle':
    case 'fouche':
      return sixDiceChoice(game, offer.decisions, random, wins)
    default:
      return null
  }
}

function pickBest<T>(items: T[], value: (t: T) => number, random: () => number): T {
  let best: T[] = []
  let top = -Infinity
  for (const it of items) {
    const v = value(it)
    if (v > top + 1e-9) {
      top = v
      best = [it]
    } else if (Math.abs(v - top) <= 1e-9) best.push(it)
  }
  return best[Math.min(best.length - 1, Math.floor(random() * best.length))]
}

// ---------------------------------------------------------------------------------------------
// Foursies

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

function foursiesChoice(game: Game, decisions: Decision[], random: () => number): AiChoice {
  const s = game.state as FoursiesState
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

// ---------------------------------------------------------------------------------------------
// Farkle and Fouche

/** The values the player to act should play by, and in words what they maximise. */
export function sixDicePolicy(s: SixDiceState): { values: TurnValues; model: 'expected' | 'reach'; need?: number } {
  const table = scoringTableOf(s.game)
  const mine = s.scores[s.seat]
  const entryNeeded = mine === 0 ? s.options.entry : 0
  if (s.turnsLeft !== null && s.reachedBy !== null && s.reachedBy !== s.seat) {
    // Final turns: the game ends after them, so the only thing that counts is passing the leader.
    let leader = 0
    for (let i = 0; i < s.scores.length; i++) if (i !== s.seat && s.scores[i] > leader) leader = s.scores[i]
    const gap = leader - mine
    if (gap >= 0) {
      const need = gap + 50
      return { values: reachValues(table, need, entryNeeded, gap, 0.5), model: 'reach', need }
    }
    return { values: reachValues(table, 50, entryNeeded), model: 'reach', need: 50 }
  }
  return { values: expectedValues(table, entryNeeded), model: 'expected' }
}

function sixDiceChoice(game: Game, decisions: Decision[], random: () => number, wins?: WinTableSource): AiChoice {
  const s = game.state as SixDiceState
  let note = ''
  if (wins && s.players.length >= 2 && !inFinalTurn(s)) {
    const chances = winChances(s, wins)
    if (chances) return winChoice(s, decisions, chances, random)
    const spec = specOf(s)
    note = solvable(spec)
      ? `; playing for points until the chance to win is known: ${wins.status(spec)}`
      : '; playing for points: the chance to win is not worked out for a target this high'
  }
  const choice = pointsChoice(s, decisions, random)
  return { move: choice.move, why: choice.why + note }
}

/** Plays to win: the decision with the highest chance to win (see ./win-play). */
function winChoice(s: SixDiceState, decisions: Decision[], chances: WinChances, random: () => number): AiChoice {
  const against = chances.exact ? '' : ' against the leader'
  const toWin = (x: number): string => `${percent(x)} to win${against}`
  if (s.step === 'keep') {
    const n = s.thrown.length
    const scored = decisions.map((d) => {
      const kept = (d.move as { keep: number[] }).keep.length
      const left = n - kept === 0 ? 6 : n - kept
      return { d, left, chance: chances.keep(d.points ?? 0, left) }
    })
    const best = pickBest(scored, (x) => x.chance, random)
    const greedy = scored[0]
    let why = `keeps ${best.d.label.replace(/^Keep /, '')}: ${best.left} ${best.left === 1 ? 'die' : 'dice'} left, ${toWin(best.chance)}`
    if (greedy !== best && greedy.chance < best.chance) why += ` (keeping ${greedy.d.label.replace(/^Keep /, '')}: ${percent(greedy.chance)})`
    return { move: best.d.move, why }
  }
  const bankMove = decisions.find((d) => 'bank' in d.move)
  const d = s.diceDue
  const dice = `${d} ${d === 1 ? 'die' : 'dice'}`
  const roll = chances.roll()
  const bank = bankMove ? chances.bank() : null
  if (bankMove && bank !== null && bank >= roll) {
    return { move: bankMove.move, why: `banks ${formatPoints(s.turnPoints)}: ${toWin(bank)}; throwing ${dice}: ${percent(roll)}` }
  }
  const why = `throws ${dice} on ${formatPoints(s.turnPoints)}: ${toWin(roll)}`
  return { move: null, why: bank !== null ? `${why}; banking: ${percent(bank)}` : why }
}

/** Plays for the expected points (the final turns: to pass the leader). */
function pointsChoice(s: SixDiceState, decisions: Decision[], random: () => number): AiChoice {
  const table = scoringTableOf(s.game)
  const policy = sixDicePolicy(s)
  const v = policy.values
  const t = s.turnPoints
  const money = (x: number): string => formatPoints(Math.round(x))
  const worth = (x: number): string => (policy.model === 'reach' ? `${percent(x)} to pass the leader` : `worth ${money(x)} on average`)
  if (s.step === 'keep') {
    const n = s.thrown.length
    const scored = decisions.map((d) => {
      const kept = (d.move as { keep: number[] }).keep.length
      const left = n - kept === 0 ? 6 : n - kept
      return { d, left, value: v.value(left, t + (d.points ?? 0)) }
    })
    const best = pickBest(scored, (x) => x.value, random)
    const greedy = scored[0]
    let why = `keeps ${best.d.label.replace(/^Keep /, '')}: ${best.left} ${best.left === 1 ? 'die' : 'dice'} left, ${worth(best.value)}`
    if (greedy !== best && greedy.value < best.value) why += ` (keeping ${greedy.d.label.replace(/^Keep /, '')}: ${worth(greedy.value)})`
    return { move: best.d.move, why }
  }
  // choose: bank, or throw the dice left (no decision line: `move` null).
  const bank = decisions.find((d) => 'bank' in d.move)
  const d = s.diceDue
  const roll = v.rollValue(d, t)
  const bankValue = v.bankValue(t)
  const risk = farkleChance(table, d)
  if (bank && bankValue >= roll) {
    return { move: bank.move, why: `banks ${formatPoints(t)}: rolling ${d} ${d === 1 ? 'die' : 'dice'} risks ${percent(risk)} farkle` }
  }
  return {
    move: null,
    why: `throws ${d} ${d === 1 ? 'die' : 'dice'} on ${formatPoints(t)}: ${percent(risk)} farkle, ${worth(roll)}`
  }
}
