// One open serial port speaking the Dice Referee protocol (firmware-protocol/PROTOCOL.md §7):
// ignores everything until a valid hello (asking `hello?` every 2 s), refuses an unknown major
// version, collects the die lines, asks `state?`, drops and counts bad lines, ignores duplicate
// sequence numbers, puts reordered lines back in order and tells a lost line from noise that passed
// the checksum (SequenceOrderer), asks `state?` after a gap or a line that failed its checksum (at
// once for a new incident, with a back-off while reasons keep coming: never in a loop), and
// marks the device stale when its heartbeat is late. A hello is only taken from the device already
// connected when it fits: its own serial number, and either a restart (sequence 0), the next number,
// or the answer to a `hello?`.
import { LineAssembler, parseLine, SequenceOrderer, encodeCommand, seqDistance } from '@shared/protocol'
import type { DeviceMessage, DieMessage, HelloMessage, HostCommand } from '@shared/protocol'
import { DROP_REASONS, type DropReason, type RawLineView } from '@shared/devices'
import type { Transport } from './serial-port'

export type ConnectionState = 'connecting' | 'connected' | 'stale' | 'refused' | 'closed'

export interface HelloContext {
  /** The last sequence number before the hello (null on a new connection): a restart can be told from the answer to `hello?`. */
  previousSeq: number | null
  /** The connection was not in touch before the hello (new, or stale): the device is back. */
  wasOutOfTouch: boolean
}

export interface ConnectionEvents {
  /** A hello and its die lines, and what the connection knew just before it. */
  hello(hello: HelloMessage, dice: DieMessage[], before: HelloContext): void
  /** Every other message, in order, once per sequence number. */
  message(message: DeviceMessage): void
  /** Something shown changed (state, counters, raw lines). */
  changed(): void
  /** The port closed; `error` when nobody asked it to (unplugged). */
  closed(error: Error | null): void
  /** The device will not be used (firmware too new). */
  refused(reason: string): void
}

export interface ConnectionTiming {
  /** Wait this long for a hello before asking `hello?` (and between asks). Default 2000. */
  helloRetryMs?: number
  /** Heartbeat interval assumed before the device announces one. Default 2000. */
  defaultHeartbeatMs?: number
  now?: () => number
}

const RAW_KEPT = 50
/**
 * What a line before the first hello of this connection is: no drop. A port opened while the hub
 * was already talking starts in the middle of a line (or of a throw), and a board booting prints
 * noise: expected on every fresh connection, so never counted as dropped, only listed raw.
 */
const BEFORE_HELLO = 'ignored: before the hello'
/** Snapshot requests: the first at once, then at least this long apart, doubling up to the limit. */
const SNAPSHOT_MIN_MS = 250
const SNAPSHOT_MAX_MS = 8000
/**
 * A reason to ask this long after the one before is a new incident (a bad line in a throw now and
 * then, people throw a second or more apart): asked at once, the back-off starting again. Reasons
 * that keep coming closer than this (a stream of noise) keep backing off.
 */
const SNAPSHOT_CALM_MS = 1000

/** A line as people can read it: non-printable bytes as `\xNN`, at most 120 characters. */
export function printable(line: string): string {
  let out = ''
  for (let i = 0; i < line.length && out.length < 120; i++) {
    const c = line.charCodeAt(i)
    out += c >= 0x20 && c <= 0x7e ? line[i] : `\\x${c.toString(16).padStart(2, '0')}`
  }
  return out.length >= 120 ? out.slice(0, 119) + '…' : out
}

export class DeviceConnection {
  state: ConnectionState = 'connecting'
  reason: string | null = null
  hello: HelloMessage | null = null
  readonly dropped = Object.fromEntries(DROP_REASONS.map((r) => [r, 0])) as Record<DropReason, number>
  received = 0
  lost = 0
  lastLineAt: number | null = null
  readonly raw: RawLineView[] = []

  private readonly framer = new LineAssembler()
  private readonly order = new SequenceOrderer<{ m: DeviceMessage; line: string }>()
  private snapshotAt = -Infinity
  /** Snapshot requests sent since the incident began (the back-off's step). */
  private snapshotsThisIncident = 0
  private snapshotPending = false
  /** When the last reason to ask for a snapshot came. */
  private snapshotReasonAt = -Infinity
  /** Snapshot requests sent on this connection. */
  snapshotRequests = 0
  private pendingDice: DieMessage[] = []
  private expectedDice = 0
  private collecting = false
  /** What the connection knew before the hello being collected. */
  private beforeHello: HelloContext = { previousSeq: null, wasOutOfTouch: true }
  /** No hello since the connection opened or went stale (any line ends "stale", so it is kept apart). */
  private outOfTouch = true
  private heartbeatMs: number
  private lastRx: number
  private lastAsk: number
  private timer: NodeJS.Timeout | null = null
  private readonly helloRetryMs: number
  private readonly now: () => number

  constructor(
    readonly path: string,
    private readonly transport: Transport,
    private readonly events: ConnectionEvents,
    timing: ConnectionTiming = {}
  ) {
    this.now = timing.now ?? Date.now
    this.helloRetryMs = timing.helloRetryMs ?? 2000
    this.heartbeatMs = timing.defaultHeartbeatMs ?? 2000
    this.lastRx = this.now()
    this.lastAsk = this.now()
    transport.onData((chunk) => this.receive(chunk))
    transport.onClose((error) => this.onClosed(error))
    const tick = Math.max(20, Math.min(250, Math.floor(this.helloRetryMs / 4)))
    this.timer = setInterval(() => this.watch(), tick)
    this.timer.unref?.()
  }

  /** The latest sequence number used (null before a hello). */
  get lastSeq(): number | null {
    return this.order.last
  }

  /**
   * Asks the device for a full snapshot (`state?`) for a reason (a line lost, a line that failed its
   * checksum, a throw in doubt): at once when it is a new incident, or none was asked lately;
   * while reasons keep coming, each wait twice the one before up to 8 s, so a stream of bad lines
   * never makes a loop.
   */
  requestSnapshot(): void {
    const now = this.now()
    if (now - this.snapshotReasonAt >= SNAPSHOT_CALM_MS) this.snapshotsThisIncident = 0
    this.snapshotReasonAt = now
    this.askForSnapshot()
  }

  /** How long after the last snapshot request the next may go: none in a new incident, then 250 ms doubling up to 8 s. */
  private get snapshotGap(): number {
    return this.snapshotsThisIncident === 0 ? 0 : Math.min(SNAPSHOT_MIN_MS * 2 ** (this.snapshotsThisIncident - 1), SNAPSHOT_MAX_MS)
  }

  private askForSnapshot(): void {
    const now = this.now()
    if (now - this.snapshotAt < this.snapshotGap) {
      this.snapshotPending = true
      return
    }
    this.snapshotsThisIncident++
    this.snapshotAt = now
    this.snapshotPending = false
    this.snapshotRequests++
    this.send({ type: 'state-request' })
  }

  send(command: HostCommand): void {
    if (this.state === 'closed') return
    const line = encodeCommand(command)
    this.transport.write(line)
    this.log('out', line.trimEnd(), 'sent')
  }

  async close(): Promise<void> {
    this.stopTimer()
    if (this.state === 'closed') return
    await this.transport.close()
  }

  /** Feeds bytes as they came from the port (public for tests). */
  receive(chunk: Uint8Array): void {
    const before = this.framer.stats.overlong
    const lines = this.framer.push(chunk)
    const overlong = this.framer.stats.overlong - before
    if (overlong > 0) {
      if (this.hello) this.count('too-long', overlong)
      this.log('in', `(${overlong} line${overlong > 1 ? 's' : ''} longer than 96 bytes)`, this.hello ? 'too-long' : BEFORE_HELLO)
    }
    for (const line of lines) this.line(line)
    if (lines.length > 0 || overlong > 0) this.events.changed()
  }

  private line(line: string): void {
    if (this.state === 'refused' || this.state === 'closed') return
    const parsed = parseLine(line)
    if (!parsed.ok) {
      if (parsed.code === 'empty') return
      if (parsed.code === 'unknown-major') {
        this.log('in', line, parsed.code)
        this.count('unknown-major')
        this.refuse(`Firmware too new: it speaks protocol ${line.split(' ')[2] ?? '?'}, this app speaks 1.x. Update Dice Referee.`)
        return
      }
      if (!this.hello) return this.log('in', line, `${BEFORE_HELLO} (${parsed.code})`)
      this.count(parsed.code)
      this.log('in', line, parsed.code)
      // A line of the hub's that the cable garbled: whatever it said is in the hub's snapshot.
      if (parsed.code === 'bad-checksum') this.requestSnapshot()
      return
    }
    const m = parsed.message
    if (m.type === 'hello') {
      const why = this.helloRefusal(m)
      if (why !== null) {
        this.count('out-of-sequence')
        this.log('in', line, `out-of-sequence (${why})`)
        return
      }
      this.log('in', line, 'ok')
      this.acceptHello(m)
      return
    }
    if (!this.hello) return this.log('in', line, BEFORE_HELLO)
    const verdict = this.order.accept(m.seq, { m, line })
    if (verdict.outOfSequence > 0) this.count('out-of-sequence', verdict.outOfSequence)
    if (verdict.duplicate) {
      this.count('duplicate')
      this.log('in', line, 'duplicate')
      return
    }
    if (verdict.behind) {
      this.count('behind')
      this.log('in', line, 'behind')
      if (this.now() - this.lastAsk >= this.helloRetryMs) this.ask('hello-request')
      return
    }
    if (verdict.held) {
      // A line was lost, or this is noise: the snapshot's answer (or the next line) tells which.
      this.log('in', line, 'held (ahead of the sequence)')
      this.requestSnapshot()
      return
    }
    if (verdict.lost > 0) {
      this.lost += verdict.lost
      this.requestSnapshot()
    }
    for (const ready of verdict.ready) {
      if (ready.line === line) this.log('in', line, verdict.lost > 0 ? `ok (${verdict.lost} lost)` : 'ok')
      this.use(ready.m)
    }
  }

  /** Why a hello cannot be from the device already connected (null: take it). */
  private helloRefusal(m: HelloMessage): string | null {
    if (!this.hello) return null
    if (m.serial !== this.hello.serial) return `another serial number than ${this.hello.serial}`
    if (m.seq === 0) return null // a restart
    const last = this.order.last
    if (last === null || seqDistance(last, m.seq) === 1) return null
    if (this.now() - this.lastAsk < 2 * Math.max(this.helloRetryMs, this.heartbeatMs)) return null // the answer to hello?
    return 'not the next number'
  }

  private use(m: DeviceMessage): void {
    this.alive()
    if (m.type === 'heartbeat') this.heartbeatMs = m.intervalMs
    if (m.type === 'state') this.snapshotPending = false
    if (this.collecting) {
      if (m.type === 'die') {
        this.pendingDice.push(m)
        if (this.pendingDice.length >= this.expectedDice) this.finishHello()
        return
      }
      this.finishHello()
    }
    this.events.message(m)
  }

  private acceptHello(m: HelloMessage): void {
    // A second hello while the first one's dice are collected keeps the first one's context.
    if (!this.collecting) this.beforeHello = { previousSeq: this.order.last, wasOutOfTouch: this.outOfTouch }
    const dropped = this.order.reset(m.seq)
    if (dropped > 0) this.count('out-of-sequence', dropped)
    this.alive()
    this.hello = m
    this.pendingDice = []
    this.expectedDice = m.dice
    this.collecting = true
    if (m.dice === 0) this.finishHello()
  }

  private finishHello(): void {
    this.collecting = false
    if (this.state === 'connecting' || this.state === 'stale') this.state = 'connected'
    this.reason = null
    this.outOfTouch = false
    this.events.hello(this.hello!, this.pendingDice, this.beforeHello)
    this.pendingDice = []
    this.requestSnapshot()
  }

  private alive(): void {
    this.received++
    this.lastRx = this.now()
    this.lastLineAt = this.lastRx
    if (this.state === 'stale' && this.hello) {
      // Back: `hello?` was sent while stale, its answer asks for a snapshot.
      this.state = 'connected'
      this.reason = null
    }
  }

  private watch(): void {
    const now = this.now()
    if (this.snapshotPending && this.state !== 'closed' && this.state !== 'refused' && now - this.snapshotAt >= this.snapshotGap) this.askForSnapshot()
    if (this.state === 'connecting') {
      if (now - this.lastAsk >= this.helloRetryMs) this.ask('hello-request')
      return
    }
    if (this.state === 'connected' && now - this.lastRx > 3 * this.heartbeatMs) {
      this.state = 'stale'
      this.outOfTouch = true
      this.reason = `No heartbeat for ${((now - this.lastRx) / 1000).toFixed(1)} s: is the hub powered and its cable in?`
      this.ask('hello-request')
      this.events.changed()
      return
    }
    if (this.state === 'stale' && now - this.lastAsk >= Math.max(this.heartbeatMs, this.helloRetryMs)) {
      this.reason = `No answer for ${((now - this.lastRx) / 1000).toFixed(0)} s: is the hub powered and its cable in?`
      this.ask('hello-request')
      this.events.changed()
    }
  }

  private ask(type: 'hello-request'): void {
    this.lastAsk = this.now()
    this.send({ type })
  }

  private refuse(reason: string): void {
    this.state = 'refused'
    this.reason = reason
    this.stopTimer()
    this.events.refused(reason)
  }

  private onClosed(error: Error | null): void {
    this.stopTimer()
    if (this.state === 'closed') return
    const wasRefused = this.state === 'refused'
    this.state = wasRefused ? 'refused' : 'closed'
    this.events.closed(error)
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  /** Counts a dropped line (public: the devices drop lines about unknown dice, keys without a keypad). */
  count(reason: DropReason, n = 1): void {
    this.dropped[reason] += n
  }

  private log(dir: 'in' | 'out', text: string, verdict: string): void {
    if (this.raw.length >= RAW_KEPT) this.raw.shift()
    this.raw.push({ at: this.now(), dir, text: printable(text), verdict })
  }
}
