import { describe, expect, it } from 'vitest'
import { SequenceOrderer, SequenceTracker, seqDistance } from '@shared/protocol'

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

describe('SequenceOrderer', () => {
  it('puts swapped neighbours back in order, drops duplicates and lines behind', () => {
    const o = new SequenceOrderer<string>()
    expect(o.accept(10, 'a').ready).toEqual(['a'])
    expect(o.accept(12, 'c')).toMatchObject({ ready: [], held: true, lost: 0 })
    expect(o.accept(11, 'b')).toMatchObject({ ready: ['b', 'c'], lost: 0, outOfSequence: 0 })
    expect(o.accept(12, 'c')).toMatchObject({ ready: [], duplicate: true })
    expect(o.accept(5, 'old')).toMatchObject({ ready: [], behind: true })
    expect(o.last).toBe(12)
  })

  it('counts a gap as lost only once three lines in a row continue it', () => {
    const o = new SequenceOrderer<number>()
    o.accept(100, 100)
    expect(o.accept(105, 105)).toMatchObject({ held: true, lost: 0 })
    expect(o.accept(106, 106)).toMatchObject({ held: true, lost: 0 })
    expect(o.accept(107, 107)).toMatchObject({ ready: [105, 106, 107], lost: 4 })
    expect(o.last).toBe(107)
  })

  it('drops noise that passed the checksum: the device’s next line continues the old numbers', () => {
    const o = new SequenceOrderer<string>()
    o.accept(0, 'hello')
    expect(o.accept(30000, 'noise').held).toBe(true)
    expect(o.accept(1, 'real')).toMatchObject({ ready: ['real'], outOfSequence: 0 })
    // Noise held longest is dropped when the window is full, and counted.
    let dropped = 0
    for (let i = 0; i < 20; i++) dropped += o.accept(20000 + i * 7, `n${i}`).outOfSequence
    expect(dropped).toBe(20 + 1 - 8)
    expect(o.holding).toBe(8)
    expect(o.accept(2, 'real 2').ready).toEqual(['real 2'])
    expect(o.reset(0)).toBe(8)
  })
})
