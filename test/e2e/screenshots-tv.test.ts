// The TV with eight and sixteen players, in normal and large type, at every way a game ends
// (./endings.ts) and when the connection is lost, at every size: nothing off-screen, overlapping or
// cut, no text out of its row or card and none under the TV's smallest size (./screenshot-kit.ts).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { GameId } from '@shared/games'
import type { Move } from '@shared/games/types'
import { startHost } from './support'
import { ENDINGS, EIGHT_PLAYERS, playToTheEnd } from './endings'
import { checkTv, leave, pageAt, shotsHost, tvShots, useShotsHost, VIEWPORTS } from './screenshot-kit'

useShotsHost()

describe('the TV with many players and at every ending', () => {
  it('eight players on the TV at every size, in normal and large type, a computer seat among them: every row fits, nothing under TV text', async () => {
    const problems: string[] = []
    const playing: Array<{ game: GameId; rules?: Record<string, unknown>; computers?: number[]; moves: Move[] }> = [
      { game: 'foursies', rules: { match: 'tour', tour: 'four-rounds' }, computers: [7], moves: [{ roll: [4, 2, 3, 3] }, { roll: [4, 4, 3, 5] }, { roll: [2, 2, 5, 6] }] },
      { game: 'farkle', moves: [{ roll: [1, 1, 1, 5, 2, 3] }, { keep: [1, 1, 1] }] },
      // Seat 0 throws four 1s and is out; seat 1's three 1s cost a throw next round (a note under the name).
      { game: 'four-plus', rules: { rounds: 2 }, moves: [{ roll: [1, 1, 1, 1] }, { roll: [3, 3, 3, 6] }, { roll: [1, 1, 1, 5] }, { roll: [2, 3, 5, 6] }] }
    ]
    for (const { game, rules, computers, moves } of playing) {
      expect(await shotsHost.api.call('newGame', { game, players: EIGHT_PLAYERS, ...(rules ? { rules } : {}), ...(computers ? { computers } : {}) })).toEqual({ ok: true })
      await shotsHost.api.play(moves)
      problems.push(...(await tvShots(`eight-${game}`, '[data-testid=scores]')))
      problems.push(...(await tvShots(`eight-${game}-large`, '[data-testid=scores]', true)))
      await shotsHost.api.call('abandon')
    }
    expect(problems).toEqual([])
  }, 240_000)

  for (const ending of ENDINGS) {
    // (Large type changes the scores while playing, not the winner screen.)
    it(`the TV at the end of ${ending.name}, eight players, every size: it says how it ended, the winner and the standings with their reasons`, async () => {
      const game = await playToTheEnd(shotsHost.api, ending)
      expect(game.summary.finished).toBe(true)
      const problems = await tvShots(`end-${ending.name}`, '[data-testid=winner-screen]')
      const tv = await pageAt(VIEWPORTS[0])
      await tv.goto(`${shotsHost.running.url}scoreboard`)
      // What decided the game is on the winner screen, in the log's words.
      expect(await tv.getByTestId('ending').textContent()).toContain(ending.says)
      expect(await tv.getByTestId('standing-name').allTextContents()).toEqual(game.standings.map((standing) => standing.name))
      // A shared place reads as one, with its reason.
      const places = await tv.getByTestId('standing-place').allTextContents()
      game.standings.forEach((standing, index) => {
        const shared = game.standings.filter((other) => other.place === standing.place).length > 1
        expect(places[index].endsWith(' =')).toBe(shared)
        if (shared) expect(standing.why).toBeTruthy()
      })
      await tv.getByTestId('game-score-chart').waitFor()
      expect(await tv.getByTestId('game-score-chart').getAttribute('data-counts')).toBe(ending.game === 'foursies' && ending.rules ? 'rounds' : 'points')
      await leave(tv)
      expect(problems).toEqual([])
    }, 180_000)
  }

  it('sixteen players (the most a game has) on a TV: two columns of scores, and at the end the standings across the width', async () => {
    const sixteen = [...EIGHT_PLAYERS, 'Hal', 'Ivy', 'Jo', 'Kim', 'Lou', 'Mo', 'Ned', 'Oli']
    const problems: string[] = []
    expect(await shotsHost.api.call('newGame', { game: 'foursies', players: sixteen, rules: { match: 'tour' } })).toEqual({ ok: true })
    await shotsHost.api.play([{ roll: [4, 2, 3, 3] }, { roll: [4, 4, 3, 5] }, { roll: [2, 2, 5, 6] }])
    problems.push(...(await tvShots('sixteen-foursies', '[data-testid=scores]', false, VIEWPORTS.slice(0, 2))))
    await shotsHost.api.call('abandon')
    for (const ending of ENDINGS.filter((one) => one.name === 'foursies-tour' || one.name === 'farkle-farkle')) {
      await playToTheEnd(shotsHost.api, ending, sixteen)
      problems.push(...(await tvShots(`sixteen-end-${ending.name}`, '[data-testid=winner-screen]', false, VIEWPORTS.slice(0, 2))))
    }
    expect(problems).toEqual([])
  }, 120_000)

  it('the connection banner over the TV is TV text', async () => {
    const problems: string[] = []
    for (const viewport of VIEWPORTS) {
      // A host of its own, stopped under the TV.
      const lost = await startHost(mkdtempSync(join(tmpdir(), 'dice-referee-lost-')))
      const tv = await pageAt(viewport)
      try {
        await tv.goto(`${lost.url}scoreboard`)
        await tv.getByTestId('waiting').waitFor()
        await lost.stop()
        await tv.getByTestId('reconnecting').waitFor()
        problems.push(...(await checkTv(tv, `connection-lost-tv-${viewport.name}`)))
      } finally {
        await leave(tv)
        await lost.stop()
      }
    }
    expect(problems).toEqual([])
  }, 120_000)
})
