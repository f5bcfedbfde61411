// @vitest-environment happy-dom
import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import DiceToThrow from '@renderer/devices/DiceToThrow.vue'
import DiceDisagreement from '@renderer/devices/DiceDisagreement.vue'
import type { SmartDiceView } from '@shared/devices'

const die = (id: string, colour: string, role: 'throw' | 'hold' | 'idle', record: number | null, face: number | null, agrees = true) => ({
  device: 'DRH-1',
  die: id,
  name: `${id} (${colour})`,
  colour,
  role,
  record,
  face,
  seat: null,
  agrees
})

const view: SmartDiceView = {
  toThrow: 'Throw B (blue) and C (white)',
  dice: [die('A', 'red', 'hold', 4, 5, false), die('B', 'blue', 'throw', 2, 2), die('C', 'white', 'throw', 6, 6), die('D', 'green', 'hold', 3, 3)],
  disagreements: ['Die A (red) holds the 4 that scored: put it back on 4'],
  note: null
}

describe('smart dice on the table screen and the TV', () => {
  it('names the dice to throw and shows each die’s record next to what it shows', () => {
    const wrapper = mount(DiceToThrow, { props: { view } })
    expect(wrapper.get('[data-testid="dice-to-throw-call"]').text()).toBe('Throw B (blue) and C (white)')
    const a = wrapper.get('[data-testid="smart-die-A"]')
    expect(a.attributes('data-role')).toBe('hold')
    expect(a.attributes('data-agrees')).toBe('false')
    expect(a.text()).toContain('4≠5')
    expect(wrapper.get('[data-testid="smart-die-B"]').text()).toContain('throw')
    // The chips' signs are explained beside them.
    const legend = wrapper.get('[data-testid="dice-legend"]').text()
    for (const sign of ['4·2', '≠', '–', 'throw', 'stays']) expect(legend).toContain(sign)
    expect(legend).toContain('the record gives the die 4, it shows 2')
  })

  it('shows the computer’s note instead of dice to throw', () => {
    const wrapper = mount(DiceToThrow, { props: { view: { ...view, toThrow: '', note: 'Robo (computer) throws virtual dice: the smart dice are not used' } } })
    expect(wrapper.find('[data-testid="dice-to-throw-call"]').exists()).toBe(false)
    expect(wrapper.get('[data-testid="dice-to-throw-note"]').text()).toMatch(/Robo \(computer\)/)
  })

  it('says the dice disagree with the record until they agree again', () => {
    const wrapper = mount(DiceDisagreement, { props: { view, variant: 'tv' } })
    expect(wrapper.get('[data-testid="dice-disagreement"]').text()).toContain('Die A (red) holds the 4 that scored: put it back on 4')
    expect(wrapper.get('[data-testid="dice-disagreement"]').classes()).toContain('dice-disagreement--tv')
    const agreeing = mount(DiceDisagreement, { props: { view: { ...view, disagreements: [] } } })
    expect(agreeing.find('[data-testid="dice-disagreement"]').exists()).toBe(false)
  })
})
