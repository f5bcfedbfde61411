// Farkle's and Fouche's exact odds for the position a game is in: the farkle chance of the throw
// due or on offer, the expected points the turn banks from here (./turn-odds), and where the
// chance-to-win tables are solved (./win-play) each decision's chance to win.
import type { Move, Offer, OddsLine } from '../types'
import { formatPoints } from '@shared/dice'
import { percent, round } from '../dice-odds'
import type { SixDiceState } from './rules'
import { expectedValues, farkleChance } from './turn-odds'
import { specOf, winChances, type WinTableSource } from './win-play'
import { scoringTableOf, solvable } from './win-solver'

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
  /** The game's own chances (two players); false: a model's (more players, see ../README.md). */
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

export function sixDiceOdds(s: SixDiceState, offer: Offer, wins?: WinTableSource): SixDiceOdds {
  const odds = pointsOdds(s, offer)
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

function pointsOdds(s: SixDiceState, offer: Offer): SixDiceOdds {
  const table = scoringTableOf(s.game)
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

/** The odds panel's lines: each keep (and bank or throw) with its chance to win beside the expected points where it is known. */
export function sixDiceOddsLines(odds: SixDiceOdds): OddsLine[] {
  const toWin = (chance: number | undefined): string => (chance === undefined ? '' : ` · ${percent(chance)} to win`)
  const lines: OddsLine[] = (odds.keeps ?? []).map((keep) => ({ text: keep.text + toWin(keep.win), best: keep.best, bestToWin: keep.bestToWin === true }))
  if (odds.win && odds.step === 'choose') {
    if (odds.bank?.win !== undefined) lines.push({ text: `Bank ${formatPoints(odds.bank.points)}${toWin(odds.bank.win)}`, best: false, bestToWin: odds.bank.win >= (odds.roll?.win ?? 0) })
    if (odds.roll?.win !== undefined) lines.push({ text: `Throw ${odds.roll.dice} ${odds.roll.dice === 1 ? 'die' : 'dice'}${toWin(odds.roll.win)}`, best: false, bestToWin: odds.roll.win > (odds.bank?.win ?? -1) })
  }
  if (odds.win && odds.step === 'throw' && odds.roll?.win !== undefined) lines.push({ text: `Throw 6 dice${toWin(odds.roll.win)}`, best: false, bestToWin: false })
  if (odds.win) lines.push({ text: `Chance to win: ${odds.win.basis}`, best: false, bestToWin: false })
  else if (odds.winStatus) lines.push({ text: odds.winStatus, best: false, bestToWin: false })
  return lines
}

/** What the odds depend on besides the position: whether the chance-to-win table of its options is solved, or how far. */
export function sixDiceTablesKey(s: SixDiceState, wins: WinTableSource): string {
  const spec = specOf(s)
  return wins.table(spec) ? 'solved' : wins.status(spec)
}
