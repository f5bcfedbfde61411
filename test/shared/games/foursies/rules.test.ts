// Scenario tests for the Foursies engine, each named after the rule of docs/rules/foursies.md
// it checks. Games are folded from init through a tiny helper; every applied state is frozen
// first, so any mutation of an input state throws.
import { describe, it, expect } from 'vitest'
import fc from 'fast-check'
import { foursies } from '@shared/games/foursies'
import { type FoursiesEvent, type FoursiesOptions, type FoursiesState } from '@shared/games/foursies/rules'
import type { GameEvent, Move } from '@shared/games/types'

const ANN_BOB = ['Ann', 'Bob']
const THREE = ['Ann', 'Bob', 'Cy']

/** No 4, no combination, no false four: the turn ends on it with no points. */
const QUIET: Move = { roll: [3, 5, 6, 6] }
/** Another throw that ends the turn with nothing. */
const QUIET2: Move = { roll: [2, 3, 3, 5] }
/** Four 4s: four points, which ends the turn on exactly 4 when thrown from 0. */
const FOUR_FOURS: Move = { roll: [4, 4, 4, 4] }
const FOURSIES: Move = { roll: [1, 1, 1, 1] }

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const v of Object.values(value as object)) deepFreeze(v)
  }
  return value
}

function start(players: string[], opts: Record<string, unknown> = {}): FoursiesState {
  const parsed = foursies.parseOptions(opts, players.length)
  if (!parsed.ok) throw new Error(parsed.error)
  return foursies.init(players, parsed.value)
}

function fold(state: FoursiesState, moves: Move[]): { state: FoursiesState; events: FoursiesEvent[]; last: FoursiesEvent[] } {
  let events: FoursiesEvent[] = []
  let last: FoursiesEvent[] = []
  moves.forEach((move, i) => {
    const r = foursies.apply(deepFreeze(state), move)
    if (!r.ok) throw new Error(`move ${i} ${JSON.stringify(move)} refused: ${r.error}`)
    state = r.state
    last = r.events
    events = events.concat(r.events)
  })
  return { state, events, last }
}

/** Folds moves from a new game: play(['Ann','Bob'], opts, [{roll:[4,2,2,6]}, ...]). */
function play(players: string[], opts: Record<string, unknown>, moves: Move[]): FoursiesState {
  return fold(start(players, opts), moves).state
}

function playEvents(players: string[], opts: Record<string, unknown>, moves: Move[]) {
  return fold(start(players, opts), moves)
}

/** Applies an illegal move: it must be refused, and the state must be left exactly as it was. */
function refuse(state: FoursiesState, move: Move): string {
  const before = structuredClone(state)
  const r = foursies.apply(state, move)
  expect(r.ok).toBe(false)
  expect(state).toEqual(before)
  return r.ok ? '' : r.error
}

const summary = (s: FoursiesState) => foursies.summary(s)
const scores = (s: FoursiesState) => summary(s).players.map((p) => p.score)
const rounds = (s: FoursiesState) => summary(s).players.map((p) => p.rounds)
const tours = (s: FoursiesState) => summary(s).players.map((p) => p.tours)
const toPlay = (s: FoursiesState) => summary(s).toPlay
const rerolls = (s: FoursiesState) =>
  foursies
    .offer(s)
    .decisions.filter((d) => 'reroll' in d.move)
    .map((d) => (d.move as { reroll: number[] }).reroll)
const decisionMoves = (s: FoursiesState) => foursies.offer(s).decisions.map((d) => d.move)
const said = (events: FoursiesEvent[], players: string[]) => events.map((e) => foursies.describe(e, players))
const announced = (events: GameEvent[]) => events.filter((e) => e.announce).map((e) => e.announce)

/** Plays one round where `winner` throws four 4s and everyone else throws quiet. */
function roundWonBy(state: FoursiesState, winner: number): FoursiesState {
  const round = state.round
  const tour = state.tour
  let guard = 0
  while (state.phase === 'turn' && state.round === round && state.tour === tour && guard++ < 20) {
    state = fold(state, [state.seat === winner ? FOUR_FOURS : QUIET]).state
  }
  return state
}

describe('Scoring a throw', () => {
  it('every fresh 4 scores one point, and the turn ends when nothing else is on the table', () => {
    const { state, last } = playEvents(ANN_BOB, {}, [{ roll: [4, 2, 3, 3] }])
    expect(scores(state)).toEqual([1, 0])
    expect(toPlay(state)).toBe('Bob')
    expect(said(last, ANN_BOB)).toEqual(['Ann throws 2 3 3 4', 'Ann scores a 4 and has 1', 'Ann ends the turn on 1', 'Bob to throw'])
  })

  it('every throw is told, also one that leaves a decision or scores nothing (the log shows it)', () => {
    const { last } = playEvents(ANN_BOB, {}, [{ roll: [2, 2, 5, 6] }])
    expect(said(last, ANN_BOB)).toEqual(['Ann throws 2 2 5 6'])
    const socks = playEvents(ANN_BOB, {}, [{ roll: [6, 3, 3, 6] }, { socks: true }, { roll: [2, 1, 1, 3] }])
    expect(said(socks.last, ANN_BOB)).toEqual(['Ann throws 1 1 2 3'])
    const duel = playEvents(ANN_BOB, {}, [{ roll: [4, 4, 4, 4] }, { roll: [4, 4, 4, 4] }])
    expect(duel.last.filter((e) => e.kind === 'throw')).toHaveLength(1)
  })

  it('two fresh 4s score two points', () => {
    expect(scores(play(ANN_BOB, {}, [{ roll: [4, 4, 3, 5] }]))).toEqual([2, 0])
  })

  it('a 4 kept on the table from an earlier throw does not score again', () => {
    // 4 2 2 3: one point; re-roll the 2s (false four); 3 5 come up: nothing fresh is a 4
    const s = play(ANN_BOB, {}, [{ roll: [4, 2, 2, 3] }, { reroll: [2, 2] }, { roll: [3, 5] }])
    expect(scores(s)).toEqual([1, 0])
    expect(toPlay(s)).toBe('Bob')
  })

  it('a fresh 4 on a re-roll scores', () => {
    // 4 2 2 3 → re-roll 2 2 → 4 6: table 4 3 4 6, one fresh 4 more
    const s = play(ANN_BOB, {}, [{ roll: [4, 2, 2, 3] }, { reroll: [2, 2] }, { roll: [4, 6] }])
    expect(scores(s)).toEqual([2, 0])
  })

  it('the player score reads "Ann scores a 4 and has 3"', () => {
    const { last } = playEvents(ANN_BOB, {}, [{ roll: [4, 4, 3, 5] }, QUIET, { roll: [4, 2, 3, 3] }])
    expect(foursies.describe(last[1], ANN_BOB)).toBe('Ann scores a 4 and has 3')
  })

  describe('four of a kind', () => {
    it('four 5s score one point, announced', () => {
      const { state, last } = playEvents(ANN_BOB, {}, [{ roll: [5, 5, 5, 5] }])
      expect(scores(state)).toEqual([1, 0])
      expect(last[1]).toMatchObject({ kind: 'fourOfAKind', seat: 0, announce: 'Four of a kind!' })
      expect(foursies.describe(last[1], ANN_BOB)).toBe('Four of a kind! Ann has 1')
    })

    it('counts when only the odd man was re-rolled (5 5 5 2, the 2 re-rolled to a 5)', () => {
      const s1 = play(ANN_BOB, {}, [{ roll: [5, 5, 5, 2] }])
      expect(foursies.offer(s1).diceDue).toBe(1)
      const { state, last } = fold(s1, [{ roll: [5] }])
      expect(scores(state)).toEqual([1, 0])
      expect(announced(last)).toEqual(['Four of a kind!'])
      expect(toPlay(state)).toBe('Bob')
    })

    it('counts again each time a throw leaves all four dice equal (2 2 2 2, re-roll 2 2, 2 2 again)', () => {
      const s1 = play(ANN_BOB, {}, [{ roll: [2, 2, 2, 2] }])
      expect(scores(s1)).toEqual([1, 0])
      // four of a kind is not socks; the 2s are false fours: two of them, or all four
      expect(decisionMoves(s1)).toEqual([{ reroll: [2, 2] }, { reroll: [2, 2, 2, 2] }, { end: true }])
      const s2 = fold(s1, [{ reroll: [2, 2] }, { roll: [2, 2] }]).state
      expect(scores(s2)).toEqual([2, 0])
      expect(toPlay(s2)).toBe('Ann')
    })

    it('four 4s score four points and no more', () => {
      const { state, last } = playEvents(ANN_BOB, {}, [FOUR_FOURS])
      expect(scores(state)).toEqual([4, 0])
      expect(last.some((e) => e.kind === 'fourOfAKind')).toBe(false)
      expect(foursies.describe(last[1], ANN_BOB)).toBe('Ann scores four 4s and has 4')
    })

    it('four 4s reached by the odd man re-roll: three scored before, one more fresh', () => {
      const s = play(ANN_BOB, {}, [{ roll: [4, 4, 4, 3] }, { roll: [4] }])
      expect(scores(s)).toEqual([4, 0])
    })
  })

  describe('foursies', () => {
    it('four 1s end the turn at once, announced "Foursies!"', () => {
      const { state, last } = playEvents(THREE, {}, [FOURSIES])
      expect(last[1]).toMatchObject({ kind: 'foursies', seat: 0, announce: 'Foursies!' })
      expect(foursies.describe(last[1], THREE)).toBe('Foursies!')
      expect(toPlay(state)).toBe('Bob')
      expect(foursies.table(state).phase).toBe('Round 1 · Final lap')
    })

    it('a foursies reached by re-rolling the odd man (1 1 1 3, the 3 re-rolled to a 1) counts', () => {
      const { state, events } = playEvents(ANN_BOB, {}, [{ roll: [1, 1, 1, 3] }, { roll: [1] }, QUIET])
      expect(events.some((e) => e.kind === 'foursies' && e.seat === 0)).toBe(true)
      expect(summary(state).finished).toBe(true)
      expect(summary(state).winners).toEqual(['Ann'])
    })

    it('a foursies reached by re-rolling a false four (1 1 2 2, re-roll 2+2, 1 1) counts', () => {
      const s = play(ANN_BOB, {}, [{ roll: [1, 1, 2, 2] }, { reroll: [2, 2] }, { roll: [1, 1] }, QUIET])
      expect(summary(s).winners).toEqual(['Ann'])
    })

    it('a foursies keeps the points the turn scored before it', () => {
      // 4 1 1 3: one point; re-roll 1+3 → 1 1: 4 1 1 1 is an odd man out (the scored 4); it comes up a 1
      const s = play(THREE, {}, [{ roll: [4, 1, 1, 3] }, { reroll: [1, 3] }, { roll: [1, 1] }])
      expect(foursies.offer(s).throwNote).toBe('Odd man out: re-roll the 4')
      const { state, last } = fold(s, [{ roll: [1] }])
      expect(last[1]).toMatchObject({ kind: 'foursies', seat: 0 })
      expect(state.foursies).toEqual([true, false, false])
      expect(scores(state)).toEqual([1, 0, 0])
      expect(toPlay(state)).toBe('Bob')
    })
  })

  describe('bust', () => {
    it('going over 4 ends the turn at once and voids the turn: "Bust! Ann stays on 2"', () => {
      // Ann 2; then 4 4 4 3 would make 5: bust before the odd man out is resolved
      const { state, last } = playEvents(ANN_BOB, {}, [{ roll: [4, 4, 3, 5] }, QUIET, { roll: [4, 4, 4, 3] }])
      expect(scores(state)).toEqual([2, 0])
      expect(toPlay(state)).toBe('Bob')
      expect(last[1]).toMatchObject({ kind: 'bust', seat: 0, announce: 'Bust!', score: 2 })
      expect(said(last, ANN_BOB)[1]).toBe('Bust! Ann stays on 2')
      expect(last.some((e) => e.kind === 'score')).toBe(false)
    })

    it('points scored earlier in the busting turn are void too', () => {
      // Ann 2; 4 2 2 3 makes 3; re-roll 2+2 → 4 4 makes 5: bust, back to 2
      const s1 = play(ANN_BOB, {}, [{ roll: [4, 4, 3, 5] }, QUIET, { roll: [4, 2, 2, 3] }])
      expect(scores(s1)).toEqual([3, 0])
      const s2 = fold(s1, [{ reroll: [2, 2] }, { roll: [4, 4] }]).state
      expect(scores(s2)).toEqual([2, 0])
      expect(toPlay(s2)).toBe('Bob')
    })

    it('Bob busting reads "Bust! Bob stays on 2"', () => {
      const { last } = playEvents(ANN_BOB, {}, [QUIET, { roll: [4, 4, 3, 5] }, QUIET, { roll: [4, 4, 4, 3] }])
      expect(foursies.describe(last[1], ANN_BOB)).toBe('Bust! Bob stays on 2')
    })
  })

  describe("Devil's Number (three or more 6s showing)", () => {
    it('"none" (default): announced, no effect; three 6s are no odd man out', () => {
      const { state, last } = playEvents(ANN_BOB, {}, [{ roll: [6, 6, 6, 4] }])
      expect(last[2]).toMatchObject({ kind: 'devilsNumber', announce: "Devil's Number!", effect: 'none' })
      expect(foursies.describe(last[2], ANN_BOB)).toBe("Devil's Number!")
      expect(scores(state)).toEqual([1, 0])
      expect(toPlay(state)).toBe('Bob')
    })

    it('"none": 6 6 6 2 offers the false four 6-2 and no odd man out', () => {
      const s = play(ANN_BOB, {}, [{ roll: [6, 6, 6, 2] }])
      expect(foursies.offer(s).diceDue).toBe(0)
      expect(decisionMoves(s)).toEqual([{ reroll: [2, 6] }, { end: true }])
    })

    it('"none": kept 6s count as showing (6 6 2 2, re-roll 2+2, 6 1 comes up)', () => {
      const { last } = playEvents(ANN_BOB, {}, [{ roll: [6, 6, 2, 2] }, { reroll: [2, 2] }, { roll: [6, 1] }])
      expect(last.map((e) => e.kind)).toContain('devilsNumber')
    })

    it('"bust": treated as a bust, the turn points are void', () => {
      const { state, last } = playEvents(ANN_BOB, { devilsNumber: 'bust' }, [
        { roll: [4, 4, 3, 5] },
        QUIET,
        { roll: [6, 6, 6, 4] }
      ])
      expect(scores(state)).toEqual([2, 0])
      expect(last.map((e) => e.kind).slice(0, 3)).toEqual(['throw', 'devilsNumber', 'bust'])
      expect(announced(last)).toEqual(["Devil's Number!", 'Bust!'])
    })

    it('"reset": the round score drops to 0 and the turn ends', () => {
      const { state, last } = playEvents(ANN_BOB, { devilsNumber: 'reset' }, [
        { roll: [4, 4, 3, 5] },
        QUIET,
        { roll: [6, 6, 6, 2] }
      ])
      expect(scores(state)).toEqual([0, 0])
      expect(toPlay(state)).toBe('Bob')
      expect(foursies.describe(last[1], ANN_BOB)).toBe("Devil's Number! Ann drops to 0")
    })

    it('"reset" during socks ends the turn at once, before the second socks throw, and beats a bust', () => {
      // Ann 2; 4 4 2 2 makes 4; re-roll 2+2 → 6 6: socks on 4 4 6 6; socks throw 6 6 6 4 would bust
      const moves: Move[] = [{ roll: [4, 4, 3, 5] }, QUIET, { roll: [4, 4, 2, 2] }, { reroll: [2, 2] }, { roll: [6, 6] }]
      const before = play(ANN_BOB, { devilsNumber: 'reset' }, moves)
      expect(decisionMoves(before)).toEqual([{ socks: true }, { end: true }])
      const socks: Move[] = [{ socks: true }, { roll: [6, 6, 6, 4] }]
      const reset = fold(before, socks).state
      expect(scores(reset)).toEqual([0, 0])
      expect(toPlay(reset)).toBe('Bob')
      const none = play(ANN_BOB, { devilsNumber: 'none' }, [...moves, ...socks])
      expect(scores(none)).toEqual([2, 0])
      expect(toPlay(none)).toBe('Bob')
    })
  })
})

describe('What happens next', () => {
  describe('run (forced: all four dice re-rolled)', () => {
    it('1-2-3-4: the 4 scores, then all four dice must be re-rolled', () => {
      const { state, last } = playEvents(ANN_BOB, {}, [{ roll: [3, 1, 4, 2] }])
      expect(scores(state)).toEqual([1, 0])
      expect(foursies.describe(last[2], ANN_BOB)).toBe('Run! Re-roll all four')
      const offer = foursies.offer(state)
      expect(offer).toMatchObject({ toPlay: 0, throwers: [0], diceDue: 4, decisions: [], throwNote: 'Run: re-roll all four dice' })
      expect(refuse(state, { end: true })).toBe(
        'Ann must re-roll all four dice of the run first; end only declines an optional re-roll'
      )
      expect(refuse(state, { reroll: [1, 3] })).toBe('Ann must re-roll all four dice of the run first')
      const after = fold(state, [QUIET]).state
      expect(scores(after)).toEqual([1, 0])
      expect(toPlay(after)).toBe('Bob')
    })

    it('2-3-4-5 and 3-4-5-6 are runs too', () => {
      expect(foursies.offer(play(ANN_BOB, {}, [{ roll: [5, 4, 3, 2] }])).diceDue).toBe(4)
      expect(foursies.offer(play(ANN_BOB, {}, [{ roll: [6, 5, 4, 3] }])).throwNote).toBe('Run: re-roll all four dice')
    })

    it('the run re-roll is an ordinary throw: an odd man out on it is forced', () => {
      const s = play(ANN_BOB, {}, [{ roll: [1, 2, 3, 4] }, { roll: [3, 3, 3, 2] }])
      expect(foursies.offer(s).throwNote).toBe('Odd man out: re-roll the 2')
    })
  })

  describe('odd man out (forced: the single odd die re-rolled)', () => {
    it('2 2 2 3: only the 3 may be thrown, nothing else first', () => {
      const { state, last } = playEvents(ANN_BOB, {}, [{ roll: [2, 3, 2, 2] }])
      expect(foursies.describe(last[1], ANN_BOB)).toBe('Odd man out: re-roll the 3')
      const offer = foursies.offer(state)
      expect(offer).toMatchObject({ toPlay: 0, diceDue: 1, decisions: [], throwNote: 'Odd man out: re-roll the 3' })
      expect(refuse(state, { reroll: [2, 2] })).toBe('Ann must re-roll the odd man out first')
      expect(refuse(state, { roll: [2, 2, 2, 2] })).toBe('1 die is due, not 4')
    })

    it('an odd 4 scores before it is re-rolled', () => {
      // 3 3 3 4: one point; the 4 re-rolled to a 3: four of a kind, one more
      const s1 = play(ANN_BOB, {}, [{ roll: [3, 3, 3, 4] }])
      expect(scores(s1)).toEqual([1, 0])
      expect(foursies.offer(s1).throwNote).toBe('Odd man out: re-roll the 4')
      const s2 = fold(s1, [{ roll: [3] }]).state
      expect(scores(s2)).toEqual([2, 0])
    })

    it('three 4s and an odd die: the odd die is re-rolled', () => {
      const s = play(ANN_BOB, {}, [{ roll: [4, 4, 4, 1] }])
      expect(scores(s)).toEqual([3, 0])
      expect(foursies.offer(s).throwNote).toBe('Odd man out: re-roll the 1')
    })

    it('three 6s are never an odd man out', () => {
      const s = play(ANN_BOB, {}, [{ roll: [6, 6, 6, 3] }])
      expect(toPlay(s)).toBe('Bob')
    })

    it('exception: on the throw that resolves it, a new odd man out is not resolved', () => {
      // 5 5 5 1 → the 1 comes up a 2: 5 5 5 2 looks like an odd man out, but the turn ends
      const s = play(ANN_BOB, {}, [{ roll: [5, 5, 5, 1] }, { roll: [2] }])
      expect(toPlay(s)).toBe('Bob')
      expect(foursies.offer(s).diceDue).toBe(4)
    })

    it('exception: on the resolving throw only false fours may follow (2 2 2 1 → 5: re-roll 2+2 or end)', () => {
      const s = play(ANN_BOB, {}, [{ roll: [2, 2, 2, 1] }, { roll: [5] }])
      expect(foursies.offer(s).diceDue).toBe(0)
      expect(decisionMoves(s)).toEqual([{ reroll: [2, 2] }, { end: true }])
    })

    it('the exception covers that one throw only: after a false-four re-roll a new odd man out is forced', () => {
      // 2 2 1 5: re-roll 5-1 → 2 3: 2 2 2 3 is an odd man out
      const s = play(ANN_BOB, {}, [{ roll: [2, 2, 1, 5] }, { reroll: [1, 5] }, { roll: [2, 3] }])
      expect(foursies.offer(s)).toMatchObject({ diceDue: 1, throwNote: 'Odd man out: re-roll the 3' })
    })

    it('a forced re-roll is made even on exactly 4, and can bust', () => {
      // Ann 1; 4 4 4 3 makes 4, but the odd 3 must be re-rolled; it comes up a 4: bust
      const s1 = play(ANN_BOB, {}, [{ roll: [4, 2, 3, 3] }, QUIET, { roll: [4, 4, 4, 3] }])
      expect(scores(s1)).toEqual([4, 0])
      expect(toPlay(s1)).toBe('Ann')
      expect(foursies.offer(s1).diceDue).toBe(1)
      const s2 = fold(s1, [{ roll: [4] }]).state
      expect(scores(s2)).toEqual([1, 0])
      expect(toPlay(s2)).toBe('Bob')
    })
  })

  describe('socks (optional: all four dice thrown exactly twice more)', () => {
    it('5 5 3 3 offers socks or the end of the turn', () => {
      const s = play(ANN_BOB, {}, [{ roll: [5, 3, 5, 3] }])
      expect(foursies.offer(s).diceDue).toBe(0)
      expect(decisionMoves(s)).toEqual([{ socks: true }, { end: true }])
    })

    it('accepted: two throws of four, each scored, no re-rolls, then the turn ends', () => {
      const s1 = play(ANN_BOB, {}, [{ roll: [5, 3, 5, 3] }, { socks: true }])
      expect(foursies.offer(s1)).toMatchObject({ diceDue: 4, decisions: [], throwNote: 'Socks: throw 1 of 2' })
      // a false four (2+2) on the first socks throw is not offered
      const s2 = fold(s1, [{ roll: [4, 2, 2, 3] }]).state
      expect(scores(s2)).toEqual([1, 0])
      expect(foursies.offer(s2)).toMatchObject({ toPlay: 0, diceDue: 4, decisions: [], throwNote: 'Socks: throw 2 of 2' })
      expect(refuse(s2, { reroll: [2, 2] })).toBe(
        'Ann is resolving socks: both throws of all four dice must be made, with no re-rolls'
      )
      // a run on the second socks throw is not re-rolled either
      const s3 = fold(s2, [{ roll: [4, 3, 5, 6] }]).state
      expect(scores(s3)).toEqual([2, 0])
      expect(toPlay(s3)).toBe('Bob')
    })

    it('socks throws score four of a kind', () => {
      const s = play(ANN_BOB, {}, [{ roll: [5, 3, 5, 3] }, { socks: true }, { roll: [2, 2, 2, 2] }, QUIET])
      expect(scores(s)).toEqual([1, 0])
    })

    it('the second socks throw is forced even on 4, and it can bust', () => {
      // Ann 2; socks; first throw 4 4 3 5 makes 4: no end on offer; the second 4 busts
      const s1 = play(ANN_BOB, {}, [{ roll: [4, 4, 3, 5] }, QUIET, { roll: [5, 3, 5, 3] }, { socks: true }, { roll: [4, 4, 3, 5] }])
      expect(scores(s1)).toEqual([4, 0])
      expect(foursies.offer(s1).decisions).toEqual([])
      expect(refuse(s1, { end: true })).toBe(
        'Ann is resolving socks: both throws of all four dice must be made, with no re-rolls; end only declines an optional re-roll'
      )
      const s2 = fold(s1, [{ roll: [4, 2, 3, 3] }]).state
      expect(scores(s2)).toEqual([2, 0])
      expect(toPlay(s2)).toBe('Bob')
    })

    it('a first socks throw that ends the turn (bust) ends it: no second throw', () => {
      const s = play(ANN_BOB, {}, [{ roll: [4, 4, 3, 5] }, QUIET, { roll: [5, 3, 5, 3] }, { socks: true }, { roll: [4, 4, 4, 2] }])
      expect(scores(s)).toEqual([2, 0])
      expect(toPlay(s)).toBe('Bob')
    })

    it('a first socks throw that is a foursies ends the turn', () => {
      const s = play(THREE, {}, [{ roll: [5, 3, 5, 3] }, { socks: true }, FOURSIES])
      expect(toPlay(s)).toBe('Bob')
      expect(s.foursies).toEqual([true, false, false])
    })

    it('declined: end ends the turn with the points made', () => {
      const s = play(ANN_BOB, {}, [{ roll: [4, 4, 2, 2] }, { end: true }])
      expect(scores(s)).toEqual([2, 0])
      expect(toPlay(s)).toBe('Bob')
    })

    it('declined by re-rolling a false four instead (1 1 3 3: socks, 1+3, or both false fours)', () => {
      const s = play(ANN_BOB, {}, [{ roll: [1, 3, 1, 3] }])
      expect(decisionMoves(s)).toEqual([{ reroll: [1, 3] }, { reroll: [1, 1, 3, 3] }, { socks: true }, { end: true }])
      // the 1 and 3 left on the table are still a false four
      const after = fold(s, [{ reroll: [1, 3] }, { roll: [4, 6] }]).state
      expect(scores(after)).toEqual([1, 0])
      expect(decisionMoves(after)).toEqual([{ reroll: [1, 3] }, { end: true }])
      expect(toPlay(fold(after, [{ end: true }]).state)).toBe('Bob')
    })

    it('socks is refused where there are no two pairs', () => {
      const s = play(ANN_BOB, {}, [{ roll: [2, 2, 1, 3] }])
      expect(refuse(s, { socks: true })).toBe('there are no socks on the table: socks are two pairs of different values')
    })
  })

  describe('false four (optional)', () => {
    it('by addition 2+2', () => {
      expect(rerolls(play(ANN_BOB, {}, [{ roll: [2, 3, 2, 5] }]))).toEqual([[2, 2]])
    })

    it('by addition 1+3 and subtraction 5-1 on the same table (they share the 1, so never together)', () => {
      expect(rerolls(play(ANN_BOB, {}, [{ roll: [1, 3, 5, 6] }]))).toEqual([
        [1, 3],
        [1, 5]
      ])
    })

    it('by addition 1+1+2, subtraction 6-2 and 6-1-1', () => {
      expect(rerolls(play(ANN_BOB, {}, [{ roll: [1, 1, 2, 6] }]))).toEqual([
        [2, 6],
        [1, 1, 2],
        [1, 1, 6]
      ])
    })

    it('6-1-1 re-rolls three dice and keeps the fourth', () => {
      const s = play(ANN_BOB, {}, [{ roll: [6, 1, 5, 1] }])
      expect(rerolls(s)).toEqual([
        [1, 5],
        [1, 1, 6]
      ])
      const after = fold(s, [{ reroll: [6, 1, 1] }]).state
      expect(foursies.offer(after).diceDue).toBe(3)
      const thrown = fold(after, [{ roll: [4, 3, 3] }]).state
      expect(foursies.table(thrown).dice).toEqual([
        { value: 5, fresh: false },
        { value: 4, fresh: true },
        { value: 3, fresh: true },
        { value: 3, fresh: true }
      ])
    })

    it('several disjoint false fours at once: 2 2 1 3 offers the 2s, the 1 and 3, or all four', () => {
      const s = play(ANN_BOB, {}, [{ roll: [2, 2, 1, 3] }])
      const offer = foursies.offer(s)
      expect(offer.diceDue).toBe(0)
      expect(offer.decisions).toEqual([
        { move: { reroll: [1, 3] }, label: 'Re-roll 1+3' },
        { move: { reroll: [2, 2] }, label: 'Re-roll 2+2' },
        { move: { reroll: [1, 2, 2, 3] }, label: 'Re-roll 1+3 and 2+2' },
        { move: { end: true }, label: 'End the turn' }
      ])
      const all = fold(s, [{ reroll: [3, 2, 1, 2] }]).state
      expect(foursies.offer(all).diceDue).toBe(4)
    })

    it('an addition one and a subtraction one combine: 5 1 2 2', () => {
      const s = play(ANN_BOB, {}, [{ roll: [5, 1, 2, 2] }])
      expect(rerolls(s)).toEqual([
        [1, 5],
        [2, 2],
        [1, 2, 2, 5]
      ])
      expect(foursies.offer(s).decisions[2].label).toBe('Re-roll 5-1 and 2+2')
    })

    it('kept dice count as much as fresh ones (2 2 3 5, re-roll 2+2, 1 6: now 1+3 and 5-1)', () => {
      const s = play(ANN_BOB, {}, [{ roll: [2, 2, 3, 5] }, { reroll: [2, 2] }, { roll: [1, 6] }])
      expect(rerolls(s)).toEqual([
        [1, 3],
        [1, 5]
      ])
    })

    it('a false four re-roll is thrown with exactly that many dice', () => {
      const s = play(ANN_BOB, {}, [{ roll: [2, 2, 1, 3] }, { reroll: [2, 2] }])
      expect(foursies.offer(s)).toMatchObject({ diceDue: 2, decisions: [], throwNote: 'False four: re-roll 2 2' })
      expect(refuse(s, { roll: [1, 2, 3] })).toBe('2 dice are due, not 3')
      expect(refuse(s, { end: true })).toBe(
        'Ann must first throw the 2 dice being re-rolled; end only declines an optional re-roll'
      )
    })

    describe('illegal re-rolls are refused with a reason', () => {
      const table = () => play(ANN_BOB, {}, [{ roll: [2, 2, 1, 3] }])
      it('dice that make no false four', () => {
        expect(refuse(table(), { reroll: [2, 3] })).toBe('a 2 and a 3 make 5, not a false four')
      })
      it('addition and subtraction mixed (1+5-2)', () => {
        const s = play(ANN_BOB, {}, [{ roll: [5, 1, 2, 2] }])
        expect(refuse(s, { reroll: [5, 1, 2] })).toBe('1+5-2 makes 4, but a false four adds or subtracts, never both')
      })
      it('a 4 among the dice', () => {
        const s = play(ANN_BOB, {}, [{ roll: [4, 2, 2, 3] }])
        expect(refuse(s, { reroll: [4, 2, 2] })).toBe('a 4 is never part of a false four: 4s score, they are not re-rolled')
      })
      it('a die that is not on the table', () => {
        expect(refuse(table(), { reroll: [6, 2] })).toBe('there is no 6 on the table to re-roll')
        expect(refuse(table(), { reroll: [1, 1, 2] })).toBe('there is only one 1 on the table, not two')
        expect(refuse(table(), { reroll: [2, 2, 2] })).toBe('there are only two 2s on the table, not three')
      })
      it('a single die', () => {
        expect(refuse(table(), { reroll: [2] })).toBe('a single 2 is no false four: a false four takes two or more dice')
      })
      it('addition and subtraction mixed (2+3-1)', () => {
        expect(refuse(table(), { reroll: [1, 2, 3] })).toBe('2+3-1 makes 4, but a false four adds or subtracts, never both')
      })
      it('three dice that neither add nor subtract to 4', () => {
        expect(refuse(table(), { reroll: [1, 2, 2] })).toBe(
          '1, 2 and 2 make no false four: they add up to 5, not 4, no die minus the others makes 4, and they do not split into false fours'
        )
      })
      it('four dice that do not split into false fours', () => {
        const s = play(ANN_BOB, {}, [{ roll: [2, 2, 6, 1] }])
        expect(refuse(s, { reroll: [1, 2, 2, 6] })).toBe(
          '1, 2, 2 and 6 make no false four: they add up to 11, not 4, no die minus the others makes 4, and they do not split into false fours'
        )
      })
      it('a re-roll before the opening throw', () => {
        expect(refuse(start(ANN_BOB), { reroll: [2, 2] })).toBe(
          'Ann has not thrown yet: a turn starts with a throw of all four dice'
        )
      })
    })
  })

  describe('end', () => {
    it('is on offer only with optional re-rolls: a turn with none ends by itself', () => {
      const s = play(ANN_BOB, {}, [QUIET2])
      expect(toPlay(s)).toBe('Bob')
      expect(refuse(s, { end: true })).toBe(
        'Bob has not thrown yet: a turn starts with a throw of all four dice; end only declines an optional re-roll'
      )
    })

    it('declines a false four and keeps the turn points', () => {
      const { state, last } = playEvents(ANN_BOB, {}, [{ roll: [4, 2, 2, 3] }, { end: true }])
      expect(scores(state)).toEqual([1, 0])
      expect(foursies.describe(last[0], ANN_BOB)).toBe('Ann ends the turn on 1')
    })

    it('when socks and false fours are both on offer, end declines both', () => {
      const s = play(ANN_BOB, {}, [{ roll: [1, 1, 3, 3] }, { end: true }])
      expect(toPlay(s)).toBe('Bob')
    })
  })

  describe('reaching exactly 4', () => {
    it('does not end the turn: optional re-rolls stay on offer and may bust', () => {
      // Ann 2; 4 4 2 2 makes 4; socks and 2+2 still offered
      const s1 = play(ANN_BOB, {}, [{ roll: [4, 4, 3, 5] }, QUIET, { roll: [4, 4, 2, 2] }])
      expect(scores(s1)).toEqual([4, 0])
      expect(toPlay(s1)).toBe('Ann')
      expect(decisionMoves(s1)).toEqual([{ reroll: [2, 2] }, { socks: true }, { end: true }])
      const busted = fold(s1, [{ reroll: [2, 2] }, { roll: [4, 3] }]).state
      expect(scores(busted)).toEqual([2, 0])
      const kept = fold(s1, [{ end: true }]).state
      expect(scores(kept)).toEqual([4, 0])
      expect(foursies.table(kept).phase).toBe('Round 1 · Final lap')
    })
  })
})

describe('End of a round', () => {
  it('final lap: players after the finisher get one turn, earlier ones do not', () => {
    // Ann holds the tab; Bob reaches 4; Cy has a final turn; Ann does not play again
    const { state, events } = playEvents(THREE, {}, [QUIET, FOUR_FOURS])
    expect(said(events, THREE)).toContain('Bob is on 4: final lap')
    expect(toPlay(state)).toBe('Cy')
    expect(foursies.table(state).phase).toBe('Round 1 · Final lap')
    const done = fold(state, [QUIET]).state
    expect(summary(done)).toMatchObject({ finished: true, winners: ['Bob'], toPlay: null })
  })

  it('the last player of the lap reaching 4 ends the round at once', () => {
    // Bob holds the tab: the lap is Bob, Cy, Ann
    const s = play(THREE, { tab: 1 }, [QUIET, QUIET, FOUR_FOURS])
    expect(summary(s)).toMatchObject({ finished: true, winners: ['Ann'], tab: 'Bob' })
  })

  it('laps go on until someone ends a turn on 4', () => {
    const s = play(ANN_BOB, {}, [QUIET, QUIET, QUIET])
    expect(toPlay(s)).toBe('Bob')
    expect(summary(s).finished).toBe(false)
  })

  it('one foursies wins the round and beats any number of points', () => {
    const s = play(THREE, {}, [FOUR_FOURS, FOURSIES, QUIET])
    expect(summary(s).winners).toEqual(['Bob'])
  })

  it('a player on 4 in the final lap does not beat an earlier foursies', () => {
    const s = play(THREE, {}, [FOURSIES, FOUR_FOURS, FOUR_FOURS])
    expect(summary(s).winners).toEqual(['Ann'])
  })

  it('several foursies: those players duel (points players do not)', () => {
    const { state, last } = playEvents(THREE, {}, [FOURSIES, FOUR_FOURS, FOURSIES])
    expect(last.find((e) => e.kind === 'duel')).toMatchObject({ announce: 'Duel!', seats: [0, 2] })
    expect(said(last, THREE)).toContain('Duel between Ann and Cy')
    expect(foursies.offer(state)).toEqual({
      finished: false,
      toPlay: null,
      throwers: [0, 2],
      diceDue: 2,
      throwNote: 'Duel: Ann and Cy throw one die each',
      decisions: [],
      blocked: []
    })
  })

  it('several on 4 points: they duel', () => {
    const s = play(THREE, {}, [FOUR_FOURS, QUIET, FOUR_FOURS])
    expect(s.phase).toBe('duel')
    expect(foursies.table(s)).toMatchObject({ phase: 'Duel for the round', contenders: [0, 2], turnPoints: null })
    expect(summary(s)).toMatchObject({ toPlay: null, finished: false })
    expect(scores(s)).toEqual([4, 0, 4])
  })

  it('practice game: one player reaching 4 wins the round at once', () => {
    const s = play(['Ann'], {}, [QUIET, { roll: [4, 4, 3, 5] }, { roll: [4, 4, 3, 5] }])
    expect(summary(s)).toMatchObject({ finished: true, winners: ['Ann'] })
    expect(rounds(s)).toEqual([1])
  })

  it('practice game: a foursies wins the round at once', () => {
    expect(summary(play(['Ann'], {}, [FOURSIES]))).toMatchObject({ finished: true, winners: ['Ann'] })
  })
})

describe('Duel', () => {
  const duelOf3 = () => play(THREE, {}, [FOUR_FOURS, FOUR_FOURS, FOUR_FOURS])

  it('exactly one 4 wins', () => {
    const { state, last } = fold(duelOf3(), [{ roll: [2, 4, 6] }])
    expect(summary(state).winners).toEqual(['Bob'])
    expect(said(last, THREE)).toEqual(['Bob throws the 4', 'Bob wins the round', 'Bob wins the match'])
  })

  it('several 4s: only those continue', () => {
    const s = fold(duelOf3(), [{ roll: [4, 1, 4] }]).state
    expect(foursies.offer(s)).toMatchObject({ throwers: [0, 2], diceDue: 2, toPlay: null })
    const done = fold(s, [{ roll: [6, 4] }]).state
    expect(summary(done).winners).toEqual(['Cy'])
  })

  it('no 4: all throw again', () => {
    const { state, last } = fold(duelOf3(), [{ roll: [1, 2, 3] }])
    expect(foursies.offer(state)).toMatchObject({ throwers: [0, 1, 2], diceDue: 3 })
    expect(foursies.describe(last[0], THREE)).toBe('No 4: throw again')
    expect(foursies.table(state).dice).toEqual([
      { value: 1, fresh: true },
      { value: 2, fresh: true },
      { value: 3, fresh: true }
    ])
  })

  it('one value per duellist; no re-rolls, socks or end', () => {
    const s = duelOf3()
    expect(refuse(s, { roll: [4] })).toBe('3 dice are due (one per duellist), not 1')
    expect(refuse(s, { reroll: [2, 2] })).toBe('a duel is on: every duellist throws one die, and nothing is re-rolled')
    expect(refuse(s, { end: true })).toBe('a duel is on: it ends when exactly one duellist throws a 4')
  })

  it('three 6s in a duel are no Devil\'s Number', () => {
    const { last } = fold(play(THREE, { devilsNumber: 'reset' }, [FOUR_FOURS, FOUR_FOURS, FOUR_FOURS]), [{ roll: [6, 6, 6] }])
    expect(last.map((e) => e.kind)).toEqual(['duelThrow'])
  })

  it('a duel is not a round: the tab does not pass and scores stay', () => {
    const s = play(THREE, { match: 'tour' }, [FOUR_FOURS, QUIET, FOUR_FOURS, { roll: [1, 1] }])
    expect(summary(s)).toMatchObject({ tab: 'Ann', toPlay: null })
    expect(scores(s)).toEqual([4, 0, 4])
    const won = fold(s, [{ roll: [3, 4] }]).state
    expect(summary(won)).toMatchObject({ tab: 'Bob', toPlay: 'Bob' })
    expect(rounds(won)).toEqual([0, 0, 1])
    expect(scores(won)).toEqual([0, 0, 0])
  })
})

describe('Matches', () => {
  it('"round" (default): one round; the winner has 1 round win and no tour', () => {
    const s = play(ANN_BOB, {}, [FOUR_FOURS, QUIET])
    expect(rounds(s)).toEqual([1, 0])
    expect(tours(s)).toEqual([0, 0])
    expect(refuse(s, QUIET)).toBe('the game is over')
  })

  it('the tab passes one seat as each new round starts', () => {
    let s = start(THREE, { match: 'tour' })
    expect(summary(s).tab).toBe('Ann')
    s = roundWonBy(s, 0)
    expect(summary(s)).toMatchObject({ tab: 'Bob', toPlay: 'Bob' })
    expect(foursies.table(s).phase).toBe('Round 2 · Tour 1')
    s = roundWonBy(s, 2)
    expect(summary(s)).toMatchObject({ tab: 'Cy', toPlay: 'Cy' })
    s = roundWonBy(s, 2)
    expect(summary(s).tab).toBe('Ann')
    expect(rounds(s)).toEqual([1, 0, 2])
  })

  it('the first tab holder is the "tab" seat', () => {
    const s = start(THREE, { tab: 2 })
    expect(summary(s)).toMatchObject({ tab: 'Cy', toPlay: 'Cy' })
  })

  it('"tour", "first-to-four": the first to win four rounds wins the tour and the match', () => {
    let s = start(ANN_BOB, { match: 'tour' })
    for (const w of [0, 1, 0, 0]) s = roundWonBy(s, w)
    expect(summary(s).finished).toBe(false)
    expect(rounds(s)).toEqual([3, 1])
    const { state, last } = fold(s, [FOUR_FOURS, QUIET])
    // round 5: Ann holds the tab
    expect(said(last, ANN_BOB).slice(-3)).toEqual(['Ann wins the round', 'Ann wins the tour', 'Ann wins the match'])
    expect(summary(state)).toEqual({
      game: 'foursies',
      finished: true,
      winners: ['Ann'],
      players: [
        { name: 'Ann', score: 4, rounds: 4, tours: 1, out: false },
        { name: 'Bob', score: 0, rounds: 1, tours: 0, out: false }
      ],
      toPlay: null,
      tab: 'Ann'
    })
  })

  it('"tour", "four-rounds": exactly four rounds, most round wins takes the tour', () => {
    let s = start(ANN_BOB, { match: 'tour', tour: 'four-rounds' })
    for (const w of [0, 0, 0]) s = roundWonBy(s, w)
    expect(summary(s).finished).toBe(false)
    s = roundWonBy(s, 1)
    expect(summary(s)).toMatchObject({ finished: true, winners: ['Ann'], tab: 'Bob' })
    expect(rounds(s)).toEqual([3, 1])
    expect(tours(s)).toEqual([1, 0])
  })

  it('"four-rounds": a tie for the most round wins is settled by a duel', () => {
    let s = start(THREE, { match: 'tour', tour: 'four-rounds' })
    for (const w of [0, 2, 2]) s = roundWonBy(s, w)
    // round 4: Ann holds the tab and wins: Ann 2, Cy 2
    const { state, last } = fold(s, [FOUR_FOURS, QUIET, QUIET])
    expect(last.find((e) => e.kind === 'duel')).toMatchObject({ seats: [0, 2], stake: 'tour' })
    expect(summary(state)).toMatchObject({ finished: false, toPlay: null, tab: 'Ann' })
    expect(rounds(state)).toEqual([2, 0, 2])
    const done = fold(state, [{ roll: [5, 4] }]).state
    expect(summary(done)).toMatchObject({ finished: true, winners: ['Cy'], tab: 'Ann' })
    expect(rounds(done)).toEqual([2, 0, 2])
    expect(tours(done)).toEqual([0, 0, 1])
  })

  it('"tour-de-fours": tours until someone has four; round wins restart each tour, the tab keeps passing', () => {
    let s = start(THREE, { match: 'tour-de-fours' })
    for (let i = 0; i < 4; i++) s = roundWonBy(s, 1)
    // tour 1 had rounds with tabs Ann, Bob, Cy, Ann: tour 2 starts with Bob
    expect(summary(s)).toMatchObject({ finished: false, tab: 'Bob', toPlay: 'Bob' })
    expect(rounds(s)).toEqual([0, 0, 0])
    expect(tours(s)).toEqual([0, 1, 0])
    expect(foursies.table(s).phase).toBe('Round 1 · Tour 2')
    for (let i = 0; i < 12; i++) s = roundWonBy(s, 1)
    expect(summary(s)).toMatchObject({ finished: true, winners: ['Bob'] })
    expect(rounds(s)).toEqual([0, 4, 0])
    expect(tours(s)).toEqual([0, 4, 0])
    // 16 rounds: the tab started round 16 at seat (16 - 1) mod 3 = 0
    expect(summary(s).tab).toBe('Ann')
  })

  it('"tour-de-fours" with "four-rounds" tours', () => {
    let s = start(ANN_BOB, { match: 'tour-de-fours', tour: 'four-rounds' })
    for (let i = 0; i < 4; i++) s = roundWonBy(s, 0)
    expect(tours(s)).toEqual([1, 0])
    expect(foursies.table(s).phase).toBe('Round 1 of 4 · Tour 2')
    for (let i = 0; i < 12; i++) s = roundWonBy(s, 0)
    expect(summary(s)).toMatchObject({ finished: true, winners: ['Ann'] })
    expect(tours(s)).toEqual([4, 0])
  })

  it('the round winner is announced', () => {
    const { last } = playEvents(ANN_BOB, {}, [FOUR_FOURS, QUIET])
    expect(last.filter((e) => 'announce' in e).map((e) => e.kind)).toEqual(['roundWon', 'matchWon'])
    expect(foursies.describe(last.find((e) => e.kind === 'matchWon')!, ANN_BOB)).toBe('Ann wins the match')
  })
})

describe('summary (the referee replay JSON)', () => {
  it('mid-turn: the score includes the turn in progress', () => {
    const s = play(THREE, { match: 'tour' }, [{ roll: [4, 4, 3, 5] }, { roll: [4, 2, 2, 3] }])
    expect(summary(s)).toEqual({
      game: 'foursies',
      finished: false,
      winners: [],
      players: [
        { name: 'Ann', score: 2, rounds: 0, tours: 0, out: false },
        { name: 'Bob', score: 1, rounds: 0, tours: 0, out: false },
        { name: 'Cy', score: 0, rounds: 0, tours: 0, out: false }
      ],
      toPlay: 'Bob',
      tab: 'Ann'
    })
  })

  it('a one-round match as it ended', () => {
    expect(summary(play(THREE, { tab: 1 }, [QUIET, FOUR_FOURS, QUIET]))).toEqual({
      game: 'foursies',
      finished: true,
      winners: ['Cy'],
      players: [
        { name: 'Ann', score: 0, rounds: 0, tours: 0, out: false },
        { name: 'Bob', score: 0, rounds: 0, tours: 0, out: false },
        { name: 'Cy', score: 4, rounds: 1, tours: 0, out: false }
      ],
      toPlay: null,
      tab: 'Bob'
    })
  })
})

describe('table view', () => {
  it('is empty before the first throw and shows which dice are fresh', () => {
    expect(foursies.table(start(ANN_BOB))).toEqual({ phase: 'Round 1', dice: [], turnPoints: 0, notes: { 0: 'holds the tab' } })
    const s = play(ANN_BOB, {}, [{ roll: [4, 2, 2, 3] }, { reroll: [2, 2] }, { roll: [5, 5] }])
    // 3 4 5 5: nothing more, the turn ended; the view keeps the just-ended dice (kept ones first)
    expect(foursies.table(s).dice).toEqual([
      { value: 3, fresh: false },
      { value: 4, fresh: false },
      { value: 5, fresh: true },
      { value: 5, fresh: true }
    ])
  })

  it('shows the turn points of the player to act', () => {
    const s = play(ANN_BOB, {}, [{ roll: [4, 4, 2, 2] }])
    expect(foursies.table(s).turnPoints).toBe(2)
  })
})

describe('Record lines', () => {
  it('a roll must hold exactly the dice due', () => {
    expect(refuse(start(ANN_BOB), { roll: [1, 2, 3] })).toBe('4 dice are due, not 3')
    expect(refuse(start(ANN_BOB), { roll: [1, 2, 3, 7] })).toBe('a die shows 1 to 6, not 7')
  })

  it('a roll is refused while a decision is due', () => {
    const s = play(ANN_BOB, {}, [{ roll: [2, 2, 1, 3] }])
    expect(refuse(s, { roll: [1, 2, 3, 5] })).toBe('Ann must decide first: re-roll a false four or end the turn')
    const socks = play(ANN_BOB, {}, [{ roll: [5, 5, 3, 3] }])
    expect(refuse(socks, { roll: [1, 2] })).toBe('Ann must decide first: take socks or end the turn')
  })

  it('keep and bank are refused: Foursies has neither', () => {
    expect(refuse(start(ANN_BOB), { keep: [4] })).toBe('Foursies has no keep: dice stay on the table until they are re-rolled')
    expect(refuse(start(ANN_BOB), { bank: true })).toBe(
      'Foursies has no banking: a turn ends by itself, or with end when a re-roll is declined'
    )
  })

  it('nothing is accepted after the game is over', () => {
    const s = play(ANN_BOB, {}, [FOUR_FOURS, QUIET])
    for (const m of [QUIET, { end: true }, { reroll: [2, 2] }, { socks: true }] as Move[]) {
      expect(refuse(s, m)).toBe('the game is over')
    }
    expect(foursies.offer(s)).toEqual({ finished: true, toPlay: null, throwers: [], diceDue: 0, decisions: [], blocked: [] })
  })

  it('illegal moves leave the state deep-equal unchanged in every phase', () => {
    const states = [
      start(ANN_BOB),
      play(ANN_BOB, {}, [{ roll: [2, 2, 1, 3] }]),
      play(ANN_BOB, {}, [{ roll: [2, 2, 2, 3] }]),
      play(ANN_BOB, {}, [{ roll: [5, 5, 3, 3] }, { socks: true }]),
      play(THREE, {}, [FOURSIES, FOURSIES, QUIET])
    ]
    const bad: Move[] = [{ roll: [1, 1, 1, 1, 1] }, { reroll: [4, 4] }, { reroll: [6, 6] }, { keep: [1] }, { bank: true }]
    for (const s of states) for (const m of bad) refuse(s, m)
  })
})

describe('parseOptions', () => {
  const parse = (raw: Record<string, unknown> | undefined, n = 3) => foursies.parseOptions(raw, n)
  const defaults: FoursiesOptions = { match: 'round', tour: 'first-to-four', devilsNumber: 'none', tab: 0 }

  it('missing rules and missing keys take the defaults', () => {
    expect(parse(undefined)).toEqual({ ok: true, value: defaults })
    expect(parse({})).toEqual({ ok: true, value: defaults })
    expect(parse({ match: 'tour-de-fours', tab: 2 })).toEqual({ ok: true, value: { ...defaults, match: 'tour-de-fours', tab: 2 } })
    expect(foursies.defaults).toEqual(defaults)
    expect(foursies.minPlayers).toBe(1)
    expect(foursies.diceCount).toBe(4)
  })

  it('refuses an unknown key', () => {
    expect(parse({ target: 4 })).toEqual({
      ok: false,
      error: 'Foursies has no rule "target" (its rules are match, tour, devilsNumber and tab)'
    })
  })

  it('refuses wrong types and values out of range', () => {
    expect(parse({ match: 1 })).toEqual({ ok: false, error: 'rule "match" must be "round", "tour" or "tour-de-fours", not 1' })
    expect(parse({ tour: 'best-of-seven' })).toEqual({
      ok: false,
      error: 'rule "tour" must be "first-to-four" or "four-rounds", not "best-of-seven"'
    })
    expect(parse({ devilsNumber: true })).toEqual({ ok: false, error: 'rule "devilsNumber" must be "none", "bust" or "reset", not true' })
    for (const tab of [3, -1, 1.5, '0', null]) {
      const r = parse({ tab })
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.error).toBe(`rule "tab" must be a seat index, a whole number from 0 to 2, not ${JSON.stringify(tab)}`)
    }
  })
})

describe('offer is complete and exact (random games played from it)', () => {
  /** Every sub-multiset of the table's values, two dice or more, sorted. */
  function subsets(dice: number[]): number[][] {
    const seen = new Map<string, number[]>()
    for (let mask = 1; mask < 16; mask++) {
      const vals = dice.filter((_, i) => mask & (1 << i)).sort((a, b) => a - b)
      if (vals.length >= 2) seen.set(vals.join(), vals)
    }
    return [...seen.values()]
  }

  // Sixty whole games with every reroll tried at each decision (5 s at load 8): its limit only ends
  // a run that would never end, with both cores busy.
  it('plays seeded random games to the end under every option, accepting exactly what is offered', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom('round', 'tour', 'tour-de-fours'),
        fc.constantFrom('first-to-four', 'four-rounds'),
        fc.constantFrom('none', 'bust', 'reset'),
        fc.integer({ min: 0, max: 3 }),
        fc.integer(),
        (n, match, tour, devilsNumber, tab, seed) => {
          const players = ['Ann', 'Bob', 'Cy', 'Dee'].slice(0, n)
          let state = start(players, { match, tour, devilsNumber, tab: tab % n })
          let x = seed >>> 0 || 1
          const rnd = (k: number) => {
            x ^= x << 13
            x ^= x >>> 17
            x ^= x << 5
            return (x >>> 0) % k
          }
          for (let step = 0; step < 100_000; step++) {
            const offer = foursies.offer(state)
            if (offer.finished) break
            let move: Move
            if (offer.diceDue > 0) {
              expect(offer.decisions).toEqual([])
              move = { roll: Array.from({ length: offer.diceDue }, () => 1 + rnd(6)) }
            } else {
              const offered = new Set(rerolls(state).map((r) => r.join()))
              for (const sub of subsets(state.dice)) {
                expect(foursies.apply(state, { reroll: sub }).ok).toBe(offered.has(sub.join()))
              }
              move = offer.decisions[rnd(offer.decisions.length)].move
            }
            const frozen = deepFreeze(state)
            const r = foursies.apply(frozen, move)
            if (!r.ok) throw new Error(`offered ${JSON.stringify(move)} refused: ${r.error}`)
            state = r.state
            for (const e of r.events) expect(typeof foursies.describe(e, players)).toBe('string')
          }
          expect(foursies.offer(state).finished).toBe(true)
          expect(JSON.parse(JSON.stringify(state))).toEqual(state)
          const sum = summary(state)
          expect(sum.winners).toHaveLength(1)
        }
      ),
      { numRuns: 60, seed: 4444 }
    )
  }, 90_000)
})
