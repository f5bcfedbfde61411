// How long one decision's figures take (oddsFor on a position with a decision or a throw due),
// over positions from random games, after a warm-up that fills the lazily built tables.
// Also prints the cold start: the first oddsFor call per game (building its tables).
import { GAME_IDS } from '@shared/games'
import type { Game } from '@shared/game'
import { replayMoves } from '@shared/game'
import { oddsFor } from '@shared/odds'
import { playRandomGame, SAMPLE_PLAYERS, seededRandom } from '@shared/random-play'

const POSITIONS = 2000

export function benchOdds(): void {
  console.log(`Odds: time of one position's figures, ${POSITIONS} positions per game from random games`)
  for (const id of GAME_IDS) {
    const random = seededRandom(5)
    const positions: Game[] = []
    while (positions.length < POSITIONS) {
      const { game } = playRandomGame({ game: id, players: SAMPLE_PLAYERS[id] }, random)
      for (let k = 0; k < game.moves.length && positions.length < POSITIONS; k += 3) positions.push(replayMoves(game, k))
    }
    const cold = process.hrtime.bigint()
    oddsFor(positions[0])
    const coldMs = Number(process.hrtime.bigint() - cold) / 1e6
    for (const p of positions) oddsFor(p) // warm-up: every lazily built table
    const times: number[] = []
    for (const p of positions) {
      const t = process.hrtime.bigint()
      oddsFor(p)
      times.push(Number(process.hrtime.bigint() - t) / 1e6)
    }
    times.sort((a, b) => a - b)
    const at = (q: number): number => times[Math.min(times.length - 1, Math.floor(q * times.length))]
    console.log(`  ${id.padEnd(9)} median ${at(0.5).toFixed(3)} ms  p99 ${at(0.99).toFixed(3)} ms  (first call ${coldMs.toFixed(0)} ms)`)
  }
}

if (process.argv[1] && /bench[/\\]odds\.ts$/.test(process.argv[1])) benchOdds()
