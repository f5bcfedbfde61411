// 4-PLU$: the rules engine, per docs/rules/four-plus.md (`// Rules:` comments name its sections).
// Pure data and functions: no Node, DOM or Electron. States are plain JSON objects, never mutated.
//
// Readings the rules page leaves open are listed in docs/rules-readings.md (4-PLU$).

import type {
  Applied,
  GameRules,
  Move,
  Offer,
  Parsed,
  Standing,
  Summary,
  TableView
} from '../types'
import { rankPlayers } from '../standings'
import { optionDefaults, valueText } from '../options'
import { FOUR_PLUS_DESCRIPTOR } from './descriptor'
import { isDieValue, notADie } from '@shared/dice'

export interface FourPlusOptions {
  /** Number of rounds before the game ends (default 3). */
  rounds: number
}

export interface FourPlusFlash {
  /** Seats still in the flash rounds, in seat order. */
  contenders: number[]
  /** The standing score S. */
  standing: number
  /** Seats that owe a reply to S, in seat order. */
  owes: number[]
}

export interface FourPlusState {
  game: 'four-plus'
  players: string[]
  options: FourPlusOptions
  /** Running totals, per seat. Flash rounds never change them. */
  scores: number[]
  /** Out of the game (four 1s, or dropped in a flash round), per seat. */
  out: boolean[]
  /** Next turn has one throw fewer (three 1s), per seat. */
  penalty: boolean[]
  phase: 'rounds' | 'flash' | 'over'
  /** Current round, 1-based (stays at the last round in flash rounds and after). */
  round: number
  /** Seat to throw; null when the game is over. */
  seat: number | null
  /** Throws this turn started with (3, or 2 after a penalty). */
  turnBase: number
  /** Throws taken so far this turn. */
  turnTaken: number
  /** Throws still due this turn, extras included. */
  throwsLeft: number
  /** The pair's extra throw has been used this turn. */
  pairUsed: boolean
  /** Points scored this turn. */
  turnPoints: number
  /** The latest throw's dice (empty before the first throw). */
  dice: number[]
  flash: FourPlusFlash | null
  /** Winning seats once the game is over (empty when nobody wins). */
  winners: number[]
}

// ---------------------------------------------------------------------------------------------
// Pure throw helpers (also for an odds module)

export type ThrowKind =
  | 'fourOnes'
  | 'threeOnes'
  | 'twoOnes'
  | 'fourFours'
  | 'fourOfAKind'
  | 'threeOfAKind'
  | 'pair'
  | 'nothing'

export interface ThrowOutcome {
  kind: ThrowKind
  /** Points the throw scores. */
  points: number
  /** Extra throw: 'always' (four 4s), 'oncePerTurn' (a pair), 'none'. */
  extra: 'always' | 'oncePerTurn' | 'none'
  /** The turn ends at once (two, three or four 1s). */
  endsTurn: boolean
  /** The player's next turn has one throw fewer (three 1s; not after the last round). */
  penalty: boolean
  /** The player is out of the game (four 1s). */
  out: boolean
}

const T = (
  kind: ThrowKind,
  points: number,
  extra: ThrowOutcome['extra'],
  endsTurn: boolean,
  penalty: boolean,
  out: boolean
): ThrowOutcome => Object.freeze({ kind, points, extra, endsTurn, penalty, out })

const THROW: Record<ThrowKind, ThrowOutcome> = {
  fourOnes: T('fourOnes', 0, 'none', true, false, true),
  threeOnes: T('threeOnes', 0, 'none', true, true, false),
  twoOnes: T('twoOnes', 0, 'none', true, false, false),
  fourFours: T('fourFours', 4, 'always', false, false, false),
  fourOfAKind: T('fourOfAKind', 5, 'none', false, false, false),
  threeOfAKind: T('threeOfAKind', 3, 'none', false, false, false),
  pair: T('pair', 0, 'oncePerTurn', false, false, false),
  nothing: T('nothing', 0, 'none', false, false, false)
}

export type FlashKind = 'fourFours' | 'ones' | 'sixes' | 'fourOfAKind' | 'threeOfAKind' | 'pair' | 'nothing'

export interface FlashOutcome {
  kind: FlashKind
  /** Four 4s: the thrower wins the game at once. */
  wins: boolean
  /** Two or more 1s, or two or more 6s: the thrower is out. */
  out: boolean
  /** The flash score (5, 3, 1 or 0); 0 when the throw wins or is out. */
  score: number
}

const F = (kind: FlashKind, wins: boolean, out: boolean, score: number): FlashOutcome =>
  Object.freeze({ kind, wins, out, score })

const FLASH: Record<FlashKind, FlashOutcome> = {
  fourFours: F('fourFours', true, false, 0),
  ones: F('ones', false, true, 0),
  sixes: F('sixes', false, true, 0),
  fourOfAKind: F('fourOfAKind', false, false, 5),
  threeOfAKind: F('threeOfAKind', false, false, 3),
  pair: F('pair', false, false, 1),
  nothing: F('nothing', false, false, 0)
}

/** How many dice show the most common face (1-4). */
function mostAlike(a: number, b: number, c: number, d: number): number {
  const ma = 1 + (a === b ? 1 : 0) + (a === c ? 1 : 0) + (a === d ? 1 : 0)
  const mb = 1 + (b === c ? 1 : 0) + (b === d ? 1 : 0)
  const mc = c === d ? 2 : 1
  return ma > mb ? (ma > mc ? ma : mc) : mb > mc ? mb : mc
}

function countOf(values: readonly number[], face: number): number {
  return (values[0] === face ? 1 : 0) + (values[1] === face ? 1 : 0) + (values[2] === face ? 1 : 0) + (values[3] === face ? 1 : 0)
}

// Rules: "What a throw scores": four 1s, three 1s, two 1s, four 4s, four and three of a kind, a pair, nothing.
function classifyUnchecked(v: readonly number[]): ThrowOutcome {
  const ones = countOf(v, 1)
  if (ones === 4) return THROW.fourOnes
  if (ones === 3) return THROW.threeOnes
  if (ones === 2) return THROW.twoOnes
  // At most one 1 from here: the most common face is never 1 unless all four differ.
  const alike = mostAlike(v[0], v[1], v[2], v[3])
  if (alike === 4) return v[0] === 4 ? THROW.fourFours : THROW.fourOfAKind
  if (alike === 3) return THROW.threeOfAKind
  if (alike === 2) return THROW.pair
  return THROW.nothing
}

// Rules: "Flash rounds": four 4s win, two or more 1s or 6s are out, else the flash score 5, 3, 1 or 0.
function flashUnchecked(v: readonly number[]): FlashOutcome {
  if (v[0] === 4 && v[1] === 4 && v[2] === 4 && v[3] === 4) return FLASH.fourFours
  if (countOf(v, 1) >= 2) return FLASH.ones
  if (countOf(v, 6) >= 2) return FLASH.sixes
  // At most one 1 and one 6 now, so any match is of another face.
  const alike = mostAlike(v[0], v[1], v[2], v[3])
  if (alike === 4) return FLASH.fourOfAKind
  if (alike === 3) return FLASH.threeOfAKind
  if (alike === 2) return FLASH.pair
  return FLASH.nothing
}

/** Why four values are not a 4-PLU$ throw, or null when they are. */
function diceProblem(values: unknown): string | null {
  if (!Array.isArray(values)) return 'a roll lists the 4 dice thrown'
  if (values.length !== 4) return `4 dice are due, not ${values.length}`
  for (const value of values) if (!isDieValue(value)) return notADie(value)
  return null
}

/**
 * What a throw of four dice does in a normal round (first matching row of the page wins).
 * Throws a RangeError unless `values` are four whole numbers 1-6. The returned object is frozen
 * and shared: compare `kind`, do not change it. `penalty` is the row's rule; the engine drops it
 * in the last round.
 */
export function classifyThrow(values: readonly number[]): ThrowOutcome {
  const problem = diceProblem(values)
  if (problem) throw new RangeError(problem)
  return classifyUnchecked(values)
}

/**
 * What a throw of four dice does in a flash round: four 4s win, two or more 1s or 6s are out,
 * else the flash score (four of a kind 5, three of a kind 3, a pair 1, else 0).
 * Throws a RangeError unless `values` are four whole numbers 1-6. The result is frozen and shared.
 */
export function flashOutcome(values: readonly number[]): FlashOutcome {
  const problem = diceProblem(values)
  if (problem) throw new RangeError(problem)
  return flashUnchecked(values)
}

// ---------------------------------------------------------------------------------------------
// The engine

/** How a 4-PLU$ game was won: last player in, highest score, four 4s in a flash round; zero: nobody won. */
export type WinCause = 'lastIn' | 'highest' | 'fourFours' | 'zero'

/** What happens in 4-PLU$, for `describe` and the screens. */
export type FourPlusEvent =
  | { kind: 'turn'; seat: number; round: number; throws: number }
  | { kind: 'round'; round: number; of: number }
  | { kind: 'score'; seat: number; combo: 'fourFours' | 'fourOfAKind' | 'threeOfAKind'; points: number; total: number; announce?: string }
  | { kind: 'extra'; seat: number; cause: 'fourFours' | 'pair' }
  | { kind: 'pairSpent'; seat: number }
  | { kind: 'nothing'; seat: number; ones: number }
  | { kind: 'twoOnes'; seat: number }
  | { kind: 'threeOnes'; seat: number; penalty: boolean }
  | { kind: 'turnDone'; seat: number; points: number; total: number }
  | { kind: 'out'; seat: number; cause: 'fourOnes'; announce: string }
  | { kind: 'out'; seat: number; cause: 'ones' | 'sixes'; count: number; announce: string }
  | { kind: 'out'; seat: number; cause: 'short'; score: number; standing: number; announce: string }
  | { kind: 'flashStart'; seats: number[]; score: number; announce: string }
  | { kind: 'flashScore'; seat: number; score: number; combo: FlashKind; standing: number; owed: boolean }
  | { kind: 'standing'; seat: number; standing: number; raised: boolean }
  | { kind: 'mustReply'; seats: number[]; standing: number }
  | { kind: 'matched'; seat: number; standing: number }
  | { kind: 'standingReset' }
  | { kind: 'flashFourFours'; seat: number; announce: string }
  | { kind: 'win'; seat: number; cause: WinCause; score: number; announce: string }
  | { kind: 'noWinner'; announce: string }

/** Throws a turn starts with. */
export const THROWS_PER_TURN = 3
// The options and their defaults are defined once, as data, in ./descriptor.
export const FOUR_PLUS_DEFAULTS = Object.freeze(optionDefaults(FOUR_PLUS_DESCRIPTOR.options)) as unknown as FourPlusOptions
const DEFAULTS = FOUR_PLUS_DEFAULTS

function finish(n: FourPlusState, winners: number[], events: FourPlusEvent[], cause: WinCause): void {
  n.phase = 'over'
  n.seat = null
  n.throwsLeft = 0
  n.winners = winners
  if (winners.length === 0) {
    events.push({ kind: 'noWinner', announce: 'No winner' })
  } else {
    const seat = winners[0]
    // The winner's name as it is (a reference, not formatting) is the big word.
    events.push({ kind: 'win', seat, cause, score: n.scores[seat], announce: n.players[seat] })
  }
}

function playersIn(out: readonly boolean[]): number {
  let count = 0
  for (let i = 0; i < out.length; i++) if (!out[i]) count++
  return count
}

function startTurn(n: FourPlusState, seat: number, events: FourPlusEvent[]): void {
  let base = THROWS_PER_TURN
  // Rules: "What a throw scores" 2: after three 1s the next turn has one throw fewer.
  if (n.penalty[seat]) {
    base--
    n.penalty = n.penalty.slice()
    n.penalty[seat] = false
  }
  n.seat = seat
  n.turnBase = base
  n.turnTaken = 0
  n.throwsLeft = base
  n.pairUsed = false
  n.turnPoints = 0
  events.push({ kind: 'turn', seat, round: n.round, throws: base })
}

function endTurn(n: FourPlusState, events: FourPlusEvent[]): void {
  const out = n.out
  for (let i = (n.seat as number) + 1; i < out.length; i++) {
    if (!out[i]) return startTurn(n, i, events)
  }
  if (n.round < n.options.rounds) {
    n.round++
    events.push({ kind: 'round', round: n.round, of: n.options.rounds })
    for (let i = 0; i < out.length; i++) {
      if (!out[i]) return startTurn(n, i, events)
    }
  }
  endOfRounds(n, events)
}

// Rules: "The end of the game": the highest score among players still in wins; 0 means nobody; a tie above 0 plays flash rounds.
function endOfRounds(n: FourPlusState, events: FourPlusEvent[]): void {
  let best = 0
  for (let i = 0; i < n.scores.length; i++) if (!n.out[i] && n.scores[i] > best) best = n.scores[i]
  if (best === 0) return finish(n, [], events, 'zero')
  const tied: number[] = []
  for (let i = 0; i < n.scores.length; i++) if (!n.out[i] && n.scores[i] === best) tied.push(i)
  if (tied.length === 1) return finish(n, tied, events, 'highest')
  n.phase = 'flash'
  n.flash = { contenders: tied, standing: 0, owes: [] }
  n.seat = tied[0]
  n.turnBase = 1
  n.turnTaken = 0
  n.throwsLeft = 1
  n.pairUsed = false
  n.turnPoints = 0
  if (n.penalty.some(Boolean)) n.penalty = n.penalty.map(() => false)
  events.push({ kind: 'flashStart', seats: tied, score: best, announce: 'Flash round!' })
}

function throwInRounds(n: FourPlusState, values: number[], events: FourPlusEvent[]): void {
  const seat = n.seat as number
  const outcome = classifyUnchecked(values)
  n.turnTaken++
  n.throwsLeft--
  switch (outcome.kind) {
    case 'fourOnes': {
      n.out = n.out.slice()
      n.out[seat] = true
      if (n.penalty[seat]) {
        n.penalty = n.penalty.slice()
        n.penalty[seat] = false
      }
      events.push({ kind: 'out', seat, cause: 'fourOnes', announce: 'Out!' })
      // Rules: "What a throw scores" 1: four 1s put the player out; the last player in wins at once.
      if (playersIn(n.out) === 1) return finish(n, [n.out.indexOf(false)], events, 'lastIn')
      return endTurn(n, events)
    }
    case 'threeOnes': {
      // Rules: "What a throw scores" 2: no next turn after the last round, so no penalty then.
      const penalty = n.round < n.options.rounds
      if (penalty) {
        n.penalty = n.penalty.slice()
        n.penalty[seat] = true
      }
      events.push({ kind: 'threeOnes', seat, penalty })
      return endTurn(n, events)
    }
    case 'twoOnes':
      events.push({ kind: 'twoOnes', seat })
      return endTurn(n, events)
    case 'fourFours':
    case 'fourOfAKind':
    case 'threeOfAKind': {
      n.scores = n.scores.slice()
      n.scores[seat] += outcome.points
      n.turnPoints += outcome.points
      if (outcome.kind === 'fourFours') {
        n.throwsLeft++
        events.push(
          { kind: 'score', seat, combo: outcome.kind, points: outcome.points, total: n.scores[seat], announce: 'Four 4s!' },
          { kind: 'extra', seat, cause: 'fourFours' }
        )
      } else {
        events.push({ kind: 'score', seat, combo: outcome.kind, points: outcome.points, total: n.scores[seat] })
      }
      break
    }
    // Rules: "What a throw scores" 4 and 7: four 4s always earn an extra throw, a pair at most once per turn.
    case 'pair':
      if (n.pairUsed) {
        events.push({ kind: 'pairSpent', seat })
      } else {
        n.pairUsed = true
        n.throwsLeft++
        events.push({ kind: 'extra', seat, cause: 'pair' })
      }
      break
    case 'nothing':
      events.push({ kind: 'nothing', seat, ones: countOf(values, 1) })
      break
  }
  if (n.throwsLeft === 0) {
    events.push({ kind: 'turnDone', seat, points: n.turnPoints, total: n.scores[seat] })
    endTurn(n, events)
  }
}

function dropFromFlash(n: FourPlusState, f: FourPlusFlash, seat: number): void {
  n.out = n.out.slice()
  n.out[seat] = true
  f.contenders = f.contenders.filter((s) => s !== seat)
  if (f.owes.includes(seat)) f.owes = f.owes.filter((s) => s !== seat)
}

function throwInFlash(n: FourPlusState, values: number[], events: FourPlusEvent[]): void {
  const seat = n.seat as number
  const old = n.flash as FourPlusFlash
  const f: FourPlusFlash = { contenders: old.contenders, standing: old.standing, owes: old.owes }
  n.flash = f
  const outcome = flashUnchecked(values)
  if (outcome.wins) {
    events.push({ kind: 'flashFourFours', seat, announce: 'Four 4s!' })
    return finish(n, [seat], events, 'fourFours')
  }
  if (outcome.out) {
    dropFromFlash(n, f, seat)
    events.push({
      kind: 'out',
      seat,
      cause: outcome.kind === 'ones' ? 'ones' : 'sixes',
      count: countOf(values, outcome.kind === 'ones' ? 1 : 6),
      announce: 'Out!'
    })
  } else {
    const score = outcome.score
    const owes = f.owes.includes(seat)
    events.push({ kind: 'flashScore', seat, score, combo: outcome.kind, standing: f.standing, owed: owes })
    // Rules: "Flash rounds": the standing score S; owing a reply, below S is out, equal stays in, above raises S.
    if (owes && score < f.standing) {
      dropFromFlash(n, f, seat)
      events.push({ kind: 'out', seat, cause: 'short', score, standing: f.standing, announce: 'Out!' })
    } else if (owes && score === f.standing) {
      f.owes = f.owes.filter((s) => s !== seat)
      events.push({ kind: 'matched', seat, standing: f.standing })
    } else if (score > f.standing) {
      const raised = f.standing > 0
      f.standing = score
      f.owes = f.contenders.filter((s) => s !== seat)
      events.push({ kind: 'standing', seat, standing: score, raised })
      events.push({ kind: 'mustReply', seats: f.owes, standing: score })
    }
  }
  if (f.contenders.length === 1) return finish(n, [f.contenders[0]], events, 'lastIn')
  // Rules: "Flash rounds": whenever nobody owes a reply, S returns to 0.
  if (f.owes.length === 0 && f.standing !== 0) {
    f.standing = 0
    events.push({ kind: 'standingReset' })
  }
  let next = f.contenders[0]
  for (const s of f.contenders) {
    if (s > seat) {
      next = s
      break
    }
  }
  n.seat = next
  n.turnTaken = 0
  n.throwsLeft = 1
}

/** A fresh copy of a state, every field listed (one shape for every state). `apply` changes only this copy. */
function copyState(s: FourPlusState): FourPlusState {
  return {
    game: s.game,
    players: s.players,
    options: s.options,
    scores: s.scores,
    out: s.out,
    penalty: s.penalty,
    phase: s.phase,
    round: s.round,
    seat: s.seat,
    turnBase: s.turnBase,
    turnTaken: s.turnTaken,
    throwsLeft: s.throwsLeft,
    pairUsed: s.pairUsed,
    turnPoints: s.turnPoints,
    dice: s.dice,
    flash: s.flash,
    winners: s.winners
  }
}

const NO_DECISIONS = '4-PLU$ has no decisions: only throws'

function apply(state: FourPlusState, move: Move): Applied<FourPlusState, FourPlusEvent> {
  if (state.phase === 'over') return { ok: false, error: 'the game is over' }
  if (move === null || typeof move !== 'object') return { ok: false, error: 'a 4-PLU$ line is a roll of 4 dice' }
  if (!('roll' in move)) {
    const known = 'reroll' in move || 'socks' in move || 'end' in move || 'keep' in move || 'bank' in move
    return { ok: false, error: known ? NO_DECISIONS : 'a 4-PLU$ line is a roll of 4 dice' }
  }
  const values = move.roll
  const problem = diceProblem(values)
  if (problem) return { ok: false, error: problem }
  const events: FourPlusEvent[] = []
  const n = copyState(state)
  n.dice = values.slice()
  if (state.phase === 'rounds') throwInRounds(n, n.dice, events)
  else throwInFlash(n, n.dice, events)
  return { ok: true, state: n, events }
}

function parseOptions(raw: Record<string, unknown> | undefined, _playerCount: number): Parsed<FourPlusOptions> {
  if (raw === undefined) return { ok: true, value: { rounds: DEFAULTS.rounds } }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, error: '4-PLU$ rules must be an object such as {"rounds":3}' }
  }
  for (const key of Object.keys(raw)) {
    if (key !== 'rounds') return { ok: false, error: `4-PLU$ has no rule "${key}" (its only rule is "rounds")` }
  }
  if (!('rounds' in raw) || raw.rounds === undefined) return { ok: true, value: { rounds: DEFAULTS.rounds } }
  const rounds = raw.rounds
  if (typeof rounds !== 'number' || !Number.isInteger(rounds)) {
    return { ok: false, error: `"rounds" must be a whole number, not ${valueText(rounds)}` }
  }
  if (rounds < 1) return { ok: false, error: `"rounds" must be at least 1, not ${rounds}` }
  return { ok: true, value: { rounds } }
}

function init(players: readonly string[], options: FourPlusOptions): FourPlusState {
  const n = players.length
  return {
    game: 'four-plus',
    players: players.slice(),
    options: { rounds: options.rounds },
    scores: new Array<number>(n).fill(0),
    out: new Array<boolean>(n).fill(false),
    penalty: new Array<boolean>(n).fill(false),
    phase: 'rounds',
    round: 1,
    seat: 0,
    turnBase: THROWS_PER_TURN,
    turnTaken: 0,
    throwsLeft: THROWS_PER_TURN,
    pairUsed: false,
    turnPoints: 0,
    dice: [],
    flash: null,
    winners: []
  }
}

function throwNote(s: FourPlusState): string {
  if (s.phase === 'flash') {
    const f = s.flash as FourPlusFlash
    if (f.owes.includes(s.seat as number)) return `Flash round: must reach ${f.standing}`
    if (f.standing > 0) return `Flash round: beat ${f.standing} to raise it`
    return 'Flash round'
  }
  // Counted with the extra throws earned so far: "3 of 3" would tell the table the next throw is the last.
  const total = s.turnTaken + s.throwsLeft
  const extras = total - s.turnBase
  const why = [s.turnBase < THROWS_PER_TURN ? '1 throw fewer' : null, extras > 0 ? `${extras} extra` : null].filter((part) => part !== null)
  const note = `Throw ${s.turnTaken + 1} of ${total}`
  return why.length > 0 ? `${note} (${why.join(', ')})` : note
}

function offer(s: FourPlusState): Offer {
  if (s.phase === 'over' || s.seat === null) {
    return { finished: true, toPlay: null, throwers: [], diceDue: 0, decisions: [], blocked: [] }
  }
  return { finished: false, toPlay: s.seat, throwers: [s.seat], diceDue: 4, throwNote: throwNote(s), decisions: [], blocked: [] }
}

function summary(s: FourPlusState): Summary {
  return {
    game: 'four-plus',
    finished: s.phase === 'over',
    winners: s.winners.map((seat) => s.players[seat]),
    players: s.players.map((name, seat) => ({ name, score: s.scores[seat], out: s.out[seat] })),
    toPlay: s.seat === null ? null : s.players[s.seat]
  }
}

/** Winners, then totals; equal totals: whoever stayed in longer (flash rounds drop the others). */
function standings(s: FourPlusState): Standing[] {
  return rankPlayers({
    players: s.players,
    winners: s.winners,
    figures: (seat) => [s.scores[seat], s.out[seat] ? 0 : 1],
    shown: (seat) => String(s.scores[seat]),
    shownFigures: 1,
    unshown: (seat) => (s.out[seat] ? 'out' : 'still in'),
    tiedOn: 'points',
    tieBreak: 'won the flash rounds',
    tieBroken: s.winners.some((winner) => s.scores.some((score, seat) => seat !== winner && score === s.scores[winner]))
  })
}

function table(s: FourPlusState): TableView {
  const notes: Record<number, string> = {}
  for (let seat = 0; seat < s.players.length; seat++) {
    if (s.winners.includes(seat)) notes[seat] = 'wins'
    else if (s.out[seat]) notes[seat] = 'out'
    else if (s.phase === 'flash' && (s.flash as FourPlusFlash).owes.includes(seat)) notes[seat] = 'owes a reply'
    else if (s.phase === 'rounds' && s.penalty[seat]) {
      // Pending: their turn this round has passed (next round) or is still to come (this round).
      notes[seat] = seat > (s.seat as number) ? '1 throw fewer this round' : '1 throw fewer next round'
    } else if (s.phase === 'rounds' && seat === s.seat && s.turnBase < THROWS_PER_TURN) {
      notes[seat] = '1 throw fewer this turn'
    }
  }
  const view: TableView = {
    phase: s.phase === 'rounds' ? `Round ${s.round} of ${s.options.rounds}` : s.phase === 'flash' ? 'Flash round' : 'Game over',
    dice: s.dice.map((value) => ({ value, fresh: true })),
    turnPoints: s.phase === 'rounds' ? s.turnPoints : null,
    notes
  }
  if (s.phase === 'flash') view.contenders = (s.flash as FourPlusFlash).contenders.slice()
  return view
}

/** The rules engine; its words (`describe`) are in ./words. */
export const fourPlusRules: Omit<GameRules<FourPlusState, FourPlusOptions, FourPlusEvent>, 'describe'> = {
  parseOptions,
  init,
  offer,
  apply,
  summary,
  standings,
  table
}
