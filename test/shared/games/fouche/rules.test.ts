import { describe, it, expect } from 'vitest'
import fc from 'fast-check'
import { fouche } from '@shared/games/fouche'
import { FOUCHE_TABLE, type FoucheState } from '@shared/games/fouche/rules'
import { farkle } from '@shared/games/farkle'
import { bestScore, bestSplit, scoringSelections } from '@shared/games/six-dice/rules'
import type { Move } from '@shared/games/types'
import { BANK, deepFreeze, keep, moduleHelpers, roll, SIX_DICE_TURNS } from '../rules-helpers'

// ---------------------------------------------------------------------------------------------
// helpers

const { start, play, refused } = moduleHelpers(fouche)

const { bank1000: BANK_1000, bank50: BANK_50, farkle: FARKLE_TURN } = SIX_DICE_TURNS

const score = (v: number[]): number | null => bestScore(v, FOUCHE_TABLE)
const names = (v: number[]): string[] => (bestSplit(v, FOUCHE_TABLE) ?? []).map((c) => c.name).sort()

// ---------------------------------------------------------------------------------------------

describe('Fouche scoring table (dice set aside from one throw)', () => {
  const rows: [string, number[], number][] = [
    ['single 1', [1], 100],
    ['single 5', [5], 50],
    ['six 1s', [1, 1, 1, 1, 1, 1], 5000],
    ['straight 1-2-3-4-5-6', [3, 1, 4, 6, 5, 2], 2000],
    ['three pairs', [2, 2, 4, 4, 6, 6], 2000],
    ['two triplets', [2, 2, 2, 3, 3, 3], 1500],
    ['three 1s', [1, 1, 1], 1000],
    ['three 2s', [2, 2, 2], 200],
    ['three 3s', [3, 3, 3], 300],
    ['three 4s', [4, 4, 4], 400],
    ['three 5s', [5, 5, 5], 500],
    ['three 6s', [6, 6, 6], 600]
  ]
  for (const [name, dice, points] of rows) {
    it(`${name}: ${[...dice].sort().join(' ')} = ${points}`, () => expect(score(dice)).toBe(points))
  }
})

describe('Fouche has no four, five or six of a kind', () => {
  it('four 2s are three 2s (200) and a die that scores nothing, so all four cannot be set aside', () => {
    expect(score([2, 2, 2, 2])).toBeNull()
    expect(score([2, 2, 2])).toBe(200)
    const { state } = play(start(['Ann']), [roll(2, 2, 2, 2, 3, 4)])
    expect(fouche.offer(state).decisions).toEqual([{ move: { keep: [2, 2, 2] }, label: 'Keep 2 2 2 (200)', points: 200 }])
    expect(refused(state, keep(2, 2, 2, 2))).toBe(
      'cannot set aside 2 2 2 2: the 2 belongs to no combination (2 2 2 alone scores 200)'
    )
    const after = play(state, [keep(2, 2, 2)]).state
    expect(fouche.offer(after).diceDue).toBe(3)
  })
  it('four 1s are 1,000 + 100; four 5s are 500 + 50; five 1s are 1,000 + 100 + 100', () => {
    expect(score([1, 1, 1, 1])).toBe(1100)
    expect(score([5, 5, 5, 5])).toBe(550)
    expect(score([1, 1, 1, 1, 1])).toBe(1200)
  })
  it('five of a kind other than 1s and 5s cannot all be set aside', () => {
    expect(score([6, 6, 6, 6, 6])).toBeNull()
    expect(score([4, 4, 4, 4, 4])).toBeNull()
    expect(score([5, 5, 5, 5, 5])).toBe(600)
  })
  it('four of a kind plus a pair reads as three pairs (2,000)', () => {
    expect(score([2, 2, 2, 2, 3, 3])).toBe(2000)
    expect(names([2, 2, 2, 2, 3, 3])).toEqual(['three pairs'])
  })
  it('six of a kind other than 1s reads as three pairs (2,000), which beats two triplets (1,500)', () => {
    expect(score([3, 3, 3, 3, 3, 3])).toBe(2000)
    expect(score([6, 6, 6, 6, 6, 6])).toBe(2000)
    expect(names([6, 6, 6, 6, 6, 6])).toEqual(['three pairs'])
  })
})

describe('Fouche best split wins over the table labels', () => {
  it('1 1 1 6 6 6 is three 1s + three 6s = 1,600, more than two triplets (1,500)', () => {
    expect(score([1, 1, 1, 6, 6, 6])).toBe(1600)
    expect(names([1, 1, 1, 6, 6, 6])).toEqual(['three 1s', 'three 6s'])
    const { state, events } = play(start(['Ann']), [roll(6, 1, 6, 1, 6, 1), keep(1, 1, 1, 6, 6, 6)])
    expect(events[1]).toEqual({ kind: 'keep', seat: 0, dice: [1, 1, 1, 6, 6, 6], points: 1600, turn: 1600 })
    expect(state.turnPoints).toBe(1600)
  })
  it('5 5 5 6 6 6 is two triplets (1,500), more than 500 + 600', () => {
    expect(score([5, 5, 5, 6, 6, 6])).toBe(1500)
    expect(names([5, 5, 5, 6, 6, 6])).toEqual(['two triplets'])
  })
  it('six 1s (5,000) beat every other reading', () => {
    expect(names([1, 1, 1, 1, 1, 1])).toEqual(['six 1s'])
  })
})

describe('Fouche: ones and fives may always be set aside one at a time', () => {
  it('a triplet of 1s may be kept whole, two of them, or one', () => {
    const { state } = play(start(['Ann']), [roll(1, 1, 1, 2, 3, 4)])
    expect(fouche.offer(state).decisions.map((d) => d.label)).toEqual([
      'Keep 1 1 1 (1,000)',
      'Keep 1 1 (200)',
      'Keep 1 (100)'
    ])
    expect(play(state, [keep(1)]).state.turnPoints).toBe(100)
  })
  it('a triplet of 5s likewise', () => {
    expect(scoringSelections([5, 5, 5, 2, 3, 4], FOUCHE_TABLE)).toEqual([
      { dice: [5, 5, 5], points: 500 },
      { dice: [5, 5], points: 100 },
      { dice: [5], points: 50 }
    ])
  })
  it('other triplets cannot be split', () => {
    const { state } = play(start(['Ann']), [roll(4, 4, 4, 2, 3, 6)])
    expect(refused(state, keep(4, 4))).toBe('4 4 scores nothing')
    expect(refused(state, keep(4))).toBe('a 4 on its own scores nothing')
  })
})

describe('Fouche turns (exactly as in Farkle)', () => {
  it('combinations count only among dice of one throw', () => {
    const { state } = play(start(['Ann', 'Bob']), [roll(1, 1, 2, 3, 4, 6), keep(1, 1), roll(1, 2, 3, 6), keep(1)])
    expect(state.turnPoints).toBe(300)
  })
  it('a farkle loses the turn points', () => {
    const { state, events } = play(start(['Ann', 'Bob']), [roll(1, 1, 2, 3, 4, 6), keep(1, 1), roll(2, 2, 3, 6)])
    expect(events.find((e) => e.kind === 'farkle')).toEqual({ kind: 'farkle', seat: 0, lost: 200, announce: 'Farkle!' })
    expect(state.scores).toEqual([0, 0])
    expect(fouche.offer(state).toPlay).toBe(1)
  })
  it('hot dice: six 1s set aside, all six thrown again, or banked', () => {
    const { state, events } = play(start(['Ann', 'Bob']), [roll(1, 1, 1, 1, 1, 1), keep(1, 1, 1, 1, 1, 1)])
    expect(events[2]).toEqual({ kind: 'hotDice', seat: 0, turn: 5000, announce: 'Hot dice!' })
    expect(fouche.offer(state).diceDue).toBe(6)
    expect(play(state, [BANK]).state.scores).toEqual([5000, 0])
  })
  it('no entry minimum by default: a single 5 may be banked on the first turn', () => {
    const { state, events } = play(start(['Ann', 'Bob']), BANK_50)
    expect(events.find((e) => e.kind === 'bank')).toEqual({ kind: 'bank', seat: 0, points: 50, total: 50 })
    expect(state.scores).toEqual([50, 0])
  })
  it('option entry works as in Farkle', () => {
    const { state } = play(start(['Ann', 'Bob'], { entry: 500 }), [roll(5, 2, 3, 4, 6, 6), keep(5)])
    const reason = 'Ann needs 500 in one turn to get on the board; this turn has 50, 450 short'
    expect(fouche.offer(state).blocked).toEqual([{ move: { bank: true }, label: 'Bank 50', reason }])
    expect(fouche.offer(state).decisions).toEqual([])
    expect(refused(state, BANK)).toBe(reason)
  })
})

describe('Fouche end of the game: every player gets the same number of turns', () => {
  const P3 = ['Ann', 'Bob', 'Cy']

  it('the first seat reaches the target: the lap is completed by the second and last seats', () => {
    const s = start(P3, { target: 1000 })
    const a = play(s, BANK_1000)
    expect(a.events.find((e) => e.kind === 'target')).toEqual({
      kind: 'target',
      seat: 0,
      total: 1000,
      target: 1000,
      turnsLeft: 2
    })
    expect(fouche.table(a.state).phase).toBe('Final turns')
    const b = play(a.state, BANK_50)
    expect(b.state.step).not.toBe('over')
    const c = play(b.state, FARKLE_TURN)
    expect(c.state.step).toBe('over')
    expect(c.state.turnsDone).toBe(3)
    expect(fouche.summary(c.state).winners).toEqual(['Ann'])
  })

  it('a middle seat reaches the target: only the seats after it play; nobody wraps round (unlike Farkle)', () => {
    const lines = [...FARKLE_TURN, ...BANK_1000, ...BANK_50]
    const f = play(start(P3, { target: 1000 }), lines)
    expect(f.state.step).toBe('over')
    expect(f.state.turnsDone).toBe(3)
    expect(JSON.stringify(fouche.summary(f.state))).toBe(
      '{"game":"fouche","finished":true,"winners":["Bob"],"players":[{"name":"Ann","score":0,"out":false},' +
        '{"name":"Bob","score":1000,"out":false},{"name":"Cy","score":50,"out":false}],"toPlay":null}'
    )
    // the same lines under Farkle's end rule leave Ann a final turn
    let s = farkle.init(P3, { entry: 0, target: 1000 })
    for (const m of lines) {
      const r = farkle.apply(s, m)
      if (!r.ok) throw new Error(r.error)
      s = r.state
    }
    expect(farkle.summary(s)).toMatchObject({ finished: false, toPlay: 'Ann' })
    expect(refused(f.state, roll(1, 2, 3, 4, 5, 6))).toBe('the game is over')
  })

  it('the last seat reaches the target: the lap is already complete and the game ends at once', () => {
    const { state, events } = play(start(P3, { target: 1000 }), [...BANK_50, ...BANK_50, ...BANK_1000])
    expect(events.slice(-2)).toEqual([
      { kind: 'target', seat: 2, total: 1000, target: 1000, turnsLeft: 0 },
      { kind: 'gameOver', winners: [2], total: 1000, announce: 'Cy wins!' }
    ])
    expect(fouche.describe(events[events.length - 2], P3)).toBe('Cy reaches 1,000')
    expect(fouche.describe(events[events.length - 1], P3)).toBe('Cy wins with 1,000')
    expect(fouche.summary(state).toPlay).toBeNull()
  })

  it('the one who reaches the target first can be overtaken in the same lap', () => {
    const hot = [roll(1, 1, 1, 1, 1, 1), keep(1, 1, 1, 1, 1, 1), BANK]
    const { state } = play(start(P3, { target: 1000 }), [...BANK_1000, ...hot, ...BANK_50])
    expect(fouche.summary(state)).toMatchObject({ finished: true, winners: ['Bob'] })
    expect(state.scores).toEqual([1000, 5000, 50])
  })

  it('only the first seat to reach the target starts the end; a later one changes nothing', () => {
    const s = play(start(P3, { target: 1000 }), BANK_1000).state
    const a = play(s, BANK_1000)
    expect(a.events.some((e) => e.kind === 'target')).toBe(false)
    expect(a.state.reachedBy).toBe(0)
    expect(fouche.table(a.state).notes).toEqual({ 0: 'reached 1,000', 2: 'final turn now' })
  })

  it('ties for the highest total: several winners, in seat order', () => {
    const { state, events } = play(start(P3, { target: 1000 }), [...BANK_1000, ...FARKLE_TURN, ...BANK_1000])
    expect(events[events.length - 1]).toEqual({ kind: 'gameOver', winners: [0, 2], total: 1000, announce: 'Ann and Cy win!' })
    expect(fouche.describe(events[events.length - 1], P3)).toBe('Ann and Cy share the win with 1,000')
    expect(fouche.summary(state).winners).toEqual(['Ann', 'Cy'])
  })

  it('one player alone (a one-name record): reaching the target ends the game', () => {
    const { state } = play(start(['Ann'], { target: 1000 }), [...BANK_50, ...BANK_1000])
    expect(fouche.summary(state)).toEqual({
      game: 'fouche',
      finished: true,
      winners: ['Ann'],
      players: [{ name: 'Ann', score: 1050, out: false }],
      toPlay: null
    })
    expect(fouche.table(state).phase).toBe('Game over')
  })
})

describe('Fouche refuses illegal lines with a reason and leaves the state unchanged', () => {
  const fresh = (): FoucheState => start(['Ann', 'Bob'])
  const thrown = (): FoucheState => play(fresh(), [roll(2, 2, 2, 2, 3, 5)]).state
  const kept = (): FoucheState => play(fresh(), [roll(2, 2, 2, 2, 3, 5), keep(5)]).state
  const cases: [string, () => FoucheState, Move, string][] = [
    ['keep before any throw', fresh, keep(1), 'Ann has no throw to set dice aside from: throw 6 dice first'],
    ['bank before any throw', fresh, BANK, 'Ann has nothing to bank: bank only after setting aside scoring dice'],
    ['seven dice', fresh, roll(1, 2, 3, 4, 5, 6, 6), 'Ann throws 6 dice now; the roll has 7'],
    ['a throw before the keep', thrown, roll(1, 2, 3), 'Ann must first set aside scoring dice from the throw 2 2 2 2 3 5'],
    ['four 2s', thrown, keep(2, 2, 2, 2), 'cannot set aside 2 2 2 2: the 2 belongs to no combination (2 2 2 alone scores 200)'],
    [
      'four 2s and a 5',
      thrown,
      keep(2, 2, 2, 2, 5),
      'cannot set aside 2 2 2 2 5: the 2 belongs to no combination (2 2 2 5 alone scores 250)'
    ],
    ['a lone 3', thrown, keep(3), 'a 3 on its own scores nothing'],
    ['a second keep', kept, keep(2, 2, 2), 'one keep per throw: Ann already set aside 5; throw 5 dice or bank'],
    ['a roll of the wrong count after a keep', kept, roll(1, 2, 3, 4, 5, 6), 'Ann throws 5 dice now; the roll has 6'],
    ['a Foursies line', fresh, { socks: true }, '"socks" is no Fouche move (Fouche has roll, keep and bank)']
  ]
  for (const [name, setup, move, reason] of cases) {
    it(`${name}: "${reason}"`, () => expect(refused(setup(), move)).toBe(reason))
  }
})

describe('Fouche words, summary, table, options', () => {
  it('describes events', () => {
    const P = ['Cpu', 'Ann']
    const { events } = play(start(P), [roll(1, 1, 1, 6, 6, 6), keep(1, 1, 1, 6, 6, 6), BANK])
    expect(events.map((e) => fouche.describe(e, P))).toEqual([
      'Cpu throws 1 1 1 6 6 6',
      'Cpu keeps 1 1 1 6 6 6 for 1,600 (turn 1,600)',
      'Hot dice! Cpu throws all six again',
      'Cpu banks 1,600 and has 1,600',
      "Ann's turn"
    ])
  })

  it('summary mid-game, exact', () => {
    const { state } = play(start(['Cpu', 'Ann']), [...BANK_50, roll(5, 5, 2, 3, 4, 6)])
    expect(JSON.stringify(fouche.summary(state))).toBe(
      '{"game":"fouche","finished":false,"winners":[],"players":[{"name":"Cpu","score":50,"out":false},' +
        '{"name":"Ann","score":0,"out":false}],"toPlay":"Ann"}'
    )
    expect(fouche.table(state)).toEqual({
      phase: 'Turn 1',
      turnPoints: 0,
      dice: [5, 5, 2, 3, 4, 6].map((value) => ({ value, fresh: true }))
    })
  })

  it('module shape and defaults: entry 0, target 10000', () => {
    expect([fouche.id, fouche.title, fouche.minPlayers, fouche.diceCount]).toEqual(['fouche', 'Fouche', 1, 6])
    expect(fouche.parseOptions(undefined, 1)).toEqual({ ok: true, value: { entry: 0, target: 10000 } })
    expect(fouche.parseOptions({ entry: 350 }, 2)).toEqual({ ok: true, value: { entry: 350, target: 10000 } })
  })

  const bad: [Record<string, unknown>, string][] = [
    [{ entry: -50 }, 'Fouche rule "entry" must be a whole number of points from 0 (which turns it off) to 9007199254740991; got -50'],
    [{ target: 0 }, 'Fouche rule "target" must be a whole number of points from 1 to 9007199254740991; got 0'],
    [{ target: 10000.5 }, 'Fouche rule "target" must be a whole number of points from 1 to 9007199254740991; got 10000.5'],
    [{ target: '10000' }, 'Fouche rule "target" must be a whole number of points from 1 to 9007199254740991; got "10000"'],
    [{ match: 'tour' }, 'unknown Fouche rule "match" (Fouche has "entry" and "target")']
  ]
  for (const [raw, error] of bad) {
    it(`refuses rules ${JSON.stringify(raw)}`, () => expect(fouche.parseOptions(raw, 2)).toEqual({ ok: false, error }))
  }
})

describe('Fouche random games played only from offer()', () => {
  it('every offered decision applies, games end after a completed lap with equal turns', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.infiniteStream(fc.nat(1_000_000)), (n, stream) => {
        const it = stream[Symbol.iterator]()
        const next = (k: number): number => it.next().value % k
        const P = ['Cpu', 'Ann', 'Bob', 'Cy', 'Dee'].slice(0, n)
        let s = start(P, { target: 2500 })
        for (let step = 0; step < 20000 && !fouche.offer(s).finished; step++) {
          const o = fouche.offer(s)
          deepFreeze(s)
          const m: Move =
            o.diceDue > 0 && (o.decisions.length === 0 || next(10) < 7)
              ? { roll: Array.from({ length: o.diceDue }, () => 1 + next(6)) }
              : o.decisions[next(o.decisions.length)].move
          const r = fouche.apply(s, m)
          if (!r.ok) throw new Error(r.error)
          s = r.state
        }
        expect(fouche.offer(s).finished).toBe(true)
        expect(s.turnsDone % n).toBe(0)
        const top = Math.max(...s.scores)
        expect(top).toBeGreaterThanOrEqual(2500)
        expect(fouche.summary(s).winners).toEqual(P.filter((_, i) => s.scores[i] === top))
      }),
      { numRuns: 40 }
    )
  })
})
