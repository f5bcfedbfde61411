/// <reference lib="dom" />
// Roll to screen: from a throw entering the core until the scoreboard's DOM in Chromium shows it.
// Also the host's start (command to first page served) and its memory after a 1,000-throw game.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import WebSocket from 'ws'
import type { TableState, WirePush, WireReply } from '../src/shared/api'
import { RecordStore } from '../src/main/core/record-store'
import { SettingsStore } from '../src/main/core/settings'
import { TableServer } from '../src/main/core/table-server'
import { TableSession } from '../src/main/core/table-session'
import { ensureRendererBuilt } from '../src/host/renderer-build'
import { HOST_ENTRY, launchBrowser, ROOT } from '../test/e2e/support'

const THROWS = 1000
const PAUSE_MS = 50

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

const now = (): number => performance.timeOrigin + performance.now()

/** Plays on: the throw that is due, or else the first decision on offer (not timed). */
function advance(session: TableSession): boolean {
  const offer = session.snapshot(true).current?.offer
  if (!offer || offer.finished) return false
  if (offer.diceDue === 0) session.submit(offer.decisions[0].move)
  return true
}

async function rollToScreen(): Promise<void> {
  await ensureRendererBuilt(ROOT)
  const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-bench-'))
  const session = new TableSession({ store: new RecordStore(dataDir), settings: new SettingsStore(dataDir) })
  const server = new TableServer({ session, rendererDir: join(ROOT, 'out', 'renderer'), port: 0 })
  await server.start()
  const browser = await launchBrowser()
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
  await page.goto(`${server.url}scoreboard`)
  await page.getByTestId('scoreboard').waitFor()
  await page.evaluate(() => {
    const seen: Record<string, number> = {}
    const board = document.querySelector('[data-testid=scoreboard]')!
    new MutationObserver(() => {
      const version = board.getAttribute('data-version')!
      if (!(version in seen)) seen[version] = performance.timeOrigin + performance.now()
    }).observe(board, { attributes: true, attributeFilter: ['data-version'] })
    ;(window as unknown as { seen: typeof seen }).seen = seen
  })

  // The page's clock and ours may disagree by a few ms: estimate the offset from the fastest of
  // many round trips (as NTP does) and correct every reading by it.
  let offset = 0
  let bestRoundTrip = Infinity
  for (let i = 0; i < 50; i++) {
    const sent = now()
    const pageTime = await page.evaluate(() => performance.timeOrigin + performance.now())
    const received = now()
    if (received - sent < bestRoundTrip) {
      bestRoundTrip = received - sent
      offset = pageTime - (sent + received) / 2
    }
  }

  session.newGame({ game: 'foursies', players: ['Ann', 'Bob', 'Cy'], rules: { match: 'tour-de-fours' } })
  const latencies: number[] = []
  for (let i = 0; i < THROWS; i++) {
    if (!advance(session)) session.newGame({ game: 'foursies', players: ['Ann', 'Bob', 'Cy'], rules: { match: 'tour-de-fours' } })
    const offer = session.snapshot(true).current!.offer
    if (offer.diceDue === 0) continue
    const started = now()
    session.rollVirtual()
    const version = String(session.snapshot(true).version)
    const shown = await page.waitForFunction((v) => (window as unknown as { seen: Record<string, number> }).seen[v], version)
    latencies.push((await shown.jsonValue()) - offset - started)
    // Throws at a table come seconds apart; a short pause keeps each one from queueing behind
    // the previous one's painting, which is not what a player would wait for.
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS))
  }
  console.log(
    `Roll to screen (core, fsync, WebSocket, Vue, scoreboard DOM in Chromium), ${latencies.length} throws ${PAUSE_MS} ms apart: median ${percentile(latencies, 50).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms (aim: p99 under 16.7 ms; clock offset ${offset.toFixed(2)} ms corrected, ±${(bestRoundTrip / 2).toFixed(2)} ms)`
  )
  await browser.close()
  await server.stop()
}

async function hostStartAndMemory(): Promise<void> {
  // Bundle the host first (it is bundled once after each change), so the figure is a start.
  spawnSync(process.execPath, [HOST_ENTRY, '--help'], { cwd: ROOT, stdio: 'ignore' })
  const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-bench-'))
  const port = 5800 + Math.floor(Math.random() * 150)
  const started = now()
  const child = spawn(process.execPath, [HOST_ENTRY, '--port', String(port), '--data', dataDir], {
    cwd: ROOT,
    stdio: 'ignore'
  })
  let served = 0
  while (!served) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/`)
      if (response.ok) served = now()
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  }
  console.log(`Host start (command to first page served; host bundled and screens built beforehand): ${(served - started).toFixed(0)} ms (aim: under 1 s)`)

  const socket = new WebSocket(`ws://127.0.0.1:${port}/api`)
  await new Promise((resolve) => socket.once('open', resolve))
  let state: TableState | null = null
  const replies = new Map<number, (reply: WireReply) => void>()
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as WirePush | WireReply
    if ('state' in message) state = message.state
    else replies.get(message.id)?.(message)
  })
  let id = 0
  const call = (method: string, ...args: unknown[]): Promise<WireReply> =>
    new Promise((resolve) => {
      replies.set(++id, resolve)
      socket.send(JSON.stringify({ id, method, args }))
    })
  const setup = { game: 'foursies', players: ['Ann', 'Bob', 'Cy'], rules: { match: 'tour-de-fours' } }
  await call('newGame', setup)
  let throws = 0
  while (throws < THROWS) {
    const offer = (state as TableState | null)?.current?.offer
    if (!offer || offer.finished) await call('newGame', setup)
    else if (offer.diceDue > 0) {
      await call('rollVirtual')
      throws++
    } else await call('submit', offer.decisions[0].move)
  }
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))
  console.log(`Host memory after a ${THROWS}-throw game: ${rss ? (Number(rss[1]) / 1024).toFixed(0) : '?'} MB resident (aim: under 100 MB)`)
  socket.close()
  child.kill()
}

export async function benchScreen(): Promise<void> {
  await rollToScreen()
  await hostStartAndMemory()
}

if (require.main === module) void benchScreen()
