import { describe, expect, it } from 'vitest'
import { chooseMove } from '@shared/ai'
import type { Move } from '@shared/games/types'
import type { GameId } from '@shared/games'
import { offerOf, play, startGame, type Game } from '@shared/game'
import { seededRandom } from '@shared/random-play'

/** Plays games where the computer player takes every decision; checks each is on offer and legal. */
function selfPlay(id: GameId, seed: number, games: number): number {
  const random = seededRandom(seed)
  let decisions = 0
  for (let g = 0; g < games; g++) {
    const started = startGame({ game: id, players: ['A', 'B', 'C'].slice(0, 2 + (g % 2)), rules: id === 'farkle' ? { target: 3000 } : id === 'fouche' ? { target: 3000 } : undefined })
    if (!started.ok) throw new Error(started.error)
    let game: Game = started.value
    for (let lines = 0; lines < 5000; lines++) {
      const offer = offerOf(game)
      if (offer.finished) break
      // Random positions: sometimes a random decision, so the AI meets positions it would avoid.
      let move: Move | null = null
      if (offer.decisions.length > 0) {
        const choice = chooseMove(game, random)
        expect(choice).not.toBeNull()
        expect(choice?.why.length).toBeGreaterThan(5)
        if (choice?.move) {
          expect(offer.decisions.map((d) => JSON.stringify(d.move))).toContain(JSON.stringify(choice.move))
          decisions++
        } else expect(offer.diceDue).toBeGreaterThan(0)
        move = random() < 0.2 ? offer.decisions[Math.floor(random() * offer.decisions.length)].move : (choice?.move ?? null)
      } else expect(chooseMove(game, random)).toBeNull()
      if (move === null) move = { roll: Array.from({ length: offer.diceDue }, () => 1 + Math.floor(random() * 6)) }
      const played = play(game, { move })
      if (!played.ok) throw new Error(`${JSON.stringify(move)}: ${played.error}`)
      game = played.game
    }
  }
  return decisions
}

describe('computer player', () => {
  it.each(['foursies', 'farkle', 'fouche', 'four-plus'] as GameId[])('never proposes an illegal move (%s, random positions)', (id) => {
    const n = selfPlay(id, 11, id === 'foursies' ? 60 : 20)
    if (id !== 'four-plus') expect(n).toBeGreaterThan(0)
  })

  it('banks with a reason in words, and keeps value over greed', () => {
    const started = startGame({ game: 'farkle', players: ['A', 'B'], rules: { entry: 0 } })
    if (!started.ok) throw new Error(started.error)
    let game = started.value
    for (const move of [{ roll: [1, 1, 5, 2, 3, 6] }] as Move[]) {
      const p = play(game, { move })
      if (!p.ok) throw new Error(p.error)
      game = p.game
    }
    const keep = chooseMove(game, () => 0)
    expect(keep?.move).toEqual({ keep: [1] })
    expect(keep?.why).toMatch(/^keeps 1 \(100\): 5 dice left/)
    for (const move of [{ keep: [1] }, { roll: [1, 1, 1, 2, 3] }, { keep: [1, 1, 1] }, { roll: [5, 2] }, { keep: [5] }] as Move[]) {
      const p = play(game, { move })
      if (!p.ok) throw new Error(p.error)
      game = p.game
    }
    const bank = chooseMove(game, () => 0)
    expect(bank).toMatchObject({ move: { bank: true } })
    expect(bank?.why).toMatch(/^banks 1,150: rolling 1 die risks 67% farkle/)
  })
})
