/// <reference lib="dom" />
// `npx tsx bench/trace.ts [throws]`: where the scoreboard's time goes. Plays throws 50 ms apart
// at 1920×1080 (table screen open beside it, odds on) under Chromium's tracing, then prints the
// busy time of each of the browser's threads and the costliest kinds of work on them, and the
// core's time per throw. Writes the whole trace to
// test-results/scoreboard-trace.json (open it in chrome://tracing or ui.perfetto.dev).
import { serveTable } from '@test/kit/table'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureRendererBuilt } from '@host/renderer-build'
import { launchBrowser } from '@test/kit/browser'
import { ROOT } from '@test/kit/root'

interface TraceEvent {
  name: string
  ph: string
  pid: number
  tid: number
  ts: number
  dur?: number
  /** Time on the CPU (dur is wall time, which other programs on the machine stretch). */
  tdur?: number
  args?: { name?: string; data?: { frames?: { processId: number; url: string }[] } }
}

const THROWS = Number(process.argv[2] ?? 200)
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
const p99 = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.99)] ?? 0

async function main(): Promise<void> {
  await ensureRendererBuilt(ROOT)
  const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-trace-'))
  const session = await serveTable(join(ROOT, 'out', 'renderer'), { dataDir })
  const server = session.table.server!
  const setup = { game: 'foursies' as const, players: ['Ann', 'Bob', 'Cy'], rules: { match: 'tour-de-fours' } }
  session.newGame(setup)
  session.setShowOdds(true)

  const browser = await launchBrowser()
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } })
  const table = await context.newPage()
  await table.goto(`${server.url}table`)
  const page = await context.newPage()
  await page.goto(`${server.url}scoreboard`)
  await page.getByTestId('scoreboard').waitFor()
  // An experiment: `TRACE_CSS='.tv { background: none !important }'` shows what one style costs.
  if (process.env.TRACE_CSS) await page.addStyleTag({ content: process.env.TRACE_CSS })
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink', 'cc', 'gpu', 'toplevel', 'v8.gc']
  })
  const coreTimes: number[] = []
  const started = Date.now()
  for (let played = 0; played < THROWS; ) {
    const offer = session.snapshot(true).current?.offer
    if (!offer || offer.finished) session.newGame(setup)
    else if (offer.diceDue === 0) session.submit(offer.decisions[0].move)
    else {
      const before = performance.now()
      session.rollVirtual()
      coreTimes.push(performance.now() - before)
      played++
      const version = session.snapshot(true).version
      await page.waitForFunction((v) => Number(document.querySelector('[data-testid=scoreboard]')!.getAttribute('data-version')) >= v, version)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  const seconds = (Date.now() - started) / 1000
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }
  mkdirSync(join(ROOT, 'test-results'), { recursive: true })
  writeFileSync(join(ROOT, 'test-results', 'scoreboard-trace.json'), JSON.stringify(trace))
  await browser.close()
  await session.stop()

  const threadNames = new Map<string, string>()
  const processNames = new Map<number, string>()
  for (const event of trace.traceEvents) {
    if (event.ph === 'M' && event.name === 'thread_name') threadNames.set(`${event.pid}:${event.tid}`, event.args?.name ?? '?')
    if (event.ph === 'M' && event.name === 'process_name') processNames.set(event.pid, event.args?.name ?? '?')
  }
  // Busy time per thread: its top-level tasks only (nested events would count twice).
  const busy = new Map<string, number>()
  const byName = new Map<string, { total: number; count: number; longest: number }>()
  const longTasks: number[] = []
  for (const event of trace.traceEvents) {
    if (event.ph !== 'X' || event.dur === undefined) continue
    const thread = `${processNames.get(event.pid) ?? event.pid} / ${threadNames.get(`${event.pid}:${event.tid}`) ?? event.tid}`
    if (event.name === 'ThreadControllerImpl::RunTask' || event.name === 'RunTask') {
      busy.set(thread, (busy.get(thread) ?? 0) + event.dur / 1000)
      if (thread.includes('CrRendererMain') && event.dur > 16_700) longTasks.push(event.dur / 1000)
      continue
    }
    const key = `${thread}: ${event.name}`
    const entry = byName.get(key) ?? { total: 0, count: 0, longest: 0 }
    entry.total += event.dur / 1000
    entry.count++
    entry.longest = Math.max(entry.longest, event.dur / 1000)
    byName.set(key, entry)
  }
  const scoreboardPid = trace.traceEvents
    .flatMap((event) => (event.name === 'TracingStartedInBrowser' ? (event.args?.data?.frames ?? []) : []))
    .find((frame) => frame.url.endsWith('/scoreboard'))?.processId
  const cpu = (names: string[]): string => {
    const ms = trace.traceEvents
      .filter((event) => event.pid === scoreboardPid && event.ph === 'X' && names.includes(event.name))
      .reduce((sum, event) => sum + (event.tdur ?? 0) / 1000, 0)
    return (ms / THROWS).toFixed(2)
  }
  console.log(
    `Scoreboard renderer, CPU ms per throw: main-thread frames ${cpu(['ProxyMain::BeginMainFrame'])}, scripts ${cpu(['v8.callFunction'])}, ` +
      `raster ${cpu(['RasterTask'])}, main frames ${trace.traceEvents.filter((e) => e.pid === scoreboardPid && e.name === 'ProxyMain::BeginMainFrame').length / THROWS} per throw`
  )
  // Without a GPU the display compositor blends every frame in software, in the GPU process.
  const compositorThreads = new Set([...threadNames].filter(([, name]) => name === 'VizCompositorThread').map(([key]) => key))
  const compositorMs = trace.traceEvents
    .filter((event) => event.ph === 'X' && event.name === 'ThreadControllerImpl::RunTask' && compositorThreads.has(`${event.pid}:${event.tid}`))
    .reduce((sum, event) => sum + (event.tdur ?? 0) / 1000, 0)
  console.log(`Display compositor (GPU process, software), CPU ms per throw: ${(compositorMs / THROWS).toFixed(2)}`)
  console.log(`${THROWS} throws over ${seconds.toFixed(1)} s (load average ${loadavg()[0].toFixed(1)})`)
  console.log(`Core per throw: median ${median(coreTimes).toFixed(2)} ms, p99 ${p99(coreTimes).toFixed(2)} ms`)
  console.log('Busy time per browser thread (ms per throw):')
  for (const [thread, ms] of [...busy].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`  ${(ms / THROWS).toFixed(2).padStart(7)}  ${thread}`)
  console.log(`Tasks over 16.7 ms on renderer main threads: ${longTasks.length} (${longTasks.map((ms) => ms.toFixed(0)).join(', ')})`)
  console.log('Costliest kinds of work (total ms per throw, count, longest):')
  for (const [key, entry] of [...byName].sort((a, b) => b[1].total - a[1].total).slice(0, 25)) {
    console.log(`  ${(entry.total / THROWS).toFixed(2).padStart(7)}  ${String(entry.count).padStart(6)}  ${entry.longest.toFixed(1).padStart(6)}  ${key}`)
  }
}

void main().then(
  () => process.exit(0),
  (error: Error) => {
    console.error(error.stack)
    process.exit(1)
  }
)
