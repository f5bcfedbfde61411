// Real processes on loopback for the league tests: the league host (`npm run league`'s entry under
// tsx, one process) and table hosts (`npm run table`, via test/e2e/support.ts), games played on
// the tables through their screen API, and what the league holds read over CouchDB's HTTP API.
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TableState } from '@shared/api'
import type { GameId } from '@shared/games'
import { recordText } from '@shared/game'
import { playRandomGame, seededRandom } from '@shared/random-play'
import { ScreenClient } from '@test/kit/screen-client'
import { ROOT, startHost, type RunningHost } from '@test/e2e/support'
import { randomMoveIn } from '@test/faults/random-move'

export const PASSWORD = 'club-night'
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')

export interface RunningLeague {
  url: string
  port: number
  dataDir: string
  process: ChildProcess
  output: () => string
  stop: (signal?: NodeJS.Signals) => Promise<void>
}

export function temporaryFolder(name: string): string {
  return mkdtempSync(join(tmpdir(), `dice-referee-league-${name}-`))
}

/** Starts the league host (on `port`, 0 for a free one) and resolves once it prints its address. */
export function startLeague(dataDir: string, port = 0, extra: string[] = []): Promise<RunningLeague> {
  const child = spawn(process.execPath, ['--import', TSX, join(ROOT, 'src', 'host', 'league.ts'), '--port', String(port), '--data', dataDir, '--password', PASSWORD, '--listen', '127.0.0.1', ...extra], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString()
      const match = /The league is at (http:\/\/127\.0\.0\.1:(\d+)\/)/.exec(output)
      if (match) {
        child.stdout.off('data', onData)
        child.stdout.on('data', (more: Buffer) => (output += more.toString()))
        resolve({
          url: match[1],
          port: Number(match[2]),
          dataDir,
          process: child,
          output: () => output,
          stop: (signal = 'SIGTERM') =>
            new Promise((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done()
              child.once('exit', () => done())
              child.kill(signal)
            })
        })
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('exit', (code) => reject(new Error(`the league host exited with ${code}:\n${output}`)))
  })
}

export interface ReplicationGate {
  port: number
  /** Resolves once the league has taken a first batch of games and the gate holds what comes next. */
  held: Promise<void>
  /** Lets everything through from now on (what it held is dropped: its table is gone). */
  open(): void
  close(): Promise<void>
}

/**
 * A proxy a table joins the league through: it lets the table's replication through until the
 * league has answered its first batch of games (`_bulk_docs`), then holds every later request
 * unanswered until `open()`. A table killed while held is killed in the middle of replicating,
 * however fast or busy the machine.
 */
export async function replicationGate(league: { port: number }): Promise<ReplicationGate> {
  let holding = false
  let opened = false
  let heldNow = (): void => {}
  const held = new Promise<void>((resolve) => (heldNow = resolve))
  const waiting: ServerResponse[] = []
  const forward = (request: IncomingMessage, response: ServerResponse): void => {
    const headers = { ...request.headers, host: `127.0.0.1:${league.port}` }
    const upstream = httpRequest({ host: '127.0.0.1', port: league.port, method: request.method, path: request.url, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(response)
      const firstBatch = !opened && request.method === 'POST' && (request.url ?? '').includes('/_bulk_docs')
      if (firstBatch) answer.on('end', () => (holding = true))
    })
    upstream.on('error', () => response.destroy())
    request.pipe(upstream)
  }
  const server = createServer((request, response) => {
    if (holding && !opened) {
      waiting.push(response)
      heldNow()
      return
    }
    forward(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as { port: number }).port,
    held,
    open: () => {
      opened = true
      for (const response of waiting.splice(0)) response.destroy()
    },
    close: () =>
      new Promise((resolve) => {
        for (const response of waiting.splice(0)) response.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** The address a table joins with: http://NAME:PW@127.0.0.1:PORT/league. */
export function leagueUrl(league: { port: number }, table: string, password = PASSWORD): string {
  return `http://${table}:${password}@127.0.0.1:${league.port}/league`
}

export function startTable(dataDir: string, league: string | null): Promise<RunningHost> {
  return startHost(dataDir, 0, league === null ? [] : ['--league', league])
}

/** A data folder whose history holds `count` finished random games (a table's earlier nights). */
export function dataFolderWithGames(name: string, count: number, seed: number, players: string[] = ['Ann', 'Bob', 'Cy']): string {
  const dataDir = temporaryFolder(name)
  mkdirSync(join(dataDir, 'history'), { recursive: true })
  const games: GameId[] = ['foursies', 'four-plus', 'farkle', 'fouche']
  const random = seededRandom(seed)
  for (let i = 0; i < count; i++) {
    const game = games[i % games.length]
    const rules = game === 'farkle' || game === 'fouche' ? { target: 1500 } : undefined
    const header = { game, players, ...(rules ? { rules } : {}), meta: { startedAt: Date.UTC(2026, 2, 6, 19, seed % 60, i) } }
    writeFileSync(join(dataDir, 'history', `seed-${seed}-${i}.jsonl`), recordText(playRandomGame(header, random).game))
  }
  return dataDir
}

/** Plays a whole game on a table through its screen API (random legal moves); returns the moves made. */
export async function playGame(api: ScreenClient, game: GameId, players: string[], random: () => number, stopAfter = Infinity): Promise<number> {
  const rules = game === 'farkle' || game === 'fouche' ? { target: 1000 } : undefined
  const started = await api.call('newGame', { game, players, ...(rules ? { rules } : {}) })
  if (!started.ok) throw new Error(started.error)
  let moves = 0
  for (;;) {
    if (moves >= stopAfter) return moves
    const state: TableState = await api.getState()
    const move = randomMoveIn(state, random)
    if (move === null) return moves
    const outcome = await api.call('submit', move)
    if (!outcome.ok) throw new Error(`${JSON.stringify(move)}: ${outcome.error}`)
    moves++
  }
}

/** The ids of every document of the league (over CouchDB's own API), read with the organiser's credentials. */
export async function leagueDocumentIds(league: { port: number }): Promise<string[]> {
  const answer = await fetch(`http://127.0.0.1:${league.port}/league/_all_docs`, { headers: { authorization: basic('admin', PASSWORD) } })
  if (!answer.ok) throw new Error(`${answer.status} ${await answer.text()}`)
  return ((await answer.json()) as { rows: { id: string }[] }).rows.map((row) => row.id)
}

export async function leagueStatus(league: { port: number }): Promise<{ games: number; tables: Record<string, { received: number; refused: number; asked: number }> }> {
  const answer = await fetch(`http://127.0.0.1:${league.port}/_league/status`)
  return (await answer.json()) as { games: number; tables: Record<string, { received: number; refused: number; asked: number }> }
}

/** A table's league status (/_league/sync on the table's own server). */
export async function syncStatus(table: RunningHost): Promise<{ connected: boolean; pending: number | null; sent: number; lastError: string | null }> {
  return (await (await fetch(`${table.url}_league/sync`)).json()) as { connected: boolean; pending: number | null; sent: number; lastError: string | null }
}

/** The finished games in a table's history folder, as record texts. */
export function historyRecords(dataDir: string): string[] {
  const folder = join(dataDir, 'history')
  return readdirSync(folder)
    .filter((name) => name.endsWith('.jsonl') && name !== 'index.jsonl')
    .map((name) => readFileSync(join(folder, name), 'utf8'))
}

export function basic(name: string, password: string): string {
  return `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`
}
