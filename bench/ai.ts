// The computer player against a simple baseline, head to head, 2 players, seats alternating.
// Baselines: Farkle/Fouche keep the offer's first keep (most points, then most dice) and bank at
// 300 or more once the entry minimum allows it; Foursies never takes an optional re-roll on 3
// or more points and always takes one (the first offered: shortest false four, then socks)
// below. 4-PLU$ has no decisions (every throw is forced), so there is nothing to compare.
// A win counts 1, a shared win 1/2. Prints the computer player's win rate with a 95% interval.
import { chooseMove } from '../src/shared/ai'
import type { FoursiesState } from '../src/shared/engine/foursies'
import type { SixDiceState } from '../src/shared/engine/six-dice'
import type { GameId, Move } from '../src/shared/engine/types'
import { offerOf, play, startGame, type Game } from '../src/shared/game'
import { seededRandom } from '../src/shared/random-play'

const GAMES = Number(process.env.AI_BENCH_GAMES ?? 10_000)

function baseline(game: Game): Move | null {
  const offer = offerOf(game)
  if (offer.decisions.length === 0) return null
  if (game.header.game === 'foursies') {
    const s = game.state as FoursiesState
    const p = s.scores[s.seat] + s.turnPoints
    if (p >= 3) return { end: true }
    return (offer.decisions.find((d) => !('end' in d.move)) ?? offer.decisions[0]).move
  }
  const s = game.state as SixDiceState
  if (s.step === 'keep') return offer.decisions[0].move
  const bank = offer.decisions.find((d) => 'bank' in d.move)
  return bank && s.turnPoints >= 300 ? bank.move : null
}

function playOne(id: GameId, aiSeat: number, random: () => number): number {
  const started = startGame({ game: id, players: ['A', 'B'] })
  if (!started.ok) throw new Error(started.error)
  let game = started.value
  for (let lines = 0; lines < 100_000; lines++) {
    const offer = offerOf(game)
    if (offer.finished) {
      const winners = (game.state as { winners: number[] }).winners
      return winners.includes(aiSeat) ? 1 / winners.length : 0
    }
    let move: Move | null = null
    if (offer.decisions.length > 0 && offer.toPlay !== null) {
      move = offer.toPlay === aiSeat ? (chooseMove(game, random)?.move ?? null) : baseline(game)
    }
    if (move === null) move = { roll: Array.from({ length: offer.diceDue }, () => 1 + Math.floor(random() * 6)) }
    const played = play(game, { move })
    if (!played.ok) throw new Error(`refused ${JSON.stringify(move)}: ${played.error}`)
    game = played.game
  }
  throw new Error('game did not end')
}

export function benchAi(): void {
  console.log(`Computer player vs baseline: ${GAMES.toLocaleString('en')} two-player games per game, seats alternating`)
  for (const id of ['foursies', 'farkle', 'fouche'] as GameId[]) {
    const random = seededRandom(20240601)
    const started = process.hrtime.bigint()
    let score = 0
    for (let i = 0; i < GAMES; i++) score += playOne(id, i % 2, random)
    const seconds = Number(process.hrtime.bigint() - started) / 1e9
    const p = score / GAMES
    const half = 1.96 * Math.sqrt((p * (1 - p)) / GAMES)
    console.log(
      `  ${id.padEnd(9)} win rate ${(100 * p).toFixed(1)}%  95% CI [${(100 * (p - half)).toFixed(1)}%, ${(100 * (p + half)).toFixed(1)}%]  (${seconds.toFixed(1)} s)`
    )
  }
  console.log('  four-plus  no decisions: every throw is forced, so the computer player has nothing to choose')
}

if (process.argv[1] && /bench[/\\]ai\.ts$/.test(process.argv[1])) benchAi()
