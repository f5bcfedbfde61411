// Final standings come from the engines, in each game's own order: winners first, then what the
// rules rank by, with the reason a tie was broken.
import { describe, expect, it } from 'vitest'
import { GAMES, type GameId } from '@shared/games'
import type { Move } from '@shared/games/types'

function played(game: GameId, players: string[], rules: Record<string, unknown>, next: (state: unknown, step: number) => Move) {
  const module = GAMES[game]
  const options = module.parseOptions(rules, players.length)
  if (!options.ok) throw new Error(options.error)
  let state = module.init(players, options.value)
  for (let step = 0; step < 500 && !module.offer(state).finished; step++) {
    const applied = module.apply(state, next(state, step))
    if (!applied.ok) throw new Error(applied.error)
    state = applied.state
  }
  return { module, state }
}

describe('final standings', () => {
  it('Foursies four-round tour: Bob won rounds 1 and 4, Ann 2 and 3, Bob the tie-break duel: Bob, Ann, Cy', () => {
    const roundWinners = [1, 0, 0, 1]
    const module = GAMES.foursies
    const phases: string[] = []
    const { state } = played('foursies', ['Ann', 'Bob', 'Cy'], { match: 'tour', tour: 'four-rounds' }, (raw) => {
      const s = raw as { phase: string; round: number; seat: number }
      if (s.phase === 'duel') {
        phases.push(module.table(raw).phase)
        return { roll: [3, 4] } // Ann 3, Bob 4
      }
      if (s.round === 4) phases.push(module.table(raw).phase)
      return { roll: s.seat === roundWinners[s.round - 1] ? [4, 4, 4, 4] : [3, 5, 6, 6] }
    })
    expect(module.summary(state)).toMatchObject({ finished: true, winners: ['Bob'] })
    // The header keeps round and tour through the final lap, and the duel says what is at stake.
    expect([...new Set(phases)]).toEqual(['Round 4 of 4 · Tour 1', 'Round 4 of 4 · Tour 1 · Final lap', 'Tie-break duel: tour 1 at stake'])
    expect(module.standings(state)).toEqual([
      { name: 'Bob', place: 1, shown: '1 tour · 2 rounds', winner: true, why: 'won the tie-break duel' },
      { name: 'Ann', place: 2, shown: '0 tours · 2 rounds', winner: false },
      { name: 'Cy', place: 3, shown: '0 tours · 0 rounds', winner: false }
    ])
  })

  it('Foursies one-round match without a duel: the winner has no tie-break reason, the rest by points', () => {
    const { module, state } = played('foursies', ['Ann', 'Bob', 'Cy'], {}, (raw) => {
      const s = raw as { seat: number }
      return { roll: s.seat === 0 ? [4, 4, 4, 4] : s.seat === 1 ? [4, 2, 3, 3] : [3, 5, 6, 6] }
    })
    expect(module.standings(state).map(({ name, place, why }) => ({ name, place, why }))).toEqual([
      { name: 'Ann', place: 1, why: undefined },
      { name: 'Bob', place: 2, why: undefined },
      { name: 'Cy', place: 3, why: undefined }
    ])
  })

  it('Foursies one-round match won by a foursies: the winner, with fewer points, says why', () => {
    // Ann ends on 4 (4 4 4 4), Bob throws 3 5 6 6 and ends on 0, Cy rolls a foursies (1 1 1 1) in the final lap.
    const { module, state } = played('foursies', ['Ann', 'Bob', 'Cy'], {}, (raw) => {
      const s = raw as { seat: number }
      return { roll: s.seat === 0 ? [4, 4, 4, 4] : s.seat === 1 ? [3, 5, 6, 6] : [1, 1, 1, 1] }
    })
    expect(module.summary(state)).toMatchObject({ finished: true, winners: ['Cy'] })
    expect(module.standings(state)).toEqual([
      { name: 'Cy', place: 1, shown: expect.any(String), winner: true, why: 'rolled a foursies' },
      { name: 'Ann', place: 2, shown: '4 points', winner: false },
      { name: 'Bob', place: 3, shown: '0 points', winner: false }
    ])
  })

  it('4-PLU$: the flash-round winner is first although the loser has the same total', () => {
    const { module, state } = played('four-plus', ['Ann', 'Bob'], { rounds: 1 }, (raw, step) => {
      const s = raw as { phase: string; seat: number }
      if (s.phase === 'flash') return { roll: s.seat === 0 ? [2, 3, 5, 6] : [5, 5, 5, 5] }
      return { roll: step % 3 === 0 ? [2, 2, 2, 6] : [2, 3, 5, 6] }
    })
    expect(module.summary(state)).toMatchObject({ finished: true, winners: ['Bob'] })
    expect(module.summary(state).players.map((player) => player.score)).toEqual([3, 3])
    expect(module.standings(state)).toEqual([
      { name: 'Bob', place: 1, shown: '3', winner: true, why: 'won the flash rounds' },
      { name: 'Ann', place: 2, shown: '3', winner: false }
    ])
  })

  it('Farkle: winners first, then banked points; equal totals share a place and say what they are tied on', () => {
    const module = GAMES.farkle
    const state = { ...(module.init(['Ann', 'Bob', 'Cy'], module.defaults) as object), scores: [500, 10_050, 500], winners: [1], step: 'over' }
    expect(module.standings(state)).toEqual([
      { name: 'Bob', place: 1, shown: '10,050', winner: true },
      { name: 'Ann', place: 2, shown: '500', winner: false, why: 'tied on points' },
      { name: 'Cy', place: 2, shown: '500', winner: false, why: 'tied on points' }
    ])
  })

  it('Farkle: winners level on points share the win and say so', () => {
    const module = GAMES.farkle
    const state = { ...(module.init(['Ann', 'Bob', 'Cy'], module.defaults) as object), scores: [10_000, 200, 10_000], winners: [0, 2], step: 'over' }
    expect(module.standings(state)).toEqual([
      { name: 'Ann', place: 1, shown: '10,000', winner: true, why: 'shares the win' },
      { name: 'Cy', place: 1, shown: '10,000', winner: true, why: 'shares the win' },
      { name: 'Bob', place: 3, shown: '200', winner: false }
    ])
  })

  it('Foursies four-round tour: players who look level on tours and rounds say the last round’s points that placed them, or that they are tied', () => {
    // Rounds won by Ann, Bob, Ann and Cy; in the last round Dee scores a point, Eve and Fay none.
    const roundWinners = [0, 1, 0, 2]
    const { module, state } = played('foursies', ['Ann', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay'], { match: 'tour', tour: 'four-rounds' }, (raw) => {
      const s = raw as { round: number; seat: number }
      return { roll: s.seat === roundWinners[s.round - 1] ? [4, 4, 4, 4] : s.seat === 3 ? [4, 2, 3, 3] : [3, 5, 6, 6] }
    })
    expect(module.standings(state)).toEqual([
      { name: 'Ann', place: 1, shown: '1 tour · 2 rounds', winner: true },
      { name: 'Cy', place: 2, shown: '0 tours · 1 round', winner: false, why: '4 points in the last round' },
      { name: 'Bob', place: 3, shown: '0 tours · 1 round', winner: false, why: '0 points in the last round' },
      { name: 'Dee', place: 4, shown: '0 tours · 0 rounds', winner: false, why: '1 point in the last round' },
      { name: 'Eve', place: 5, shown: '0 tours · 0 rounds', winner: false, why: 'tied, 0 points in the last round' },
      { name: 'Fay', place: 5, shown: '0 tours · 0 rounds', winner: false, why: 'tied, 0 points in the last round' }
    ])
  })

  it('4-PLU$: at equal totals a player still in stands above one who is out, and says so', () => {
    const module = GAMES['four-plus']
    const state = { ...(module.init(['Ann', 'Bob', 'Cy', 'Dee'], module.defaults) as object), scores: [6, 3, 3, 0], out: [false, true, false, true], winners: [0], phase: 'over', seat: null }
    expect(module.standings(state)).toEqual([
      { name: 'Ann', place: 1, shown: '6', winner: true },
      { name: 'Cy', place: 2, shown: '3', winner: false, why: 'still in' },
      { name: 'Bob', place: 3, shown: '3', winner: false, why: 'out' },
      { name: 'Dee', place: 4, shown: '0', winner: false }
    ])
  })
})
