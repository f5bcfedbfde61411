import { describe, it, expect } from 'vitest'
import fc from 'fast-check'
import { fourPlus } from '@shared/games/four-plus'
import { classifyThrow, flashOutcome, type FourPlusEvent, type FourPlusState } from '@shared/games/four-plus/rules'
import type { Move } from '@shared/games/types'

// Throws used throughout. None of the "nothing" throws holds a pair or two 1s.
const NIL = [2, 3, 5, 6] // nothing
const ONE = [1, 2, 3, 5] // a single 1: nothing
const TWO_ONES = [1, 1, 2, 3] // turn ends
const THREE_ONES = [1, 1, 1, 2] // turn ends, penalty
const FOUR_ONES = [1, 1, 1, 1] // out
const FOUR_FOURS = [4, 4, 4, 4] // 4 points + extra
const FOUR_FIVES = [5, 5, 5, 5] // 5 points
const THREE_TWOS = [2, 2, 2, 6] // 3 points
const PAIR = [3, 3, 2, 5] // extra once per turn
const TWO_PAIRS = [3, 3, 5, 5] // counts as a pair

const AB = ['Ann', 'Bob']
const ABC = ['Ann', 'Bob', 'Cy']

interface Folded {
  state: FourPlusState
  /** Every event, in order. */
  events: FourPlusEvent[]
  /** The events of the last throw only. */
  last: FourPlusEvent[]
}

/** Folds throws from init; every throw must be accepted. */
function fold(players: string[], throws: number[][], rounds = 3, from?: FourPlusState): Folded {
  let state = from ?? fourPlus.init(players, { rounds })
  const events: FourPlusEvent[] = []
  let last: FourPlusEvent[] = []
  throws.forEach((values, i) => {
    const applied = fourPlus.apply(state, { roll: values })
    if (!applied.ok) throw new Error(`throw #${i + 1} ${JSON.stringify(values)} refused: ${applied.error}`)
    state = applied.state
    events.push(...applied.events)
    last = applied.events
  })
  return { state, events, last }
}

const times = (n: number, values: number[]): number[][] => Array.from({ length: n }, () => values)
const kinds = (events: FourPlusEvent[]): string[] => events.map((e) => e.kind)
const say = (events: FourPlusEvent[], players = AB): string[] => events.map((e) => fourPlus.describe(e, players))
const toPlay = (s: FourPlusState): number | null => fourPlus.offer(s).toPlay

describe('classifyThrow: scoring rows, first match wins', () => {
  it('row 1: four 1s put the player out', () => {
    expect(classifyThrow([1, 1, 1, 1])).toMatchObject({ kind: 'fourOnes', points: 0, out: true, endsTurn: true })
  })
  it('row 2: three 1s end the turn with a penalty', () => {
    expect(classifyThrow([1, 1, 4, 1])).toMatchObject({ kind: 'threeOnes', points: 0, endsTurn: true, penalty: true, out: false })
  })
  it('row 3: two 1s end the turn, even beside a pair of another face', () => {
    expect(classifyThrow([1, 4, 1, 6])).toMatchObject({ kind: 'twoOnes', endsTurn: true, penalty: false })
    expect(classifyThrow([1, 5, 1, 5])).toMatchObject({ kind: 'twoOnes', extra: 'none' })
  })
  it('row 4: four 4s are 4 points and an extra throw every time (not four of a kind)', () => {
    expect(classifyThrow([4, 4, 4, 4])).toEqual({ kind: 'fourFours', points: 4, extra: 'always', endsTurn: false, penalty: false, out: false })
  })
  it('row 5: four of a kind (not 1s) is 5 points', () => {
    for (const face of [2, 3, 5, 6]) {
      expect(classifyThrow([face, face, face, face])).toEqual({ kind: 'fourOfAKind', points: 5, extra: 'none', endsTurn: false, penalty: false, out: false })
    }
  })
  it('row 6: three of a kind (not 1s) is 3 points and no pair extra', () => {
    expect(classifyThrow([6, 2, 6, 6])).toMatchObject({ kind: 'threeOfAKind', points: 3, extra: 'none' })
    expect(classifyThrow([4, 4, 1, 4])).toMatchObject({ kind: 'threeOfAKind', points: 3, extra: 'none' })
  })
  it('row 7: a pair (not 1s), two pairs included, earns an extra once per turn', () => {
    expect(classifyThrow([2, 5, 3, 5])).toMatchObject({ kind: 'pair', points: 0, extra: 'oncePerTurn' })
    expect(classifyThrow([3, 5, 3, 5])).toMatchObject({ kind: 'pair', points: 0, extra: 'oncePerTurn' })
    expect(classifyThrow([1, 6, 6, 2])).toMatchObject({ kind: 'pair', extra: 'oncePerTurn' })
  })
  it('row 8: anything else, a single 1 included, is nothing', () => {
    expect(classifyThrow([1, 2, 3, 4])).toEqual({ kind: 'nothing', points: 0, extra: 'none', endsTurn: false, penalty: false, out: false })
    expect(classifyThrow([6, 5, 4, 3]).kind).toBe('nothing')
  })
  it('refuses anything but four dice 1-6', () => {
    expect(() => classifyThrow([1, 2, 3])).toThrow('4 dice are due, not 3')
    expect(() => classifyThrow([1, 2, 3, 7])).toThrow(RangeError)
  })
  it('agrees with a brute-force reading of the page on all 1296 throws', () => {
    let checked = 0
    for (let a = 1; a <= 6; a++)
      for (let b = 1; b <= 6; b++)
        for (let c = 1; c <= 6; c++)
          for (let d = 1; d <= 6; d++) {
            const v = [a, b, c, d]
            const count = (f: number) => v.filter((x) => x === f).length
            const most = Math.max(...[2, 3, 4, 5, 6].map(count))
            const expected =
              count(1) === 4 ? 'fourOnes'
              : count(1) === 3 ? 'threeOnes'
              : count(1) === 2 ? 'twoOnes'
              : count(4) === 4 ? 'fourFours'
              : most === 4 ? 'fourOfAKind'
              : most === 3 ? 'threeOfAKind'
              : most === 2 ? 'pair'
              : 'nothing'
            expect(classifyThrow(v).kind).toBe(expected)
            checked++
          }
    expect(checked).toBe(1296)
  })
})

describe('flashOutcome: flash round throws', () => {
  it('four 4s win at once', () => {
    expect(flashOutcome([4, 4, 4, 4])).toEqual({ kind: 'fourFours', wins: true, out: false, score: 0 })
  })
  it('two or more 1s, or two or more 6s, are out', () => {
    expect(flashOutcome([1, 1, 2, 3])).toEqual({ kind: 'ones', wins: false, out: true, score: 0 })
    expect(flashOutcome([1, 1, 1, 1])).toMatchObject({ kind: 'ones', out: true })
    expect(flashOutcome([6, 2, 6, 3])).toEqual({ kind: 'sixes', wins: false, out: true, score: 0 })
    expect(flashOutcome([6, 6, 6, 6])).toMatchObject({ kind: 'sixes', out: true })
    expect(flashOutcome([1, 6, 1, 6])).toMatchObject({ kind: 'ones', out: true })
  })
  it('one 1 and one 6 are safe', () => {
    expect(flashOutcome([1, 6, 2, 3])).toEqual({ kind: 'nothing', wins: false, out: false, score: 0 })
    expect(flashOutcome([1, 6, 3, 3])).toEqual({ kind: 'pair', wins: false, out: false, score: 1 })
  })
  it('flash scores: four of a kind 5, three of a kind 3, a pair 1, else 0', () => {
    expect(flashOutcome([2, 2, 2, 2]).score).toBe(5)
    expect(flashOutcome([5, 5, 5, 2]).score).toBe(3)
    expect(flashOutcome([4, 4, 4, 1]).score).toBe(3)
    expect(flashOutcome([3, 3, 2, 5]).score).toBe(1)
    expect(flashOutcome([3, 3, 5, 5]).score).toBe(1)
    expect(flashOutcome([2, 3, 4, 5]).score).toBe(0)
  })
})

describe('scoring a throw in a turn', () => {
  it('four 1s: out at once, the turn passes, and the player is skipped from then on', () => {
    const r = fold(ABC, [FOUR_ONES])
    expect(r.state.out).toEqual([true, false, false])
    expect(kinds(r.last)).toEqual(['out', 'turn'])
    expect(r.last[0]).toMatchObject({ kind: 'out', seat: 0, cause: 'fourOnes', announce: 'Out!' })
    expect(say(r.last, ABC)[0]).toBe('Four 1s! Ann is out')
    expect(toPlay(r.state)).toBe(1)
    const later = fold(ABC, [...times(3, NIL), ...times(3, NIL)], 3, r.state)
    expect(later.state.round).toBe(2)
    expect(toPlay(later.state)).toBe(1) // round 2 starts with Bob: Ann is out
  })

  it('four 1s: the last player left in wins at once, even on 0', () => {
    const r = fold(AB, [FOUR_ONES])
    expect(fourPlus.offer(r.state)).toEqual({ finished: true, toPlay: null, throwers: [], diceDue: 0, decisions: [], blocked: [] })
    expect(fourPlus.summary(r.state)).toEqual({
      game: 'four-plus',
      finished: true,
      winners: ['Bob'],
      players: [
        { name: 'Ann', score: 0, out: true },
        { name: 'Bob', score: 0, out: false }
      ],
      toPlay: null
    })
    expect(r.last.at(-1)).toMatchObject({ kind: 'win', seat: 1, cause: 'lastIn', announce: 'Bob' })
    expect(say(r.last)).toEqual(['Four 1s! Ann is out', 'Bob wins'])
  })

  it('four 1s mid-round: when only one player is left in, the rest of the round is not played', () => {
    const r = fold(ABC, [THREE_TWOS, NIL, NIL, FOUR_ONES])
    expect(fourPlus.summary(r.state)).toMatchObject({ finished: false, winners: [], toPlay: 'Cy' })
    const r2 = fold(ABC, [FOUR_ONES], 3, r.state)
    expect(fourPlus.summary(r2.state)).toMatchObject({ finished: true, winners: ['Ann'], toPlay: null })
    const s = fold(ABC, [FOUR_ONES, FOUR_ONES])
    expect(fourPlus.summary(s.state)).toMatchObject({ finished: true, winners: ['Cy'], toPlay: null })
    expect(s.state.scores).toEqual([0, 0, 0])
  })

  it('three 1s: the turn ends and the next turn, in the next round, has one throw fewer', () => {
    const r = fold(AB, [THREE_ONES])
    expect(r.last[0]).toEqual({ kind: 'threeOnes', seat: 0, penalty: true })
    expect(say(r.last)[0]).toBe('Three 1s: Ann loses a throw next round')
    expect(toPlay(r.state)).toBe(1)
    expect(r.state.penalty).toEqual([true, false])
    expect(fourPlus.table(r.state).notes).toEqual({ 0: '1 throw fewer next round' })
    const r2 = fold(AB, times(3, NIL), 3, r.state) // Bob's turn, then round 2
    expect(r2.state.round).toBe(2)
    expect(fourPlus.offer(r2.state)).toMatchObject({ toPlay: 0, throwNote: 'Throw 1 of 2 (1 throw fewer)' })
    expect(fourPlus.table(r2.state).notes).toEqual({ 0: '1 throw fewer this turn' })
    expect(r2.last.at(-1)).toEqual({ kind: 'turn', seat: 0, round: 2, throws: 2 })
    const r3 = fold(AB, times(2, NIL), 3, r2.state)
    expect(toPlay(r3.state)).toBe(1) // two throws and Ann's turn is over
    const r4 = fold(AB, times(3, NIL), 3, r3.state)
    expect(r4.state.round).toBe(3)
    expect(r4.state.throwsLeft).toBe(3) // spent: round 3 has three throws again
    expect(fourPlus.offer(r4.state).throwNote).toBe('Throw 1 of 3')
  })

  it('three 1s by a later seat: the penalty shows as "this round" once the next round starts', () => {
    const r = fold(AB, [NIL, NIL, NIL, THREE_ONES])
    expect(r.state.round).toBe(2)
    expect(toPlay(r.state)).toBe(0)
    expect(fourPlus.table(r.state).notes).toEqual({ 1: '1 throw fewer this round' })
  })

  it('three 1s: a penalised turn still earns its extra throws (2 + pair + four 4s)', () => {
    const start = fold(AB, [THREE_ONES, NIL, NIL, NIL]).state // round 2, Ann on 2 throws
    const r = fold(AB, [PAIR, FOUR_FOURS, NIL, NIL], 3, start)
    expect(toPlay(r.state)).toBe(1)
    expect(r.state.scores).toEqual([4, 0])
    const one = fold(AB, [PAIR, FOUR_FOURS, NIL], 3, start)
    expect(toPlay(one.state)).toBe(0) // 2 + 2 extras = 4 throws
    expect(fourPlus.offer(one.state).throwNote).toBe('Throw 4 of 4 (1 throw fewer, 2 extra)')
  })

  it('three 1s: the penalty does not stack; three 1s again in the penalised turn means 2 throws again', () => {
    const start = fold(AB, [THREE_ONES, NIL, NIL, NIL, THREE_ONES, NIL, NIL, NIL]).state
    expect(start.round).toBe(3)
    expect(start.throwsLeft).toBe(2)
    expect(fourPlus.offer(start).throwNote).toBe('Throw 1 of 2 (1 throw fewer)')
  })

  it('three 1s: no penalty after the last round (the turn just ends)', () => {
    const r = fold(ABC, [THREE_ONES], 1)
    expect(r.last[0]).toEqual({ kind: 'threeOnes', seat: 0, penalty: false })
    expect(say(r.last, ABC)[0]).toBe("Three 1s: Ann's turn ends")
    expect(r.state.penalty).toEqual([false, false, false])
    expect(fourPlus.table(r.state).notes).toEqual({})
    const twoRounds = fold(AB, [...times(6, NIL), THREE_ONES], 2)
    expect(twoRounds.state.round).toBe(2)
    expect(twoRounds.state.penalty).toEqual([false, false])
  })

  it('two 1s: the turn ends, points already made stay', () => {
    const r = fold(AB, [THREE_TWOS, TWO_ONES])
    expect(r.last[0]).toEqual({ kind: 'twoOnes', seat: 0 })
    expect(say(r.last)[0]).toBe("Two 1s: Ann's turn ends")
    expect(toPlay(r.state)).toBe(1)
    expect(r.state.scores).toEqual([3, 0])
    expect(r.state.penalty).toEqual([false, false])
  })

  it('four 4s: 4 points and one extra throw, every time', () => {
    const r = fold(AB, [FOUR_FOURS, FOUR_FOURS, FOUR_FOURS, NIL, NIL])
    expect(r.state.scores).toEqual([12, 0])
    expect(toPlay(r.state)).toBe(0) // 3 + 3 extras = 6 throws; 5 taken
    expect(fourPlus.offer(r.state).throwNote).toBe('Throw 6 of 6 (3 extra)')
    const first = fold(AB, [FOUR_FOURS])
    expect(first.last).toEqual([
      { kind: 'score', seat: 0, combo: 'fourFours', points: 4, total: 4, announce: 'Four 4s!' },
      { kind: 'extra', seat: 0, cause: 'fourFours' }
    ])
    expect(say(first.last)).toEqual(['Ann throws four 4s: 4 points, 4 in all', 'Four 4s! Ann gets an extra throw'])
    const done = fold(AB, [NIL], 3, r.state)
    expect(toPlay(done.state)).toBe(1)
  })

  it('four of a kind: 5 points, no extra throw', () => {
    const r = fold(AB, [FOUR_FIVES, [6, 6, 6, 6], NIL])
    expect(r.state.scores).toEqual([10, 0])
    expect(toPlay(r.state)).toBe(1)
  })

  it('three of a kind: 3 points, running total counted at once, no pair extra', () => {
    const r = fold(AB, [THREE_TWOS, [5, 5, 5, 1]])
    expect(r.state.scores).toEqual([6, 0])
    expect(r.state.turnPoints).toBe(6)
    expect(r.last).toEqual([{ kind: 'score', seat: 0, combo: 'threeOfAKind', points: 3, total: 6 }])
    expect(say(r.last)).toEqual(['Ann throws three of a kind: 3 points, 6 in all'])
    const done = fold(AB, [THREE_TWOS], 3, r.state)
    expect(toPlay(done.state)).toBe(1)
    expect(done.state.scores).toEqual([9, 0])
  })

  it('a pair: one extra throw, at most once per turn', () => {
    const r = fold(AB, [PAIR])
    expect(r.last).toEqual([{ kind: 'extra', seat: 0, cause: 'pair' }])
    expect(say(r.last)).toEqual(['Pair! Ann gets an extra throw'])
    const again = fold(AB, [PAIR], 3, r.state)
    expect(again.last).toEqual([{ kind: 'pairSpent', seat: 0 }])
    const notes: (string | undefined)[] = []
    let s = fourPlus.init(AB, { rounds: 3 })
    for (const v of [PAIR, PAIR, NIL, NIL]) {
      notes.push(fourPlus.offer(s).throwNote)
      s = fold(AB, [v], 3, s).state
    }
    // The pair's extra throw is counted from the moment it is earned: never "3 of 3" with 2 throws left.
    expect(notes).toEqual(['Throw 1 of 3', 'Throw 2 of 4 (1 extra)', 'Throw 3 of 4 (1 extra)', 'Throw 4 of 4 (1 extra)'])
    expect(toPlay(s)).toBe(1) // 3 + 1 extra, the second pair earned nothing
    // Next turn, the pair's extra is available again.
    const bob = fold(AB, [PAIR, NIL, NIL], 3, s)
    expect(toPlay(bob.state)).toBe(1)
  })

  it('two pairs count as a pair', () => {
    const r = fold(AB, [TWO_PAIRS, TWO_PAIRS, NIL, NIL])
    expect(kinds(r.events).slice(0, 2)).toEqual(['extra', 'pairSpent'])
    expect(toPlay(r.state)).toBe(1)
    expect(r.state.scores).toEqual([0, 0])
  })

  it('a pair extra and four 4s extras add up', () => {
    const r = fold(AB, [PAIR, FOUR_FOURS, NIL, NIL])
    expect(toPlay(r.state)).toBe(0)
    const done = fold(AB, [NIL], 3, r.state)
    expect(toPlay(done.state)).toBe(1)
  })

  it('a single 1 is nothing: the turn goes on', () => {
    const r = fold(AB, [ONE])
    expect(r.last).toEqual([{ kind: 'nothing', seat: 0, ones: 1 }])
    expect(toPlay(r.state)).toBe(0)
    expect(r.state.scores).toEqual([0, 0])
    expect(fourPlus.offer(r.state).throwNote).toBe('Throw 2 of 3')
  })
})

describe('turns and rounds', () => {
  it('a turn is three throws, then the next seat; the round ends after the last seat', () => {
    const r = fold(ABC, [NIL, NIL])
    expect(toPlay(r.state)).toBe(0)
    const t = fold(ABC, [NIL], 3, r.state)
    expect(toPlay(t.state)).toBe(1)
    expect(t.last).toEqual([
      { kind: 'nothing', seat: 0, ones: 0 },
      { kind: 'turnDone', seat: 0, points: 0, total: 0 },
      { kind: 'turn', seat: 1, round: 1, throws: 3 }
    ])
    const round2 = fold(ABC, times(6, NIL), 3, t.state)
    expect(round2.state.round).toBe(2)
    expect(toPlay(round2.state)).toBe(0)
    expect(kinds(round2.last)).toEqual(['nothing', 'turnDone', 'round', 'turn'])
    expect(say(round2.last, ABC).slice(1)).toEqual(["Cy's turn ends: 0 this turn, 0 in all", 'Round 2 of 3', 'Ann to throw: 3 throws'])
    expect(fourPlus.table(round2.state).phase).toBe('Round 2 of 3')
  })

  it('rounds option: the game ends after that many rounds', () => {
    for (const rounds of [1, 2, 4]) {
      const almost = fold(AB, times(6 * rounds - 1, NIL), rounds)
      expect(fourPlus.offer(almost.state).finished).toBe(false)
      expect(almost.state.round).toBe(rounds)
      const done = fold(AB, [NIL], rounds, almost.state)
      expect(fourPlus.offer(done.state).finished).toBe(true)
    }
  })

  it('rounds default to 3', () => {
    expect(fourPlus.defaults).toEqual({ rounds: 3 })
    const opts = fourPlus.parseOptions(undefined, 2)
    expect(opts).toEqual({ ok: true, value: { rounds: 3 } })
    if (!opts.ok) return
    const almost = fold(AB, times(17, NIL), opts.value.rounds)
    expect(fourPlus.offer(almost.state).finished).toBe(false)
    expect(fourPlus.offer(fold(AB, [NIL], 3, almost.state).state).finished).toBe(true)
  })
})

describe('end of the game', () => {
  it('the highest score wins', () => {
    // rounds 1: Ann 3 points, Bob 5 points.
    const r = fold(AB, [THREE_TWOS, NIL, NIL, FOUR_FIVES, NIL, NIL], 1)
    expect(r.last.at(-1)).toEqual({ kind: 'win', seat: 1, cause: 'highest', score: 5, announce: 'Bob' })
    expect(say(r.last).at(-1)).toBe('Bob wins')
    expect(fourPlus.summary(r.state)).toEqual({
      game: 'four-plus',
      finished: true,
      winners: ['Bob'],
      players: [
        { name: 'Ann', score: 3, out: false },
        { name: 'Bob', score: 5, out: false }
      ],
      toPlay: null
    })
    expect(fourPlus.table(r.state)).toEqual({
      phase: 'Game over',
      dice: NIL.map((value) => ({ value, fresh: true })),
      turnPoints: null,
      notes: { 1: 'wins' }
    })
  })

  it('only players still in can win: an out player keeps the points on the board', () => {
    // Round 1: Ann 5, Bob 3, Cy 0. Round 2: Ann four 1s, Bob and Cy nothing.
    const r = fold(ABC, [FOUR_FIVES, NIL, NIL, THREE_TWOS, NIL, NIL, ...times(3, NIL), FOUR_ONES, ...times(6, NIL)], 2)
    expect(fourPlus.summary(r.state)).toEqual({
      game: 'four-plus',
      finished: true,
      winners: ['Bob'],
      players: [
        { name: 'Ann', score: 5, out: true },
        { name: 'Bob', score: 3, out: false },
        { name: 'Cy', score: 0, out: false }
      ],
      toPlay: null
    })
  })

  it('a highest score of 0: nobody wins', () => {
    const r = fold(AB, times(6, ONE), 1)
    expect(fourPlus.summary(r.state)).toEqual({
      game: 'four-plus',
      finished: true,
      winners: [],
      players: [
        { name: 'Ann', score: 0, out: false },
        { name: 'Bob', score: 0, out: false }
      ],
      toPlay: null
    })
    expect(r.last.at(-1)).toEqual({ kind: 'noWinner', announce: 'No winner' })
    expect(say(r.last).at(-1)).toBe('Nobody wins: the best score is 0')
  })

  it('a tie for the highest score above 0: flash rounds among the tied players only', () => {
    // rounds 1: Ann 3, Bob 0, Cy 3.
    const r = fold(ABC, [THREE_TWOS, NIL, NIL, NIL, NIL, NIL, THREE_TWOS, NIL, NIL], 1)
    expect(r.state.phase).toBe('flash')
    expect(r.last.at(-1)).toEqual({ kind: 'flashStart', seats: [0, 2], score: 3, announce: 'Flash round!' })
    expect(say(r.last, ABC).at(-1)).toBe('Flash round between Ann and Cy')
    expect(fourPlus.offer(r.state)).toEqual({
      finished: false,
      toPlay: 0,
      throwers: [0],
      diceDue: 4,
      throwNote: 'Flash round',
      decisions: [],
      blocked: []
    })
    expect(fourPlus.table(r.state)).toMatchObject({ phase: 'Flash round', contenders: [0, 2], turnPoints: null })
    expect(fourPlus.summary(r.state)).toEqual({
      game: 'four-plus',
      finished: false,
      winners: [],
      players: [
        { name: 'Ann', score: 3, out: false },
        { name: 'Bob', score: 0, out: false },
        { name: 'Cy', score: 3, out: false }
      ],
      toPlay: 'Ann'
    })
    // Flash order: Ann, then Cy (Bob is not in the flash rounds).
    expect(toPlay(fold(ABC, [[2, 3, 4, 5]], 1, r.state).state)).toBe(2)
  })
})

/** Ann, Bob and Cy tied on 3 after one round. */
function threeWayFlash(): FourPlusState {
  const s = fold(ABC, [THREE_TWOS, NIL, NIL, THREE_TWOS, NIL, NIL, THREE_TWOS, NIL, NIL], 1).state
  expect(s.phase).toBe('flash')
  return s
}
/** Ann and Bob tied on 3 after one round. */
function twoWayFlash(): FourPlusState {
  const s = fold(AB, [THREE_TWOS, NIL, NIL, THREE_TWOS, NIL, NIL], 1).state
  expect(s.phase).toBe('flash')
  return s
}

describe('flash rounds', () => {
  it('four 4s win the game at once', () => {
    const r = fold(ABC, [FOUR_FOURS], 1, threeWayFlash())
    expect(r.last).toEqual([
      { kind: 'flashFourFours', seat: 0, announce: 'Four 4s!' },
      { kind: 'win', seat: 0, cause: 'fourFours', score: 3, announce: 'Ann' }
    ])
    expect(fourPlus.summary(r.state)).toMatchObject({ finished: true, winners: ['Ann'], toPlay: null })
  })

  it('four 4s win at once even for a player who owes a reply', () => {
    const r = fold(ABC, [[5, 5, 5, 5], FOUR_FOURS], 1, threeWayFlash())
    expect(fourPlus.summary(r.state).winners).toEqual(['Bob'])
  })

  it('two 1s are out; the last player still in wins', () => {
    const r = fold(AB, [TWO_ONES], 1, twoWayFlash())
    expect(r.last).toEqual([
      { kind: 'out', seat: 0, cause: 'ones', count: 2, announce: 'Out!' },
      { kind: 'win', seat: 1, cause: 'lastIn', score: 3, announce: 'Bob' }
    ])
    expect(say(r.last)).toEqual(['Two 1s: Ann is out', 'Bob wins'])
    expect(fourPlus.summary(r.state)).toEqual({
      game: 'four-plus',
      finished: true,
      winners: ['Bob'],
      players: [
        { name: 'Ann', score: 3, out: true },
        { name: 'Bob', score: 3, out: false }
      ],
      toPlay: null
    })
  })

  it('two 6s are out', () => {
    const r = fold(AB, [[6, 2, 6, 3]], 1, twoWayFlash())
    expect(r.last[0]).toEqual({ kind: 'out', seat: 0, cause: 'sixes', count: 2, announce: 'Out!' })
    expect(say(r.last)[0]).toBe('Two 6s: Ann is out')
    expect(fourPlus.summary(r.state).winners).toEqual(['Bob'])
  })

  it('three 1s in a flash round are out, with no throw-fewer penalty', () => {
    const r = fold(ABC, [THREE_ONES], 1, threeWayFlash())
    expect(r.state.out).toEqual([true, false, false])
    expect(r.state.penalty).toEqual([false, false, false])
    expect(say(r.last, ABC)[0]).toBe('Three 1s: Ann is out')
    expect(toPlay(r.state)).toBe(1)
  })

  it('one 1 and one 6 are safe', () => {
    const r = fold(AB, [[1, 6, 2, 3]], 1, twoWayFlash())
    expect(r.state.out).toEqual([false, false])
    expect(r.last).toEqual([{ kind: 'flashScore', seat: 0, score: 0, combo: 'nothing', standing: 0, owed: false }])
    expect(toPlay(r.state)).toBe(1)
    expect(r.state.flash).toEqual({ contenders: [0, 1], standing: 0, owes: [] })
  })

  it('flash scores set the standing score S and every other player still in owes a reply', () => {
    const r = fold(ABC, [[3, 3, 2, 5]], 1, threeWayFlash()) // a pair: 1
    expect(r.state.flash).toEqual({ contenders: [0, 1, 2], standing: 1, owes: [1, 2] })
    expect(r.last).toEqual([
      { kind: 'flashScore', seat: 0, score: 1, combo: 'pair', standing: 0, owed: false },
      { kind: 'standing', seat: 0, standing: 1, raised: false },
      { kind: 'mustReply', seats: [1, 2], standing: 1 }
    ])
    expect(say(r.last, ABC)).toEqual(["Ann's flash score: 1", 'Ann sets the score to beat: 1', 'Bob and Cy must reply to 1'])
    expect(fourPlus.offer(r.state)).toMatchObject({ toPlay: 1, throwNote: 'Flash round: must reach 1', diceDue: 4, decisions: [] })
    expect(fourPlus.table(r.state).notes).toEqual({ 1: 'owes a reply', 2: 'owes a reply' })
    expect(say([{ kind: 'mustReply', seats: [1], standing: 3 }], ABC)).toEqual(['Bob must reply to 3'])
  })

  it('a reply below S is out', () => {
    const r = fold(ABC, [[2, 2, 2, 5], [3, 3, 2, 5]], 1, threeWayFlash()) // Ann 3, Bob 1
    expect(r.state.out).toEqual([false, true, false])
    expect(kinds(r.last)).toEqual(['flashScore', 'out'])
    expect(r.last[1]).toEqual({ kind: 'out', seat: 1, cause: 'short', score: 1, standing: 3, announce: 'Out!' })
    expect(say(r.last, ABC)[1]).toBe('Bob falls short of 3: Bob is out')
    expect(r.state.flash).toEqual({ contenders: [0, 2], standing: 3, owes: [2] })
    expect(toPlay(r.state)).toBe(2)
  })

  it('a reply just below S is out: 0 against a pair', () => {
    const r = fold(AB, [[3, 3, 2, 5], [2, 3, 4, 5]], 1, twoWayFlash()) // Ann 1, Bob 0
    expect(r.last).toEqual([
      { kind: 'flashScore', seat: 1, score: 0, combo: 'nothing', standing: 1, owed: true },
      { kind: 'out', seat: 1, cause: 'short', score: 0, standing: 1, announce: 'Out!' },
      { kind: 'win', seat: 0, cause: 'lastIn', score: 3, announce: 'Ann' }
    ])
    expect(fourPlus.summary(r.state)).toMatchObject({ finished: true, winners: ['Ann'] })
  })

  it('a reply equal to S stays in; when nobody owes any more, S returns to 0', () => {
    const r = fold(ABC, [[2, 2, 2, 5], [5, 5, 5, 3]], 1, threeWayFlash()) // Ann 3, Bob 3
    expect(r.last).toEqual([
      { kind: 'flashScore', seat: 1, score: 3, combo: 'threeOfAKind', standing: 3, owed: true },
      { kind: 'matched', seat: 1, standing: 3 }
    ])
    expect(say(r.last, ABC)[1]).toBe('Bob matches 3 and stays in')
    expect(r.state.flash).toEqual({ contenders: [0, 1, 2], standing: 3, owes: [2] })
    const c = fold(ABC, [[4, 4, 4, 2]], 1, r.state) // Cy matches 3 too
    expect(kinds(c.last)).toEqual(['flashScore', 'matched', 'standingReset'])
    expect(c.state.flash).toEqual({ contenders: [0, 1, 2], standing: 0, owes: [] })
    expect(toPlay(c.state)).toBe(0) // a new flash round
    expect(fourPlus.offer(c.state).throwNote).toBe('Flash round')
  })

  it('a reply above S raises S, and every other player still in owes a reply (the raiser does not)', () => {
    const r = fold(ABC, [[3, 3, 2, 5], [2, 2, 2, 5]], 1, threeWayFlash()) // Ann 1, Bob 3
    expect(r.state.flash).toEqual({ contenders: [0, 1, 2], standing: 3, owes: [0, 2] })
    expect(r.last.slice(1)).toEqual([
      { kind: 'standing', seat: 1, standing: 3, raised: true },
      { kind: 'mustReply', seats: [0, 2], standing: 3 }
    ])
    expect(say(r.last, ABC).slice(1)).toEqual(['Bob raises the score to beat to 3', 'Ann and Cy must reply to 3'])
    // Cy matches 3, Ann (owing, next flash round) throws 0: out; Bob and Cy owe nothing, S back to 0.
    const s = fold(ABC, [[5, 5, 5, 3], [2, 3, 4, 5]], 1, r.state)
    expect(s.state.out).toEqual([true, false, false])
    expect(s.state.flash).toEqual({ contenders: [1, 2], standing: 0, owes: [] })
    expect(kinds(s.last)).toEqual(['flashScore', 'out', 'standingReset'])
    expect(toPlay(s.state)).toBe(1)
  })

  it('a player who owes nothing and throws 0 while S is 0 changes nothing', () => {
    const r = fold(AB, [[2, 3, 4, 5], [1, 6, 3, 5]], 1, twoWayFlash())
    expect(r.state.flash).toEqual({ contenders: [0, 1], standing: 0, owes: [] })
    expect(toPlay(r.state)).toBe(0)
  })

  it('a player who owes nothing sets S only by throwing above it (hand-built state: seat order never reaches it)', () => {
    const base = threeWayFlash()
    const state: FourPlusState = { ...base, seat: 1, flash: { contenders: [0, 1, 2], standing: 3, owes: [2] } }
    expect(fourPlus.offer(state).throwNote).toBe('Flash round: beat 3 to raise it')
    const equal = fold(ABC, [[5, 5, 5, 2]], 1, state)
    expect(equal.state.flash).toEqual({ contenders: [0, 1, 2], standing: 3, owes: [2] })
    expect(kinds(equal.last)).toEqual(['flashScore'])
    const above = fold(ABC, [[5, 5, 5, 5]], 1, state)
    expect(above.state.flash).toEqual({ contenders: [0, 1, 2], standing: 5, owes: [0, 2] })
  })

  it('when a player drops, the next player in seat order throws', () => {
    const r = fold(ABC, [[2, 3, 4, 5], [6, 6, 2, 3]], 1, threeWayFlash()) // Ann 0, Bob out
    expect(r.state.flash?.contenders).toEqual([0, 2])
    expect(toPlay(r.state)).toBe(2)
    const s = fold(ABC, [[2, 3, 4, 5]], 1, r.state)
    expect(toPlay(s.state)).toBe(0)
    expect(fourPlus.table(s.state)).toMatchObject({ contenders: [0, 2], notes: { 1: 'out' } })
  })

  it('flash rounds go on until one player is left, and never change scores', () => {
    const start = threeWayFlash()
    const r = fold(
      ABC,
      [
        [5, 5, 5, 5], // Ann sets 5
        [2, 2, 2, 2], // Bob matches 5
        [3, 3, 3, 3], // Cy matches 5: S back to 0
        [2, 3, 4, 5], // Ann 0
        [3, 3, 2, 5], // Bob sets 1
        [4, 4, 2, 3], // Cy matches 1 (Ann still owes)
        [5, 5, 5, 2], // Ann raises to 3: Bob and Cy owe
        [2, 3, 4, 5], // Bob 0 < 3: out
        [1, 1, 3, 4] // Cy: two 1s, out: Ann wins
      ],
      1,
      start
    )
    expect(r.state.scores).toEqual([3, 3, 3])
    expect(fourPlus.summary(r.state)).toEqual({
      game: 'four-plus',
      finished: true,
      winners: ['Ann'],
      players: [
        { name: 'Ann', score: 3, out: false },
        { name: 'Bob', score: 3, out: true },
        { name: 'Cy', score: 3, out: true }
      ],
      toPlay: null
    })
    expect(kinds(r.events)).toEqual([
      'flashScore', 'standing', 'mustReply',
      'flashScore', 'matched',
      'flashScore', 'matched', 'standingReset',
      'flashScore',
      'flashScore', 'standing', 'mustReply',
      'flashScore', 'matched',
      'flashScore', 'standing', 'mustReply',
      'flashScore', 'out',
      'out', 'win'
    ])
  })
})

describe('illegal lines are refused and change nothing', () => {
  const cases: [string, () => FourPlusState, Move, string][] = [
    ['three dice', () => fourPlus.init(AB, { rounds: 3 }), { roll: [1, 2, 3] }, '4 dice are due, not 3'],
    ['five dice', () => fold(AB, [PAIR]).state, { roll: [1, 2, 3, 4, 5] }, '4 dice are due, not 5'],
    ['a 7', () => fourPlus.init(AB, { rounds: 3 }), { roll: [1, 2, 3, 7] }, 'a die shows 1 to 6, not 7'],
    ['a 0', () => fourPlus.init(AB, { rounds: 3 }), { roll: [0, 2, 3, 4] }, 'a die shows 1 to 6, not 0'],
    ['a 2.5', () => fourPlus.init(AB, { rounds: 3 }), { roll: [2.5, 2, 3, 4] }, 'a die shows 1 to 6, not 2.5'],
    ['a decision', () => fourPlus.init(AB, { rounds: 3 }), { bank: true }, '4-PLU$ has no decisions: only throws'],
    ['a keep', () => fold(AB, [PAIR]).state, { keep: [3, 3] }, '4-PLU$ has no decisions: only throws'],
    ['an end in a flash round', twoWayFlash, { end: true }, '4-PLU$ has no decisions: only throws'],
    ['three dice in a flash round', twoWayFlash, { roll: [4, 4, 4] }, '4 dice are due, not 3'],
    ['a roll after the game', () => fold(AB, [FOUR_ONES]).state, { roll: [1, 2, 3, 4] }, 'the game is over'],
    ['a decision after the game', () => fold(AB, times(6, NIL), 1).state, { socks: true }, 'the game is over']
  ]
  for (const [name, make, move, error] of cases) {
    it(`${name}: "${error}"`, () => {
      const state = make()
      const before = structuredClone(state)
      expect(fourPlus.apply(state, move)).toEqual({ ok: false, error })
      expect(state).toEqual(before)
    })
  }
})

describe('parseOptions', () => {
  it('takes missing keys from the defaults', () => {
    expect(fourPlus.parseOptions(undefined, 3)).toEqual({ ok: true, value: { rounds: 3 } })
    expect(fourPlus.parseOptions({}, 3)).toEqual({ ok: true, value: { rounds: 3 } })
    expect(fourPlus.parseOptions({ rounds: 1 }, 2)).toEqual({ ok: true, value: { rounds: 1 } })
    expect(fourPlus.parseOptions({ rounds: 10 }, 2)).toEqual({ ok: true, value: { rounds: 10 } })
  })
  it('refuses out-of-range, wrongly typed and unknown rules', () => {
    expect(fourPlus.parseOptions({ rounds: 0 }, 2)).toEqual({ ok: false, error: '"rounds" must be at least 1, not 0' })
    expect(fourPlus.parseOptions({ rounds: -2 }, 2)).toEqual({ ok: false, error: '"rounds" must be at least 1, not -2' })
    expect(fourPlus.parseOptions({ rounds: 2.5 }, 2)).toEqual({ ok: false, error: '"rounds" must be a whole number, not 2.5' })
    expect(fourPlus.parseOptions({ rounds: '3' }, 2)).toEqual({ ok: false, error: '"rounds" must be a whole number, not "3"' })
    expect(fourPlus.parseOptions({ rounds: null }, 2)).toEqual({ ok: false, error: '"rounds" must be a whole number, not null' })
    expect(fourPlus.parseOptions({ target: 3 }, 2)).toEqual({ ok: false, error: '4-PLU$ has no rule "target" (its only rule is "rounds")' })
    expect(fourPlus.parseOptions({ rounds: 3, tab: 0 }, 2)).toMatchObject({ ok: false })
    expect(fourPlus.parseOptions([] as unknown as Record<string, unknown>, 2)).toMatchObject({ ok: false })
  })
})

describe('module shape, table and words', () => {
  it('is the 4-PLU$ module: two or more players, four dice', () => {
    expect(fourPlus).toMatchObject({ id: 'four-plus', title: '4-PLU$', minPlayers: 2, diceCount: 4 })
  })

  it('a fresh game: Ann to throw four dice, no dice on the table', () => {
    const s = fourPlus.init(ABC, { rounds: 3 })
    expect(fourPlus.offer(s)).toEqual({
      finished: false,
      toPlay: 0,
      throwers: [0],
      diceDue: 4,
      throwNote: 'Throw 1 of 3',
      decisions: [],
      blocked: []
    })
    expect(fourPlus.table(s)).toEqual({ phase: 'Round 1 of 3', dice: [], turnPoints: 0, notes: {} })
    expect(fourPlus.summary(s)).toEqual({
      game: 'four-plus',
      finished: false,
      winners: [],
      players: [
        { name: 'Ann', score: 0, out: false },
        { name: 'Bob', score: 0, out: false },
        { name: 'Cy', score: 0, out: false }
      ],
      toPlay: 'Ann'
    })
  })

  it('the table shows the latest throw as fresh dice and the points of this turn', () => {
    const r = fold(AB, [THREE_TWOS, [6, 6, 6, 2]])
    expect(fourPlus.table(r.state)).toEqual({
      phase: 'Round 1 of 3',
      dice: [6, 6, 6, 2].map((value) => ({ value, fresh: true })),
      turnPoints: 6,
      notes: {}
    })
  })

  it('the summary is exact mid-game', () => {
    const r = fold(ABC, [FOUR_FIVES, PAIR, NIL, NIL, FOUR_ONES, THREE_TWOS])
    expect(JSON.stringify(fourPlus.summary(r.state))).toBe(
      '{"game":"four-plus","finished":false,"winners":[],"players":[{"name":"Ann","score":5,"out":false},{"name":"Bob","score":0,"out":true},{"name":"Cy","score":3,"out":false}],"toPlay":"Cy"}'
    )
  })

  it('states are plain JSON', () => {
    const r = fold(ABC, [FOUR_FIVES, PAIR, THREE_ONES, FOUR_ONES])
    expect(JSON.parse(JSON.stringify(r.state))).toEqual(r.state)
    const f = threeWayFlash()
    expect(JSON.parse(JSON.stringify(f))).toEqual(f)
  })
})

describe('properties over random games played from offer()', () => {
  const die = fc.integer({ min: 1, max: 6 })
  const throwArb = fc.tuple(die, die, die, die)

  it('apply never mutates its input; offer is exact; scores only grow, never in flash rounds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 5 }), fc.integer({ min: 1, max: 4 }), fc.array(throwArb, { maxLength: 200 }), (count, rounds, throws) => {
        const players = ['Ann', 'Bob', 'Cy', 'Di', 'Ed'].slice(0, count)
        let state = fourPlus.init(players, { rounds })
        for (const values of throws) {
          const offer = fourPlus.offer(state)
          if (offer.finished) {
            expect(offer).toEqual({ finished: true, toPlay: null, throwers: [], diceDue: 0, decisions: [], blocked: [] })
            expect(fourPlus.apply(state, { roll: values })).toEqual({ ok: false, error: 'the game is over' })
            return
          }
          expect(offer.diceDue).toBe(4)
          expect(offer.decisions).toEqual([])
          expect(offer.throwers).toEqual([offer.toPlay])
          expect(state.out[offer.toPlay as number]).toBe(false)
          expect(fourPlus.summary(state).toPlay).toBe(players[offer.toPlay as number])
          const before = structuredClone(state)
          const applied = fourPlus.apply(state, { roll: values })
          expect(state).toEqual(before)
          expect(applied.ok).toBe(true)
          if (!applied.ok) return
          const next = applied.state
          for (let i = 0; i < count; i++) {
            if (state.phase === 'flash') expect(next.scores[i]).toBe(state.scores[i])
            else expect(next.scores[i]).toBeGreaterThanOrEqual(state.scores[i])
            if (state.out[i]) expect(next.out[i]).toBe(true)
          }
          for (const event of applied.events) expect(typeof fourPlus.describe(event, players)).toBe('string')
          state = next
        }
      }),
      { numRuns: 300 }
    )
  })
})
