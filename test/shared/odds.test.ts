import { describe, expect, it } from 'vitest'
import { FARKLE_TABLE } from '@shared/games/farkle/rules'
import { FOUCHE_TABLE } from '@shared/games/fouche/rules'
import { classifyThrow } from '@shared/games/four-plus/rules'
import { bestScore, isFarkle, scoringSelections } from '@shared/games/six-dice/rules'
import { oddsFor } from '@shared/odds'
import { type FourPlusOdds } from '@shared/games/four-plus/odds'
import { type SixDiceOdds } from '@shared/games/six-dice/odds'
import { THROW_ODDS } from '@shared/games/four-plus/throw-odds'
import { expectedValues, farkleChance } from '@shared/games/six-dice/turn-odds'
import { seededRandom } from '@shared/random-play'
import { gameOf } from './odds-helpers'

describe('Farkle and Fouche odds', () => {
  it('farkle chances by hand: 1 die 4/6, 2 dice 16/36, 3 dice 60/216', () => {
    for (const table of [FARKLE_TABLE, FOUCHE_TABLE]) {
      expect(farkleChance(table, 1)).toBeCloseTo(4 / 6, 12)
      expect(farkleChance(table, 2)).toBeCloseTo(16 / 36, 12)
      expect(farkleChance(table, 3)).toBeCloseTo(60 / 216, 12)
    }
  })

  it('one die left by hand: throwing on 300 is worth 1/6 (V(6,400)) + 1/6 (V(6,350))', () => {
    const v = expectedValues(FARKLE_TABLE, 0)
    expect(v.rollValue(1, 300)).toBeCloseTo((v.value(6, 400) + v.value(6, 350)) / 6, 9)
  })

  it('the odds of a choose position name bank or throw and the farkle chance', () => {
    const game = gameOf({ game: 'farkle', players: ['Ann', 'Bob'], rules: { entry: 0 } }, [{ roll: [1, 5, 2, 2, 3, 6] }, { keep: [1, 5] }])
    const odds = oddsFor(game) as SixDiceOdds
    expect(odds.step).toBe('choose')
    expect(odds.roll?.dice).toBe(4)
    expect(odds.roll?.farkle).toBeCloseTo(farkleChance(FARKLE_TABLE, 4), 6)
    expect(odds.bank).toEqual({ allowed: true, points: 150 })
    expect(odds.recommend).toBe('roll')
  })

  it('lists every keep on offer with its value; the best keep has the highest value', () => {
    const game = gameOf({ game: 'fouche', players: ['Ann'] }, [{ roll: [1, 1, 5, 2, 3, 6] }])
    const odds = oddsFor(game) as SixDiceOdds
    expect(odds.keeps?.length).toBe(scoringSelections([1, 1, 5, 2, 3, 6], FOUCHE_TABLE).length)
    const best = odds.keeps?.find((k) => k.best)
    expect(best?.expected).toBe(Math.max(...(odds.keeps ?? []).map((k) => k.expected)))
  })

  it('the expected value of a turn matches a simulation of many turns (seeded, 4 standard errors)', () => {
    const table = FARKLE_TABLE
    const v = expectedValues(table, 0)
    const random = seededRandom(99)
    const n = 20000
    let sum = 0
    let sumSq = 0
    for (let i = 0; i < n; i++) {
      let dice = 6
      let t = 0
      let banked = 0
      for (;;) {
        const roll = Array.from({ length: dice }, () => 1 + Math.floor(random() * 6))
        if (isFarkle(roll, table)) break
        let best = -Infinity
        let bestLeft = 0
        let bestT = 0
        for (const sel of scoringSelections(roll, table)) {
          const left = dice - sel.dice.length === 0 ? 6 : dice - sel.dice.length
          const x = v.value(left, t + sel.points)
          if (x > best) [best, bestLeft, bestT] = [x, left, t + sel.points]
        }
        dice = bestLeft
        t = bestT
        if (t >= v.rollValue(dice, t)) {
          banked = t
          break
        }
      }
      sum += banked
      sumSq += banked * banked
    }
    const mean = sum / n
    const sd = Math.sqrt(sumSq / n - mean * mean)
    expect(Math.abs(mean - v.rollValue(6, 0))).toBeLessThan((4 * sd) / Math.sqrt(n))
    expect(bestScore([1, 1, 1, 1], table)).toBe(1100)
  })
})

describe('4-PLU$ odds', () => {
  it('agree with the engine on all 1,296 throws and add up to 1', () => {
    const count: Record<string, number> = {}
    for (let c = 0; c < 1296; c++) {
      const v = [c % 6, Math.floor(c / 6) % 6, Math.floor(c / 36) % 6, Math.floor(c / 216)].map((x) => x + 1)
      const k = classifyThrow(v).kind
      count[k] = (count[k] ?? 0) + 1
    }
    for (const [k, p] of Object.entries(THROW_ODDS)) expect(p).toBeCloseTo((count[k] ?? 0) / 1296, 12)
    expect(THROW_ODDS.fourOnes).toBeCloseTo(1 / 1296, 15)
    expect(THROW_ODDS.fourFours).toBeCloseTo(1 / 1296, 15)
    const odds = oddsFor(gameOf({ game: 'four-plus', players: ['Ann', 'Bob'] })) as FourPlusOdds
    expect(odds.outcomes.reduce((a, o) => a + o.chance, 0)).toBeCloseTo(1, 5)
    expect(odds.expectedTurnPoints).toBeGreaterThan(0)
  })
})
