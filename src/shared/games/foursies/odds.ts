// Foursies' exact odds for the position a game is in: each decision on offer (or the throw due)
// with its chance to finish the turn on 4, to bust, to roll a foursies, and the expected end
// score, under the odds policy (../README.md, "What 'played as well as possible' means"). The
// turn itself is solved in ./turn-odds.
import type { Move, Offer, OddsLine } from '../types'
import { sortedDice } from '@shared/dice'
import { percent, round } from '../dice-odds'
import type { FoursiesDevil, FoursiesState } from './rules'
import { BUST, E0, FOURSIES, RESET, SCORE, solveTurn, type Figures, type TurnSolution, type TurnUtility } from './turn-odds'

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

export function foursiesOdds(s: FoursiesState, offer: Offer): FoursiesOdds {
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

/** The odds panel's lines: each duellist's chance, each option on offer, or the throw due. */
export function foursiesOddsLines(odds: FoursiesOdds): OddsLine[] {
  if (odds.duel) return odds.duel.map((duellist) => ({ text: `${duellist.player}: ${percent(duellist.chance)} to win the duel`, best: false }))
  if (odds.options) return odds.options.map((option) => ({ text: option.text, best: option.best }))
  return odds.throw ? [{ text: odds.throw.text, best: false }] : []
}
