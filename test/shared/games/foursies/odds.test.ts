import { describe, expect, it } from 'vitest'
import { foursies } from '@shared/games/foursies'
import { type FoursiesState } from '@shared/games/foursies/rules'
import type { Move } from '@shared/games/types'
import { play, type Game } from '@shared/game'
import { oddsFor } from '@shared/odds'
import { finishSolution, type FoursiesOdds } from '@shared/games/foursies/odds'
import { outcomesOf } from '@shared/games/dice-odds'
import { factsOf, E0, FOURSIES, BUST, type FoursiesOption } from '@shared/games/foursies/turn-odds'
import { seededRandom } from '@shared/random-play'
import { gameOf, withState } from '@test/shared/odds-helpers'

const HEADER = { game: 'foursies' as const, players: ['Ann', 'Bob'] }

function decideGame(dice: number[], start: number, turnPoints: number, devil = 'none'): Game {
  const g = gameOf({ ...HEADER, rules: { devilsNumber: devil } })
  return withState(g, { step: 'decide', due: 0, dice, fresh: dice.map(() => true), kept: [], scores: [start, 0], turnPoints })
}

/** Exact figures by enumerating every throw through the engine's own apply (policy: the solver's choice). */
/** Probabilities found by enumeration, and the probability left unexplored at the depth limit. */
type R = { finish: number; bust: number; lost: number }
const memo = new Map<string, R>()

function engineExact(game: Game, depth = 0): R {
  const s = game.state as FoursiesState
  const key = [s.step, [...s.dice].sort().join(''), [...s.kept].sort().join(''), s.scores.join(), s.turnPoints, s.socksLeft, s.due, s.options.devilsNumber].join('|')
  const hit = memo.get(key)
  if (hit) return hit
  const r = engineExactUncached(game, depth)
  memo.set(key, r)
  return r
}

function engineExactUncached(game: Game, depth: number): R {
  const s = game.state as FoursiesState
  const seat = s.seat
  if (depth > 8) return { finish: 0, bust: 0, lost: 1 }
  const offer = foursies.offer(s)
  if (offer.diceDue === 0) {
    const sol = finishSolution(s.scores[seat], s.options.devilsNumber)
    const options = sol.options(s.dice, s.scores[seat] + s.turnPoints)
    const best = options[sol.bestOption(s.dice, s.scores[seat] + s.turnPoints)].option
    const d = offer.decisions.find((x) => matches(best, x.move))
    if (!d) throw new Error('the solver chose an option the engine does not offer')
    return step(game, d.move, depth)
  }
  let finish = 0
  let bust = 0
  let lost = 0
  const k = offer.diceDue
  for (let code = 0; code < 6 ** k; code++) {
    const roll: number[] = []
    for (let i = 0, c = code; i < k; i++, c = Math.floor(c / 6)) roll.push(1 + (c % 6))
    const r = step(game, { roll }, depth)
    finish += r.finish / 6 ** k
    bust += r.bust / 6 ** k
    lost += r.lost / 6 ** k
  }
  return { finish, bust, lost }
}

function step(game: Game, move: Move, depth: number): R {
  const seat = (game.state as FoursiesState).seat
  const played = play(game, { move })
  if (!played.ok) throw new Error(played.error)
  const events = played.events
  const next = played.game.state as FoursiesState
  const ended = events.some((e) => ['turn', 'roundWon', 'duel', 'matchWon', 'finalLap', 'turnEnd', 'bust', 'foursies'].includes(e.kind))
  if (!ended) return engineExact(played.game, depth + 1)
  if (events.some((e) => e.kind === 'bust')) return { finish: next.scores[seat] === 4 ? 1 : 0, bust: 1, lost: 0 }
  if (events.some((e) => e.kind === 'foursies')) return { finish: 1, bust: 0, lost: 0 }
  return { finish: next.scores[seat] === 4 ? 1 : 0, bust: 0, lost: 0 }
}

function matches(o: FoursiesOption, move: Move): boolean {
  if ('reroll' in move) return o.kind === 'reroll' && o.values.join() === [...move.reroll].sort((a, b) => a - b).join()
  if ('socks' in move) return o.kind === 'socks'
  return o.kind === 'end'
}

describe('Foursies odds: the fast rules agree with the engine', () => {
  it('offers the same re-rolls and socks as the engine on every four-dice table', () => {
    const g = gameOf(HEADER)
    for (const { values } of outcomesOf(4)) {
      const s = { ...(g.state as FoursiesState), step: 'decide' as const, due: 0, dice: values }
      const offer = foursies.offer(s)
      const f = factsOf(values)
      const engineRerolls = offer.decisions.filter((d) => 'reroll' in d.move).map((d) => (d.move as { reroll: number[] }).reroll.join())
      expect(engineRerolls).toEqual(f.rerolls.map((r) => r.join()))
      expect(offer.decisions.some((d) => 'socks' in d.move)).toBe(f.socks)
    }
  })

  it.each([
    [[1, 3, 4, 6], 3, 1],
    [[1, 3, 5, 6], 3, 0],
    [[2, 2, 5, 6], 2, 1],
    [[1, 1, 3, 3], 3, 0],
    [[2, 2, 4, 5], 3, 0]
  ])('figures of %j (start %i, turn %i) equal exact enumeration through the engine', (dice, start, turn) => {
    const game = decideGame(dice, start, turn)
    const odds = oddsFor(game) as FoursiesOdds
    for (const o of odds.options ?? []) {
      const r = step(game, o.move, 0)
      // Exact where the enumeration ends; otherwise within the probability it left unexplored.
      expect(r.lost).toBeLessThan(1)
      expect(o.finish).toBeGreaterThanOrEqual(r.finish - 1e-6)
      expect(o.finish).toBeLessThanOrEqual(r.finish + r.lost + 1e-6)
      expect(o.bust).toBeGreaterThanOrEqual(r.bust - 1e-6)
      expect(o.bust).toBeLessThanOrEqual(r.bust + r.lost + 1e-6)
      if (r.lost === 0) expect(o.finish).toBeCloseTo(r.finish, 6)
    }
  })

  it('by hand: on 4 with 1 3 4 6, re-rolling 1+3 busts on any 4 and on a run (3 5) that busts after', () => {
    // Fresh 1+3 re-roll beside 4 6. A fresh 4 busts: 11/36. 3+5 (2/36) is a run 3-4-5-6: all four
    // are thrown again on 4 points; that throw survives only without a 4 (625/1296), and then
    // loses again on four of a kind 2/3/5/6 (4/1296 of all) and on an odd man out whose re-roll
    // shows a 4 or the triplet's value... so check the simple part exactly: P(bust) >= 11/36.
    const odds = oddsFor(decideGame([1, 3, 4, 6], 3, 1)) as FoursiesOdds
    const reroll = odds.options?.find((o) => 'reroll' in o.move)
    expect(reroll?.bust).toBeGreaterThan(11 / 36)
    expect(reroll?.bust).toBeLessThan(13 / 36)
    const end = odds.options?.find((o) => 'end' in o.move)
    expect(end).toMatchObject({ finish: 1, bust: 0, best: true })
  })

  it('by hand: the odd man out beside 5 5 5 on 3 points finishes exactly when it shows 4 or 5, or after 1 (5-1)', () => {
    // 4: 5 5 5 4 ends on 4. 5: four of a kind, 4 points. 2, 3, 6: end on 3. 1: 5 5 5 1 offers 5-1.
    const g = withState(gameOf(HEADER), { step: 'odd', due: 1, kept: [5, 5, 5], dice: [5, 5, 5, 2], scores: [3, 0], turnPoints: 0 })
    const odds = oddsFor(g) as FoursiesOdds
    const after1 = oddsFor(decideGame([1, 5, 5, 5], 3, 0)) as FoursiesOdds
    const best1 = Math.max(...(after1.options ?? []).map((o) => o.finish))
    expect(odds.throw?.finish).toBeCloseTo(2 / 6 + best1 / 6, 5)
    expect(odds.throw?.bust).toBeCloseTo((after1.options?.find((o) => o.best)?.bust ?? 0) / 6, 5)
  })

  it('matches a simulation of many random turns through the engine (seeded, 4 standard errors)', () => {
    const random = seededRandom(7)
    for (const start of [0, 2, 3]) {
      const sol = finishSolution(start, 'none')
      const f = sol.throwFigures([], 4, start, false, 0)
      const expected = f[E0 + 4] + f[FOURSIES]
      const expectedBust = f[BUST]
      const n = 4000
      let finished = 0
      let busts = 0
      for (let i = 0; i < n; i++) {
        let game = withState(gameOf(HEADER), { scores: [start, 0] })
        for (;;) {
          const s = game.state as FoursiesState
          const offer = foursies.offer(s)
          let move: Move
          if (offer.diceDue > 0) move = { roll: Array.from({ length: offer.diceDue }, () => 1 + Math.floor(random() * 6)) }
          else {
            const p = s.scores[0] + s.turnPoints
            const best = sol.options(s.dice, p)[sol.bestOption(s.dice, p)].option
            move = (offer.decisions.find((d) => matches(best, d.move)) as { move: Move }).move
          }
          const played = play(game, { move })
          if (!played.ok) throw new Error(played.error)
          const ev = played.events
          if (ev.some((e) => ['turn', 'roundWon', 'duel', 'matchWon', 'finalLap', 'turnEnd', 'bust', 'foursies'].includes(e.kind))) {
            const st = played.game.state as FoursiesState
            if (ev.some((e) => e.kind === 'bust')) busts++
            if (ev.some((e) => e.kind === 'foursies') || (!ev.some((e) => e.kind === 'bust') && st.scores[0] === 4)) finished++
            break
          }
          game = played.game
        }
      }
      const se = Math.sqrt((expected * (1 - expected)) / n)
      expect(Math.abs(finished / n - expected)).toBeLessThan(4 * se + 1e-9)
      const seB = Math.sqrt((expectedBust * (1 - expectedBust)) / n)
      expect(Math.abs(busts / n - expectedBust)).toBeLessThan(4 * seB + 1e-9)
    }
  })

  it("Devil's Number options change the figures", () => {
    const moves: Move[] = [{ roll: [6, 6, 2, 1] }]
    const none = oddsFor(gameOf(HEADER, moves)) as FoursiesOdds
    const bust = oddsFor(gameOf({ ...HEADER, rules: { devilsNumber: 'bust' } }, moves)) as FoursiesOdds
    const reset = oddsFor(gameOf({ ...HEADER, rules: { devilsNumber: 'reset' } }, moves)) as FoursiesOdds
    const opt = (o: FoursiesOdds): number => (o.options ?? [])[0].bust
    expect(opt(bust)).toBeGreaterThan(opt(none))
    expect((reset.options ?? [])[0].reset).toBeGreaterThan(0)
    expect((none.options ?? [])[0].reset).toBe(0)
  })

  it('labels options in plain words', () => {
    const odds = oddsFor(gameOf(HEADER, [{ roll: [2, 2, 1, 3] }])) as FoursiesOdds
    expect(odds.options?.[0].text).toMatch(/^Re-roll .*: \d+% to finish on 4, \d+% bust/)
    expect(odds.options?.filter((o) => o.best)).toHaveLength(1)
  })
})
