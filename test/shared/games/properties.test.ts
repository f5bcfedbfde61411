// Properties every game must keep, played from the engines' own offers with random dice.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { GAMES, type GameId } from '@shared/games'
import type { Move } from '@shared/games/types'
import { play, recordText, replayText, startGame, summaryOf, undo } from '@shared/game'
import { playRandomGame, seededRandom, type RandomGame } from '@shared/random-play'

const PLAYERS: Record<GameId, string[][]> = {
  foursies: [['Solo'], ['Ann', 'Bob'], ['Ann', 'Bob', 'Cy']],
  farkle: [['Solo'], ['Ann', 'Bob'], ['Ann', 'Bob', 'Cy']],
  fouche: [['Solo'], ['Ann', 'Bob'], ['Ann', 'Bob', 'Cy']],
  'four-plus': [['Ann', 'Bob'], ['Ann', 'Bob', 'Cy', 'Di']]
}
const RULES: Record<GameId, Record<string, unknown>[]> = {
  foursies: [{}, { match: 'tour' }, { match: 'tour', tour: 'four-rounds', devilsNumber: 'bust' }, { devilsNumber: 'reset', tab: 0 }],
  farkle: [{ target: 3000 }, { entry: 0, target: 2000 }],
  fouche: [{ target: 3000 }, { entry: 300, target: 2000 }],
  'four-plus': [{}, { rounds: 1 }]
}
function randomGame(id: GameId, players: string[], rules: Record<string, unknown>, random: () => number): RandomGame {
  return playRandomGame({ game: id, players, rules }, random, 3000)
}


const gameArbitrary = (id: GameId) =>
  fc.record({
    seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    players: fc.constantFrom(...PLAYERS[id]),
    rules: fc.constantFrom(...RULES[id])
  })

function illegalCandidates(): Move[] {
  return [
    { roll: [1] },
    { roll: [1, 2, 3, 4, 5, 6, 1] },
    { reroll: [6] },
    { keep: [3] },
    { keep: [2, 3, 4, 6] },
    { bank: true },
    { socks: true },
    { end: true }
  ]
}

for (const id of Object.keys(GAMES) as GameId[]) {
  describe(`${id}: properties of random legal games`, () => {
    it('never throw, never stall, and keep scores in bounds', () => {
      fc.assert(
        fc.property(gameArbitrary(id), ({ seed, players, rules }) => {
          const { game, stalled } = randomGame(id, players, rules, seededRandom(seed))
          expect(stalled).toBe(false)
          const summary = summaryOf(game)
          for (const player of summary.players) {
            expect(Number.isInteger(player.score)).toBe(true)
            expect(player.score).toBeGreaterThanOrEqual(0)
            if (id === 'foursies') expect(player.score).toBeLessThanOrEqual(4)
          }
          if (summary.finished) expect(summary.toPlay).toBeNull()
          for (const winner of summary.winners) expect(players).toContain(winner)
        }),
        { numRuns: 60 }
      )
    })

    it('replaying line by line equals replaying the whole record, and the record reads back', () => {
      fc.assert(
        fc.property(gameArbitrary(id), ({ seed, players, rules }) => {
          const { game } = randomGame(id, players, rules, seededRandom(seed))
          const replayed = replayText(recordText(game))
          if (!replayed.ok) throw new Error(`line ${replayed.line}: ${replayed.error}`)
          expect(replayed.game.state).toEqual(game.state)
          const stepwise = startGame(game.header)
          if (!stepwise.ok) throw new Error(stepwise.error)
          let state = stepwise.value
          for (const recorded of game.moves) {
            const played = play(state, recorded)
            if (!played.ok) throw new Error(played.error)
            state = played.game
          }
          expect(state.state).toEqual(game.state)
        }),
        { numRuns: 40 }
      )
    })

    it('undo restores the previous state exactly', () => {
      fc.assert(
        fc.property(gameArbitrary(id), fc.nat(), ({ seed, players, rules }, cut) => {
          const { game } = randomGame(id, players, rules, seededRandom(seed))
          if (game.moves.length === 0) return
          const keep = cut % game.moves.length
          const shorter = replayText(recordText({ ...game, moves: game.moves.slice(0, keep + 1) }))
          const before = replayText(recordText({ ...game, moves: game.moves.slice(0, keep) }))
          if (!shorter.ok || !before.ok) throw new Error('replay failed')
          expect(undo(shorter.game).state).toEqual(before.game.state)
        }),
        { numRuns: 40 }
      )
    })

    it('every illegal line leaves the state untouched', () => {
      fc.assert(
        fc.property(gameArbitrary(id), fc.nat(), ({ seed, players, rules }, cut) => {
          const { game } = randomGame(id, players, rules, seededRandom(seed))
          const partial = replayText(recordText({ ...game, moves: game.moves.slice(0, cut % (game.moves.length + 1)) }))
          if (!partial.ok) throw new Error('replay failed')
          const module = GAMES[id]
          const frozen = JSON.stringify(partial.game.state)
          const offer = module.offer(partial.game.state)
          const legal = new Set(offer.decisions.map((decision) => JSON.stringify(decision.move)))
          for (const move of illegalCandidates()) {
            if (legal.has(JSON.stringify(move))) continue
            if ('roll' in move && move.roll.length === offer.diceDue) continue
            const applied = module.apply(partial.game.state, move)
            expect(applied.ok).toBe(false)
            if (!applied.ok) expect(applied.error.length).toBeGreaterThan(5)
            expect(JSON.stringify(partial.game.state)).toBe(frozen)
          }
        }),
        { numRuns: 40 }
      )
    })
  })
}
