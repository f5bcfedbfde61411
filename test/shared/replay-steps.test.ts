// The history's replay keeps a state every few hundred moves and folds forward from the nearest:
// every step must equal the game folded from its start, across the checkpoints' boundaries.
import { describe, expect, it } from 'vitest'
import { GAME_IDS } from '@shared/games'
import { describeEvent, play, recordText, replayMoves, replayText, summaryOf, tableOf } from '@shared/game'
import { playRandomGame, SAMPLE_PLAYERS, seededRandom } from '@shared/random-play'
import { checkpointCollector, steppableInSteps, stepCountOf, stepOf } from '@shared/replay-steps'

const LONG_RULES = { foursies: { match: 'tour-de-fours' }, farkle: { target: 1_000_000 }, fouche: { target: 1_000_000 }, 'four-plus': { rounds: 200 } }

describe('stepping through a recorded game', () => {
  for (const id of GAME_IDS) {
    it(`${id}: every step is the game folded from the start up to its line`, () => {
      const { game } = playRandomGame({ game: id, players: SAMPLE_PLAYERS[id], rules: LONG_RULES[id] }, seededRandom(7), 700)
      expect(game.moves.length).toBeGreaterThan(520)
      // Blank lines are counted in a record's line numbers: one after the header, one after every 100th move.
      const lines = recordText(game).split('\n')
      const text = [lines[0], '', ...lines.slice(1).flatMap((line, index) => (index % 100 === 99 ? [line, ''] : [line]))].join('\n')
      const collector = checkpointCollector()
      const replayed = replayText(text, { onMove: collector.onMove })
      if (!replayed.ok) throw new Error(replayed.error)
      const numbers = text.split('\n').flatMap((line, index) => (index > 0 && line !== '' ? [index + 1] : []))
      expect(collector.lines).toEqual(numbers)
      const steppable = { game: replayed.game, checkpoints: collector.checkpoints, lines: collector.lines }
      expect(stepCountOf(steppable)).toBe(game.moves.length)

      for (let index = 0; index < game.moves.length; index++) {
        const before = replayMoves(game, index)
        const played = play(before, game.moves[index])
        if (!played.ok) throw new Error(played.error)
        expect(stepOf(steppable, index), `step ${index}`).toEqual({
          line: numbers[index],
          text: played.events.map((event) => describeEvent(game, event)).join(' · '),
          summary: summaryOf(played.game),
          table: tableOf(played.game)
        })
      }
      // The game in hand (the one on the table) gives the same steps, numbered as its record without blank lines.
      const steps = steppableInSteps(game)
      let step = steps.next()
      let pauses = 0
      for (; !step.done; step = steps.next()) pauses++
      expect(pauses).toBe(collector.checkpoints.length)
      const inHand = step.value
      expect(inHand.checkpoints).toEqual(collector.checkpoints)
      expect(inHand.lines).toEqual(game.moves.map((_, index) => index + 2))
      for (const index of [0, 255, 256, 257, game.moves.length - 1]) {
        expect(stepOf(inHand, index)).toEqual({ ...stepOf(steppable, index), line: index + 2 })
      }
      expect(stepOf(steppable, game.moves.length)).toBeNull()
      expect(stepOf(steppable, -1)).toBeNull()
      expect(stepOf(steppable, 1.5)).toBeNull()
    })
  }
})
