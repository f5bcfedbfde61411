// @vitest-environment happy-dom
import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import OddsPanel from '@renderer/table/OddsPanel.vue'
import type { SixDiceOdds } from '@shared/games/six-dice/odds'

const keepOdds: SixDiceOdds = {
  game: 'farkle',
  finished: false,
  player: 'Ann',
  policy: 'p',
  step: 'keep',
  turnPoints: 300,
  entryNeeded: 0,
  expected: 420,
  keeps: [
    { move: { keep: [1, 5] }, label: 'Keep 1 5 (150)', points: 150, diceLeft: 2, expected: 420, best: true, text: 'Keep 1 5 (150): worth 420 on average', win: 0.03, bestToWin: false },
    { move: { keep: [5] }, label: 'Keep 5 (50)', points: 50, diceLeft: 3, expected: 400, best: false, text: 'Keep 5 (50): worth 400 on average', win: 0.42, bestToWin: true }
  ],
  win: { exact: true, basis: 'both players playing to win from here (solved exactly)' },
  text: 'Best keep: Keep 1 5 (150)'
}

const lines = (odds: SixDiceOdds): string[] =>
  mount(OddsPanel, { props: { odds } })
    .findAll('[data-testid="odds-line"]')
    .map((line) => line.text())

describe('the odds panel: chance to win beside the expected points (Farkle, Fouche)', () => {
  it('shows each keep with its chance to win and marks the best one to win', () => {
    const wrapper = mount(OddsPanel, { props: { odds: keepOdds } })
    const shown = wrapper.findAll('[data-testid="odds-line"]')
    expect(shown.map((line) => line.text())).toEqual([
      'Keep 1 5 (150): worth 420 on average · 3% to win',
      'Keep 5 (50): worth 400 on average · 42% to winbest to win',
      'Chance to win: both players playing to win from here (solved exactly)'
    ])
    expect(shown[0].classes()).toContain('odds__line--best')
    expect(shown[1].find('[data-testid="odds-best-to-win"]').exists()).toBe(true)
  })

  it('shows bank and throw with their chances at a bank-or-throw decision', () => {
    const odds: SixDiceOdds = {
      ...keepOdds,
      step: 'choose',
      keeps: undefined,
      roll: { dice: 2, farkle: 0.44, expected: 380, win: 0.417 },
      bank: { allowed: true, points: 1300, win: 0.029 },
      recommend: 'bank'
    }
    expect(lines(odds)).toEqual(['Bank 1,300 · 3% to win', 'Throw 2 dice · 42% to winbest to win', 'Chance to win: both players playing to win from here (solved exactly)'])
  })

  it('says why the chance to win is missing while the table is solved', () => {
    const odds: SixDiceOdds = { ...keepOdds, win: undefined, winStatus: 'Chance to win: not known yet, the table for these rules is 45% solved', keeps: [{ ...keepOdds.keeps![0], win: undefined, bestToWin: undefined }] }
    expect(lines(odds)).toEqual(['Keep 1 5 (150): worth 420 on average', 'Chance to win: not known yet, the table for these rules is 45% solved'])
  })
})
