import { describe, expect, it } from 'vitest'
import { fitLayout, PIP_LAYOUTS } from '@shared/vision/layout'
import type { DieValue } from '@shared/vision/types'

type Xy = [number, number]
/** A layout as a camera would see it: turned, scaled, moved, pips listed in a shuffled order. */
function seen(value: DieValue, { angle = 0.4, side = 40, at = [200, 120] as Xy, squashY = 1, jitter = 0 } = {}): Xy[] {
  const pips = PIP_LAYOUTS[value].map(([x, y], i) => {
    const sx = x * side
    const sy = y * side * squashY
    const wobble = jitter * Math.sin(i * 12.9898 + value)
    return [at[0] + sx * Math.cos(angle) - sy * Math.sin(angle) + wobble, at[1] + sx * Math.sin(angle) + sy * Math.cos(angle) - wobble] as Xy
  })
  return pips.reverse()
}

describe('the pip layout check', () => {
  it('recognises each face at any turn, with its side and centre', () => {
    for (const value of [1, 2, 3, 4, 5, 6] as DieValue[]) {
      for (const angle of [0, 0.3, Math.PI / 4, 1.2, 2.5]) {
        const fit = fitLayout(seen(value, { angle }))!
        expect(fit.value).toBe(value)
        expect(fit.error).toBeLessThan(1e-9)
        if (value > 1) expect(fit.side).toBeCloseTo(40, 6)
        expect(fit.centre[0]).toBeCloseTo(200, 6)
        expect(fit.centre[1]).toBeCloseTo(120, 6)
      }
    }
  })

  it('tolerates pips a little off, and measures how far off', () => {
    const fit = fitLayout(seen(6, { jitter: 1.2 }))!
    expect(fit.error).toBeGreaterThan(0.005)
    expect(fit.error).toBeLessThan(0.06)
  })

  it('says how far a layout is from any face: three pips in an L, four in a line, a 5 with its centre pip off', () => {
    expect(fitLayout([[0, 0], [10, 0], [0, 10]])!.error).toBeGreaterThan(0.15)
    expect(fitLayout([[0, 0], [10, 0], [20, 0], [30, 0]])!.error).toBeGreaterThan(0.15)
    const five = seen(5, { angle: 0 })
    const centre = five.findIndex(([x, y]) => Math.abs(x - 200) < 1e-6 && Math.abs(y - 120) < 1e-6)
    five[centre] = [200 + 9, 120]
    expect(fitLayout(five)!.error).toBeGreaterThan(0.08)
  })

  it('measures the squash of a face seen tilted (a cocked die) from four pips up', () => {
    expect(fitLayout(seen(4))!.squash).toBeCloseTo(1, 6)
    expect(fitLayout(seen(6, { squashY: Math.cos(0.5) }))!.squash).toBeCloseTo(Math.cos(0.5), 2)
    expect(fitLayout(seen(5, { squashY: 0.8 }))!.squash).toBeLessThan(0.85)
  })

  it('has no face for no pips or more than six', () => {
    expect(fitLayout([])).toBeNull()
    expect(fitLayout(Array.from({ length: 7 }, (_, i) => [i, i * i] as Xy))).toBeNull()
  })
})
