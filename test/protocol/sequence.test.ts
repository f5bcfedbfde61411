import { describe, expect, it } from 'vitest'
import { SequenceTracker, seqDistance } from '../../src/shared/protocol'

describe('SequenceTracker', () => {
  it('classifies next, duplicate, gap and stale, wrapping at 65535', () => {
    const t = new SequenceTracker()
    expect(t.accept(65533)).toEqual({ kind: 'first' })
    expect(t.accept(65534)).toEqual({ kind: 'next' })
    expect(t.accept(65534)).toEqual({ kind: 'duplicate' })
    expect(t.accept(65535)).toEqual({ kind: 'next' })
    expect(t.accept(0)).toEqual({ kind: 'next' })
    expect(t.accept(3)).toEqual({ kind: 'gap', missed: 2 })
    expect(t.accept(2)).toEqual({ kind: 'stale' })
    expect(t.last).toBe(3)
    t.reset()
    expect(t.accept(0)).toEqual({ kind: 'first' })
  })

  it('measures distance modulo 65536', () => {
    expect(seqDistance(65535, 0)).toBe(1)
    expect(seqDistance(10, 5)).toBe(65531)
    expect(seqDistance(7, 7)).toBe(0)
  })
})
