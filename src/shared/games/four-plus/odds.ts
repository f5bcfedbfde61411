// 4-PLU$'s exact odds for the position a game is in: it has no decisions, so the chance of each
// outcome of the next throw (./throw-odds), and in the regular rounds the points expected from
// the rest of the turn.
import type { OddsLine } from '../types'
import { percent, round } from '../dice-odds'
import type { FourPlusState } from './rules'
import { FLASH_ODDS, THROW_ODDS, expectedTurnPoints } from './throw-odds'

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

export function fourPlusOdds(s: FourPlusState): FourPlusOdds {
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

/** The odds panel's lines: every outcome of the next throw that can happen. */
export function fourPlusOddsLines(odds: FourPlusOdds): OddsLine[] {
  return odds.outcomes.filter((outcome) => outcome.chance > 0).map((outcome) => ({ text: outcome.label, best: false }))
}
