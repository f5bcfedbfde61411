// How many record lines per second the engine replays, per game, over 10,000 random complete games;
// and how long a saved history of thousands of games takes to load.
import { openTable, type TestTable } from '@test/kit/table'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GAME_IDS, type GameId } from '@shared/games'
import { recordText, replayText } from '@shared/game'
import { playRandomGame, SAMPLE_PLAYERS, seededRandom } from '@shared/random-play'

const GAMES_PER_KIND = 10_000
const RUNS = 5
const RULES: Record<GameId, Record<string, unknown>> = {
  foursies: { match: 'tour' },
  farkle: {},
  fouche: {},
  'four-plus': {}
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

export function benchEngine(): void {
  console.log(`Engine replay: ${GAMES_PER_KIND.toLocaleString('en')} random complete games per game, median of ${RUNS} runs`)
  const allRecords: string[] = []
  for (const id of GAME_IDS) {
    const random = seededRandom(42)
    const records: string[] = []
    let lines = 0
    for (let i = 0; i < GAMES_PER_KIND; i++) {
      const { game } = playRandomGame({ game: id, players: SAMPLE_PLAYERS[id], rules: RULES[id] }, random)
      records.push(recordText(game))
      lines += game.moves.length + 1
    }
    allRecords.push(...records.slice(0, 1000))
    const rates: number[] = []
    const cpuRates: number[] = []
    for (let run = 0; run < RUNS; run++) {
      const started = process.hrtime.bigint()
      const cpu = process.cpuUsage()
      for (const record of records) {
        const replayed = replayText(record)
        if (!replayed.ok) throw new Error(`line ${replayed.line}: ${replayed.error}`)
      }
      const used = process.cpuUsage(cpu)
      const seconds = Number(process.hrtime.bigint() - started) / 1e9
      rates.push(lines / seconds)
      cpuRates.push(lines / ((used.user + used.system) / 1e6))
    }
    // On a busy machine the wall-clock rate mostly measures the other processes: the rate per
    // second of this process's own CPU time is printed beside it.
    const figure = (rate: number): string => Math.round(rate).toLocaleString('en').padStart(11)
    console.log(
      `  ${id.padEnd(10)} ${figure(median(rates))} lines/s, ${figure(median(cpuRates))} lines per CPU second   (${lines.toLocaleString('en')} lines, ${(lines / GAMES_PER_KIND).toFixed(1)} per game)`
    )
  }
  const times: number[] = []
  for (let run = 0; run < RUNS; run++) {
    const started = process.hrtime.bigint()
    for (const record of allRecords) replayText(record)
    times.push(Number(process.hrtime.bigint() - started) / 1e6)
  }
  console.log(`  ${allRecords.length.toLocaleString('en')} random games (1,000 of each) replayed in ${median(times).toFixed(0)} ms`)
  benchHistory(allRecords)
}

/** The app's History screen: listing thousands of saved games, from the index and without it. */
function benchHistory(records: string[]): void {
  const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-history-'))
  mkdirSync(join(dataDir, 'history'), { recursive: true })
  records.forEach((record, i) => writeFileSync(join(dataDir, 'history', `game-${i}.jsonl`), record))
  const open = (): TestTable => openTable({ dataDir })
  let started = process.hrtime.bigint()
  const listed = open().listHistory()
  const rebuild = Number(process.hrtime.bigint() - started) / 1e6
  started = process.hrtime.bigint()
  open().listHistory()
  const indexed = Number(process.hrtime.bigint() - started) / 1e6
  console.log(
    `  history of ${listed.length.toLocaleString('en')} saved games: listed in ${indexed.toFixed(0)} ms from its index; ${rebuild.toFixed(0)} ms when the index must be rebuilt by replaying every record`
  )
  rmSync(dataDir, { recursive: true, force: true })
}

if (require.main === module) benchEngine()
