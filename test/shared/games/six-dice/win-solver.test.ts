// The chance-to-win solver (src/shared/games/six-dice/win-solver.ts) against known values, the solver
// before it, itself (symmetry, convergence) and the engine's positions. Its slow checks (an
// independent brute-force value iteration, self-play through the engine) are in win-solver.slow.test.ts.
import { describe, expect, it } from 'vitest'
import { chooseMove } from '@shared/ai'
import { fixedWinTables, winChances } from '@shared/games/six-dice/win-play'
import {
  finalTurnChanceWithEntry,
  finalTurnChances,
  residual,
  solveWinTable,
  startChance,
  throwGroups,
  WIN_TABLE_VERSION,
  WinTurn,
  type SolveOptions,
  type WinSpec,
  type WinTable
} from '@shared/games/six-dice/win-solver'
import { decodeWinTable, encodeWinTable, WIN_TABLE_PRECISION, winTableFileName } from '@shared/games/six-dice/win-table-file'
import { FARKLE_TABLE } from '@shared/games/farkle/rules'
import { FOUCHE_TABLE } from '@shared/games/fouche/rules'
import type { SixDiceState } from '@shared/games/six-dice/rules'
import { startGame, type Game } from '@shared/game'
import { reachValues } from '@shared/games/six-dice/turn-odds'
import { solveWinTableV1 } from '@bench/win-solver-v1'

describe('known values', () => {
  it('the chance to farkle with 1-6 dice is 2/3, 4/9, 5/18, 17/108, 25/324, 5/216 under both scoring tables', () => {
    const known = [2 / 3, 4 / 9, 5 / 18, 17 / 108, 25 / 324, 5 / 216]
    for (const table of [FARKLE_TABLE, FOUCHE_TABLE]) {
      const groups = throwGroups(table)
      for (let d = 1; d <= 6; d++) {
        expect(groups.farkle[d]).toBeCloseTo(known[d - 1], 14)
        // Every outcome is a farkle or in exactly one group.
        let sum = groups.farkle[d]
        for (let g = groups.groupFrom[d]; g < groups.groupFrom[d + 1]; g++) sum += groups.groupProb[g]
        expect(sum).toBeCloseTo(1, 14)
      }
    }
  })

  it("the final turn's chances agree with the odds module's own dynamic programming", () => {
    for (const table of [FARKLE_TABLE, FOUCHE_TABLE]) {
      const groups = throwGroups(table)
      const f = finalTurnChances(groups, 120)
      for (const gap of [0, 1, 2, 7, 20, 45, 80, 120]) {
        const reach = reachValues(table, (gap + 1) * 50, 0, gap * 50, 0.5)
        expect(f[gap]).toBeCloseTo(reach.rollValue(6, 0), 12)
        expect(finalTurnChanceWithEntry(groups, gap, 0)).toBeCloseTo(f[gap], 12)
      }
      // One die short of a tie: 1/2 for the tie is better than nothing.
      expect(f[0]).toBeGreaterThan(f[1])
    }
    // An entry minimum above the gap (a game whose entry is above its target) forces the turn on
    // past the points needed: 1,500 in one turn, not 250.
    const groups = throwGroups(FARKLE_TABLE)
    const withEntry = finalTurnChanceWithEntry(groups, 4, 30)
    expect(withEntry).toBeCloseTo(reachValues(FARKLE_TABLE, 250, 1500, 200, 0.5).rollValue(6, 0), 12)
    expect(withEntry).toBeLessThan(finalTurnChances(groups, 30)[4] / 2)
  })
})

describe('against the solver before the turn families (bench/win-solver-v1.ts)', () => {
  const cases: [WinSpec, SolveOptions][] = [
    [{ game: 'farkle', target: 600, entry: 500 }, {}],
    [{ game: 'farkle', target: 1500, entry: 0 }, { leadCap: 2000 }],
    [{ game: 'farkle', target: 500, entry: 1500 }, {}],
    [{ game: 'fouche', target: 600, entry: 0 }, {}],
    [{ game: 'fouche', target: 800, entry: 350 }, { leadCap: 3000 }],
    [{ game: 'fouche', target: 1500, entry: 50 }, { leadCap: 800 }],
    [{ game: 'farkle', target: 10_000, entry: 500 }, { fromSum: 390 }]
  ]
  it.each(cases)('%o %o: every chance within 1e-12, the final-turn chances the same', (spec, options) => {
    const before = solveWinTableV1(spec, options)
    const now = solveWinTable(spec, options)
    expect(now.values.length).toBe(before.values.length)
    let worst = 0
    for (let i = 0; i < now.values.length; i++) {
      expect(Number.isNaN(now.values[i])).toBe(Number.isNaN(before.values[i]))
      if (!Number.isNaN(now.values[i])) worst = Math.max(worst, Math.abs(now.values[i] - before.values[i]))
    }
    expect(worst).toBeLessThan(1e-12)
    expect([...now.final]).toEqual([...before.final])
  }, 60_000)
})

describe('the solver on its own', () => {
  it('settles every farkle pair: each chance is its own turn value (residual under 1e-12), all in [0, 1]', () => {
    for (const spec of [
      { game: 'farkle', target: 1000, entry: 500 },
      { game: 'fouche', target: 800, entry: 0 }
    ] as WinSpec[]) {
      const table = solveWinTable(spec, { leadCap: 3000 })
      expect(residual(table)).toBeLessThan(1e-12)
      for (const w of table.values) expect(w >= 0 && w <= 1).toBe(true)
    }
  }, 60_000)

  it('converges in the lead cap: doubling it moves no chance by more than the bound F(cap)', () => {
    const spec: WinSpec = { game: 'farkle', target: 1000, entry: 300 }
    const small = solveWinTable(spec, { leadCap: 2000 })
    const large = solveWinTable(spec, { leadCap: 4000 })
    let worst = 0
    for (let i = 0; i < small.values.length; i++) worst = Math.max(worst, Math.abs(small.values[i] - large.values[i]))
    const bound = small.final[2000 / 50 + 1]
    expect(bound).toBeGreaterThan(0.05) // a cap this small is a real approximation...
    expect(worst).toBeLessThan(bound) // ...and still within its bound
    expect(worst).toBeGreaterThan(0) // (the cap does matter)
  }, 60_000)

  it("Fouche's seats differ: seat 1 reaching the target wins at once, seat 0 gives a final turn", () => {
    const table = solveWinTable({ game: 'fouche', target: 500, entry: 0 }, { leadCap: 2000 })
    const n = table.belowTarget
    // Seat 1 with a six-dice throw from n - 1 (needs only 50): beats seat 0 in the same spot,
    // who hands seat 1 a final turn.
    expect(startChance(table, 1, n - 1, n - 1)).toBeGreaterThan(startChance(table, 0, n - 1, n - 1))
    // Zero-sum at the end: seat 0 banking the target against seat 1 on b leaves seat 1 F(gap).
    const turn = new WinTurn(table, 0, n - 1, 0)
    expect(turn.bank(n)).toBeCloseTo(1 - table.final[n], 12)
  })

  it("the issue's end-game example: 9,700 vs 9,950 with 300 on the turn and 2 dice, banking wins 3%, throwing on 42%", () => {
    // Only the states with a + b >= 9,700 + 9,950 matter here: a partial solve.
    const table = solveWinTable({ game: 'farkle', target: 10_000, entry: 500 }, { fromSum: (9700 + 9950) / 50 })
    const turn = new WinTurn(table, 0, 9700 / 50, 9950 / 50)
    const level = (9700 + 300) / 50
    expect(turn.bank(level)).toBeCloseTo(0.029, 3)
    expect(turn.roll(2, level)).toBeCloseTo(0.417, 3)
    // The computer player throws on, and says why.
    const game = positionOf({ game: 'farkle', target: 10_000, entry: 500 }, [9700, 9950], 300, 2)
    const choice = chooseMove(game, () => 0, fixedWinTables([table]))
    expect(choice?.move).toBeNull()
    expect(choice?.why).toBe('throws 2 dice on 300: 42% to win; banking: 3%')
    // Without the table it plays for points and banks, saying why the table is not used.
    const points = chooseMove(game, () => 0, fixedWinTables([]))
    expect(points?.move).toEqual({ bank: true })
    expect(points?.why).toMatch(/; playing for points until the chance to win is known: no table was solved for these rules$/)
  })

  it('fewer turn points can be worth more (staying under the target): why every keep counts', () => {
    const spec: WinSpec = { game: 'farkle', target: 1000, entry: 0 }
    const table = solveWinTable(spec, { leadCap: 3000 })
    let found = false
    for (let a = 1; a < table.belowTarget && !found; a++)
      for (let b = 1; b < table.belowTarget && !found; b++) {
        const turn = new WinTurn(table, 0, a, b)
        for (let s = a + 1; s < table.belowTarget && !found; s++)
          // Keeping a 5 (50) rather than a 1 (100), the same dice left.
          for (let d = 1; d <= 5 && !found; d++) if (turn.value(d, s + 1) > turn.value(d, s + 2) + 1e-9) found = true
      }
    expect(found).toBe(true)
  }, 30_000)
})

describe('tables on disk', () => {
  const spec: WinSpec = { game: 'fouche', target: 400, entry: 0 }
  const table = solveWinTable(spec, { leadCap: 1000 })
  const bytes = encodeWinTable(table)

  it('round-trip to within 2^-33 (stored in steps of 2^-32), the final-turn chances exactly', () => {
    const back = decodeWinTable(bytes, spec)
    expect(back.ok).toBe(true)
    if (!back.ok) return
    expect(WIN_TABLE_PRECISION).toBe(2 ** -33)
    let worst = 0
    for (let i = 0; i < table.values.length; i++) worst = Math.max(worst, Math.abs(back.table.values[i] - table.values[i]))
    expect(worst).toBeLessThanOrEqual(WIN_TABLE_PRECISION)
    expect(worst).toBeGreaterThan(0) // (they are rounded)
    expect([...back.table.final]).toEqual([...table.final])
    expect(back.table.leadCapLevels).toBe(table.leadCapLevels)
    // Written again, the values read back give the same bytes: the rounding is stable.
    expect(encodeWinTable(back.table)).toEqual(bytes)
    expect(winTableFileName(spec)).toBe(`fouche-target400-entry0.v${WIN_TABLE_VERSION}.bin.gz`)
  })

  it('hold the end values exactly: 0 and 1 are chances too', () => {
    const ends: WinTable = { ...table, values: table.values.map((v, i) => (i % 3 === 0 ? 0 : i % 3 === 1 ? 1 : v)) }
    const back = decodeWinTable(encodeWinTable(ends), spec)
    expect(back.ok && [...back.table.values].filter((_, i) => i % 3 !== 2)).toEqual([...ends.values].filter((_, i) => i % 3 !== 2))
    expect(() => encodeWinTable({ ...table, values: table.values.map((v, i) => (i === 5 ? NaN : v)) })).toThrow('not a chance')
  })

  it('refuse other options, another version, a cut-off file, a damaged byte', () => {
    expect(decodeWinTable(bytes, { ...spec, target: 450 })).toMatchObject({ ok: false, error: 'solved for other options' })
    expect(decodeWinTable(bytes, { ...spec, game: 'farkle' })).toMatchObject({ ok: false })
    expect(decodeWinTable(bytes.subarray(0, bytes.length - 8), spec)).toMatchObject({ ok: false, error: 'damaged (checksum)' })
    const damaged = bytes.slice()
    damaged[damaged.length - 3] ^= 0x40
    expect(decodeWinTable(damaged, spec)).toMatchObject({ ok: false, error: 'damaged (checksum)' })
    const text = new TextDecoder().decode(bytes.subarray(8, 100)).replace(`"version":${WIN_TABLE_VERSION}`, '"version":9')
    const older = bytes.slice()
    older.set(new TextEncoder().encode(text), 8)
    expect(decodeWinTable(older, spec)).toMatchObject({ ok: false, error: `version 9, not ${WIN_TABLE_VERSION}` })
    expect(decodeWinTable(new Uint8Array(3), spec)).toMatchObject({ ok: false, error: 'not a chance-to-win table' })
  })
})

// ---------------------------------------------------------------------------------------------
// Positions of the real engine

function positionOf(spec: WinSpec, scores: number[], turnPoints: number, diceDue: number): Game {
  const started = startGame({ game: spec.game, players: ['Ann', 'Bob'], rules: { target: spec.target, entry: spec.entry } })
  if (!started.ok) throw new Error(started.error)
  const state: SixDiceState = { ...(started.value.state as SixDiceState), scores, step: 'choose', turnPoints, diceDue, thrown: [1, 2, 3, 4, 6, 6].slice(0, 6), kept: [1] }
  return { ...started.value, state }
}

describe('win chances through the engine', () => {
  it('win chances of a position are those of the table (two players: exact)', () => {
    const spec: WinSpec = { game: 'farkle', target: 1000, entry: 0 }
    const table = solveWinTable(spec, { leadCap: 3000 })
    const game = positionOf(spec, [300, 650], 200, 3)
    const chances = winChances(game.state as SixDiceState, fixedWinTables([table]))
    const turn = new WinTurn(table, 0, 6, 13)
    expect(chances?.exact).toBe(true)
    expect(chances?.roll()).toBe(turn.roll(3, 10))
    expect(chances?.bank()).toBe(turn.bank(10))
    expect(chances?.keep(100, 2)).toBe(turn.value(2, 12))
  })
})
