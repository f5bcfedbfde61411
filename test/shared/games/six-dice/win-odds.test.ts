// The odds of Farkle and Fouche decisions with their chance to win (src/shared/odds.ts + src/shared/games/six-dice/win-play.ts).
import { describe, expect, it } from 'vitest'
import { fixedWinTables, type WinTableSource } from '@shared/games/six-dice/win-play'
import { solveWinTable, WinTurn } from '@shared/games/six-dice/win-solver'
import { oddsFor } from '@shared/odds'
import { type SixDiceOdds } from '@shared/games/six-dice/odds'
import { reachValues } from '@shared/games/six-dice/turn-odds'
import { FARKLE_TABLE } from '@shared/games/farkle/rules'
import { gameOf, withState } from '@test/shared/odds-helpers'

const table = solveWinTable({ game: 'farkle', target: 1000, entry: 0 }, { leadCap: 3000 })
const wins = fixedWinTables([table])
const header = { game: 'farkle' as const, players: ['Ann', 'Bob'], rules: { target: 1000, entry: 0 } }

describe('odds with the chance to win', () => {
  it('a keep: every keep on offer gets its chance to win, the highest marked', () => {
    const game = withState(gameOf(header, [{ roll: [1, 5, 2, 2, 3, 6] }]), { scores: [300, 650] })
    const odds = oddsFor(game, wins) as SixDiceOdds
    const turn = new WinTurn(table, 0, 6, 13)
    expect(odds.win).toEqual({ exact: true, basis: 'both players playing to win from here (solved exactly)' })
    const keeps = odds.keeps ?? []
    expect(keeps.map((k) => k.label)).toEqual(['Keep 1 5 (150)', 'Keep 1 (100)', 'Keep 5 (50)'])
    expect(keeps.map((k) => k.win)).toEqual([turn.value(4, 9), turn.value(5, 8), turn.value(5, 7)].map((x) => Math.round(x * 1e6) / 1e6))
    expect(keeps.filter((k) => k.bestToWin)).toHaveLength(1)
    const top = Math.max(...keeps.map((k) => k.win ?? 0))
    expect(keeps.find((k) => k.bestToWin)?.win).toBe(top)
  })

  it('bank or throw: both chances; a throw due at the start of a turn: its chance', () => {
    const choose = withState(gameOf(header, [{ roll: [1, 5, 2, 2, 3, 6] }, { keep: [1, 5] }]), { scores: [300, 650] })
    const odds = oddsFor(choose, wins) as SixDiceOdds
    const turn = new WinTurn(table, 0, 6, 13)
    expect(odds.bank?.win).toBeCloseTo(turn.bank(9) ?? -1, 6)
    expect(odds.roll?.win).toBeCloseTo(turn.roll(4, 9), 6)
    const start = oddsFor(gameOf(header), wins) as SixDiceOdds
    expect(start.roll?.win).toBeCloseTo(table.values[0], 6)
  })

  it('the final turn needs no table: the chance to pass the leader is the chance to win', () => {
    const game = withState(gameOf(header, [{ roll: [1, 5, 2, 2, 3, 6] }, { keep: [1] }]), {
      scores: [300, 1100],
      reachedBy: 1,
      turnsLeft: 1
    })
    const odds = oddsFor(game, fixedWinTables([])) as SixDiceOdds
    expect(odds.win?.exact).toBe(true)
    const reach = reachValues(FARKLE_TABLE, 850, 0, 800, 0.5)
    expect(odds.roll?.win).toBeCloseTo(reach.rollValue(5, 100), 6)
    expect(odds.bank?.win).toBe(0)
  })

  it('without a table: no chances, and the reason; one player: neither', () => {
    const solving: WinTableSource = { table: () => null, status: () => 'the table for these rules is 45% solved' }
    const odds = oddsFor(gameOf(header, [{ roll: [1, 5, 2, 2, 3, 6] }]), solving) as SixDiceOdds
    expect(odds.win).toBeUndefined()
    expect(odds.keeps?.every((k) => k.win === undefined)).toBe(true)
    expect(odds.winStatus).toBe('Chance to win: not known yet, the table for these rules is 45% solved')
    const high = oddsFor(gameOf({ ...header, rules: { target: 50_000, entry: 0 } }), solving) as SixDiceOdds
    expect(high.winStatus).toBe('Chance to win: not worked out for a target this high')
    const solo = oddsFor(gameOf({ game: 'fouche', players: ['Ann'] }), solving) as SixDiceOdds
    expect(solo.win).toBeUndefined()
    expect(solo.winStatus).toBeUndefined()
  })

  it('more than two players: the leading opponent stands for all, and the odds say it is a model', () => {
    const game = withState(gameOf({ ...header, players: ['Ann', 'Bob', 'Cy'] }, [{ roll: [1, 5, 2, 2, 3, 6] }]), { scores: [300, 650, 400] })
    const odds = oddsFor(game, wins) as SixDiceOdds
    expect(odds.win?.exact).toBe(false)
    expect(odds.win?.basis).toMatch(/leading opponent/)
    expect(odds.keeps?.[0].win).toBeCloseTo(new WinTurn(table, 0, 6, 13).value(4, 9), 6)
  })
})
