// The six-dice core shared by Farkle and Fouche: scoring by best split under a table, the
// scoring selections of a throw, farkle detection, and the turn state machine (keep, bank, hot
// dice, entry minimum, target and the end of the game). Pure data and functions.
//
// The rules pages are docs/rules/farkle.md and docs/rules/fouche.md (`// Rules:` comments name
// their sections). Readings they leave open are listed in docs/rules-readings.md (Farkle and Fouche).

import type {
  Applied,
  BlockedDecision,
  Decision,
  GameRules,
  Move,
  Offer,
  Parsed,
  ShownDie,
  Summary,
  TableView
} from '../types'
import { rankPlayers } from '../standings'
import { valueText } from '../options'
import { countedValues, diceText, faceCounts, formatPoints, isDieValue, listNames, notADie, numberWord } from '@shared/dice'

// ---------------------------------------------------------------------------------------------
// Scoring tables

/** One concrete combination: these dice (values), worth these points. */
export interface Combination {
  name: string
  /** The dice values, sorted ascending. */
  dice: number[]
  points: number
}

/** A scoring table compiled for fast lookups (at most six dice). */
export interface ScoringTable {
  name: string
  combinations: readonly Combination[]
  /** best[code]: best split's points of the multiset `code`, -1 when no split covers every die. */
  readonly best: Int16Array
  /** farkle[code]: 1 when no die of the multiset scores. */
  readonly farkle: Uint8Array
}

const POW7 = [1, 7, 49, 343, 2401, 16807, 117649]
const CODE_SIZE = POW7[6]

/** Multiset code: base 7, digit v-1 = how many dice show v. Only for 0..6 dice of values 1..6. */
function codeOf(values: readonly number[]): number {
  let code = 0
  for (let i = 0; i < values.length; i++) code += POW7[values[i] - 1]
  return code
}

function countsOf(code: number): number[] {
  const c = [0, 0, 0, 0, 0, 0, 0]
  for (let v = 1; v <= 6; v++) c[v] = Math.floor(code / POW7[v - 1]) % 7
  return c
}

function valuesOfCode(code: number): number[] {
  const c = countsOf(code)
  const out: number[] = []
  for (let v = 1; v <= 6; v++) for (let k = 0; k < c[v]; k++) out.push(v)
  return out
}

/** Every multiset code of 0..6 dice, by ascending dice count. */
const ALL_CODES: number[] = (() => {
  const byCount: number[][] = [[], [], [], [], [], [], []]
  const rec = (v: number, left: number, code: number, n: number): void => {
    if (v > 6) {
      byCount[n].push(code)
      return
    }
    for (let k = 0; k <= left; k++) rec(v + 1, left - k, code + k * POW7[v - 1], n + k)
  }
  rec(1, 6, 0, 0)
  return byCount.flat()
})()

function validDice(values: readonly number[]): boolean {
  if (values.length > 6) return false
  for (const v of values) if (!isDieValue(v)) return false
  return true
}

// Rules: "What dice set aside from one throw score": the points of dice set aside are their best split into combinations, every die in one.
/** Builds and compiles a scoring table from concrete combinations. */
export function defineTable(name: string, combinations: Combination[]): ScoringTable {
  const combos = combinations.map((c) => ({ ...c, dice: [...c.dice].sort((a, b) => a - b) }))
  const comboCodes = combos.map((c) => codeOf(c.dice))
  const comboCounts = comboCodes.map(countsOf)
  const best = new Int16Array(CODE_SIZE).fill(-1)
  const farkle = new Uint8Array(CODE_SIZE)
  best[0] = 0
  for (const code of ALL_CODES) {
    if (code === 0) continue
    const c = countsOf(code)
    let top = -1
    for (let i = 0; i < combos.length; i++) {
      const k = comboCounts[i]
      let fits = true
      for (let v = 1; v <= 6; v++) if (k[v] > c[v]) { fits = false; break }
      if (!fits) continue
      const rest = best[code - comboCodes[i]]
      if (rest >= 0 && rest + combos[i].points > top) top = rest + combos[i].points
    }
    best[code] = top
  }
  // A multiset farkles when no non-empty sub-multiset is fully covered by a split.
  for (const code of ALL_CODES) {
    if (code === 0) { farkle[0] = 1; continue }
    if (best[code] > 0) { farkle[code] = 0; continue }
    let all = 1
    for (let v = 1; v <= 6; v++) {
      const p = POW7[v - 1]
      if (Math.floor(code / p) % 7 > 0 && farkle[code - p] === 0) { all = 0; break }
    }
    farkle[code] = all
  }
  return { name, combinations: combos, best, farkle }
}

// Helpers for table definitions.
export const single = (v: number, points: number): Combination => ({ name: `single ${v}`, dice: [v], points })
export const ofAKind = (n: number, v: number, points: number, name?: string): Combination => ({
  name: name ?? `${numberWord(n)} ${v}s`,
  dice: Array(n).fill(v),
  points
})
export const straight = (points: number): Combination => ({ name: 'straight', dice: [1, 2, 3, 4, 5, 6], points })
/** Three pairs, any values (equal values allowed: four of a kind + a pair, six of a kind). */
export function threePairs(points: number): Combination[] {
  const out: Combination[] = []
  for (let a = 1; a <= 6; a++)
    for (let b = a; b <= 6; b++)
      for (let c = b; c <= 6; c++) out.push({ name: 'three pairs', dice: [a, a, b, b, c, c], points })
  return out
}
/** Two triplets, any values (equal values allowed: six of a kind). */
export function twoTriplets(points: number): Combination[] {
  const out: Combination[] = []
  for (let a = 1; a <= 6; a++)
    for (let b = a; b <= 6; b++) out.push({ name: 'two triplets', dice: [a, a, a, b, b, b], points })
  return out
}

// ---------------------------------------------------------------------------------------------
// Scoring functions

/**
 * Points of the best split of `values` (dice of one throw) into combinations of `table`, or null
 * when no split uses every die (some die belongs to no combination). [] scores 0.
 * At most six dice; values outside 1..6 give null.
 */
export function bestScore(values: readonly number[], table: ScoringTable): number | null {
  if (!validDice(values)) return null
  const b = table.best[codeOf(values)]
  return b < 0 ? null : b
}

/** The combinations of the best split of `values`, or null as for bestScore. */
export function bestSplit(values: readonly number[], table: ScoringTable): Combination[] | null {
  if (!validDice(values)) return null
  let code = codeOf(values)
  if (table.best[code] < 0) return null
  const out: Combination[] = []
  while (code > 0) {
    const c = countsOf(code)
    const target = table.best[code]
    const next = table.combinations.find((k) => {
      const kc = codeOf(k.dice)
      const kk = countsOf(kc)
      for (let v = 1; v <= 6; v++) if (kk[v] > c[v]) return false
      const rest = table.best[code - kc]
      return rest >= 0 && rest + k.points === target
    })
    if (!next) return null // cannot happen for a compiled table
    out.push(next)
    code -= codeOf(next.dice)
  }
  return out
}

/** True when no die of the throw scores: a farkle. */
export function isFarkle(values: readonly number[], table: ScoringTable): boolean {
  if (!validDice(values)) return false
  return table.farkle[codeOf(values)] === 1
}

export interface ScoringSelection {
  /** The dice to set aside, sorted ascending. */
  dice: number[]
  points: number
}

const selectionCache = new WeakMap<ScoringTable, Map<number, ScoringSelection[]>>()

function selectionsOfCode(code: number, table: ScoringTable): ScoringSelection[] {
  let cache = selectionCache.get(table)
  if (!cache) selectionCache.set(table, (cache = new Map()))
  const hit = cache.get(code)
  if (hit) return hit
  const c = countsOf(code)
  const out: ScoringSelection[] = []
  const rec = (v: number, sub: number): void => {
    if (v > 6) {
      if (sub !== 0 && table.best[sub] >= 0) out.push({ dice: valuesOfCode(sub), points: table.best[sub] })
      return
    }
    for (let k = 0; k <= c[v]; k++) rec(v + 1, sub + k * POW7[v - 1])
  }
  rec(1, 0)
  out.sort(
    (a, b) =>
      b.points - a.points ||
      b.dice.length - a.dice.length ||
      a.dice.join(',').localeCompare(b.dice.join(','))
  )
  cache.set(code, out)
  return out
}

/**
 * Every distinct non-empty sub-multiset of the throw that may be set aside (each die belongs to
 * its best split), with its points; by points, highest first. Empty for a farkle.
 */
export function scoringSelections(throwValues: readonly number[], table: ScoringTable): ScoringSelection[] {
  if (!validDice(throwValues)) return []
  return selectionsOfCode(codeOf(throwValues), table).map((s) => ({ dice: [...s.dice], points: s.points }))
}

// ---------------------------------------------------------------------------------------------
// Words

export { formatPoints }

// ---------------------------------------------------------------------------------------------
// The turn state machine

export interface SixDiceOptions {
  /** Points a player with nothing banked must make in one turn to bank. 0: no minimum. */
  entry: number
  /** Banked total that starts the end of the game. */
  target: number
}

export type SixDiceGameId = 'farkle' | 'fouche'

/** How the game ends once a player reaches the target. */
export type EndRule =
  /** Farkle: every other player gets exactly one more turn, clockwise, wrapping. */
  | 'one-more-turn-each'
  /** Fouche: the lap is completed up to the last seat. */
  | 'complete-the-lap'

export interface SixDiceState {
  game: SixDiceGameId
  players: string[]
  options: SixDiceOptions
  /** Banked totals by seat. */
  scores: number[]
  /** Seat to act (the last seat to act once the game is over). */
  seat: number
  /** Turns completed so far, all players together. */
  turnsDone: number
  /** throw: a throw is due; keep: a keep is due; choose: bank or throw; over: finished. */
  step: 'throw' | 'keep' | 'choose' | 'over'
  /** Points made this turn so far by the player to act. */
  turnPoints: number
  /** Dice the next throw holds (step throw / choose): 6 at turn start and after hot dice. */
  diceDue: number
  /** The latest throw's values (of this turn, or of the turn that just ended). */
  thrown: number[]
  /** Dice set aside from the latest throw (empty while the keep is due). */
  kept: number[]
  /** Dice set aside this turn before the latest throw. */
  setAside: number[]
  /** Seat that reached the target first, or null. */
  reachedBy: number | null
  /** Turns still to play once the target is reached (null before). */
  turnsLeft: number | null
  /** Winning seats, in seat order, once the game is over. */
  winners: number[]
}

/** What happens in Farkle and Fouche, for `describe` and the screens. */
export type SixDiceEvent =
  | { kind: 'throw'; seat: number; dice: number[] }
  | { kind: 'farkle'; seat: number; lost: number; announce: string }
  | { kind: 'keep'; seat: number; dice: number[]; points: number; turn: number }
  | { kind: 'hotDice'; seat: number; turn: number; announce: string }
  | { kind: 'bank'; seat: number; points: number; total: number }
  | { kind: 'target'; seat: number; total: number; target: number; turnsLeft: number }
  | { kind: 'gameOver'; winners: number[]; total: number; announce: string }
  | { kind: 'nextTurn'; seat: number }

export interface SixDiceGameConfig {
  id: SixDiceGameId
  title: string
  table: ScoringTable
  defaults: SixDiceOptions
  endRule: EndRule
}

const fail = (error: string): { ok: false; error: string } => ({ ok: false, error })

/** A fresh copy of a state, every field listed (one shape for every state). `apply` changes only this copy. */
function copyState(s: SixDiceState): SixDiceState {
  return {
    game: s.game,
    players: s.players,
    options: s.options,
    scores: s.scores,
    seat: s.seat,
    turnsDone: s.turnsDone,
    step: s.step,
    turnPoints: s.turnPoints,
    diceDue: s.diceDue,
    thrown: s.thrown,
    kept: s.kept,
    setAside: s.setAside,
    reachedBy: s.reachedBy,
    turnsLeft: s.turnsLeft,
    winners: s.winners
  }
}

function checkDiceList(list: unknown, what: string): string | null {
  if (!Array.isArray(list)) return `${what} must be a list of die values`
  for (let i = 0; i < list.length; i++) {
    if (!isDieValue(list[i])) return `${what}: ${notADie(list[i])}`
  }
  return null
}

/** Why `keep` (a sub-multiset of the throw) is no scoring selection, in words. */
function whyKeepFails(keep: readonly number[], table: ScoringTable): string {
  const code = codeOf(keep)
  const c = countsOf(code)
  // Best fully-scoring part of the keep: most points, then most dice.
  let bestSub = 0
  let bestPts = 0
  let bestN = 0
  const rec = (v: number, sub: number, n: number): void => {
    if (v > 6) {
      const p = table.best[sub]
      if (sub !== 0 && p >= 0 && (p > bestPts || (p === bestPts && n > bestN))) {
        bestSub = sub
        bestPts = p
        bestN = n
      }
      return
    }
    for (let k = 0; k <= c[v]; k++) rec(v + 1, sub + k * POW7[v - 1], n + k)
  }
  rec(1, 0, 0)
  const left = valuesOfCode(code - bestSub)
  if (bestSub === 0) {
    if (keep.length === 1) return `a ${keep[0]} on its own scores nothing`
    return `${diceText(keep)} scores nothing`
  }
  const leftText =
    left.length === 1
      ? `the ${left[0]} belongs`
      : left.every((v) => v === left[0])
        ? `${countedValues(left.length, left[0])} belong`
        : `${diceText(left)} belong`
  return `cannot set aside ${diceText(keep)}: ${leftText} to no combination (${diceText(valuesOfCode(bestSub))} alone scores ${formatPoints(bestPts)})`
}

/** A six-dice game's rules engine; its words (`describe`) are the family's, in ./words. */
export function makeSixDiceGame(config: SixDiceGameConfig): Omit<GameRules<SixDiceState, SixDiceOptions, SixDiceEvent>, 'describe'> {
  const { id, title, table, defaults, endRule } = config

  function parseOptions(raw: Record<string, unknown> | undefined): Parsed<SixDiceOptions> {
    if (raw === undefined) return { ok: true, value: { ...defaults } }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      return fail(`${title} rules must be an object like {"entry":500,"target":10000}`)
    }
    const value = { ...defaults }
    for (const key of Object.keys(raw)) {
      const v = raw[key]
      if (key === 'entry' || key === 'target') {
        const least = key === 'entry' ? 0 : 1
        if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < least) {
          const what = key === 'entry' ? '0 (which turns it off)' : '1'
          return fail(`${title} rule "${key}" must be a whole number of points from ${what} to ${Number.MAX_SAFE_INTEGER}; got ${valueText(v)}`)
        }
        value[key] = v
      } else {
        return fail(`unknown ${title} rule "${key}" (${title} has "entry" and "target")`)
      }
    }
    return { ok: true, value }
  }

  function init(players: readonly string[], options: SixDiceOptions): SixDiceState {
    return {
      game: id,
      players: [...players],
      options: { entry: options.entry, target: options.target },
      scores: players.map(() => 0),
      seat: 0,
      turnsDone: 0,
      step: 'throw',
      turnPoints: 0,
      diceDue: 6,
      thrown: [],
      kept: [],
      setAside: [],
      reachedBy: null,
      turnsLeft: null,
      winners: []
    }
  }

  // Rules: "Getting on the board (option `entry`)": with nothing banked, bank only a turn worth at least `entry`.
  function entryBlocks(s: SixDiceState): boolean {
    return s.scores[s.seat] === 0 && s.turnPoints < s.options.entry
  }

  function entryReason(s: SixDiceState): string {
    return `${s.players[s.seat]} needs ${formatPoints(s.options.entry)} in one turn to get on the board; this turn has ${formatPoints(s.turnPoints)}, ${formatPoints(s.options.entry - s.turnPoints)} short`
  }

  /** Ends the turn of `s.seat` on `s`, a fresh copy owned by apply; pushes events. */
  function endTurn(s: SixDiceState, events: SixDiceEvent[]): SixDiceState {
    const n = s.players.length
    const seat = s.seat
    // Rules: "The end (option `target`)": Farkle gives every other player one more turn; Fouche completes the lap.
    if (s.reachedBy === null && s.scores[seat] >= s.options.target) {
      s.reachedBy = seat
      s.turnsLeft = endRule === 'one-more-turn-each' ? n - 1 : n - 1 - seat
      events.push({ kind: 'target', seat, total: s.scores[seat], target: s.options.target, turnsLeft: s.turnsLeft })
    } else if (s.turnsLeft !== null) {
      s.turnsLeft -= 1
    }
    s.turnsDone += 1
    s.turnPoints = 0
    // Rules: "The end (option `target`)": the highest banked total wins; a tie for it shares the win.
    if (s.turnsLeft === 0) {
      let top = -1
      for (const sc of s.scores) if (sc > top) top = sc
      const winners: number[] = []
      for (let i = 0; i < n; i++) if (s.scores[i] === top) winners.push(i)
      const names = listNames(winners.map((w) => s.players[w]))
      events.push({
        kind: 'gameOver',
        winners,
        total: top,
        announce: winners.length === 1 ? `${names} wins!` : `${names} win!`
      })
      s.step = 'over'
      s.diceDue = 0
      s.winners = winners
      return s
    }
    const next = (seat + 1) % n
    events.push({ kind: 'nextTurn', seat: next })
    s.seat = next
    s.step = 'throw'
    s.diceDue = 6
    return s
  }

  function applyRoll(s: SixDiceState, roll: unknown): Applied<SixDiceState, SixDiceEvent> {
    const who = s.players[s.seat]
    if (s.step === 'keep') {
      return fail(`${who} must first set aside scoring dice from the throw ${diceText(s.thrown)}`)
    }
    const bad = checkDiceList(roll, 'roll')
    if (bad) return fail(bad)
    const values = roll as number[]
    if (values.length !== s.diceDue) {
      return fail(`${who} throws ${s.diceDue} ${s.diceDue === 1 ? 'die' : 'dice'} now; the roll has ${values.length}`)
    }
    const thrown = values.slice()
    const setAside = s.diceDue === 6 ? [] : s.kept.length ? s.setAside.concat(s.kept) : s.setAside
    const events: SixDiceEvent[] = [{ kind: 'throw', seat: s.seat, dice: thrown }]
    const state = copyState(s)
    state.thrown = thrown
    state.kept = []
    state.setAside = setAside
    // Rules: "A turn" 2: no scoring die in the throw is a farkle: the turn's points are lost, the turn ends.
    if (table.farkle[codeOf(values)] === 1) {
      events.push({ kind: 'farkle', seat: s.seat, lost: s.turnPoints, announce: 'Farkle!' })
      return { ok: true, state: endTurn(state, events), events }
    }
    state.step = 'keep'
    state.diceDue = 0
    return { ok: true, state, events }
  }

  function applyKeep(s: SixDiceState, keep: unknown): Applied<SixDiceState, SixDiceEvent> {
    const who = s.players[s.seat]
    if (s.step === 'throw') return fail(`${who} has no throw to set dice aside from: throw ${s.diceDue} dice first`)
    if (s.step === 'choose') {
      return fail(`one keep per throw: ${who} already set aside ${diceText(s.kept)}; throw ${s.diceDue} dice or bank`)
    }
    const bad = checkDiceList(keep, 'keep')
    if (bad) return fail(bad)
    const values = keep as number[]
    if (values.length === 0) return fail('keep at least one scoring die')
    // More dice than the throw would overflow the count code (seven 1s would read as one 2).
    if (values.length > s.thrown.length) {
      return fail(`the throw ${diceText(s.thrown)} has only ${s.thrown.length} ${s.thrown.length === 1 ? 'die' : 'dice'}, not ${values.length}`)
    }
    // Rules: "What dice set aside from one throw score": combinations count only among dice of the same throw.
    // Sub-multiset of the latest throw?
    const keepCode = codeOf(values)
    const throwCode = codeOf(s.thrown)
    for (let v = 1; v <= 6; v++) {
      const p = POW7[v - 1]
      if (Math.floor(keepCode / p) % 7 > Math.floor(throwCode / p) % 7) {
        const have = countsOf(throwCode)
        return have[v] === 0
          ? fail(`there is no ${v} in the throw ${diceText(s.thrown)}`)
          : fail(`the throw ${diceText(s.thrown)} has only ${countedValues(have[v], v)}`)
      }
    }
    const points = table.best[keepCode]
    if (points < 0) return fail(whyKeepFails(values, table))
    const turnPoints = s.turnPoints + points
    const kept = values.slice()
    const left = s.thrown.length - values.length
    const events: SixDiceEvent[] = [{ kind: 'keep', seat: s.seat, dice: kept, points, turn: turnPoints }]
    // Rules: "A turn" 5: hot dice, all six set aside, throw all six again.
    if (left === 0) events.push({ kind: 'hotDice', seat: s.seat, turn: turnPoints, announce: 'Hot dice!' })
    const state = copyState(s)
    state.step = 'choose'
    state.turnPoints = turnPoints
    state.diceDue = left === 0 ? 6 : left
    state.kept = kept
    return { ok: true, state, events }
  }

  function applyBank(s: SixDiceState, bank: unknown): Applied<SixDiceState, SixDiceEvent> {
    const who = s.players[s.seat]
    if (bank !== true) return fail('bank must be true')
    if (s.step === 'throw') return fail(`${who} has nothing to bank: bank only after setting aside scoring dice`)
    if (s.step === 'keep') return fail(`${who} must first set aside scoring dice from the throw ${diceText(s.thrown)}`)
    if (entryBlocks(s)) return fail(entryReason(s))
    const state = copyState(s)
    state.scores = s.scores.slice()
    state.scores[s.seat] += s.turnPoints
    const events: SixDiceEvent[] = [{ kind: 'bank', seat: s.seat, points: s.turnPoints, total: state.scores[s.seat] }]
    return { ok: true, state: endTurn(state, events), events }
  }

  function apply(state: SixDiceState, move: Move): Applied<SixDiceState, SixDiceEvent> {
    if (state.step === 'over') return fail('the game is over')
    if (typeof move !== 'object' || move === null) return fail('a move must be an object')
    const m = move as Record<string, unknown>
    if ('roll' in m) return applyRoll(state, m.roll)
    if ('keep' in m) return applyKeep(state, m.keep)
    if ('bank' in m) return applyBank(state, m.bank)
    const key = Object.keys(m)[0] ?? 'an empty line'
    return fail(`"${key}" is no ${title} move (${title} has roll, keep and bank)`)
  }

  function offer(s: SixDiceState): Offer {
    if (s.step === 'over') {
      return { finished: true, toPlay: null, throwers: [], diceDue: 0, decisions: [], blocked: [] }
    }
    const base = { finished: false, toPlay: s.seat, throwers: [s.seat] }
    if (s.step === 'throw') return { ...base, diceDue: 6, decisions: [], blocked: [] }
    if (s.step === 'keep') {
      const decisions: Decision[] = selectionsOfCode(codeOf(s.thrown), table).map((sel) => ({
        move: { keep: sel.dice.slice() },
        label: `Keep ${sel.dice.join(' ')} (${formatPoints(sel.points)})`,
        points: sel.points
      }))
      return { ...base, diceDue: 0, decisions, blocked: [] }
    }
    // choose: throw the rest (a roll line) or bank
    const decisions: Decision[] = []
    const blocked: BlockedDecision[] = []
    const bank = { move: { bank: true } as Move, label: `Bank ${formatPoints(s.turnPoints)}` }
    if (entryBlocks(s)) blocked.push({ ...bank, reason: entryReason(s) })
    else decisions.push({ ...bank, points: s.turnPoints })
    const o: Offer = { ...base, diceDue: s.diceDue, decisions, blocked }
    if (s.kept.length > 0 && s.diceDue === 6) o.throwNote = 'Hot dice: throw all six again'
    return o
  }

  function summary(s: SixDiceState): Summary {
    const over = s.step === 'over'
    return {
      game: id,
      finished: over,
      winners: s.winners.map((w) => s.players[w]),
      players: s.players.map((name, i) => ({ name, score: s.scores[i], out: false })),
      toPlay: over ? null : s.players[s.seat]
    }
  }

  function table_(s: SixDiceState): TableView {
    const n = s.players.length
    const phase =
      s.step === 'over' ? 'Game over' : s.turnsLeft !== null ? 'Final turns' : `Turn ${Math.floor(s.turnsDone / n) + 1}`
    const dice: ShownDie[] = []
    const rest = faceCounts(s.kept)
    for (const v of s.thrown) {
      if (rest[v] > 0) rest[v]--
      else dice.push({ value: v, fresh: true })
    }
    for (const v of s.kept) dice.push({ value: v, fresh: true, setAside: true })
    for (const v of s.setAside) dice.push({ value: v, fresh: false, setAside: true })
    const view: TableView = { phase, dice, turnPoints: s.turnPoints }
    if (s.reachedBy !== null) {
      const notes: Record<number, string> = {}
      notes[s.reachedBy] = `reached ${formatPoints(s.options.target)}`
      if (s.step !== 'over' && s.turnsLeft !== null) {
        for (let k = 0; k < s.turnsLeft; k++) {
          const seat = (s.seat + k) % n
          if (seat !== s.reachedBy) notes[seat] = k === 0 ? 'final turn now' : 'final turn to come'
        }
      }
      view.notes = notes
    }
    return view
  }

  return {
    parseOptions: (raw) => parseOptions(raw),
    init,
    offer,
    apply,
    summary,
    standings: (s) => rankPlayers({ players: s.players, winners: s.winners, figures: (seat) => [s.scores[seat]], shown: (seat) => formatPoints(s.scores[seat]), tiedOn: 'points' }),
    table: table_
  }
}
