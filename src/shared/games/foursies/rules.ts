// Foursies: the rules engine, as read by docs/rules/foursies.md (the rules page wins over the
// original card; `// Rules:` comments name its sections). Pure data and functions: no Node, DOM
// or Electron. `apply` never mutates.
//
// Readings the rules page leaves open are listed in docs/rules-readings.md (Foursies).

import type {
  Applied,
  Decision,
  GameRules,
  Move,
  Offer,
  Parsed,
  ShownDie,
  Standing,
  Summary,
  TableView
} from '../types'
import { rankPlayers } from '../standings'
import { choiceValues, optionDefaults, valueText } from '../options'
import { FOURSIES_DESCRIPTOR } from './descriptor'
import { countedValues, faceCounts, isDieValue, listNames, notADie, numberWord, removeValues, sortedDice } from '@shared/dice'

export type FoursiesMatch = 'round' | 'tour' | 'tour-de-fours'
export type FoursiesTour = 'first-to-four' | 'four-rounds'
export type FoursiesDevil = 'none' | 'bust' | 'reset'

export interface FoursiesOptions {
  match: FoursiesMatch
  tour: FoursiesTour
  devilsNumber: FoursiesDevil
  /** Seat index of the first tab holder. */
  tab: number
}

/**
 * What the next line of the turn is:
 * open: the opening throw of four dice; run: the forced re-roll of all four; odd: the forced
 * re-roll of the odd die; reroll: the throw of a chosen false four; socks: one of the two socks
 * throws; decide: a decision line (re-roll, socks or end) is due.
 */
export type FoursiesStep = 'open' | 'run' | 'odd' | 'reroll' | 'socks' | 'decide'

export interface FoursiesDuel {
  /** Seats still duelling, in seat order: one value each per roll line. */
  seats: number[]
  /** What the duel decides: a round, or a four-rounds tour tie. */
  stake: 'round' | 'tour'
  /** The values of the latest duel throw (seat order of who threw), empty before the first. */
  last: number[]
}

export interface FoursiesState {
  players: string[]
  options: FoursiesOptions
  phase: 'turn' | 'duel' | 'over'
  /** Round number within the current tour, from 1. */
  round: number
  /** Tour number, from 1. */
  tour: number
  /** Seat of the tab holder (who started the current round). */
  tab: number
  /** Seat whose turn it is (during a duel or after the match: the last seat that played). */
  seat: number
  /** Round scores as they stood at the start of the current turn. */
  scores: number[]
  /** Round wins in the current tour. */
  roundWins: number[]
  tourWins: number[]
  /** Who rolled a foursies this round. */
  foursies: boolean[]
  /** Someone ended a turn on 4 or rolled a foursies: the lap is being played out. */
  finalLap: boolean
  step: FoursiesStep
  /** Values the next roll line must hold (0: a decision is due, or no turn). */
  due: number
  /** Values of the dice that stay on the table while the due dice are thrown. */
  kept: number[]
  /** Socks throws still to make. */
  socksLeft: number
  /** Points scored so far this turn. */
  turnPoints: number
  /** The dice on the table after the latest throw, with which of them were thrown in it. */
  dice: number[]
  fresh: boolean[]
  duel: FoursiesDuel | null
  /** Seats of the winners of the match, once it is over. */
  winners: number[]
  /** What the duel that ended the match decided, when a duel ended it. */
  wonByDuel?: 'round' | 'tour'
}

/** What happens in Foursies, for `describe` and the screens. */
export type FoursiesEvent =
  | { kind: 'throw'; seat: number; dice: number[] }
  | { kind: 'score'; seat: number; count: number; score: number }
  | { kind: 'fourOfAKind'; seat: number; announce: string; value: number; score: number }
  | { kind: 'foursies'; seat: number; announce: string }
  | { kind: 'devilsNumber'; seat: number; announce: string; effect: FoursiesDevil }
  | { kind: 'bust'; seat: number; announce: string; score: number }
  | { kind: 'run'; seat: number }
  | { kind: 'oddManOut'; seat: number; value: number }
  | { kind: 'socks'; seat: number }
  | { kind: 'reroll'; seat: number; values: number[] }
  | { kind: 'turnEnd'; seat: number; score: number; declined?: true }
  | { kind: 'finalLap'; seat: number; foursies: boolean }
  | { kind: 'turn'; seat: number }
  | { kind: 'duel'; announce: string; seats: number[]; stake: 'round' | 'tour' }
  | { kind: 'duelThrow'; seats: number[]; values: number[]; fours: number[] }
  | { kind: 'roundWon'; seat: number; announce: string; rounds: number }
  | { kind: 'tourWon'; seat: number; announce: string; tours: number }
  | { kind: 'matchWon'; seat: number; announce: string }
  | { kind: 'roundStart'; seat: number; round: number; tour: number }

// The options and their defaults are defined once, as data, in ./descriptor.
export const FOURSIES_DEFAULTS = Object.freeze(optionDefaults(FOURSIES_DESCRIPTOR.options)) as unknown as FoursiesOptions
const DEFAULTS = FOURSIES_DEFAULTS
const MATCHES = choiceValues(FOURSIES_DESCRIPTOR.options, 'match')
const TOURS = choiceValues(FOURSIES_DESCRIPTOR.options, 'tour')
const DEVILS = choiceValues(FOURSIES_DESCRIPTOR.options, 'devilsNumber')

// ---------------------------------------------------------------------------------------------
// Dice arithmetic: a multiset of values is coded by its counts, c1 + 5 c2 + 25 c3 + ... (each
// count 0..4), so facts about a table or a re-roll are looked up once and cached.

const POW5 = [0, 1, 5, 25, 125, 625, 3125]
const CODES = 15625

/** The count code of up to four dice (also the odds' table index). */
export function tableCode(values: readonly number[]): number {
  let code = 0
  for (let i = 0; i < values.length; i++) code += POW5[values[i]]
  return code
}

// Rules: "What comes next" 4, false four: two or more dice, no 4, adding up to 4 or the largest minus the others 4.
function isFalseFour(vals: readonly number[]): boolean {
  if (vals.length < 2) return false
  let sum = 0
  let max = 0
  for (const v of vals) {
    if (v === 4) return false
    sum += v
    if (v > max) max = v
  }
  return sum === 4 || 2 * max - sum === 4
}

function falseFourLabel(vals: readonly number[]): string {
  const sorted = sortedDice(vals)
  let sum = 0
  for (const v of sorted) sum += v
  if (sum === 4) return sorted.join('+')
  return sorted.reverse().join('-')
}

/** How a multiset of values splits into disjoint false fours (its label), or null. */
function rerollLabel(vals: readonly number[]): string | null {
  if (isFalseFour(vals)) return falseFourLabel(vals)
  // Rules: "What comes next" 4: several disjoint false fours may be re-rolled at once.
  if (vals.length === 4) {
    // two false fours of two dice each: pair die 0 with each other die
    for (let j = 1; j < 4; j++) {
      const a = [vals[0], vals[j]]
      const b = vals.filter((_, i) => i !== 0 && i !== j)
      if (isFalseFour(a) && isFalseFour(b)) return `${falseFourLabel(a)} and ${falseFourLabel(b)}`
    }
  }
  return null
}

const legalReroll: (string | null | undefined)[] = new Array(CODES)

/** The label of a legal re-roll (one false four or several disjoint ones), or null. */
function rerollFacts(sortedVals: readonly number[], code: number): string | null {
  let label = legalReroll[code]
  if (label === undefined) {
    label = rerollLabel(sortedVals)
    legalReroll[code] = label
  }
  return label
}

/** What the rules see on a table of four dice (shared with the odds solver). */
export interface TableFacts {
  /** The value when all four dice are equal, else 0. */
  equal: number
  sixes: number
  run: boolean
  /** The odd die's value when three dice show one value other than 6 and the fourth another. */
  odd: number
  /** The three dice that stay while the odd man is re-rolled (empty when there is no odd man). */
  oddKept: number[]
  socks: boolean
  /** Legal re-rolls as sorted value lists, deduplicated, shortest first. */
  rerolls: number[][]
  labels: string[]
}

const tableFacts: (TableFacts | undefined)[] = new Array(CODES)

/** The facts of a table of four dice, in any order; computed once per distinct table. */
export function factsOf(dice: readonly number[]): TableFacts {
  const code = tableCode(dice)
  let facts = tableFacts[code]
  if (facts === undefined) {
    facts = computeFacts(dice)
    tableFacts[code] = facts
  }
  return facts
}

function computeFacts(dice: readonly number[]): TableFacts {
  const counts = faceCounts(dice)
  let equal = 0
  let odd = 0
  let pairs = 0
  for (let v = 1; v <= 6; v++) {
    if (counts[v] === 4) equal = v
    if (counts[v] === 2) pairs++
    if (counts[v] === 3 && v !== 6) {
      for (let w = 1; w <= 6; w++) if (counts[w] === 1) odd = w
    }
  }
  const straight = (lo: number): boolean =>
    counts[lo] === 1 && counts[lo + 1] === 1 && counts[lo + 2] === 1 && counts[lo + 3] === 1
  // Rules: "What comes next" 1 (run), 2 (odd man out: three alike other than 6) and 3 (socks: two pairs).
  const run = straight(1) || straight(2) || straight(3)
  const seen = new Map<number, { vals: number[]; label: string }>()
  for (let mask = 1; mask < 16; mask++) {
    const vals: number[] = []
    for (let i = 0; i < 4; i++) if (mask & (1 << i)) vals.push(dice[i])
    if (vals.length < 2) continue
    vals.sort((a, b) => a - b)
    const c = tableCode(vals)
    if (seen.has(c)) continue
    const label = rerollFacts(vals, c)
    if (label !== null) seen.set(c, { vals, label })
  }
  const found = [...seen.values()].sort((a, b) => {
    if (a.vals.length !== b.vals.length) return a.vals.length - b.vals.length
    for (let i = 0; i < a.vals.length; i++) if (a.vals[i] !== b.vals[i]) return a.vals[i] - b.vals[i]
    return 0
  })
  return {
    equal,
    sixes: counts[6],
    run,
    odd,
    oddKept: Object.freeze(odd === 0 ? [] : removeValues(dice, [odd])) as number[],
    socks: pairs === 2,
    rerolls: found.map((f) => f.vals),
    labels: found.map((f) => f.label)
  }
}

// ---------------------------------------------------------------------------------------------
// Options

function parseOptions(raw: Record<string, unknown> | undefined, playerCount: number): Parsed<FoursiesOptions> {
  if (raw === undefined) return { ok: true, value: { ...DEFAULTS } }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, error: 'the Foursies rules must be an object of options' }
  }
  const value: FoursiesOptions = { ...DEFAULTS }
  for (const key of Object.keys(raw)) {
    const v = raw[key]
    switch (key) {
      case 'match':
        if (typeof v !== 'string' || !MATCHES.includes(v)) {
          return { ok: false, error: `rule "match" must be "round", "tour" or "tour-de-fours", not ${valueText(v)}` }
        }
        value.match = v as FoursiesMatch
        break
      case 'tour':
        if (typeof v !== 'string' || !TOURS.includes(v)) {
          return { ok: false, error: `rule "tour" must be "first-to-four" or "four-rounds", not ${valueText(v)}` }
        }
        value.tour = v as FoursiesTour
        break
      case 'devilsNumber':
        if (typeof v !== 'string' || !DEVILS.includes(v)) {
          return { ok: false, error: `rule "devilsNumber" must be "none", "bust" or "reset", not ${valueText(v)}` }
        }
        value.devilsNumber = v as FoursiesDevil
        break
      case 'tab':
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= playerCount) {
          return {
            ok: false,
            error: `rule "tab" must be a seat index, a whole number from 0 to ${playerCount - 1}, not ${valueText(v)}`
          }
        }
        value.tab = v
        break
      default:
        return { ok: false, error: `Foursies has no rule "${key}" (its rules are match, tour, devilsNumber and tab)` }
    }
  }
  return { ok: true, value }
}

// ---------------------------------------------------------------------------------------------
// State transitions

function init(players: readonly string[], options: FoursiesOptions): FoursiesState {
  const n = players.length
  const zeros = new Array<number>(n).fill(0)
  return {
    players: [...players],
    options: { ...options },
    phase: 'turn',
    round: 1,
    tour: 1,
    tab: options.tab,
    seat: options.tab,
    scores: zeros,
    roundWins: zeros,
    tourWins: zeros,
    foursies: new Array<boolean>(n).fill(false),
    finalLap: false,
    step: 'open',
    due: 4,
    kept: [],
    socksLeft: 0,
    turnPoints: 0,
    dice: [],
    fresh: [],
    duel: null,
    winners: []
  }
}

/** A fresh copy of a state, every field listed (one shape for every state). `apply` changes only this copy. */
function copyState(s: FoursiesState): FoursiesState {
  return {
    players: s.players,
    options: s.options,
    phase: s.phase,
    round: s.round,
    tour: s.tour,
    tab: s.tab,
    seat: s.seat,
    scores: s.scores,
    roundWins: s.roundWins,
    tourWins: s.tourWins,
    foursies: s.foursies,
    finalLap: s.finalLap,
    step: s.step,
    due: s.due,
    kept: s.kept,
    socksLeft: s.socksLeft,
    turnPoints: s.turnPoints,
    dice: s.dice,
    fresh: s.fresh,
    duel: s.duel,
    winners: s.winners,
    wonByDuel: s.wonByDuel
  }
}

function fail(error: string): Applied<FoursiesState, FoursiesEvent> {
  return { ok: false, error }
}

const NONE: number[] = Object.freeze([]) as unknown as number[]

function dieWord(v: number): string {
  return `a ${v}`
}

function diceCountWords(n: number): string {
  return n === 1 ? '1 die is' : `${n} dice are`
}

/** Why a decision line cannot be made now (the turn is in a forced or throwing step). */
function notDecidingReason(s: FoursiesState): string {
  const name = s.players[s.seat]
  switch (s.step) {
    case 'open':
      return `${name} has not thrown yet: a turn starts with a throw of all four dice`
    case 'run':
      return `${name} must re-roll all four dice of the run first`
    case 'odd':
      return `${name} must re-roll the odd man out first`
    case 'reroll':
      return `${name} must first throw the ${s.due} dice being re-rolled`
    case 'socks':
      return `${name} is resolving socks: both throws of all four dice must be made, with no re-rolls`
    default:
      return `${name} must throw first`
  }
}

function apply(s: FoursiesState, move: Move): Applied<FoursiesState, FoursiesEvent> {
  if (s.phase === 'over') return fail('the game is over')
  if ('roll' in move) return s.phase === 'duel' ? duelThrow(s, move.roll) : turnThrow(s, move.roll)
  if ('reroll' in move) return reroll(s, move.reroll)
  if ('socks' in move) return socks(s)
  if ('end' in move) return endDecision(s)
  if ('keep' in move) return fail('Foursies has no keep: dice stay on the table until they are re-rolled')
  if ('bank' in move) return fail('Foursies has no banking: a turn ends by itself, or with end when a re-roll is declined')
  return fail('that line is not a Foursies move (roll, reroll, socks or end)')
}

function checkRoll(values: readonly number[], due: number): string | null {
  if (!Array.isArray(values)) return 'a roll lists the values of the dice thrown'
  for (const v of values) {
    if (!isDieValue(v)) return notADie(v)
  }
  if (values.length !== due) return `${diceCountWords(due)} due, not ${values.length}`
  return null
}

function turnThrow(s: FoursiesState, values: number[]): Applied<FoursiesState, FoursiesEvent> {
  // Rules: "What comes next" 3 and 4: socks and false fours are optional, so a decision comes first.
  if (s.step === 'decide') {
    const f = factsOf(s.dice)
    const options = f.rerolls.length > 0 && f.socks ? 're-roll a false four, take socks or end the turn'
      : f.socks ? 'take socks or end the turn' : 're-roll a false four or end the turn'
    return fail(`${s.players[s.seat]} must decide first: ${options}`)
  }
  const bad = checkRoll(values, s.due)
  if (bad !== null) return fail(bad)

  const seat = s.seat
  const kept = s.kept
  const k = kept.length
  const dice: number[] = []
  const fresh: boolean[] = []
  for (let i = 0; i < k; i++) {
    dice.push(kept[i])
    fresh.push(false)
  }
  // Rules: "What a throw scores" 1: every fresh 4 scores one point.
  let fours = 0
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    dice.push(v)
    fresh.push(true)
    if (v === 4) fours++
  }
  const f = factsOf(dice)
  const start = s.scores[seat]
  const afterFours = s.turnPoints + fours
  let points = afterFours
  let foursies = false
  let ofAKind = false
  // Rules: "What a throw scores" 2 and "Foursies": four 1s are a foursies; four of a kind other than 4s one more point.
  if (f.equal === 1) foursies = true
  else if (f.equal !== 0 && f.equal !== 4) {
    ofAKind = true
    points++
  }
  // Rules: "What a throw scores" 3 (Devil's Number, option devilsNumber) and 4 (bust: start score + turn points over 4).
  const devil = f.sixes >= 3
  const effect = devil ? s.options.devilsNumber : 'none'
  const reset = effect === 'reset'
  const bust = !reset && (effect === 'bust' || start + points > 4)

  // Every throw is in the log, also one that leaves a decision or scores nothing.
  const events: FoursiesEvent[] = [{ kind: 'throw', seat, dice: values.slice() }]
  if (!bust && !reset) {
    if (fours > 0) events.push({ kind: 'score', seat, count: fours, score: start + afterFours })
    if (ofAKind) events.push({ kind: 'fourOfAKind', seat, announce: "Four of a kind!", value: f.equal, score: start + points })
  }
  if (foursies) events.push({ kind: 'foursies', seat, announce: 'Foursies!' })
  if (devil) events.push({ kind: 'devilsNumber', seat, announce: "Devil's Number!", effect })

  const base = copyState(s)
  base.dice = dice
  base.fresh = fresh
  base.kept = NONE
  base.turnPoints = points
  if (reset) return { ok: true, state: endTurn(base, 0, false, events), events }
  if (bust) {
    events.push({ kind: 'bust', seat, announce: 'Bust!', score: start })
    return { ok: true, state: endTurn(base, start, false, events), events }
  }
  if (foursies) return { ok: true, state: endTurn(base, start + points, true, events), events }

  // Rules: "What comes next" 3: socks is two throws of all four dice, no re-rolls, then the turn ends.
  if (s.step === 'socks') {
    if (s.socksLeft <= 1) {
      events.push({ kind: 'turnEnd', seat, score: start + points })
      return { ok: true, state: endTurn(base, start + points, false, events), events }
    }
    base.socksLeft = s.socksLeft - 1
    base.due = 4
    return { ok: true, state: base, events }
  }
  // Rules: "What comes next" 1: a run re-rolls all four, forced.
  if (f.run) {
    events.push({ kind: 'run', seat })
    base.step = 'run'
    base.due = 4
    return { ok: true, state: base, events }
  }
  // Rules: "What comes next" 2: odd man out, forced, but not again on the throw that resolves one.
  if (f.odd !== 0 && s.step !== 'odd') {
    events.push({ kind: 'oddManOut', seat, value: f.odd })
    base.step = 'odd'
    base.due = 1
    base.kept = f.oddKept
    return { ok: true, state: base, events }
  }
  // Rules: "What comes next" 3 to 5: socks or a false four wait for a decision; otherwise the turn ends.
  if (f.socks || f.rerolls.length > 0) {
    base.step = 'decide'
    base.due = 0
    return { ok: true, state: base, events }
  }
  events.push({ kind: 'turnEnd', seat, score: start + points })
  return { ok: true, state: endTurn(base, start + points, false, events), events }
}

/** What a re-roll of some values from a table comes to: refused, or the dice kept and thrown. */
type RerollVerdict = { error: string } | { sorted: number[]; kept: number[] }

const rerollVerdicts = new Map<number, RerollVerdict>()

function reroll(s: FoursiesState, values: number[]): Applied<FoursiesState, FoursiesEvent> {
  if (s.phase === 'duel') return fail('a duel is on: every duellist throws one die, and nothing is re-rolled')
  if (s.step !== 'decide') return fail(notDecidingReason(s))
  if (!Array.isArray(values) || values.length === 0) return fail('name the dice to re-roll')
  let code = 0
  for (const v of values) {
    if (!isDieValue(v)) return fail(notADie(v))
    code += POW5[v]
  }
  if (values.length > 4) return fail(`there are only 4 dice on the table, not ${values.length}`)
  // at most four values: the count code names the multiset exactly
  const key = tableCode(s.dice) * CODES + code
  let verdict = rerollVerdicts.get(key)
  if (verdict === undefined) {
    verdict = judgeReroll(s.dice, values)
    rerollVerdicts.set(key, verdict)
  }
  if ('error' in verdict) return fail(verdict.error)
  const events: FoursiesEvent[] = [{ kind: 'reroll', seat: s.seat, values: verdict.sorted }]
  const state = copyState(s)
  state.step = 'reroll'
  state.due = verdict.sorted.length
  state.kept = verdict.kept
  return { ok: true, state, events }
}

/** Judges a re-roll by values alone (so the verdict holds for every order of the same dice). */
function judgeReroll(dice: readonly number[], values: readonly number[]): RerollVerdict {
  const want = faceCounts(values)
  const have = faceCounts(dice)
  for (let v = 1; v <= 6; v++) {
    if (want[v] > have[v]) {
      if (have[v] === 0) return { error: `there is no ${v} on the table to re-roll` }
      return {
        error: `there ${have[v] === 1 ? 'is' : 'are'} only ${countedValues(have[v], v)} on the table, not ${numberWord(want[v])}`
      }
    }
  }
  // Rules: "What comes next" 4: a false four has no 4 and two or more dice.
  if (want[4] > 0) return { error: 'a 4 is never part of a false four: 4s score, they are not re-rolled' }
  const sorted = sortedDice(values)
  if (sorted.length === 1) return { error: `a single ${sorted[0]} is no false four: a false four takes two or more dice` }
  if (rerollFacts(sorted, tableCode(sorted)) === null) return { error: notFalseFourReason(sorted) }
  const kept = removeValues(dice, sorted)
  // shared by every state and event that uses this verdict: frozen, so no caller can corrupt it
  return { sorted: Object.freeze(sorted) as number[], kept: Object.freeze(kept) as number[] }
}

/** Why a sorted list of values (no 4, two or more, all on the table) is no false four. */
function notFalseFourReason(vals: readonly number[]): string {
  let sum = 0
  for (const v of vals) sum += v
  const max = vals[vals.length - 1]
  if (vals.length === 2) return `${dieWord(vals[0])} and ${dieWord(vals[1])} make ${sum}, not a false four`
  // a mixed sum that makes 4: some added (two or more), some subtracted
  const n = vals.length
  for (let mask = 1; mask < (1 << n) - 1; mask++) {
    const plus: number[] = []
    const minus: number[] = []
    for (let i = 0; i < n; i++) (mask & (1 << i) ? minus : plus).push(vals[i])
    if (plus.length < 2) continue
    const total = plus.reduce((a, b) => a + b, 0) - minus.reduce((a, b) => a + b, 0)
    if (total === 4) {
      return `${plus.join('+')}-${minus.join('-')} makes 4, but a false four adds or subtracts, never both`
    }
  }
  const list = `${vals.slice(0, -1).join(', ')} and ${max}`
  return `${list} make no false four: they add up to ${sum}, not 4, no die minus the others makes 4, and they do not split into false fours`
}

function socks(s: FoursiesState): Applied<FoursiesState, FoursiesEvent> {
  if (s.phase === 'duel') return fail('a duel is on: every duellist throws one die')
  if (s.step !== 'decide') return fail(notDecidingReason(s))
  // Rules: "What comes next" 3: socks are two pairs of different values.
  if (!factsOf(s.dice).socks) return fail('there are no socks on the table: socks are two pairs of different values')
  const seat = s.seat
  const events: FoursiesEvent[] = [{ kind: 'socks', seat }]
  const state = copyState(s)
  state.step = 'socks'
  state.socksLeft = 2
  state.due = 4
  state.kept = NONE
  return { ok: true, state, events }
}

function endDecision(s: FoursiesState): Applied<FoursiesState, FoursiesEvent> {
  if (s.phase === 'duel') return fail('a duel is on: it ends when exactly one duellist throws a 4')
  if (s.step !== 'decide') return fail(`${notDecidingReason(s)}; end only declines an optional re-roll`)
  const seat = s.seat
  const score = s.scores[seat] + s.turnPoints
  const events: FoursiesEvent[] = [{ kind: 'turnEnd', seat, score, declined: true }]
  return { ok: true, state: endTurn(copyState(s), score, false, events), events }
}

/** The turn of `s.seat` (on `s`, a fresh copy owned by apply) ended with `score` (and maybe a foursies): next turn, or the round ends. */
function endTurn(s: FoursiesState, score: number, foursies: boolean, events: FoursiesEvent[]): FoursiesState {
  const seat = s.seat
  const n = s.players.length
  if (s.scores[seat] !== score) {
    s.scores = s.scores.slice()
    s.scores[seat] = score
  }
  if (foursies) {
    s.foursies = s.foursies.slice()
    s.foursies[seat] = true
  }
  // Rules: "How a round ends": ending a turn on 4 or a foursies starts the final lap, played out up to the tab holder.
  if (!s.finalLap && (score === 4 || foursies)) {
    s.finalLap = true
    events.push({ kind: 'finalLap', seat, foursies })
  }
  const next = (seat + 1) % n
  s.turnPoints = 0
  s.step = 'open'
  s.due = 4
  s.kept = NONE
  s.socksLeft = 0
  if (s.finalLap && next === s.tab) return endRound(s, events)
  s.seat = next
  events.push({ kind: 'turn', seat: next })
  return s
}

function endRound(s: FoursiesState, events: FoursiesEvent[]): FoursiesState {
  const fs: number[] = []
  const on4: number[] = []
  for (let i = 0; i < s.players.length; i++) {
    if (s.foursies[i]) fs.push(i)
    if (s.scores[i] === 4) on4.push(i)
  }
  // Rules: "How a round ends": a foursies beats points; one contender wins the round, several duel.
  const contenders = fs.length > 0 ? fs : on4
  if (contenders.length === 1) return winRound(s, contenders[0], events)
  return startDuel(s, contenders, 'round', events)
}

function startDuel(s: FoursiesState, seats: number[], stake: 'round' | 'tour', events: FoursiesEvent[]): FoursiesState {
  events.push({ kind: 'duel', announce: 'Duel!', seats, stake })
  s.phase = 'duel'
  s.due = seats.length
  s.duel = { seats, stake, last: [] }
  return s
}

function duelThrow(s: FoursiesState, values: number[]): Applied<FoursiesState, FoursiesEvent> {
  const duel = s.duel as FoursiesDuel
  const n = duel.seats.length
  if (!Array.isArray(values)) return fail('a roll lists the values of the dice thrown')
  for (const v of values) {
    if (!isDieValue(v)) return fail(notADie(v))
  }
  if (values.length !== n) return fail(`${diceCountWords(n)} due (one per duellist), not ${values.length}`)
  const fours: number[] = []
  // Rules: "Duel": exactly one 4 wins; several 4s duel on among themselves; no 4, all throw again.
  for (let i = 0; i < n; i++) if (values[i] === 4) fours.push(duel.seats[i])
  const events: FoursiesEvent[] = [{ kind: 'duelThrow', seats: duel.seats, values: values.slice(), fours }]
  const state = copyState(s)
  if (fours.length === 1) {
    state.phase = 'turn'
    state.due = 0
    state.duel = { seats: duel.seats, stake: duel.stake, last: values.slice() }
    return { ok: true, state: duel.stake === 'round' ? winRound(state, fours[0], events) : winTour(state, fours[0], events), events }
  }
  const seats = fours.length > 1 ? fours : duel.seats
  state.due = seats.length
  state.duel = { seats, stake: duel.stake, last: values.slice() }
  return { ok: true, state, events }
}

function winRound(s: FoursiesState, seat: number, events: FoursiesEvent[]): FoursiesState {
  const roundWins = s.roundWins.slice()
  roundWins[seat]++
  events.push({ kind: 'roundWon', seat, announce: 'Round won!', rounds: roundWins[seat] })
  s.roundWins = roundWins
  const o = s.options
  // Rules: "Matches (option `match`)": one round, first to four round wins, or exactly four rounds with a duel for a tie.
  if (o.match === 'round') return matchOver(s, seat, events)
  if (o.tour === 'first-to-four') {
    if (roundWins[seat] >= 4) return winTour(s, seat, events)
    return newRound(s, false, events)
  }
  if (s.round < 4) return newRound(s, false, events)
  let best = 0
  for (const w of roundWins) if (w > best) best = w
  const tied: number[] = []
  for (let i = 0; i < roundWins.length; i++) if (roundWins[i] === best) tied.push(i)
  if (tied.length === 1) return winTour(s, tied[0], events)
  return startDuel(s, tied, 'tour', events)
}

function winTour(s: FoursiesState, seat: number, events: FoursiesEvent[]): FoursiesState {
  const tourWins = s.tourWins.slice()
  tourWins[seat]++
  events.push({ kind: 'tourWon', seat, announce: 'Tour won!', tours: tourWins[seat] })
  s.tourWins = tourWins
  // Rules: "Matches (option `match`)": a tour match ends with one tour, tour de fours with four tour wins.
  if (s.options.match === 'tour' || tourWins[seat] >= 4) return matchOver(s, seat, events)
  return newRound(s, true, events)
}

function matchOver(s: FoursiesState, seat: number, events: FoursiesEvent[]): FoursiesState {
  events.push({ kind: 'matchWon', seat, announce: 'Winner!' })
  if (s.duel) s.wonByDuel = s.duel.stake
  s.phase = 'over'
  s.due = 0
  s.duel = null
  s.winners = [seat]
  s.step = 'open'
  s.kept = []
  return s
}

function newRound(s: FoursiesState, newTour: boolean, events: FoursiesEvent[]): FoursiesState {
  const n = s.players.length
  // Rules: "Words" (tab) and "Matches (option `match`)": the tab passes one seat per round; scores, and round wins at a new tour, return to 0.
  const tab = (s.tab + 1) % n
  const zeros = new Array<number>(n).fill(0)
  const round = newTour ? 1 : s.round + 1
  const tour = newTour ? s.tour + 1 : s.tour
  events.push({ kind: 'roundStart', seat: tab, round, tour })
  s.phase = 'turn'
  s.round = round
  s.tour = tour
  s.tab = tab
  s.seat = tab
  s.scores = zeros
  if (newTour) s.roundWins = zeros
  s.foursies = new Array<boolean>(n).fill(false)
  s.finalLap = false
  s.step = 'open'
  s.due = 4
  s.kept = []
  s.socksLeft = 0
  s.turnPoints = 0
  s.duel = null
  return s
}

// ---------------------------------------------------------------------------------------------
// Views

function throwNote(s: FoursiesState): string | undefined {
  switch (s.step) {
    case 'run':
      return 'Run: re-roll all four dice'
    case 'odd':
      return `Odd man out: re-roll the ${removeOdd(s)}`
    case 'socks':
      return `Socks: throw ${3 - s.socksLeft} of 2`
    case 'reroll':
      return `False four: re-roll ${removeValues(s.dice, s.kept).join(' ')}`
    default:
      return undefined
  }
}

function removeOdd(s: FoursiesState): number {
  return factsOf(s.dice).odd
}

function offer(s: FoursiesState): Offer {
  if (s.phase === 'over') return { finished: true, toPlay: null, throwers: [], diceDue: 0, decisions: [], blocked: [] }
  if (s.phase === 'duel') {
    const seats = (s.duel as FoursiesDuel).seats
    return {
      finished: false,
      toPlay: null,
      throwers: seats.slice(),
      diceDue: seats.length,
      throwNote: `Duel: ${listNames(seats.map((i) => s.players[i]))} throw one die each`,
      decisions: [],
      blocked: []
    }
  }
  const decisions: Decision[] = []
  if (s.step === 'decide') {
    const f = factsOf(s.dice)
    for (let i = 0; i < f.rerolls.length; i++) {
      decisions.push({ move: { reroll: f.rerolls[i].slice() }, label: `Re-roll ${f.labels[i]}` })
    }
    if (f.socks) decisions.push({ move: { socks: true }, label: 'Socks: throw all four dice twice' })
    decisions.push({ move: { end: true }, label: 'End the turn' })
  }
  const note = throwNote(s)
  const out: Offer = {
    finished: false,
    toPlay: s.seat,
    throwers: [s.seat],
    diceDue: s.step === 'decide' ? 0 : s.due,
    decisions,
    blocked: []
  }
  if (note !== undefined) out.throwNote = note
  return out
}

function summary(s: FoursiesState): Summary {
  const playing = s.phase === 'turn'
  return {
    game: 'foursies',
    finished: s.phase === 'over',
    winners: s.winners.slice().sort((a, b) => a - b).map((i) => s.players[i]),
    players: s.players.map((name, i) => ({
      name,
      score: s.scores[i] + (playing && i === s.seat ? s.turnPoints : 0),
      rounds: s.roundWins[i],
      tours: s.tourWins[i],
      out: false
    })),
    toPlay: playing ? s.players[s.seat] : null,
    tab: s.players[s.tab]
  }
}

/** Winners, then tours won, rounds won in the last tour, points in the last round. */
function standings(s: FoursiesState): Standing[] {
  const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`
  const points = (seat: number): number => s.scores[seat] + (s.phase === 'turn' && seat === s.seat ? s.turnPoints : 0)
  const round = s.options.match === 'round'
  // A one-round match won by a foursies: the winner may have fewer points than the others.
  const byFoursies = round && s.wonByDuel === undefined && s.winners.some((seat) => s.foursies[seat])
  return rankPlayers({
    players: s.players,
    winners: s.winners,
    figures: (seat) => (round ? [points(seat)] : [s.tourWins[seat], s.roundWins[seat], points(seat)]),
    shown: (seat) =>
      round ? plural(points(seat), 'point') : `${plural(s.tourWins[seat], 'tour')} · ${plural(s.roundWins[seat], 'round')}`,
    shownFigures: round ? 1 : 2,
    unshown: (seat) => `${plural(points(seat), 'point')} in the last round`,
    tiedOn: round ? 'points' : 'tours, rounds and last-round points',
    tieBreak: byFoursies ? 'rolled a foursies' : s.wonByDuel === 'tour' ? 'won the tie-break duel' : 'won the duel',
    tieBroken: s.wonByDuel !== undefined || byFoursies
  })
}

function table(s: FoursiesState): TableView {
  if (s.phase === 'duel') {
    const duel = s.duel as FoursiesDuel
    return {
      phase: duel.stake === 'tour' ? `Tie-break duel: tour ${s.tour} at stake` : s.options.match === 'round' ? 'Duel for the round' : `Duel for ${roundName(s).toLowerCase()}`,
      dice: duel.last.map((value) => ({ value, fresh: true })),
      turnPoints: null,
      contenders: duel.seats.slice(),
      notes: notes(s)
    }
  }
  const dice: ShownDie[] = s.dice.map((value, i) => ({ value, fresh: s.fresh[i] }))
  if (s.phase === 'over') return { phase: 'Game over', dice, turnPoints: null, notes: notes(s) }
  const phase = s.finalLap ? `${roundName(s)} · Final lap` : roundName(s)
  return { phase, dice, turnPoints: s.turnPoints, notes: notes(s) }
}

/** "Round 1", "Round 2 · Tour 1", "Round 3 of 4 · Tour 2" (four-round tours). */
function roundName(s: FoursiesState): string {
  if (s.options.match === 'round') return 'Round 1'
  const of = s.options.tour === 'four-rounds' ? ' of 4' : ''
  return `Round ${s.round}${of} · Tour ${s.tour}`
}

function notes(s: FoursiesState): Record<number, string> {
  const out: Record<number, string> = {}
  out[s.tab] = 'holds the tab'
  for (let i = 0; i < s.players.length; i++) {
    if (s.foursies[i]) out[i] = i === s.tab ? 'holds the tab · foursies' : 'foursies'
  }
  return out
}

/** The rules engine; its words (`describe`) are in ./words. */
export const foursiesRules: Omit<GameRules<FoursiesState, FoursiesOptions, FoursiesEvent>, 'describe'> = {
  parseOptions,
  init,
  offer,
  apply,
  summary,
  standings,
  table
}
