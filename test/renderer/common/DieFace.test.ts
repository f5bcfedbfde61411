// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import DieFace from '@renderer/common/DieFace.vue'

/** The centres of the circles a pip path draws (each starts one radius left of its centre). */
function pipCentres(path: string): string[] {
  return [...path.matchAll(/M([\d.]+) ([\d.]+)a9\.5 9\.5 0 1 0 19 0a9\.5 9\.5 0 1 0 -19 0/g)].map(([, x, y]) => `${Number(x) + 9.5},${y}`)
}

describe('DieFace', () => {
  it('draws as many pips as the value, in the usual places, the one in red', () => {
    const expected: Record<number, string[]> = {
      1: ['50,50'],
      2: ['27,27', '73,73'],
      3: ['27,27', '50,50', '73,73'],
      4: ['27,27', '73,27', '27,73', '73,73'],
      5: ['27,27', '73,27', '50,50', '27,73', '73,73'],
      6: ['27,27', '27,50', '27,73', '73,27', '73,50', '73,73']
    }
    for (const [value, centres] of Object.entries(expected)) {
      const pips = mount(DieFace, { props: { value: Number(value) } }).find('path.die__pip')
      expect(pipCentres(pips.attributes('d')!)).toEqual(centres)
      expect(pips.classes('die__pip--one')).toBe(value === '1')
    }
  })

  it('changes only the path when the value changes, and shows a number for a face it has no pips for', async () => {
    const die = mount(DieFace, { props: { value: 3, fresh: true } })
    const path = die.find('path.die__pip').element
    await die.setProps({ value: 6 })
    expect(die.find('path.die__pip').element).toBe(path)
    expect(pipCentres(die.find('path.die__pip').attributes('d')!)).toHaveLength(6)
    expect(die.attributes('aria-label')).toBe('6, just thrown')
    await die.setProps({ value: 8 })
    expect(die.find('path.die__pip').exists()).toBe(false)
    expect(die.find('text').text()).toBe('8')
  })
})
