import { describe, it, expect } from 'vitest'
import fc from 'fast-check'
import { farkle } from '@shared/games/farkle'
import { FARKLE_TABLE, type FarkleState } from '@shared/games/farkle/rules'
import {
  bestScore,
  bestSplit,
  defineTable,
  isFarkle,
  scoringSelections,
  threePairs,
  twoTriplets
} from '@shared/games/six-dice/rules'
import type { Move } from '@shared/games/types'
import { BANK, deepFreeze, keep, moduleHelpers, roll, SIX_DICE_TURNS } from '../rules-helpers'

// ---------------------------------------------------------------------------------------------
// helpers

const { start, play, refused } = moduleHelpers(farkle)

const { bank1000: BANK_1000, bank50: BANK_50, farkle: FARKLE_TURN } = SIX_DICE_TURNS

const score = (v: number[]): number | null => bestScore(v, FARKLE_TABLE)

// ---------------------------------------------------------------------------------------------

describe('Farkle scoring table (dice set aside from one throw)', () => {
  const rows: [string, number[], number][] = [
    ['single 1', [1], 100],
    ['single 5', [5], 50],
    ['three 1s', [1, 1, 1], 1000],
    ['three 2s', [2, 2, 2], 200],
    ['three 3s', [3, 3, 3], 300],
    ['three 4s', [4, 4, 4], 400],
    ['three 5s', [5, 5, 5], 500],
    ['three 6s', [6, 6, 6], 600],
    ['four of a kind (2s)', [2, 2, 2, 2], 1000],
    ['four of a kind (6s)', [6, 6, 6, 6], 1000],
    ['four of a kind (5s) beats three 5s + a 5', [5, 5, 5, 5], 1000],
    ['five of a kind (3s)', [3, 3, 3, 3, 3], 2000],
    ['five of a kind (1s) beats three 1s + two 1s', [1, 1, 1, 1, 1], 2000],
    ['six of a kind (4s)', [4, 4, 4, 4, 4, 4], 3000],
    ['six of a kind (1s)', [1, 1, 1, 1, 1, 1], 3000],
    ['straight 1-2-3-4-5-6', [6, 5, 4, 3, 2, 1], 1500],
    ['three pairs', [2, 2, 3, 3, 6, 6], 1500],
    ['two triplets', [2, 2, 2, 3, 3, 3], 2500]
  ]
  for (const [name, dice, points] of rows) {
    it(`${name}: ${dice.join(' ')} = ${points}`, () => expect(score(dice)).toBe(points))
  }

  it('only 1s and 5s score on their own: a lone 2, 3, 4 or 6 scores nothing', () => {
    for (const v of [2, 3, 4, 6]) expect(score([v])).toBeNull()
    expect(score([2, 2])).toBeNull()
    expect(score([1, 3])).toBeNull()
    expect(score([])).toBe(0)
  })
})

describe('Farkle best split: the player always gets the best reading', () => {
  it('four 1s are three 1s + a single 1 = 1,100, which beats four of a kind', () => {
    expect(score([1, 1, 1, 1])).toBe(1100)
    expect(bestSplit([1, 1, 1, 1], FARKLE_TABLE)!.map((c) => c.name).sort()).toEqual(['single 1', 'three 1s'])
  })
  it('four of a kind plus a pair reads as three pairs (1,500)', () => {
    expect(score([2, 2, 2, 2, 3, 3])).toBe(1500)
    // 1 1 1 1 5 5: three pairs 1,500 beats three 1s + 1 + 5 + 5 = 1,200
    expect(score([1, 1, 1, 1, 5, 5])).toBe(1500)
    expect(bestSplit([1, 1, 1, 1, 5, 5], FARKLE_TABLE)!.map((c) => c.name)).toEqual(['three pairs'])
  })
  it('six of a kind can be read as two triplets or three pairs; six of a kind (3,000) is the best reading', () => {
    expect(bestScore([4, 4, 4, 4, 4, 4], defineTable('two triplets only', twoTriplets(2500)))).toBe(2500)
    expect(bestScore([4, 4, 4, 4, 4, 4], defineTable('three pairs only', threePairs(1500)))).toBe(1500)
    expect(score([4, 4, 4, 4, 4, 4])).toBe(3000)
    expect(bestSplit([4, 4, 4, 4, 4, 4], FARKLE_TABLE)!.map((c) => c.name)).toEqual(['six of a kind'])
  })
  it('splits combine several combinations: five of a kind + a 1, four of a kind + 1 + 5, three 1s + three 5s as two triplets', () => {
    expect(score([2, 2, 2, 2, 2, 1])).toBe(2100)
    expect(score([3, 3, 3, 3, 1, 5])).toBe(1150)
    expect(score([1, 1, 1, 5, 5, 5])).toBe(2500)
    expect(score([1, 1, 1, 5])).toBe(1050)
  })
  it('every die set aside must belong to a combination of the split', () => {
    expect(score([1, 1, 1, 2])).toBeNull()
    expect(score([2, 2, 2, 2, 3])).toBeNull()
    expect(score([1, 2, 3, 4, 5])).toBeNull()
  })
  it('scoringSelections lists every distinct scoring sub-multiset of a throw, best first', () => {
    expect(scoringSelections([1, 1, 1, 5, 2, 3], FARKLE_TABLE)).toEqual([
      { dice: [1, 1, 1, 5], points: 1050 },
      { dice: [1, 1, 1], points: 1000 },
      { dice: [1, 1, 5], points: 250 },
      { dice: [1, 1], points: 200 },
      { dice: [1, 5], points: 150 },
      { dice: [1], points: 100 },
      { dice: [5], points: 50 }
    ])
    expect(scoringSelections([2, 2, 3, 3, 4, 6], FARKLE_TABLE)).toEqual([])
    expect(isFarkle([2, 2, 3, 3, 4, 6], FARKLE_TABLE)).toBe(true)
    expect(isFarkle([2, 2, 3, 3, 4, 4], FARKLE_TABLE)).toBe(false)
  })
})

describe('Farkle turns', () => {
  it('offers every distinct legal keep after a scoring throw, with points and labels, and no throw until one is made', () => {
    const { state } = play(start(['Ann', 'Bob']), [roll(2, 1, 5, 1, 3, 1)])
    expect(farkle.offer(state)).toEqual({
      finished: false,
      toPlay: 0,
      throwers: [0],
      diceDue: 0,
      decisions: [
        { move: { keep: [1, 1, 1, 5] }, label: 'Keep 1 1 1 5 (1,050)', points: 1050 },
        { move: { keep: [1, 1, 1] }, label: 'Keep 1 1 1 (1,000)', points: 1000 },
        { move: { keep: [1, 1, 5] }, label: 'Keep 1 1 5 (250)', points: 250 },
        { move: { keep: [1, 1] }, label: 'Keep 1 1 (200)', points: 200 },
        { move: { keep: [1, 5] }, label: 'Keep 1 5 (150)', points: 150 },
        { move: { keep: [1] }, label: 'Keep 1 (100)', points: 100 },
        { move: { keep: [5] }, label: 'Keep 5 (50)', points: 50 }
      ],
      blocked: []
    })
  })

  it('combinations count only among dice of one throw: a 1 kept later never joins earlier 1s', () => {
    const s = start(['Ann', 'Bob'])
    const { state, events } = play(s, [roll(1, 1, 2, 3, 4, 6), keep(1, 1), roll(1, 2, 3, 6), keep(1)])
    expect(state.turnPoints).toBe(300)
    expect(events.filter((e) => e.kind === 'keep').map((e) => [e.points, e.turn])).toEqual([
      [200, 200],
      [100, 300]
    ])
    const mid = play(s, [roll(1, 1, 2, 3, 4, 6), keep(1, 1), roll(1, 2, 3, 6)]).state
    expect(farkle.offer(mid).decisions.map((d) => d.move)).toEqual([{ keep: [1] }])
    expect(refused(mid, keep(1, 1, 1))).toBe('the throw 1 2 3 6 has only one 1')
  })

  it('after a keep the remaining dice are due, and a roll of any other count is refused', () => {
    const { state } = play(start(['Ann']), [roll(1, 1, 2, 3, 4, 6), keep(1, 1)])
    expect(farkle.offer(state).diceDue).toBe(4)
    expect(refused(state, roll(1, 2, 3, 4, 5, 6))).toBe('Ann throws 4 dice now; the roll has 6')
  })

  it('a farkle loses the turn points and ends the turn by itself', () => {
    const { state, events } = play(start(['Ann', 'Bob']), [
      roll(1, 1, 2, 3, 4, 6),
      keep(1, 1),
      roll(1, 2, 3, 6),
      keep(1),
      roll(2, 3, 4)
    ])
    expect(events.slice(-3)).toEqual([
      { kind: 'throw', seat: 0, dice: [2, 3, 4] },
      { kind: 'farkle', seat: 0, lost: 300, announce: 'Farkle!' },
      { kind: 'nextTurn', seat: 1 }
    ])
    expect(farkle.describe(events[events.length - 2], ['Ann', 'Bob'])).toBe('Farkle! Ann loses 300')
    expect(state.scores).toEqual([0, 0])
    expect(farkle.offer(state)).toMatchObject({ toPlay: 1, diceDue: 6, decisions: [] })
    expect(farkle.table(state)).toEqual({
      phase: 'Turn 1',
      turnPoints: 0,
      dice: [
        { value: 2, fresh: true },
        { value: 3, fresh: true },
        { value: 4, fresh: true },
        { value: 1, fresh: false, setAside: true },
        { value: 1, fresh: false, setAside: true },
        { value: 1, fresh: false, setAside: true }
      ]
    })
  })

  it('a farkle on the first throw of a turn loses nothing but the turn', () => {
    const { state, events } = play(start(['Ann', 'Bob']), FARKLE_TURN)
    expect(farkle.describe(events[1], ['Ann', 'Bob'])).toBe('Farkle! Ann scores nothing this turn')
    expect(state.seat).toBe(1)
  })

  it('hot dice: all six set aside, the next throw is of all six and the turn points are kept; banking is allowed', () => {
    const s = start(['Ann', 'Bob'])
    const { state, events } = play(s, [roll(6, 5, 4, 3, 2, 1), keep(1, 2, 3, 4, 5, 6)])
    expect(events).toEqual([
      { kind: 'throw', seat: 0, dice: [6, 5, 4, 3, 2, 1] },
      { kind: 'keep', seat: 0, dice: [1, 2, 3, 4, 5, 6], points: 1500, turn: 1500 },
      { kind: 'hotDice', seat: 0, turn: 1500, announce: 'Hot dice!' }
    ])
    expect(farkle.describe(events[2], ['Ann', 'Bob'])).toBe('Hot dice! Ann throws all six again')
    expect(farkle.offer(state)).toEqual({
      finished: false,
      toPlay: 0,
      throwers: [0],
      diceDue: 6,
      throwNote: 'Hot dice: throw all six again',
      decisions: [{ move: { bank: true }, label: 'Bank 1,500', points: 1500 }],
      blocked: []
    })
    expect(refused(state, roll(1, 5))).toBe('Ann throws 6 dice now; the roll has 2')
    const banked = play(state, [BANK]).state
    expect(banked.scores).toEqual([1500, 0])
    const again = play(state, [roll(1, 2, 2, 3, 3, 4), keep(1)]).state
    expect(again.turnPoints).toBe(1600)
    expect(farkle.offer(again).diceDue).toBe(5)
  })

  it('hot dice over several keeps, then a farkle loses the whole turn', () => {
    const s = start(['Ann', 'Bob'])
    const { state, events } = play(s, [roll(1, 5, 2, 3, 4, 6), keep(1, 5), roll(1, 1, 1, 5), keep(1, 1, 1, 5)])
    expect(state.turnPoints).toBe(1200)
    expect(events.map((e) => e.kind)).toEqual(['throw', 'keep', 'throw', 'keep', 'hotDice'])
    expect(farkle.table(state).dice).toEqual([
      { value: 1, fresh: true, setAside: true },
      { value: 1, fresh: true, setAside: true },
      { value: 1, fresh: true, setAside: true },
      { value: 5, fresh: true, setAside: true },
      { value: 1, fresh: false, setAside: true },
      { value: 5, fresh: false, setAside: true }
    ])
    const after = play(state, FARKLE_TURN)
    expect(after.events[1]).toEqual({ kind: 'farkle', seat: 0, lost: 1200, announce: 'Farkle!' })
    expect(after.state.scores).toEqual([0, 0])
    // the throw after hot dice starts a clean table: six fresh dice, nothing set aside
    expect(farkle.table(after.state).dice.every((d) => d.fresh && !d.setAside)).toBe(true)
  })
})

describe('Farkle entry minimum (option entry, default 500)', () => {
  it('a player with nothing banked may not bank a turn under 500: blocked with the reason, and refused', () => {
    const { state } = play(start(['Ann', 'Bob']), [roll(1, 5, 2, 3, 4, 6), keep(1, 5)])
    const reason = 'Ann needs 500 in one turn to get on the board; this turn has 150, 350 short'
    expect(farkle.offer(state)).toEqual({
      finished: false,
      toPlay: 0,
      throwers: [0],
      diceDue: 4,
      decisions: [],
      blocked: [{ move: { bank: true }, label: 'Bank 150', reason }]
    })
    expect(refused(state, BANK)).toBe(reason)
  })

  it('the whole turn counts: 150 + 500 = 650 may be banked; once on the board, 50 may be banked', () => {
    const s = start(['Ann', 'Bob'])
    const { state, events } = play(s, [roll(1, 5, 2, 3, 4, 6), keep(1, 5), roll(5, 5, 5, 2), keep(5, 5, 5), BANK])
    expect(events.find((e) => e.kind === 'bank')).toEqual({ kind: 'bank', seat: 0, points: 650, total: 650 })
    expect(farkle.describe(events.find((e) => e.kind === 'bank')!, ['Ann', 'Bob'])).toBe('Ann banks 650 and has 650')
    const later = play(state, [...FARKLE_TURN, ...BANK_50]).state
    expect(later.scores).toEqual([700, 0])
  })

  it('entry exactly met is enough', () => {
    const { state } = play(start(['Ann'], { entry: 1000 }), BANK_1000)
    expect(state.scores).toEqual([1000])
  })

  it('entry 0 turns the rule off: a single 5 may be banked at once', () => {
    const { state } = play(start(['Ann', 'Bob'], { entry: 0 }), BANK_50)
    expect(state.scores).toEqual([50, 0])
  })
})

describe('Farkle end of the game (option target, default 10000)', () => {
  const P4 = ['Ann', 'Bob', 'Cy', 'Dee']

  it('when a player ends a turn at the target, every other player gets exactly one more turn, wrapping round', () => {
    const s = start(P4, { entry: 0, target: 1000 })
    const a = play(s, [...BANK_50, ...BANK_50, ...BANK_1000])
    expect(a.events.slice(-2)).toEqual([
      { kind: 'target', seat: 2, total: 1000, target: 1000, turnsLeft: 3 },
      { kind: 'nextTurn', seat: 3 }
    ])
    expect(farkle.describe(a.events[a.events.length - 2], P4)).toBe('Cy reaches 1,000: final turns')
    expect(farkle.table(a.state).phase).toBe('Final turns')
    expect(farkle.table(a.state).notes).toEqual({
      2: 'reached 1,000',
      3: 'final turn now',
      0: 'final turn to come',
      1: 'final turn to come'
    })
    const b = play(a.state, BANK_50) // Dee
    expect(farkle.offer(b.state).toPlay).toBe(0)
    const c = play(b.state, BANK_1000) // Ann passes the target too: nothing new starts
    expect(c.events.some((e) => e.kind === 'target')).toBe(false)
    expect(farkle.offer(c.state).toPlay).toBe(1)
    const d = play(c.state, FARKLE_TURN) // Bob's final turn; Cy does not play again
    expect(d.events.slice(-1)).toEqual([{ kind: 'gameOver', winners: [0], total: 1050, announce: 'Ann wins!' }])
    expect(farkle.describe(d.events[d.events.length - 1], P4)).toBe('Ann wins with 1,050')
    expect(farkle.offer(d.state)).toEqual({
      finished: true,
      toPlay: null,
      throwers: [],
      diceDue: 0,
      decisions: [],
      blocked: []
    })
    expect(JSON.stringify(farkle.summary(d.state))).toBe(
      '{"game":"farkle","finished":true,"winners":["Ann"],"players":[' +
        '{"name":"Ann","score":1050,"out":false},{"name":"Bob","score":50,"out":false},' +
        '{"name":"Cy","score":1000,"out":false},{"name":"Dee","score":50,"out":false}],"toPlay":null}'
    )
    expect(farkle.table(d.state).phase).toBe('Game over')
    expect(refused(d.state, roll(1, 2, 3, 4, 5, 6))).toBe('the game is over')
  })

  it('the first seat reaching the target: seats 2..4 play once more, then the game ends', () => {
    const s = start(P4, { entry: 0, target: 1000 })
    const a = play(s, [...BANK_1000, ...FARKLE_TURN, ...FARKLE_TURN])
    expect(a.state.step).not.toBe('over')
    const b = play(a.state, FARKLE_TURN)
    expect(b.state.step).toBe('over')
    expect(farkle.summary(b.state).winners).toEqual(['Ann'])
  })

  it('the last seat reaching the target: the others play from the first seat on', () => {
    const s = start(['Ann', 'Bob', 'Cy'], { entry: 0, target: 1000 })
    const a = play(s, [...FARKLE_TURN, ...FARKLE_TURN, ...BANK_1000])
    expect(farkle.offer(a.state).toPlay).toBe(0)
    const b = play(a.state, FARKLE_TURN)
    expect(farkle.offer(b.state).toPlay).toBe(1)
    const c = play(b.state, BANK_1000)
    expect(farkle.summary(c.state)).toEqual({
      game: 'farkle',
      finished: true,
      winners: ['Bob', 'Cy'],
      players: [
        { name: 'Ann', score: 0, out: false },
        { name: 'Bob', score: 1000, out: false },
        { name: 'Cy', score: 1000, out: false }
      ],
      toPlay: null
    })
  })

  it('ties for the highest total: several winners, in seat order', () => {
    const s = start(['Ann', 'Bob'], { entry: 0, target: 1000 })
    const { state, events } = play(s, [...BANK_1000, ...BANK_1000])
    const over = events[events.length - 1]
    expect(over).toEqual({ kind: 'gameOver', winners: [0, 1], total: 1000, announce: 'Ann and Bob win!' })
    expect(farkle.describe(over, ['Ann', 'Bob'])).toBe('Ann and Bob share the win with 1,000')
    expect(farkle.summary(state).winners).toEqual(['Ann', 'Bob'])
  })

  it('one player alone: reaching the target ends the game at once', () => {
    const { state } = play(start(['Ann'], { target: 1000 }), BANK_1000)
    expect(farkle.summary(state)).toEqual({
      game: 'farkle',
      finished: true,
      winners: ['Ann'],
      players: [{ name: 'Ann', score: 1000, out: false }],
      toPlay: null
    })
  })

  it('banking after hot dice may reach the target', () => {
    const { state } = play(start(['Ann'], { target: 1500 }), [roll(1, 2, 3, 4, 5, 6), keep(1, 2, 3, 4, 5, 6), BANK])
    expect(state.step).toBe('over')
  })
})

describe('Farkle refuses illegal lines with a reason and leaves the state unchanged', () => {
  const fresh = (): FarkleState => start(['Ann', 'Bob'])
  const kept = (): FarkleState => play(fresh(), [roll(1, 2, 3, 3, 4, 6), keep(1)]).state
  const thrown = (): FarkleState => play(fresh(), [roll(1, 2, 3, 3, 4, 6)]).state
  const cases: [string, () => FarkleState, Move, string][] = [
    ['keep before any throw', fresh, keep(1), 'Ann has no throw to set dice aside from: throw 6 dice first'],
    ['bank before any throw', fresh, BANK, 'Ann has nothing to bank: bank only after setting aside scoring dice'],
    ['too few dice at turn start', fresh, roll(1, 2, 3, 4, 5), 'Ann throws 6 dice now; the roll has 5'],
    ['a die value 7', fresh, roll(1, 2, 3, 4, 5, 7), 'roll: a die shows 1 to 6, not 7'],
    ['a die value 0', fresh, roll(0, 2, 3, 4, 5, 6), 'roll: a die shows 1 to 6, not 0'],
    ['a die value 2.5', fresh, roll(2.5, 2, 3, 4, 5, 6), 'roll: a die shows 1 to 6, not 2.5'],
    ['a throw before the keep', thrown, roll(1, 2, 3, 4, 5), 'Ann must first set aside scoring dice from the throw 1 2 3 3 4 6'],
    ['a bank before the keep', thrown, BANK, 'Ann must first set aside scoring dice from the throw 1 2 3 3 4 6'],
    ['keeping a die that scores nothing', thrown, keep(3), 'a 3 on its own scores nothing'],
    ['keeping dice that score nothing', thrown, keep(3, 3), '3 3 scores nothing'],
    [
      'keeping a scoring die with a dead one',
      thrown,
      keep(1, 3),
      'cannot set aside 1 3: the 3 belongs to no combination (1 alone scores 100)'
    ],
    ['keeping a die not in the throw', thrown, keep(5), 'there is no 5 in the throw 1 2 3 3 4 6'],
    ['keeping more 1s than thrown', thrown, keep(1, 1), 'the throw 1 2 3 3 4 6 has only one 1'],
    ['an empty keep', thrown, keep(), 'keep at least one scoring die'],
    ['a second keep from one throw', kept, keep(1), 'one keep per throw: Ann already set aside 1; throw 5 dice or bank'],
    ['a bank under the entry minimum', kept, BANK, 'Ann needs 500 in one turn to get on the board; this turn has 100, 400 short'],
    ['a move of another game', fresh, { reroll: [2] }, '"reroll" is no Farkle move (Farkle has roll, keep and bank)'],
    ['bank that is not true', kept, { bank: false } as unknown as Move, 'bank must be true']
  ]
  for (const [name, setup, move, reason] of cases) {
    it(`${name}: "${reason}"`, () => expect(refused(setup(), move)).toBe(reason))
  }
})

describe('Farkle words, summary and table', () => {
  const P = ['Ann', 'Bob']
  it('describes each event the way a table hears it', () => {
    const { events } = play(start(P), [roll(5, 2, 3, 4, 6, 6), keep(5), roll(1, 1, 1, 2, 3), keep(1, 1, 1)])
    expect(events.map((e) => farkle.describe(e, P))).toEqual([
      'Ann throws 2 3 4 5 6 6',
      'Ann keeps 5 for 50 (turn 50)',
      'Ann throws 1 1 1 2 3',
      'Ann keeps 1 1 1 for 1,000 (turn 1,050)'
    ])
    expect(farkle.describe({ kind: 'bank', seat: 0, points: 650, total: 1400 }, P)).toBe('Ann banks 650 and has 1,400')
    expect(farkle.describe({ kind: 'target', seat: 0, total: 10250, target: 10000, turnsLeft: 1 }, P)).toBe(
      'Ann reaches 10,000: final turns'
    )
    expect(farkle.describe({ kind: 'gameOver', winners: [0], total: 10250, announce: 'Ann wins!' }, P)).toBe('Ann wins with 10,250')
    expect(farkle.describe({ kind: 'nextTurn', seat: 1 }, P)).toBe("Bob's turn")
  })

  it('summary: banked points only, toPlay by name, no winners while the game goes on', () => {
    const { state } = play(start(['Ann', 'Bob']), [...BANK_1000, roll(1, 2, 2, 3, 3, 4), keep(1)])
    expect(JSON.stringify(farkle.summary(state))).toBe(
      '{"game":"farkle","finished":false,"winners":[],"players":[{"name":"Ann","score":1000,"out":false},' +
        '{"name":"Bob","score":0,"out":false}],"toPlay":"Bob"}'
    )
  })

  it('table: phase by turn, the latest throw fresh, the set-aside dice marked, the turn points', () => {
    const s = start(['Ann', 'Bob'])
    expect(farkle.table(s)).toEqual({ phase: 'Turn 1', dice: [], turnPoints: 0 })
    const { state } = play(s, [...BANK_1000, ...FARKLE_TURN, roll(1, 1, 2, 3, 4, 6), keep(1, 1), roll(5, 2, 3, 4)])
    expect(farkle.table(state)).toEqual({
      phase: 'Turn 2',
      turnPoints: 200,
      dice: [
        { value: 5, fresh: true },
        { value: 2, fresh: true },
        { value: 3, fresh: true },
        { value: 4, fresh: true },
        { value: 1, fresh: false, setAside: true },
        { value: 1, fresh: false, setAside: true }
      ]
    })
    const k = play(state, [keep(5)]).state
    expect(farkle.table(k).dice).toEqual([
      { value: 2, fresh: true },
      { value: 3, fresh: true },
      { value: 4, fresh: true },
      { value: 5, fresh: true, setAside: true },
      { value: 1, fresh: false, setAside: true },
      { value: 1, fresh: false, setAside: true }
    ])
  })

  it('module shape: id, title, one player minimum, six dice, defaults', () => {
    expect([farkle.id, farkle.title, farkle.minPlayers, farkle.diceCount]).toEqual(['farkle', 'Farkle', 1, 6])
    expect(farkle.defaults).toEqual({ entry: 500, target: 10000 })
  })
})

describe('Farkle options', () => {
  it('missing keys take their defaults', () => {
    expect(farkle.parseOptions(undefined, 2)).toEqual({ ok: true, value: { entry: 500, target: 10000 } })
    expect(farkle.parseOptions({}, 2)).toEqual({ ok: true, value: { entry: 500, target: 10000 } })
    expect(farkle.parseOptions({ target: 5000 }, 2)).toEqual({ ok: true, value: { entry: 500, target: 5000 } })
    expect(farkle.parseOptions({ entry: 0, target: 1 }, 1)).toEqual({ ok: true, value: { entry: 0, target: 1 } })
  })
  const bad: [Record<string, unknown>, string][] = [
    [{ entry: -1 }, 'Farkle rule "entry" must be a whole number of points from 0 (which turns it off) to 9007199254740991; got -1'],
    [{ entry: '500' }, 'Farkle rule "entry" must be a whole number of points from 0 (which turns it off) to 9007199254740991; got "500"'],
    [{ entry: 2.5 }, 'Farkle rule "entry" must be a whole number of points from 0 (which turns it off) to 9007199254740991; got 2.5'],
    [{ target: 0 }, 'Farkle rule "target" must be a whole number of points from 1 to 9007199254740991; got 0'],
    [{ target: null }, 'Farkle rule "target" must be a whole number of points from 1 to 9007199254740991; got null'],
    [{ target: true }, 'Farkle rule "target" must be a whole number of points from 1 to 9007199254740991; got true'],
    [{ target: 9007199254740992 }, 'Farkle rule "target" must be a whole number of points from 1 to 9007199254740991; got 9007199254740992'],
    [{ rounds: 3 }, 'unknown Farkle rule "rounds" (Farkle has "entry" and "target")']
  ]
  for (const [raw, error] of bad) {
    it(`refuses ${JSON.stringify(raw)}`, () => expect(farkle.parseOptions(raw, 2)).toEqual({ ok: false, error }))
  }
  it('refuses rules that are not an object', () => {
    expect(farkle.parseOptions([] as unknown as Record<string, unknown>, 2).ok).toBe(false)
  })
})

describe('Farkle random games played only from offer()', () => {
  /** Every distinct sub-multiset of the throw, as sorted arrays. */
  function subMultisets(values: number[]): number[][] {
    const sorted = [...values].sort((a, b) => a - b)
    const out = new Set<string>()
    for (let mask = 1; mask < 1 << sorted.length; mask++) {
      out.add(JSON.stringify(sorted.filter((_, i) => mask & (1 << i))))
    }
    return [...out].map((s) => JSON.parse(s) as number[])
  }

  it('offers are exact: every offered decision applies, every other keep is refused; states never change', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.infiniteStream(fc.nat(1_000_000)), (n, stream) => {
        const it = stream[Symbol.iterator]()
        const next = (k: number): number => it.next().value % k
        const names = ['Ann', 'Bob', 'Cy', 'Dee'].slice(0, n)
        let s = start(names, { entry: 300, target: 2000 })
        let turnsEnded = 0
        for (let step = 0; step < 5000; step++) {
          const o = farkle.offer(s)
          if (o.finished) break
          deepFreeze(s)
          const before = JSON.stringify(s)
          if (s.step === 'keep') {
            const offered = new Set(o.decisions.map((d) => JSON.stringify(d.move)))
            expect(o.decisions.length).toBeGreaterThan(0)
            for (const sub of subMultisets(s.thrown)) {
              const r = farkle.apply(s, { keep: sub })
              expect(r.ok).toBe(offered.has(JSON.stringify({ keep: sub })))
              if (r.ok) expect(r.events[0]).toMatchObject({ kind: 'keep', points: bestScore(sub, FARKLE_TABLE) })
            }
          }
          expect(JSON.stringify(s)).toBe(before)
          let m: Move
          if (o.diceDue > 0 && (o.decisions.length === 0 || next(10) < 7)) {
            m = { roll: Array.from({ length: o.diceDue }, () => 1 + next(6)) }
          } else {
            m = o.decisions[next(o.decisions.length)].move
          }
          const r = farkle.apply(s, m)
          if (!r.ok) throw new Error(r.error)
          expect(JSON.parse(JSON.stringify(r.state))).toEqual(r.state)
          for (const e of r.events) expect(typeof farkle.describe(e, names)).toBe('string')
          turnsEnded += r.events.filter((e) => e.kind === 'nextTurn' || e.kind === 'gameOver').length
          s = r.state
        }
        const o = farkle.offer(s)
        if (o.finished) {
          const sum = farkle.summary(s)
          const top = Math.max(...s.scores)
          expect(top).toBeGreaterThanOrEqual(2000)
          expect(sum.winners).toEqual(names.filter((_, i) => s.scores[i] === top))
          expect(turnsEnded).toBe(s.turnsDone)
        }
      }),
      { numRuns: 40 }
    )
  })
})
