// `npx tsx bench/devices.ts`: figures for the smart-dice path over a real pty (socat + the simulated
// hub), not a test. 0) framing and parsing alone, in lines per second; 1) last die settled -> state pushed (the session's subscribe callback, the throw
// in the game), median and p99 over 1,000+ throws, split into the pty hop (the hub's write to the
// host's read) and the host (bytes read to state pushed); 2) sustained lines per second with
// nothing lost; 3) a throw one of whose lines fails its checksum on the way, recovered from the
// hub's snapshot: the garbled line written -> the throw pushed. The bench waits for each push by the session's callback, never by polling: a
// polling loop takes a core from socat and the kernel's pty work on a 2-core machine and was most
// of the p99 it measured (9.4 ms with polling, 2.4-3.5 ms without, same code).
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { timeDisk } from './disk-time'
import { openSerialPort } from '@main/devices/serial-port'
import { openTable } from '@test/kit/table'
import { SimulatedHub } from '@scripts/simulated-hub'
import { DROP_REASONS } from '@shared/devices'
import { encodeEvent, LineAssembler, parseLine, type DeviceMessage } from '@shared/protocol'
import { seededRandom } from '@shared/random-play'
import { randomMessage } from '@test/shared/protocol/random'

const THROWS = Number(process.env.THROWS ?? 1000)
/** Time between one throw's push and the next throw (people throw seconds apart). */
const PACE_MS = 20
const LINES = Number(process.env.LINES ?? 200_000)
/** Throws with a garbled line, and how far apart (people throw a second or more apart). */
const GARBLED_THROWS = Number(process.env.GARBLED_THROWS ?? 20)
const GARBLED_PACE_MS = 1500

async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setImmediate(resolve))
  }
}

const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]

/** 0) The protocol alone, in this process: lines framed and parsed per second (the device manager needs 10,000). */
function benchParser(): void {
  const random = seededRandom(3)
  const text = Array.from({ length: 2000 }, () => encodeEvent(randomMessage(random))).join('')
  const chunk = Uint8Array.from(text, (c) => c.charCodeAt(0))
  const assembler = new LineAssembler()
  let parsed = 0
  const t0 = performance.now()
  for (let rep = 0; rep < 50; rep++) for (const line of assembler.push(chunk)) if (parseLine(line).ok) parsed++
  const seconds = (performance.now() - t0) / 1000
  process.stdout.write(
    `framing and parsing alone: ${parsed.toLocaleString('en')} lines in ${(seconds * 1000).toFixed(0)} ms = ` +
      `${Math.round(parsed / seconds).toLocaleString('en')} lines/s (the device manager needs 10,000)\n`
  )
}

export async function benchDevices(): Promise<void> {
  benchParser()
  const dir = mkdtempSync(join(tmpdir(), 'dice-bench-'))
  const writeTimes: number[] = []
  const flushTimes: number[] = []
  const hub = new SimulatedHub({ link: join(dir, 'tty'), heartbeatMs: 2000, speed: 0.001 })
  await hub.start()
  // When the host's port last gave bytes: the end of the pty hop, the start of the host's part.
  let lastReadAt = 0
  const session = openTable({
    dataDir: join(dir, 'data'),
    devices: {
      listPorts: async () => [],
      helloRetryMs: 100,
      openPort: async (path) => {
        const transport = await openSerialPort(path)
        const onData = transport.onData.bind(transport)
        transport.onData = (listener) =>
          onData((chunk) => {
            lastReadAt = performance.now()
            listener(chunk)
          })
        return transport
      }
    }
  })
  const manager = session.table.devices
  // The disk's share of each throw: its line written before the state is pushed, flushed after.
  const diskTime = timeDisk(session.journal)
  manager.start()
  try {
    await manager.connect(hub.path)
    await waitFor(() => manager.view().devices[0]?.state === 'connected' && manager.view().devices[0].dice.length === 4, 5000, 'the hub')

    // 1) latency. Two players, throws that end the turn at once (no points, nothing to re-roll),
    // so four dice are always due.
    session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    let lastSettledAt = 0
    const emit = hub.emit.bind(hub)
    hub.emit = (m: DeviceMessage): string => {
      const line = emit(m)
      if (m.type === 'settled') lastSettledAt = performance.now()
      return line
    }
    const latencies: number[] = []
    const hops: number[] = []
    const hostParts: number[] = []
    let seen = 0
    let pushed: (() => void) | null = null
    session.subscribe(() => {
      const n = session.currentGame?.moves.length ?? 0
      if (n > seen) {
        seen = n
        const now = performance.now()
        latencies.push(now - lastSettledAt)
        hops.push(lastReadAt - lastSettledAt)
        hostParts.push(now - lastReadAt)
        writeTimes.push(diskTime.write)
        diskTime.reset()
        pushed?.()
      }
    })
    const patterns = [
      { A: 6, B: 5, C: 6, D: 3 },
      { A: 3, B: 6, C: 5, D: 6 },
      { A: 5, B: 6, C: 3, D: 6 }
    ]
    const started = performance.now()
    for (let i = 0; i < THROWS; i++) {
      const before = seen
      const counted = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`throw ${i + 1} was not pushed within 3 s`)), 3000)
        pushed = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      await hub.throw(patterns[i % patterns.length], { settleMs: [0, 1, 2, 3] })
      if (seen === before) await counted
      pushed = null
      flushTimes.push(diskTime.flush)
      diskTime.reset()
      await new Promise((resolve) => setTimeout(resolve, PACE_MS))
    }
    const elapsed = performance.now() - started
    const sorted = [...latencies].sort((a, b) => a - b)
    const written = [...writeTimes].sort((a, b) => a - b)
    const flushed = [...flushTimes].sort((a, b) => a - b)
    const hop = [...hops].sort((a, b) => a - b)
    const hostPart = [...hostParts].sort((a, b) => a - b)
    const rolls = session.currentGame!.moves.filter((m) => 'roll' in m.move).length
    process.stdout.write(
      `last die settled -> state pushed, ${THROWS} throws over a pty, ${PACE_MS} ms apart: median ${quantile(sorted, 0.5).toFixed(2)} ms, ` +
        `p99 ${quantile(sorted, 0.99).toFixed(2)} ms, max ${sorted[sorted.length - 1].toFixed(2)} ms ` +
        `(${rolls} throws in the record, ${(elapsed / THROWS).toFixed(1)} ms per throw end to end; load average ${loadavg()[0].toFixed(1)})\n` +
        `  the pty hop (hub's write to host's read, socat between): median ${quantile(hop, 0.5).toFixed(2)} ms, p99 ${quantile(hop, 0.99).toFixed(2)} ms\n` +
        `  the host (bytes read to state pushed): median ${quantile(hostPart, 0.5).toFixed(2)} ms, p99 ${quantile(hostPart, 0.99).toFixed(2)} ms\n` +
        `  of which the line's write: median ${quantile(written, 0.5).toFixed(2)} ms, p99 ${quantile(written, 0.99).toFixed(2)} ms; ` +
        `its flush to the disk (fsync, after the push): median ${quantile(flushed, 0.5).toFixed(2)} ms, p99 ${quantile(flushed, 0.99).toFixed(2)} ms\n`
    )

    // 2) sustained lines per second: battery and heartbeat lines, numbered, in big writes.
    const device = (): ReturnType<typeof manager.view>['devices'][number] => manager.view().devices[0]
    const receivedBefore = device().received
    const lostBefore = device().lost
    const droppedOf = (): number => DROP_REASONS.reduce((sum, r) => sum + device().dropped[r], 0)
    const droppedBefore = droppedOf()
    const t0 = performance.now()
    const batch = 5000
    for (let sent = 0; sent < LINES; sent += batch) {
      const messages: DeviceMessage[] = []
      for (let i = 0; i < batch; i++) {
        const k = sent + i
        messages.push(
          k % 10 === 0
            ? { type: 'heartbeat', seq: 0, intervalMs: 2000 }
            : { type: 'battery', seq: 0, die: 'ABCD'[k % 4], percent: 50 + (k % 50), charge: 'discharging' }
        )
      }
      await hub.emitMany(messages)
    }
    await waitFor(() => device().received - receivedBefore >= LINES, 60000, 'every line')
    const seconds = (performance.now() - t0) / 1000
    process.stdout.write(
      `sustained: ${LINES} lines in ${seconds.toFixed(2)} s = ${Math.round(LINES / seconds).toLocaleString('en')} lines/s, ` +
        `lost ${device().lost - lostBefore}, dropped ${droppedOf() - droppedBefore}\n`
    )

    // 3) a garbled line in a throw: one die's `settled` line fails its checksum (a cable's noise).
    // The game of 1) goes on: its throws end the turn at once, so four dice are always due.
    const connection = (): { snapshotRequests: number } =>
      (manager as unknown as { registry: { devices: { conn: { snapshotRequests: number } }[] } }).registry.devices[0].conn
    const requestsBefore = connection().snapshotRequests
    const recoveries: number[] = []
    let garbledAt = 0
    let garbleDie: string | null = null
    let throwPushed: (() => void) | null = null
    const unsubscribe = session.table.game.subscribe((event) => {
      if (event.type === 'moved' && event.source.kind === 'smart-dice') throwPushed?.()
    })
    const emitClean = hub.emit
    hub.emit = (m: DeviceMessage): string => {
      if (m.type !== 'settled' || m.die !== garbleDie) return emitClean(m)
      garbleDie = null
      const line = encodeEvent({ ...m, seq: hub.reserveSeq(1) })
      garbledAt = performance.now()
      void hub.sendRaw(line.replace(/\*([0-9A-F]{4})/, (_, sum: string) => `*${sum === '0000' ? '0001' : '0000'}`))
      return line
    }
    for (let i = 0; i < GARBLED_THROWS; i++) {
      await new Promise((resolve) => setTimeout(resolve, GARBLED_PACE_MS))
      const counted = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`garbled throw ${i + 1} was not pushed within 20 s`)), 20_000)
        throwPushed = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      garbleDie = 'ABCD'[i % 4]
      await hub.throw(patterns[i % patterns.length], { settleMs: [0, 1, 2, 3] })
      await counted
      throwPushed = null
      recoveries.push(performance.now() - garbledAt)
    }
    unsubscribe()
    hub.emit = emitClean
    const recovered = [...recoveries].sort((a, b) => a - b)
    process.stdout.write(
      `a throw with a garbled line (bad checksum), recovered from the hub's snapshot, ${GARBLED_THROWS} throws ${GARBLED_PACE_MS} ms apart: ` +
        `garbled line -> throw pushed median ${quantile(recovered, 0.5).toFixed(1)} ms, max ${recovered[recovered.length - 1].toFixed(1)} ms; ` +
        `${connection().snapshotRequests - requestsBefore} snapshot requests\n`
    )
  } finally {
    await manager.stop()
    await hub.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (require.main === module) {
  benchDevices().then(
    () => process.exit(0),
    (error: Error) => {
      process.stderr.write(`${error.stack}\n`)
      process.exit(1)
    }
  )
}
