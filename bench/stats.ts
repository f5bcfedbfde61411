// Statistics over a big history: 10,000 saved games (a pool of random games of every kind, seated
// by different people), the statistics cache rebuilt from the records with a progress display,
// then the statistics computed from the cache as the app does after a restart.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { HistoryArchive } from '@main/core/history/history-archive'
import { StatisticsCache } from '@main/core/players/statistics-cache'
import { recordText, type Game } from '@shared/game'
import { GAME_IDS } from '@shared/games'
import { playRandomGame, seededRandom } from '@shared/random-play'
import { playerStatistics } from '@shared/stats'
import { dispatch } from '@main/core/screens/dispatch'
import { openTable } from '@test/kit/table'

const GAMES = Number(process.env.STATS_BENCH_GAMES ?? 10_000)
const POOL_PER_KIND = 60
const PEOPLE = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal', 'Ivy', 'Jo', 'Kit', 'Lou']

/** Progress as the screens show it, printed at each tenth only. */
function progressLine(done: number, total: number): void {
  if (done === total || Math.floor((10 * done) / total) !== Math.floor((10 * (done - 50)) / total)) {
    process.stdout.write(`  rebuilding the statistics cache from the records: ${done} of ${total} games\n`)
  }
}

export async function benchStats(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-stats-bench-'))
  try {
    const random = seededRandom(14)
    const pool: Game[] = []
    for (const game of GAME_IDS) {
      for (let i = 0; i < POOL_PER_KIND; i++) pool.push(playRandomGame({ game, players: ['A', 'B', 'C'] }, random).game)
    }
    const store = new HistoryArchive(dataDir)
    for (let i = 0; i < GAMES; i++) {
      const game = pool[i % pool.length]
      const players = [0, 1, 2].map((seat) => PEOPLE[(i + seat * 5) % PEOPLE.length])
      writeFileSync(store.pathOf(`game-${i}`), recordText({ ...game, header: { ...game.header, players } }))
    }
    console.log(`  load average now ${loadavg()[0].toFixed(1)} (figures below scale with it)`)
    console.log(`  ${GAMES} saved games written (${pool.length} distinct random games of the four kinds, re-seated)`)

    let started = performance.now()
    await new StatisticsCache(store).rebuild(progressLine)
    const rebuild = performance.now() - started
    console.log(`  cache rebuilt from the records in ${(rebuild / 1000).toFixed(1)} s (${(rebuild / GAMES).toFixed(2)} ms a game); ${(statSync(new StatisticsCache(store).path).size / 1e6).toFixed(1)} MB`)

    // Wall time depends on what else the machine runs; the process's own CPU time is printed too.
    for (let run = 1; run <= 5; run++) {
      started = performance.now()
      const cpu = process.cpuUsage()
      const facts = await new StatisticsCache(store).all()
      const loaded = performance.now() - started
      const players = playerStatistics(facts.values())
      const total = performance.now() - started
      const used = process.cpuUsage(cpu)
      console.log(
        `  statistics of ${facts.size} games from the cache (after a restart), run ${run}: ${total.toFixed(0)} ms wall, ${((used.user + used.system) / 1000).toFixed(0)} ms CPU (reading the cache ${loaded.toFixed(0)} ms, summing ${(total - loaded).toFixed(0)} ms), ${players.length} players`
      )
    }
    const cache = new StatisticsCache(store)
    const facts = await cache.all()
    started = performance.now()
    playerStatistics(facts.values())
    console.log(`  statistics from the cache in memory: ${(performance.now() - started).toFixed(1)} ms`)

    // The Players page as a screen asks for it, through the screen API: the first request after a
    // restart reads the cache (as every request did before the table read it ahead at start and
    // kept the figures until the games or the people change); the next ones are answered from memory.
    const table = openTable({ dataDir })
    const screen = table.screen
    const ask = async (): Promise<number> => {
      const began = performance.now()
      const answer = await dispatch(table.table, screen, 'playerStatistics', [])
      JSON.stringify(answer)
      return performance.now() - began
    }
    const cold = await ask()
    const warm: number[] = []
    for (let run = 0; run < 5; run++) warm.push(await ask())
    console.log(`  the Players page (playerStatistics through the screen API), load average ${loadavg()[0].toFixed(1)}: first after a restart ${cold.toFixed(0)} ms, then ${warm.map((ms) => ms.toFixed(1)).join(', ')} ms`)
    const started2 = openTable({ dataDir })
    await started2.table.start()
    const began = performance.now()
    await dispatch(started2.table, started2.screen, 'playerStatistics', [])
    console.log(`  the Players page when the table read the statistics ahead at its start: ${(performance.now() - began).toFixed(1)} ms`)
    await started2.stop()
    await table.stop()
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
