// The chance-to-win solver's slow checks (outside the fast loop: the vitest project "slow"): every
// start-of-turn chance against an independent brute-force value iteration on small targets, and
// the first player's solved chance against 5,000 games of self-play through the real engine.
import { describe, expect, it } from 'vitest'
import { chooseMove } from '@shared/ai'
import { fixedWinTables } from '@shared/games/six-dice/win-play'
import { scoringTableOf, solveWinTable, startChance, type WinSpec, type WinTable } from '@shared/games/six-dice/win-solver'
import { isFarkle, scoringSelections, type SixDiceState } from '@shared/games/six-dice/rules'
import type { Move } from '@shared/games/types'
import { offerOf, play, startGame } from '@shared/game'
import { outcomesOf } from '@shared/games/dice-odds'
import { reachValues } from '@shared/games/six-dice/turn-odds'
import { seededRandom } from '@shared/random-play'

// ---------------------------------------------------------------------------------------------
// An independent solver: plain value iteration (Neller & Presser's method) over every state
// (seat to move, a, b, turn level, dice), a table per seat for both games, the scoring straight
// from the engine's scoringSelections, the final turn from the odds module. Slow, small targets.

interface Throw {
  prob: number
  keeps: { levels: number; left: number }[]
}

function throwsOf(game: 'farkle' | 'fouche'): { farkle: number[]; throws: Throw[][] } {
  const table = scoringTableOf(game)
  const farkle = [0]
  const throws: Throw[][] = [[]]
  for (let d = 1; d <= 6; d++) {
    let pf = 0
    const list: Throw[] = []
    for (const o of outcomesOf(d)) {
      if (isFarkle(o.values, table)) pf += o.prob
      else {
        list.push({
          prob: o.prob,
          keeps: scoringSelections(o.values, table).map((s) => ({ levels: s.points / 50, left: s.dice.length === d ? 6 : d - s.dice.length }))
        })
      }
    }
    farkle.push(pf)
    throws.push(list)
  }
  return { farkle, throws }
}

/** W[seat][a][b] by value iteration until nothing moves by 1e-14. */
function bruteForce(spec: WinSpec, leadCap: number): number[][][] {
  const n = Math.ceil(spec.target / 50)
  const e = Math.ceil(spec.entry / 50)
  const cap = leadCap / 50
  const lapEnds = spec.game === 'fouche'
  const { farkle, throws } = throwsOf(spec.game)
  const finalCache = new Map<string, number>()
  const finalChance = (gap: number, banked: number): number => {
    const entry = banked === 0 ? spec.entry : 0
    const key = `${gap}|${entry}`
    let hit = finalCache.get(key)
    if (hit === undefined) finalCache.set(key, (hit = reachValues(scoringTableOf(spec.game), (gap + 1) * 50, entry, gap * 50, 0.5).rollValue(6, 0)))
    return hit
  }
  const W = [0, 1].map(() => Array.from({ length: n }, () => new Array<number>(n).fill(0.5)))
  const bank = (seat: number, b: number, s: number): number => {
    if (s < n) return 1 - W[1 - seat][b][s]
    if (lapEnds && seat === 1) return 1
    return 1 - finalChance(s - b, b)
  }
  for (let sweep = 0; sweep < 10_000; sweep++) {
    let change = 0
    for (let seat = 0; seat < 2; seat++)
      for (let a = 0; a < n; a++)
        for (let b = 0; b < n; b++) {
          const top = Math.max(n, a === 0 ? e : 0, lapEnds && seat === 1 ? 0 : b + cap)
          const L = 1 - W[1 - seat][b][a]
          const V = new Map<number, number>()
          const value = (d: number, s: number): number => (s > top ? bank(seat, b, s) : (V.get(s * 8 + d) as number))
          let start = 0
          for (let s = top; s >= a; s--) {
            for (let d = 1; d <= 6; d++) {
              let r = farkle[d] * L
              for (const t of throws[d]) r += t.prob * Math.max(...t.keeps.map((k) => value(k.left, s + k.levels)))
              const canBank = s >= a + Math.max(1, a === 0 ? e : 0)
              V.set(s * 8 + d, canBank ? Math.max(bank(seat, b, s), r) : r)
              if (s === a && d === 6) start = r
            }
          }
          change = Math.max(change, Math.abs(start - W[seat][a][b]))
          W[seat][a][b] = start
        }
    if (change < 1e-14) return W
  }
  throw new Error('value iteration did not settle')
}

describe('against plain value iteration (small targets)', () => {
  const cases: [WinSpec, number][] = [
    [{ game: 'farkle', target: 250, entry: 0 }, 300],
    [{ game: 'farkle', target: 275, entry: 150 }, 300],
    [{ game: 'farkle', target: 200, entry: 350 }, 300],
    [{ game: 'fouche', target: 300, entry: 0 }, 400],
    [{ game: 'fouche', target: 250, entry: 100 }, 300]
  ]
  it.each(cases)('%o (lead cap %i): every start-of-turn chance within 1e-10; Farkle is the same from either seat', (spec, leadCap) => {
    const brute = bruteForce(spec, leadCap)
    const table = solveWinTable(spec, { leadCap })
    const n = table.belowTarget
    let worst = 0
    for (let seat = 0; seat < 2; seat++)
      for (let a = 0; a < n; a++)
        for (let b = 0; b < n; b++) {
          const role = table.roles === 2 ? seat : 0
          worst = Math.max(worst, Math.abs(brute[seat][a][b] - startChance(table, role, a, b)))
          // Symmetry: Farkle's end rule does not depend on the seat.
          if (spec.game === 'farkle') expect(brute[0][a][b]).toBeCloseTo(brute[1][a][b], 12)
        }
    expect(worst).toBeLessThan(1e-10)
  }, 120_000)
})

// ---------------------------------------------------------------------------------------------
// Self-play through the real engine

/** Plays `games` games, both seats by the solved policy; seat 0's share of the wins (ties 1/2). */
function selfPlay(table: WinTable, games: number, seed: number): number {
  const random = seededRandom(seed)
  const wins = fixedWinTables([table])
  let first = 0
  for (let g = 0; g < games; g++) {
    const started = startGame({ game: table.spec.game, players: ['A', 'B'], rules: { target: table.spec.target, entry: table.spec.entry } })
    if (!started.ok) throw new Error(started.error)
    let game = started.value
    for (;;) {
      const offer = offerOf(game)
      if (offer.finished) break
      let move: Move | null = null
      if (offer.decisions.length > 0) move = chooseMove(game, random, wins)?.move ?? null
      if (move === null) move = { roll: Array.from({ length: offer.diceDue }, () => 1 + Math.floor(random() * 6)) }
      const played = play(game, { move })
      if (!played.ok) throw new Error(played.error)
      game = played.game
    }
    const winners = (game.state as SixDiceState).winners
    if (winners.includes(0)) first += 1 / winners.length
  }
  return first / games
}

describe('the solved first-player chance against self-play through the engine', () => {
  it.each([
    { game: 'farkle', target: 1000, entry: 500 },
    { game: 'fouche', target: 800, entry: 0 }
  ] as WinSpec[])('%o: within four standard errors over 5,000 games', (spec) => {
    const table = solveWinTable(spec, { leadCap: 4000 })
    const solved = startChance(table, 0, 0, 0)
    const games = 5000
    const played = selfPlay(table, games, 20261130)
    const se = Math.sqrt((solved * (1 - solved)) / games)
    expect(Math.abs(played - solved)).toBeLessThan(4 * se)
  }, 120_000)

})
