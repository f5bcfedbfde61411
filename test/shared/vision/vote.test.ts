import { describe, expect, it } from 'vitest'
import { voteReadings } from '@shared/vision/vote'
import type { DieReading, FrameReading } from '@shared/vision/types'

const at = (x: number, value: DieReading['value'], confidence = 0.95): DieReading => ({ value, confidence: value === null ? 0 : confidence, box: [x, 100, 40, 40], ...(value === null ? { unreadable: 'cocked' as const } : {}) })
const frame = (...dice: DieReading[]): FrameReading => ({ dice, tray: null })

describe('the vote over still frames', () => {
  it('keeps a die every frame agrees on, with its confidence', () => {
    const voted = voteReadings([frame(at(0, 3), at(200, 5)), frame(at(2, 3), at(201, 5)), frame(at(1, 3), at(199, 5))])
    expect(voted.dice.map((d) => [d.value, d.confidence])).toEqual([
      [3, 0.95],
      [5, 0.95]
    ])
  })

  it('lowers the confidence of a die the frames disagree on below the sure mark', () => {
    const voted = voteReadings([frame(at(0, 3)), frame(at(0, 3)), frame(at(0, 2))])
    expect(voted.dice[0].value).toBe(3)
    expect(voted.dice[0].confidence).toBeCloseTo(0.633, 3)
  })

  it('leaves unreadable a die most frames found unreadable', () => {
    const voted = voteReadings([frame(at(0, null)), frame(at(0, 4)), frame(at(0, null))])
    expect(voted.dice[0]).toMatchObject({ value: null, confidence: 0, unreadable: 'cocked' })
  })

  it('drops what only one frame of three saw', () => {
    const voted = voteReadings([frame(at(0, 3)), frame(at(0, 3), at(300, 6)), frame(at(0, 3))])
    expect(voted.dice).toHaveLength(1)
  })
})
