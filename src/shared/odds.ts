// Exact odds for the position a game is in: one entry point, `oddsFor(game)`, returning plain
// JSON-friendly figures with words a table can read. Every figure comes from enumerating dice
// outcomes (never sampling). See ./foursies-turn, ./six-dice and ./four-plus for the method of
// each game and the policy that "the rest of the turn played as well as possible" means there.
import type { FoursiesDevil, FoursiesState } from './games/foursies/rules'
import type { FourPlusState } from './games/four-plus/rules'
import { FARKLE_TABLE } from './games/farkle/rules'
import { FOUCHE_TABLE } from './games/fouche/rules'
import { formatPoints, type ScoringTable, type SixDiceState } from './games/six-dice/rules'
import type { Move } from './games/types'
import { offerOf, type Game } from './game'
import { sortedDice } from './dice'
import { percent, round } from './games/dice-odds'
import { FLASH_ODDS, THROW_ODDS, expectedTurnPoints } from './games/four-plus/throw-odds'
import {
  BUST,
  E0,
  FOURSIES,
  RESET,
  SCORE,
  solveTurn,
  type Figures,
  type TurnSolution,
  type TurnUtility
} from './games/foursies/turn-odds'
import { expectedValues, farkleChance } from './games/six-dice/turn-odds'
import { specOf, winChances, type WinTableSource } from './games/six-dice/win-play'
import { solvable } from './games/six-dice/win-solver'

// ---------------------------------------------------------------------------------------------
// Foursies

/** Tie-break weight: lexicographic in practice (P(finish) first, then expected end score). */
const EPS = 1e-6
/**
 * The odds policy: maximise the chance that the turn finishes (ends on exactly 4, or with a
 * foursies), then the expected end score (weight 1e-6, so only options within 4e-6 of the best
 * chance can win on points).
 */
export const FINISH_UTILITY: TurnUtility = { end: [0, EPS, 2 * EPS, 3 * EPS, 1 + 4 * EPS], foursies: 1 + 4 * EPS }

const finishSolutions = new Map<string, TurnSolution>()

/** The odds policy's solved turn for a start score (solved on first use, then kept). */
export function finishSolution(start: number, devil: FoursiesDevil): TurnSolution {
  const key = `${start}|${devil}`
  let s = finishSolutions.get(key)
  if (!s) finishSolutions.set(key, (s = solveTurn(start, devil, FINISH_UTILITY)))
  return s
}

export interface FoursiesFigures {
  /** Chance the turn ends on exactly 4 or with a foursies. */
  finish: number
  /** Chance the turn ends on exactly 4 without a foursies (a bust back to 4 included). */
  onFour: number
  foursies: number
  bust: number
  /** Devil's Number "reset" (only with that option). */
  reset: number
  /** Expected round score when the turn ends. */
  expectedScore: number
  /** Chance of each end score 0..4 (without foursies). */
  endScores: number[]
}

export function foursiesFigures(f: Figures): FoursiesFigures {
  return {
    finish: round(f[E0 + 4] + f[FOURSIES]),
    onFour: round(f[E0 + 4]),
    foursies: round(f[FOURSIES]),
    bust: round(f[BUST]),
    reset: round(f[RESET]),
    expectedScore: round(f[SCORE], 4),
    endScores: [0, 1, 2, 3, 4].map((e) => round(f[E0 + e]))
  }
}

function foursiesWords(f: FoursiesFigures): string {
  let s = `${percent(f.finish)} to finish on 4, ${percent(f.bust)} bust`
  if (f.foursies >= 0.005) s += `, ${percent(f.foursies)} foursies`
  if (f.reset > 0) s += `, ${percent(f.reset)} reset to 0`
  return `${s}; ends on ${f.expectedScore.toFixed(1)} on average`
}

export interface FoursiesOdds {
  game: 'foursies'
  finished: false
  player: string
  phase: 'turn' | 'duel'
  policy: string
  /** Round score now (start of turn + points so far) and at the start of the turn. */
  score?: number
  startScore?: number
  /** A throw is due: its figures (forced or not). */
  throw?: FoursiesFigures & { note: string; text: string }
  /** A decision is due: every option on offer, in offer order. */
  options?: (FoursiesFigures & { move: Move; label: string; best: boolean; text: string })[]
  /** Duel: each duellist's chance to win it. */
  duel?: { player: string; chance: number }[]
  text: string
}

const FOURSIES_POLICY =
  'the rest of the turn played to maximise the chance to finish on exactly 4 (or with a foursies), ties broken by the expected end score'

function foursiesOdds(game: Game): FoursiesOdds {
  const s = game.state as FoursiesState
  const player = s.players[s.seat]
  if (s.phase === 'duel') {
    const seats = s.duel?.seats ?? []
    const duel = seats.map((i) => ({ player: s.players[i], chance: round(1 / seats.length) }))
    return {
      game: 'foursies',
      finished: false,
      player: '',
      phase: 'duel',
      policy: 'a duel has no decisions: every duellist has the same chance',
      duel,
      text: `Duel: each of ${seats.length} players wins it ${percent(1 / seats.length)} of the time`
    }
  }
  const start = s.scores[s.seat]
  const p = start + s.turnPoints
  const sol = finishSolution(start, s.options.devilsNumber)
  const base = { game: 'foursies' as const, finished: false as const, player, phase: 'turn' as const, policy: FOURSIES_POLICY, score: p, startScore: start }
  if (s.step === 'decide') {
    const offer = offerOf(game)
    const figured = sol.options(s.dice, p)
    const best = sol.bestOption(s.dice, p)
    const options = offer.decisions.map((d) => {
      const i = figured.findIndex(({ option }) =>
        'reroll' in d.move
          ? option.kind === 'reroll' && option.values.join() === sortedDice(d.move.reroll).join()
          : 'socks' in d.move
            ? option.kind === 'socks'
            : option.kind === 'end'
      )
      if (i < 0) throw new Error(`no figures for ${d.label}`)
      const f = foursiesFigures(figured[i].figures)
      return { move: d.move, label: d.label, ...f, best: i === best, text: `${d.label}: ${foursiesWords(f)}` }
    })
    const top = options.find((o) => o.best) ?? options[0]
    return { ...base, options, text: `${player} on ${p}. Best: ${top.text}` }
  }
  let figures: Figures
  let note: string
  switch (s.step) {
    case 'open':
      figures = sol.throwFigures([], 4, p, false, 0)
      note = `${player}'s turn: throw all four dice`
      break
    case 'run':
      figures = sol.throwFigures([], 4, p, false, 0)
      note = 'Run: all four dice are re-rolled'
      break
    case 'odd':
      figures = sol.throwFigures(s.kept, 1, p, true, 0)
      note = 'Odd man out: the odd die is re-rolled'
      break
    case 'reroll':
      figures = sol.throwFigures(s.kept, s.due, p, false, 0)
      note = `False four: ${s.due} ${s.due === 1 ? 'die is' : 'dice are'} re-rolled`
      break
    case 'socks':
      figures = sol.throwFigures([], 4, p, false, s.socksLeft)
      note = `Socks: ${s.socksLeft} ${s.socksLeft === 1 ? 'throw' : 'throws'} of all four dice left`
      break
    default:
      throw new Error(`unexpected Foursies step ${String(s.step)}`)
  }
  const f = foursiesFigures(figures)
  const text = `${note}: ${foursiesWords(f)}`
  return { ...base, throw: { ...f, note, text }, text }
}

// ---------------------------------------------------------------------------------------------
// Farkle and Fouche

export interface SixDiceRoll {
  dice: number
  /** Chance this throw farkles. */
  farkle: number
  /** Expected points the turn banks if the player throws now and plays on as well as possible. */
  expected: number
  /** Chance to win the game when throwing now, where known (see SixDiceOdds.win). */
  win?: number
}

/** The chance to win of the decisions, where it is known. */
export interface SixDiceWin {
  /** The game's own chances (two players); false: a model's (more players, see src/shared/ai/README.md). */
  exact: boolean
  /** What the chances assume, in words. */
  basis: string
}

export interface SixDiceOdds {
  game: 'farkle' | 'fouche'
  finished: false
  player: string
  policy: string
  step: 'throw' | 'keep' | 'choose'
  turnPoints: number
  /** Turn points the player needs before banking is allowed (the entry minimum; 0 once on the board). */
  entryNeeded: number
  /** Expected points the turn banks from here, playing as well as possible. */
  expected: number
  /** A throw is due (turn start) or on offer (after a keep). */
  roll?: SixDiceRoll
  bank?: { allowed: boolean; points: number; win?: number }
  recommend?: 'bank' | 'roll'
  /**
   * Each keep on offer: its points, the dice left to throw, the expected banked points after it,
   * and where known the chance to win after it (`bestToWin` marks the highest).
   */
  keeps?: {
    move: Move
    label: string
    points: number
    diceLeft: number
    expected: number
    best: boolean
    text: string
    win?: number
    bestToWin?: boolean
  }[]
  /** Present when the decisions' chances to win are known (the `win` fields). */
  win?: SixDiceWin
  /** Why the chances to win are not shown, when they could be (being solved: "…: 45%"). */
  winStatus?: string
  text: string
}

const SIX_DICE_POLICY =
  'the rest of the turn played to maximise the expected points banked (a farkle banks 0), computed exactly over (dice left, turn points)'

export function sixDiceTable(game: 'farkle' | 'fouche'): ScoringTable {
  return game === 'farkle' ? FARKLE_TABLE : FOUCHE_TABLE
}

function sixDiceOdds(game: Game, wins?: WinTableSource): SixDiceOdds {
  const odds = pointsOdds(game)
  const s = game.state as SixDiceState
  const chances = winChances(s, wins ?? null)
  if (!chances) {
    const spec = specOf(s)
    // Without a source of tables (the referee command) the odds stay as they were.
    if (wins && s.players.length >= 2) {
      odds.winStatus = solvable(spec) ? `Chance to win: not known yet, ${wins.status(spec)}` : 'Chance to win: not worked out for a target this high'
    }
    return odds
  }
  odds.win = { exact: chances.exact, basis: chances.basis }
  if (odds.roll) odds.roll.win = round(chances.roll())
  const bank = chances.bank()
  if (odds.bank && bank !== null) odds.bank.win = round(bank)
  if (odds.keeps) {
    let best = 0
    odds.keeps.forEach((k, i) => {
      k.win = round(chances.keep(k.points, k.diceLeft))
      k.bestToWin = false
      if ((k.win ?? 0) > (odds.keeps?.[best].win ?? 0)) best = i
    })
    odds.keeps[best].bestToWin = true
  }
  return odds
}

function pointsOdds(game: Game): SixDiceOdds {
  const s = game.state as SixDiceState
  const table = sixDiceTable(s.game)
  const player = s.players[s.seat]
  const entryNeeded = s.scores[s.seat] === 0 ? s.options.entry : 0
  const v = expectedValues(table, entryNeeded)
  const t = s.turnPoints
  const base = { game: s.game, finished: false as const, player, policy: SIX_DICE_POLICY, turnPoints: t, entryNeeded }
  const fmt = (x: number): string => formatPoints(Math.round(x))
  if (s.step === 'throw') {
    const roll = { dice: 6, farkle: round(farkleChance(table, 6)), expected: round(v.rollValue(6, 0), 2) }
    return {
      ...base,
      step: 'throw',
      expected: roll.expected,
      roll,
      text: `${player} throws six dice: ${percent(roll.farkle)} farkle; the turn is worth ${fmt(roll.expected)} on average`
    }
  }
  if (s.step === 'keep') {
    const offer = offerOf(game)
    const n = s.thrown.length
    const keeps = offer.decisions.map((d) => {
      const dice = (d.move as { keep: number[] }).keep
      const points = d.points ?? 0
      const left = n - dice.length
      const diceLeft = left === 0 ? 6 : left
      const expected = round(v.value(diceLeft, t + points), 2)
      return { move: d.move, label: d.label, points, diceLeft, expected, best: false, text: '' }
    })
    let best = 0
    keeps.forEach((k, i) => {
      if (k.expected > keeps[best].expected + 1e-9) best = i
    })
    for (let i = 0; i < keeps.length; i++) {
      const k = keeps[i]
      k.best = i === best
      k.text = `${k.label}: then ${k.diceLeft} ${k.diceLeft === 1 ? 'die' : 'dice'} to throw (${percent(farkleChance(table, k.diceLeft))} farkle); worth ${fmt(k.expected)} on average`
    }
    const top = keeps[best]
    return {
      ...base,
      step: 'keep',
      expected: top.expected,
      keeps,
      text: `Best keep: ${top.text}`
    }
  }
  // choose: bank or throw the rest
  const allowed = t >= entryNeeded
  const roll = { dice: s.diceDue, farkle: round(farkleChance(table, s.diceDue)), expected: round(v.rollValue(s.diceDue, t), 2) }
  const recommend: 'bank' | 'roll' = allowed && t >= roll.expected ? 'bank' : 'roll'
  const rollWords = `throwing ${roll.dice} ${roll.dice === 1 ? 'die' : 'dice'} risks ${percent(roll.farkle)} farkle and is worth ${fmt(roll.expected)} on average`
  const text = !allowed
    ? `${player} needs ${formatPoints(entryNeeded)} to get on the board: must throw; ${rollWords}`
    : recommend === 'bank'
      ? `Bank ${formatPoints(t)}: ${rollWords}`
      : `Throw on: ${rollWords}, more than banking ${formatPoints(t)}`
  return {
    ...base,
    step: 'choose',
    expected: round(Math.max(allowed ? t : -Infinity, roll.expected), 2),
    roll,
    bank: { allowed, points: t },
    recommend,
    text
  }
}

// ---------------------------------------------------------------------------------------------
// 4-PLU$

export interface FourPlusOdds {
  game: 'four-plus'
  finished: false
  player: string
  phase: 'rounds' | 'flash'
  /** Each outcome of the next throw, with its chance (they add up to 1). */
  outcomes: { outcome: string; chance: number; label: string }[]
  /** Normal rounds: expected points of the rest of this turn (every throw is forced). */
  expectedTurnPoints?: number
  text: string
}

function fourPlusOdds(game: Game): FourPlusOdds {
  const s = game.state as FourPlusState
  const seat = s.seat as number
  const player = s.players[seat]
  const line = (outcome: string, chance: number, words: string): { outcome: string; chance: number; label: string } => ({
    outcome,
    chance: round(chance),
    label: `${percent(chance)} ${words}`
  })
  if (s.phase === 'flash' && s.flash) {
    const f = s.flash
    const owes = f.owes.includes(seat)
    const S = f.standing
    const o = FLASH_ODDS
    const scored: [number, number][] = [
      [5, o.fourOfAKind],
      [3, o.threeOfAKind],
      [1, o.pair],
      [0, o.nothing]
    ]
    let below = 0
    let equal = 0
    let above = 0
    for (const [score, p] of scored) {
      if (score < S) below += p
      else if (score === S) equal += p
      else above += p
    }
    const outcomes = [
      line('win', o.fourFours, 'four 4s: wins the game'),
      line('outOnes', o.ones, 'two or more 1s: out'),
      line('outSixes', o.sixes, 'two or more 6s: out')
    ]
    if (owes) {
      outcomes.push(line('outShort', below, `below ${S}: out`))
      outcomes.push(line('match', equal, `exactly ${S}: stays in`))
      outcomes.push(line('raise', above, `above ${S}: raises the standing score`))
    } else {
      outcomes.push(line('stay', below + equal, S > 0 ? `${S} or less: stays in, nothing changes` : 'scores 0: stays in'))
      outcomes.push(line('raise', above, S > 0 ? `above ${S}: sets a new standing score` : 'scores: sets the standing score'))
    }
    const out = o.ones + o.sixes + (owes ? below : 0)
    return {
      game: 'four-plus',
      finished: false,
      player,
      phase: 'flash',
      outcomes,
      text: `${player}'s flash throw: ${percent(o.fourFours)} win at once, ${percent(out)} out`
    }
  }
  const o = THROW_ODDS
  const lastRound = s.round >= s.options.rounds
  const outcomes = [
    line('score5', o.fourOfAKind, 'four of a kind: 5 points'),
    line('score3', o.threeOfAKind, 'three of a kind: 3 points'),
    line('fourFours', o.fourFours, 'four 4s: 4 points and an extra throw'),
    s.pairUsed
      ? line('nothing', o.pair + o.nothing, 'nothing (the pair\'s extra throw is spent this turn)')
      : line('extraThrow', o.pair, 'a pair: an extra throw'),
    ...(s.pairUsed ? [] : [line('nothing', o.nothing, 'nothing')]),
    line('twoOnes', o.twoOnes, 'two 1s: the turn ends'),
    line('threeOnes', o.threeOnes, lastRound ? 'three 1s: the turn ends' : 'three 1s: the turn ends and the next turn has one throw fewer'),
    line('fourOnes', o.fourOnes, 'four 1s: out of the game')
  ]
  const e = expectedTurnPoints(s.throwsLeft, s.pairUsed)
  return {
    game: 'four-plus',
    finished: false,
    player,
    phase: 'rounds',
    outcomes,
    expectedTurnPoints: round(e, 4),
    text: `${player}'s next throw: ${percent(o.fourOfAKind + o.threeOfAKind + o.fourFours)} to score, ${percent(o.twoOnes + o.threeOnes + o.fourOnes)} to end the turn on 1s; ${e.toFixed(1)} more points expected this turn`
  }
}

// ---------------------------------------------------------------------------------------------

export interface FinishedOdds {
  game: Game['header']['game']
  finished: true
  text: string
}

export type Odds = FoursiesOdds | SixDiceOdds | FourPlusOdds | FinishedOdds

/**
 * Exact figures for the position `game` is in (see the module comments for the policies).
 * `wins`: solved chance-to-win tables, so Farkle and Fouche decisions also get their chance to win.
 */
export function oddsFor(game: Game, wins?: WinTableSource): Odds {
  const offer = offerOf(game)
  if (offer.finished) return { game: game.header.game, finished: true, text: 'The game is over: no odds to give' }
  switch (game.header.game) {
    case 'foursies':
      return foursiesOdds(game)
    case 'farkle':
    case 'fouche':
      return sixDiceOdds(game, wins)
    case 'four-plus':
      return fourPlusOdds(game)
  }
}
