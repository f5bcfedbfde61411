// @vitest-environment happy-dom
// Small pieces of issue 12 on single components: the odds panel's lines, the log's dice.
import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import OddsPanel from '@renderer/table/OddsPanel.vue'
import GameLog from '@renderer/table/GameLog.vue'
import { soundFor } from '@renderer/lib/sound'
import type { FoursiesOdds } from '@shared/games/foursies/odds'

describe('issue 12 on the components', () => {
  it('the odds panel does not repeat its only line under the headline', () => {
    const throwOnly: FoursiesOdds = {
      game: 'foursies',
      finished: false,
      player: 'Ann',
      phase: 'turn',
      policy: 'p',
      throw: { text: 'Ann throws: 31% to finish on 4' } as FoursiesOdds['throw'],
      text: 'Ann throws: 31% to finish on 4'
    } as FoursiesOdds
    const wrapper = mount(OddsPanel, { props: { odds: throwOnly } })
    expect(wrapper.find('[data-testid="odds-text"]').text()).toBe('Ann throws: 31% to finish on 4')
    expect(wrapper.findAll('[data-testid="odds-line"]')).toHaveLength(0)
  })

  it('every log line of a throw shows its dice (the throw line itself already names them)', () => {
    const wrapper = mount(GameLog, {
      props: {
        entries: [
          { line: 2, text: 'Ann scores a 4 and has 1', kind: 'score', seat: 0, dice: '4 2 3 3' },
          { line: 2, text: 'Ann ends the turn on 1', kind: 'turnEnd', seat: 0, dice: '4 2 3 3' },
          { line: 3, text: 'Bob throws 1 5 2 3 4 6', kind: 'throw', seat: 1, dice: '1 5 2 3 4 6' },
          { line: 4, text: 'Bob keeps 1 5', kind: 'keep', seat: 1 }
        ]
      }
    })
    const entries = wrapper.findAll('[data-testid="log-entry"]').map((entry) => ({
      line: entry.attributes('data-line'),
      dice: entry.find('[data-testid="log-dice"]').exists() ? entry.find('[data-testid="log-dice"]').text() : null
    }))
    expect(entries).toEqual([
      { line: '4', dice: null },
      { line: '3', dice: null },
      { line: '2', dice: '4 2 3 3' },
      { line: '2', dice: '4 2 3 3' }
    ])
  })

  it('sounds: the loudest event of a line, a four only in Foursies', () => {
    const entry = (kind: string) => ({ line: 2, text: kind, kind })
    expect(soundFor([entry('score'), entry('foursies')], 'foursies')).toBe('foursies')
    expect(soundFor([entry('score')], 'foursies')).toBe('four')
    expect(soundFor([entry('score')], 'four-plus')).toBeNull()
    expect(soundFor([entry('bust')], 'foursies')).toBe('bust')
    expect(soundFor([entry('farkle')], 'farkle')).toBe('farkle')
    expect(soundFor([entry('keep'), entry('hotDice')], 'farkle')).toBe('hotDice')
    expect(soundFor([entry('gameOver')], 'fouche')).toBe('win')
    expect(soundFor([entry('turn')], 'foursies')).toBeNull()
  })
})
