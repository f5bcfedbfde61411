import { describe, expect, it } from 'vitest'
import { scorePhoto, summarize, wilson } from '@shared/vision/eval'
import type { DieReading } from '@shared/vision/types'

const die = (value: DieReading['value'], confidence = 1): DieReading => ({ value, confidence: value === null ? 0 : confidence, box: [0, 0, 10, 10] })

describe('scoring a photo against its true values', () => {
  it('counts dice matched by value, whatever their order', () => {
    expect(scorePhoto([3, 5, 5], [die(5), die(3), die(5)])).toEqual({ dice: 3, right: 3, wrong: 0, unread: 0, throwRight: true })
  })

  it('counts a die read with low confidence as left unread, not wrong', () => {
    expect(scorePhoto([3, 5], [die(3), die(6, 0.4)])).toEqual({ dice: 2, right: 1, wrong: 0, unread: 1, throwRight: false })
  })

  it('counts a confident misread as wrong, and a missed die as unread', () => {
    expect(scorePhoto([3, 5, 2], [die(3), die(6)])).toEqual({ dice: 3, right: 1, wrong: 1, unread: 1, throwRight: false })
  })

  it('counts a null die right when left unread and wrong when given a confident value', () => {
    expect(scorePhoto([4, null], [die(4), die(null)])).toEqual({ dice: 2, right: 2, wrong: 0, unread: 0, throwRight: true })
    expect(scorePhoto([4, null], [die(4)])).toEqual({ dice: 2, right: 2, wrong: 0, unread: 0, throwRight: true })
    expect(scorePhoto([4, null], [die(4), die(2)])).toEqual({ dice: 2, right: 1, wrong: 1, unread: 0, throwRight: false })
  })

  it('counts a die read that is not there against the throw', () => {
    const score = scorePhoto([4], [die(4), die(2)])
    expect(score.right).toBe(1)
    expect(score.throwRight).toBe(false)
  })
})

describe('Wilson intervals', () => {
  it('match published values', () => {
    // 95 % Wilson interval of 8 of 10: 0.490 to 0.943.
    const share = wilson(8, 10)
    expect(share.low).toBeCloseTo(0.4902, 3)
    expect(share.high).toBeCloseTo(0.9433, 3)
    expect(wilson(0, 50).low).toBe(0)
    expect(wilson(0, 50).high).toBeCloseTo(0.0713, 3)
  })

  it('sum up photos', () => {
    const summary = summarize([scorePhoto([1, 2], [die(1), die(2)]), scorePhoto([3], [die(4)])])
    expect(summary.dice).toBe(3)
    expect(summary.right.count).toBe(2)
    expect(summary.wrongConfident.count).toBe(1)
    expect(summary.throwsRight.count).toBe(1)
  })
})
