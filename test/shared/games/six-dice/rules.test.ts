import { describe, it, expect } from 'vitest'
import { isFarkle, scoringSelections, type ScoringTable } from '@shared/games/six-dice/rules'
import { FARKLE_TABLE } from '@shared/games/farkle/rules'
import { FOUCHE_TABLE } from '@shared/games/fouche/rules'

/** Every one of the 6^n ordered throws of n dice. */
function* allThrows(n: number): Generator<number[]> {
  const total = 6 ** n
  for (let i = 0; i < total; i++) {
    const v: number[] = []
    let x = i
    for (let k = 0; k < n; k++) {
      v.push((x % 6) + 1)
      x = Math.floor(x / 6)
    }
    yield v
  }
}

function farkleCount(n: number, table: ScoringTable): number {
  let c = 0
  for (const t of allThrows(n)) if (isFarkle(t, table)) c++
  return c
}

/** The definition from the rules, written out by hand: no 1, no 5, no triplet, not three pairs. */
function naiveFarkle(t: number[]): boolean {
  const c = [0, 0, 0, 0, 0, 0, 0]
  for (const v of t) c[v]++
  if (c[1] > 0 || c[5] > 0) return false
  if (c.some((k) => k >= 3)) return false
  if (t.length === 6 && c.filter((k) => k === 2).length === 3) return false
  return true
}

// [dice, farkles, all throws, published chance as the Farkle page prints it]
const EXPECTED: [number, number, number, string][] = [
  [1, 4, 6, '67%'],
  [2, 16, 36, '44%'],
  [3, 60, 216, '28%'],
  [4, 204, 1296, '15.7%'],
  [5, 600, 7776, '8%'],
  [6, 1080, 46656, '2.3%']
]

function published(count: number, total: number, shown: string): string {
  const decimals = shown.includes('.') ? shown.split('.')[1].length - 1 : 0
  return ((count / total) * 100).toFixed(decimals) + '%'
}

describe('exact chance of a farkle, by enumerating all 6^n throws', () => {
  for (const [name, table] of [
    ['Farkle', FARKLE_TABLE],
    ['Fouche', FOUCHE_TABLE]
  ] as const) {
    for (const [n, count, total, shown] of EXPECTED) {
      it(`${name}: ${n} ${n === 1 ? 'die farkles' : 'dice farkle'} in exactly ${count} of ${total} throws (${shown})`, () => {
        expect(6 ** n).toBe(total)
        expect(farkleCount(n, table)).toBe(count)
        expect(published(count, total, shown)).toBe(shown)
      })
    }
  }

  it('the two tables farkle on exactly the same throws, and both agree with the hand-written definition', () => {
    for (let n = 1; n <= 6; n++) {
      for (const t of allThrows(n)) {
        const f = naiveFarkle(t)
        expect(isFarkle(t, FARKLE_TABLE)).toBe(f)
        expect(isFarkle(t, FOUCHE_TABLE)).toBe(f)
      }
    }
  })

  it('a throw farkles exactly when it offers no scoring selection', () => {
    for (const table of [FARKLE_TABLE, FOUCHE_TABLE]) {
      let farkles = 0
      for (const t of allThrows(6)) {
        const none = scoringSelections(t, table).length === 0
        expect(none).toBe(isFarkle(t, table))
        if (none) farkles++
      }
      expect(farkles).toBe(1080)
    }
  })

  it('the published percentages are not what a wrong count would print', () => {
    // guards the rounding helper: 1,081 of 46,656 would still print 2.3%, 1,200 would not
    expect(published(1200, 46656, '2.3%')).toBe('2.6%')
    expect(published(3, 6, '67%')).toBe('50%')
  })
})
