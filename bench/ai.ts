// The computer player against a simple baseline, head to head, 2 players, seats alternating.
// Baselines: Farkle/Fouche keep the offer's first keep (most points, then most dice) and bank at
// 300 or more once the entry minimum allows it; Foursies never takes an optional re-roll on 3
// or more points and always takes one (the first offered: shortest false four, then socks)
// below. 4-PLU$ has no decisions (every throw is forced), so there is nothing to compare.
// A win counts 1, a shared win 1/2. Prints the computer player's win rate with a 95% interval.
import { chooseMove } from '@shared/ai'
import { fixedWinTables, type WinTableSource } from '@shared/games/six-dice/win-play'
import { solveWinTable, startChance, WinTurn, type WinSpec, type WinTable } from '@shared/games/six-dice/win-solver'
import type { FoursiesState } from '@shared/games/foursies/rules'
import type { SixDiceState } from '@shared/games/six-dice/rules'
import type { Move } from '@shared/games/types'
import type { GameId } from '@shared/games'
import { offerOf, play, startGame, type Game } from '@shared/game'
import { seededRandom } from '@shared/random-play'

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

// ---------------------------------------------------------------------------------------------
// The chance-to-win player (src/shared/games/six-dice/win-solver.ts) against the expected-points player.

const WIN_GAMES = Number(process.env.WIN_BENCH_GAMES ?? 10_000)

function solveTimed(spec: WinSpec): WinTable {
  const buffersBefore = process.memoryUsage().arrayBuffers
  const started = process.hrtime.bigint()
  const cpu = process.cpuUsage()
  const table = solveWinTable(spec)
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  const cpuUsed = process.cpuUsage(cpu)
  const memory = process.memoryUsage()
  const kb = (table.values.byteLength + table.final.byteLength) / 1024
  // CPU time as well as wall time: on a shared machine the wall time says more about the load.
  console.log(
    `  ${spec.game} target ${spec.target.toLocaleString('en')} entry ${spec.entry}: solved in ${seconds.toFixed(1)} s ` +
      `(${((cpuUsed.user + cpuUsed.system) / 1e6).toFixed(1)} s of CPU); ` +
      `${table.values.length.toLocaleString('en')} states, table ${kb.toFixed(0)} KB; ` +
      `typed arrays +${((memory.arrayBuffers - buffersBefore) / 1024).toFixed(0)} KB after the solve (the solve's turn arrays included until collected), process RSS ${(memory.rss / 1e6).toFixed(0)} MB`
  )
  return table
}

/** One game: seat `winSeat` plays to win (with the table), the other seat for points. 1, 1/2 or 0 for the winner seat. */
function playWinGame(spec: WinSpec, winSeat: number, wins: WinTableSource, random: () => number): number {
  const started = startGame({ game: spec.game, players: ['A', 'B'], rules: { target: spec.target, entry: spec.entry } })
  if (!started.ok) throw new Error(started.error)
  let game = started.value
  for (;;) {
    const offer = offerOf(game)
    if (offer.finished) {
      const winners = (game.state as SixDiceState).winners
      return winners.includes(winSeat) ? 1 / winners.length : 0
    }
    let move: Move | null = null
    if (offer.decisions.length > 0) move = chooseMove(game, random, offer.toPlay === winSeat ? wins : undefined)?.move ?? null
    if (move === null) move = { roll: Array.from({ length: offer.diceDue }, () => 1 + Math.floor(random() * 6)) }
    const played = play(game, { move })
    if (!played.ok) throw new Error(`refused ${JSON.stringify(move)}: ${played.error}`)
    game = played.game
  }
}

const ci = (score: number, games: number): string => {
  const p = score / games
  const half = 1.96 * Math.sqrt((p * (1 - p)) / games)
  return `${(100 * p).toFixed(1)}%  95% CI [${(100 * (p - half)).toFixed(1)}%, ${(100 * (p + half)).toFixed(1)}%]`
}

export function benchWin(): void {
  console.log('Chance-to-win tables (two players), solved in this thread:')
  const farkle = solveTimed({ game: 'farkle', target: 10_000, entry: 500 })
  const fouche = solveTimed({ game: 'fouche', target: 10_000, entry: 0 })
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`
  console.log(`  optimal play: Farkle's first player wins ${pct(startChance(farkle, 0, 0, 0))}; Fouche's first seat ${pct(startChance(fouche, 0, 0, 0))} (second seat to move at 0-0 after a farkle: ${pct(startChance(fouche, 1, 0, 0))})`)
  const end = new WinTurn(farkle, 0, 9700 / 50, 9950 / 50)
  console.log(`  Farkle 9,700 vs 9,950, 300 on the turn, 2 dice: banking wins ${pct(end.bank(200) ?? 0)}, throwing on ${pct(end.roll(2, 200))}`)
  const reach = new WinTurn(farkle, 0, 6950 / 50, 7100 / 50)
  console.log(`  Farkle 6,950 vs 7,100, 3,050 on the turn, 5 dice: banking wins ${pct(reach.bank(200) ?? 0)}, throwing on ${pct(reach.roll(5, 200))}`)
  const wins = fixedWinTables([farkle, fouche])
  console.log(`Chance-to-win player vs the expected-points player: ${WIN_GAMES.toLocaleString('en')} two-player games per game, seats alternating`)
  for (const spec of [farkle.spec, fouche.spec]) {
    const random = seededRandom(20261130)
    const started = process.hrtime.bigint()
    const bySeat = [0, 0]
    for (let i = 0; i < WIN_GAMES; i++) bySeat[i % 2] += playWinGame(spec, i % 2, wins, random)
    const seconds = Number(process.hrtime.bigint() - started) / 1e9
    const half = WIN_GAMES / 2
    console.log(
      `  ${spec.game.padEnd(7)} win rate ${ci(bySeat[0] + bySeat[1], WIN_GAMES)}  (first seat ${ci(bySeat[0], half)}; second seat ${ci(bySeat[1], half)}; ${seconds.toFixed(0)} s)`
    )
  }
}

if (process.argv[1] && /bench[/\\]ai\.ts$/.test(process.argv[1])) {
  benchAi()
  benchWin()
}
