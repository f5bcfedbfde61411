// The computer player of Farkle and Fouche: plays to win from the solved chance-to-win table
// (./win-play) where it has one, else for the expected points (./turn-odds), and in the final
// turns to pass the leader; see ../README.md.
import type { AiChoice, Decision } from '../types'
import { formatPoints } from '@shared/dice'
import { percent } from '../dice-odds'
import { pickBest } from '../pick-best'
import type { SixDiceState } from './rules'
import { expectedValues, farkleChance, reachValues, type TurnValues } from './turn-odds'
import { inFinalTurn, specOf, winChances, type WinChances, type WinTableSource } from './win-play'
import { scoringTableOf, solvable } from './win-solver'

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

export function sixDiceChoice(s: SixDiceState, decisions: Decision[], random: () => number, wins?: WinTableSource): AiChoice {
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


/** While the chance-to-win table of the game's options is being solved: how far, and that the computer plays for points meanwhile. */
export function sixDiceWaitNote(s: SixDiceState, wins: WinTableSource): string {
  if (s.players.length < 2) return ''
  const spec = specOf(s)
  if (inFinalTurn(s) || !solvable(spec) || wins.table(spec)) return ''
  return ` (playing for points until the chance to win is known: ${wins.status(spec)})`
}

/** Starts solving the chance-to-win table the computer will play by, early. */
export function sixDicePrepare(s: SixDiceState, wins: WinTableSource): void {
  if (s.players.length >= 2) wins.table(specOf(s))
}
