// Club night at scale: 12 tables × 200 finished games replicating into one league host. The league
// host runs as its own process (`npm run league`'s entry), as at a club; the tables' side of the
// replication (LeagueSync, each with its own embedded PouchDB) runs in this process, which is what
// the tables do besides refereeing. Printed: the time until the league holds and has checked every
// game, the league host's memory, and the time to compute the standings over all of them.
// A benchmark, not a test: figures depend on the machine. `npm run bench league`.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { GAME_IDS } from '@shared/games'
import { recordText, replayText } from '@shared/game'
import { gameDocumentId, leagueGameOf, leagueStandings } from '@shared/league'
import { playRandomGame, seededRandom } from '@shared/random-play'
import { LeagueSync, recordHash } from '@main/league/league-sync'

const TABLES = Number(process.env.LEAGUE_BENCH_TABLES ?? 12)
const GAMES_PER_TABLE = Number(process.env.LEAGUE_BENCH_GAMES ?? 200)
const PEOPLE = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal', 'Ivy', 'Jo', 'Kit', 'Lou', 'Max', 'Ned', 'Oli', 'Pam']
const PASSWORD = 'bench'
const ROOT = join(__dirname, '..')

interface Status {
  games: number
  memory: number
  tables: Record<string, { received: number }>
}

export async function benchLeague(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'dice-referee-league-bench-'))
  const random = seededRandom(25)
  const started = performance.now()
  const tables = Array.from({ length: TABLES }, (_, table) =>
    Array.from({ length: GAMES_PER_TABLE }, (_, index) => {
      const game = GAME_IDS[index % GAME_IDS.length]
      const seats = 2 + Math.floor(random() * 4)
      const players = Array.from({ length: seats }, (_, seat) => PEOPLE[(table + index + seat * 3) % PEOPLE.length])
      const rules = game === 'farkle' || game === 'fouche' ? { target: 2000 } : undefined
      const header = { game, players, ...(rules ? { rules } : {}), meta: { startedAt: Date.UTC(2026, 2, 6 + Math.floor(index / 40), 19, table, index % 60) } }
      return { id: `t${table}-${index}`, text: recordText(playRandomGame(header, random).game) }
    })
  )
  const characters = tables.flat().reduce((sum, record) => sum + record.text.length, 0)
  console.log(`  ${TABLES} tables × ${GAMES_PER_TABLE} games made in ${((performance.now() - started) / 1000).toFixed(1)} s (${(characters / 1e6).toFixed(1)} MB of records)`)

  const host = spawn(process.execPath, ['--import', join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs'), join(ROOT, 'src', 'host', 'league.ts'), '--port', '0', '--data', join(folder, 'league'), '--password', PASSWORD, '--listen', '127.0.0.1'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit']
  })
  const port = await new Promise<number>((resolve, reject) => {
    let output = ''
    host.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /The league is at http:\/\/127\.0\.0\.1:(\d+)\//.exec(output)
      if (match) resolve(Number(match[1]))
    })
    host.once('exit', (code) => reject(new Error(`the league host exited with ${code}`)))
  })
  const status = async (): Promise<Status> => (await (await fetch(`http://127.0.0.1:${port}/_league/status`)).json()) as Status
  const idle = await status()

  const replicationStart = performance.now()
  const syncs = tables.map(
    (records, table) =>
      new LeagueSync({
        dataDir: join(folder, `table-${table}`),
        leagueUrl: `http://t${table}:${PASSWORD}@127.0.0.1:${port}/league`,
        records: { finished: () => records, current: () => null }
      })
  )
  await Promise.all(syncs.map((sync) => sync.start()))
  const localReady = performance.now() - replicationStart
  let peakMemory = idle.memory
  let received = 0
  let checked = 0
  for (;;) {
    const now = await status()
    peakMemory = Math.max(peakMemory, now.memory)
    received = Object.values(now.tables).reduce((sum, table) => sum + table.received, 0)
    checked = now.games
    if (checked >= TABLES * GAMES_PER_TABLE) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const converged = performance.now() - replicationStart
  const after = await status()
  console.log(`  local databases filled in ${(localReady / 1000).toFixed(1)} s; the league held and had checked all ${checked} games after ${(converged / 1000).toFixed(1)} s (${received} documents received)`)
  console.log(`  league host memory (RSS): ${(idle.memory / 1e6).toFixed(0)} MB idle, ${(peakMemory / 1e6).toFixed(0)} MB at the peak, ${(after.memory / 1e6).toFixed(0)} MB after`)

  const viewStart = performance.now()
  const view = await (await fetch(`http://127.0.0.1:${port}/_league/view`)).json()
  console.log(`  the league page's view over ${checked} games, asked of the host: ${(performance.now() - viewStart).toFixed(0)} ms (${JSON.stringify(view).length} bytes)`)
  // A move at a table changes its live game only: the standings are not computed again for it.
  const inProgress = recordText(playRandomGame({ game: 'four-plus', players: ['Ann', 'Bob'], meta: { startedAt: Date.UTC(2026, 2, 6, 22) } }, random, 3).game)
  syncs[0].noteCurrent(inProgress)
  let liveView = 0
  for (;;) {
    const asked = performance.now()
    const seen = (await (await fetch(`http://127.0.0.1:${port}/_league/view`)).json()) as { tables: { game: unknown }[] }
    liveView = performance.now() - asked
    if (seen.tables.some((table) => table.game !== null)) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  console.log(`  the view again after a move at a table (its live game changed, the standings kept): ${liveView.toFixed(0)} ms`)
  const games = tables.flatMap((records, table) =>
    records.map(({ text }) => {
      const replayed = replayText(text)
      if (!replayed.ok) throw new Error(replayed.error)
      const id = gameDocumentId(`t${table}`, recordHash(text))
      return leagueGameOf(id, id.slice(-32), `t${table}`, replayed.game)
    })
  )
  const standingsStart = performance.now()
  const standings = leagueStandings(games, { lists: new Map(), merges: [] }, { timeZone: 'UTC' })
  console.log(
    `  standings (games, wins, average points, openskill ratings) over ${games.length} games: ${(performance.now() - standingsStart).toFixed(0)} ms, ${standings.reduce((sum, game) => sum + game.rows.length, 0)} rows`
  )
  await Promise.all(syncs.map((sync) => sync.stop()))
  host.kill('SIGTERM')
  await new Promise((resolve) => host.once('exit', resolve))
  rmSync(folder, { recursive: true, force: true })
  console.log(`  load average at the end: ${loadavg()[0].toFixed(2)} (2 cores shared)`)
}

if (require.main === module) void benchLeague().then(() => process.exit(0))
