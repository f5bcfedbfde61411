/// <reference lib="dom" />
// Roll to screen: from a throw entering the core until the scoreboard's DOM in Chromium shows it.
// Also the host's start (command to first page served) and its memory after a 1,000-throw game.
import { serveTable, type TestTable } from '@test/kit/table'
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import WebSocket, { WebSocketServer } from 'ws'
import type { Browser, Page } from 'playwright-core'
import type { GameSetup } from '@shared/api-methods'
import { timeDisk } from './disk-time'
import { ensureRendererBuilt } from '@host/renderer-build'
import { launchBrowser } from '@test/kit/browser'
import { HOST_ENTRY } from '@test/kit/host'
import { ROOT } from '@test/kit/root'
import { ScreenClient } from '@test/kit/screen-client'

/** Throws (and bare-page pushes) per figure; `BENCH_PUSHES=100 npm run bench screen` for a quick look. */
const THROWS = Number(process.env.BENCH_PUSHES ?? 1000)
const PAUSE_MS = 50
const MEMORY_THROWS = 1000
const VIEWPORTS = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 }
].filter((viewport) => !process.env.BENCH_VIEWPORT || process.env.BENCH_VIEWPORT === `${viewport.width}x${viewport.height}`)

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

const now = (): number => performance.timeOrigin + performance.now()
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
const load = (): string => `load average ${loadavg()[0].toFixed(1)}`

interface Figures {
  median: number
  p99: number
}
const figuresOf = (values: number[]): Figures => ({ median: percentile(values, 50), p99: percentile(values, 99) })
const shown = (f: Figures): string => `median ${f.median.toFixed(2)} ms, p99 ${f.p99.toFixed(2)} ms`

/**
 * The page's clock and ours may disagree by a few ms: estimate the offset from the fastest of
 * many round trips (as NTP does); readings are corrected by it.
 */
async function clockOffset(page: Page): Promise<{ offset: number; error: number }> {
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
  return { offset, error: bestRoundTrip / 2 }
}

/** Records, in the page, when each `data-version` first appears on the element `selector`. */
async function watchVersions(page: Page, selector: string): Promise<void> {
  await page.evaluate((selector) => {
    const seen: Record<string, number> = {}
    const element = document.querySelector(selector)!
    new MutationObserver(() => {
      const version = element.getAttribute('data-version')!
      if (!(version in seen)) seen[version] = performance.timeOrigin + performance.now()
    }).observe(element, { attributes: true, attributeFilter: ['data-version'] })
    ;(window as unknown as { seen: typeof seen }).seen = seen
  }, selector)
}

/**
 * When `version` was shown. Asked after the pause between pushes, so that the bench's own calls
 * into the page (each a task on its main thread, and a poll would run every frame) do not
 * compete with the push being measured; it waits on only when the page is slower than the pause.
 */
async function shownAt(page: Page, version: string): Promise<number> {
  await pause(PAUSE_MS)
  const seen = await page.evaluate((v) => (window as unknown as { seen: Record<string, number> }).seen[v], version)
  if (seen !== undefined) return seen
  const handle = await page.waitForFunction((v) => (window as unknown as { seen: Record<string, number> }).seen[v], version)
  return (await handle.jsonValue()) as number
}

/**
 * The floor: a bare page in the same browser, at the same size and pace, that receives a
 * WebSocket message and sets one attribute. Nothing the app does can be faster than this.
 */
async function floor(browser: Browser, viewport: { width: number; height: number }): Promise<Figures> {
  const sockets = new WebSocketServer({ port: 0, host: '127.0.0.1' })
  await new Promise((resolve) => sockets.once('listening', resolve))
  const port = (sockets.address() as { port: number }).port
  const connected = new Promise<WebSocket>((resolve) => sockets.once('connection', resolve))
  const page = await browser.newPage({ viewport })
  await page.setContent(`<!doctype html><html><body><main id="bare" data-version="-1">bare</main><script>
    const bare = document.getElementById('bare')
    new WebSocket('ws://127.0.0.1:${port}/').onmessage = (event) => bare.setAttribute('data-version', JSON.parse(event.data).version)
  </script></body></html>`)
  const socket = await connected
  await watchVersions(page, '#bare')
  const { offset } = await clockOffset(page)
  const latencies: number[] = []
  for (let version = 0; version < THROWS; version++) {
    const started = now()
    socket.send(JSON.stringify({ version }))
    latencies.push((await shownAt(page, String(version))) - offset - started)
  }
  await page.close()
  sockets.close()
  return figuresOf(latencies)
}

/**
 * Plays on to the next throw (not timed): the first decision on offer, or a new game when one
 * ended. Each is pushed too, and a throw at a table comes seconds after it, not in the same
 * moment: the pause keeps the throw from queueing behind its drawing.
 */
async function playToThrow(session: TestTable, setup: GameSetup): Promise<void> {
  for (;;) {
    const offer = session.snapshot(true).current?.offer
    if (offer && !offer.finished && offer.diceDue > 0) return
    if (!offer || offer.finished) session.newGame(setup)
    else session.submit(offer.decisions[0].move)
    await pause(PAUSE_MS)
  }
}

/**
 * When each version's first push was handed to a socket (the TV's: it is pushed before the other
 * screens), and when that send call returned. The core ends as the send is called, not when the
 * table's listeners have all run: on 2 busy cores the send wakes Chromium's network thread, which
 * often takes the host's core inside the call for a millisecond or more while it carries the
 * push on to the page; that time is the way to the page, and counted there.
 */
function watchSends(): { of(version: string): { sent: number; returned: number }; stop(): void } {
  const times = new Map<string, { sent: number; returned: number }>()
  const send = WebSocket.prototype.send
  WebSocket.prototype.send = function (this: WebSocket, data: unknown, ...rest: unknown[]): void {
    const version = /^\{"(?:state|patch)":\{(?:"merge":\{)?"version":(\d+)/.exec(String(data))?.[1]
    const sent = now()
    ;(send as (...args: unknown[]) => void).call(this, data, ...rest)
    if (version !== undefined && !times.has(version)) times.set(version, { sent, returned: now() })
  } as typeof send
  return {
    of(version) {
      const found = times.get(version)
      if (!found) throw new Error(`no push of version ${version} was sent`)
      return found
    },
    stop() {
      WebSocket.prototype.send = send
    }
  }
}

interface ScoreboardFigures {
  total: Figures
  /** The throw in the core: rules, record line written, the TV's state built and handed to its socket (the table screen's follows). */
  core: Figures
  /** Of the core, the record's line written (before the screens are told). */
  write: Figures
  /** After the core: the line flushed to the disk (fsync), while the screens draw. */
  flush: Figures
  /** From the TV's push handed to its socket to the scoreboard page's WebSocket message event. */
  transit: Figures
  /** Of that, the host's send call itself (it returns late when the page's browser took the host's core in it). */
  sendCall: Figures
  /** From the message event to the scoreboard's DOM showing the new version. */
  render: Figures
}

/**
 * Roll to screen: from a throw entering the core until the scoreboard's DOM in Chromium shows
 * it, with the table screen open beside it (as on the host: the control window and the TV).
 */
async function scoreboard(browser: Browser, viewport: { width: number; height: number }, showOdds: boolean): Promise<ScoreboardFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-bench-'))
  const session = await serveTable(join(ROOT, 'out', 'renderer'), { dataDir })
  const server = session.table.server!
  const diskTime = timeDisk(session.journal)
  const sends = watchSends()
  const setup: GameSetup = { game: 'foursies', players: ['Ann', 'Bob', 'Cy'], rules: { match: 'tour-de-fours' } }
  session.newGame(setup)
  session.setShowOdds(showOdds)
  const context = await browser.newContext({ viewport })
  // When each state push reaches the page (before the app's own handler runs).
  await context.addInitScript(() => {
    const arrived: Record<string, number> = {}
    ;(window as unknown as { arrived: typeof arrived }).arrived = arrived
    const Native = window.WebSocket
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols)
        this.addEventListener('message', (event: MessageEvent) => {
          const version = /^\{"(?:state|patch)":\{(?:"merge":\{)?"version":(\d+)/.exec(String(event.data))?.[1]
          if (version !== undefined && !(version in arrived)) arrived[version] = performance.timeOrigin + performance.now()
        })
      }
    }
  })
  const tablePage = await context.newPage()
  await tablePage.goto(`${server.url}table`)
  const page = await context.newPage()
  await page.goto(`${server.url}scoreboard`)
  await page.getByTestId('scoreboard').waitFor()
  await watchVersions(page, '[data-testid=scoreboard]')
  const { offset } = await clockOffset(page)

  const total: number[] = []
  const core: number[] = []
  const write: number[] = []
  const flush: number[] = []
  const transit: number[] = []
  const render: number[] = []
  const sendCall: number[] = []
  while (total.length < THROWS) {
    await playToThrow(session, setup)
    diskTime.reset()
    const started = now()
    session.rollVirtual()
    const version = String(session.snapshot(true).version)
    const { sent, returned } = sends.of(version)
    sendCall.push(returned - sent)
    write.push(diskTime.write)
    flush.push(diskTime.flush)
    const domAt = (await shownAt(page, version)) - offset
    const arrivedAt = (await page.evaluate((v) => (window as unknown as { arrived: Record<string, number> }).arrived[v], version)) - offset
    total.push(domAt - started)
    core.push(sent - started)
    transit.push(arrivedAt - sent)
    render.push(domAt - arrivedAt)
  }
  sends.stop()
  await context.close()
  await session.stop()
  return {
    total: figuresOf(total),
    core: figuresOf(core),
    write: figuresOf(write),
    flush: figuresOf(flush),
    transit: figuresOf(transit),
    sendCall: figuresOf(sendCall),
    render: figuresOf(render)
  }
}

async function rollToScreen(): Promise<void> {
  await ensureRendererBuilt(ROOT)
  const browser = await launchBrowser()
  console.log(`Roll to screen against the floor: ${THROWS} pushes ${PAUSE_MS} ms apart each, same Chromium`)
  for (const viewport of VIEWPORTS) {
    const size = `${viewport.width}×${viewport.height}`
    const bare = await floor(browser, viewport)
    console.log(`  ${size} floor (bare page, WebSocket message to one attribute): ${shown(bare)} (${load()})`)
    for (const showOdds of [false, true]) {
      const board = await scoreboard(browser, viewport, showOdds)
      const ratio = `×${(board.total.median / bare.median).toFixed(2)} / ×${(board.total.p99 / bare.p99).toFixed(2)} the floor`
      console.log(`  ${size} scoreboard, odds ${showOdds ? 'on ' : 'off'} on the table screen: ${shown(board.total)} (${ratio}; aim ×1.5 / ×2) (${load()})`)
      console.log(`      core ${shown(board.core)} (of which the line's write ${shown(board.write)}); then its flush while the page draws ${shown(board.flush)}`)
      console.log(`      to the page ${shown(board.transit)} (of which the host's send call ${shown(board.sendCall)}); in the page ${shown(board.render)}`)
    }
  }
  await browser.close()
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

  const screen = await ScreenClient.open(`http://127.0.0.1:${port}/`)
  const setup: GameSetup = { game: 'foursies', players: ['Ann', 'Bob', 'Cy'], rules: { match: 'tour-de-fours' } }
  await screen.call('newGame', setup)
  let throws = 0
  while (throws < MEMORY_THROWS) {
    // The host pushes the state a request made before it answers the request: the last one pushed is the table's now.
    const offer = screen.state.current?.offer
    if (!offer || offer.finished) await screen.call('newGame', setup)
    else if (offer.diceDue > 0) {
      await screen.call('rollVirtual')
      throws++
    } else await screen.call('submit', offer.decisions[0].move)
  }
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))
  console.log(`Host memory after a ${MEMORY_THROWS}-throw game: ${rss ? (Number(rss[1]) / 1024).toFixed(0) : '?'} MB resident (aim: under 100 MB)`)
  screen.close()
  child.kill()
}

export async function benchScreen(): Promise<void> {
  await rollToScreen()
  if (!process.env.BENCH_VIEWPORT) await hostStartAndMemory()
}

if (require.main === module) void benchScreen()
