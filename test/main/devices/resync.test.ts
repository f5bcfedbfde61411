// How soon the host asks a smart-dice hub for its snapshot after a garbled line, and how much it
// asks and blinks while lines keep going wrong: counted on the host's own commands, on a fake
// clock (vitest's fake timers drive the connection's watch and its clock alike), with a hub that
// answers line by line in this file (no pty: nothing here depends on the machine's speed).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Transport } from '@main/devices/serial-port'
import { encodeEvent, parseCommand, type DeviceMessage, type HostCommand } from '@shared/protocol'
import { offerOf } from '@shared/game'
import { seededRandom } from '@shared/random-play'
import { openTable, type TestTable } from '@test/kit/table'

const DICE = ['A', 'B', 'C', 'D']

/** A hub of four dice on a fake port: its lines go to the host when `deliver`ed, its commands are kept. */
class FakeHub implements Transport {
  readonly commands: { at: number; command: HostCommand }[] = []
  private listener: ((chunk: Uint8Array) => void) | null = null
  private seq = 0
  private throwNo = 0
  private readonly dice = new Map(DICE.map((id) => [id, { throwNo: null as number | null, face: 1 as number | null, rolling: false }]))
  private snapshotsAsked = 0

  write(data: string): void {
    const parsed = parseCommand(data.trimEnd())
    if (!parsed.ok) throw new Error(`the host wrote a bad line: ${data}`)
    this.commands.push({ at: Date.now(), command: parsed.message })
    if (parsed.message.type === 'state-request') this.snapshotsAsked++
    if (parsed.message.type === 'hello-request') this.hello()
  }
  async close(): Promise<void> {}
  onData(listener: (chunk: Uint8Array) => void): void {
    this.listener = listener
  }
  onClose(): void {}

  count(type: HostCommand['type']): number {
    return this.commands.filter((c) => c.command.type === type).length
  }

  hello(): void {
    this.send([
      { type: 'hello', seq: 0, major: 1, minor: 0, firmware: 'fake-hub', firmwareVersion: '1.0', serial: 'HUB1', dice: DICE.length, keypad: false },
      ...DICE.map((die): DeviceMessage => ({ type: 'die', seq: 0, die, sides: 6, colour: null, label: '' }))
    ])
  }

  /** Answers the snapshot requests the host made since the last answer (one snapshot for them all, as a hub would). */
  answerSnapshots(): void {
    if (this.snapshotsAsked === 0) return
    this.snapshotsAsked = 0
    this.send([
      { type: 'state', seq: 0, dice: DICE.length },
      ...[...this.dice].map(([die, d]): DeviceMessage => ({ type: 'dstate', seq: 0, die, status: d.rolling ? 'rolling' : 'settled', throw: d.throwNo, face: d.rolling ? null : d.face, percent: 80, charge: 'discharging' }))
    ])
  }

  /** A throw of these faces; the line of `garbled` (a die's `settled`) fails its checksum on the way. */
  throwDice(faces: Record<string, number>, garbled: string | null = null): void {
    const no = ++this.throwNo
    const lines: DeviceMessage[] = []
    for (const die of Object.keys(faces)) {
      Object.assign(this.dice.get(die)!, { throwNo: no, face: null, rolling: true })
      lines.push({ type: 'rolling', seq: 0, die, throw: no })
    }
    for (const [die, face] of Object.entries(faces)) {
      Object.assign(this.dice.get(die)!, { face, rolling: false })
      lines.push({ type: 'settled', seq: 0, die, throw: no, face })
    }
    this.send(lines, (m) => m.type === 'settled' && m.die === garbled)
  }

  heartbeat(): void {
    this.send([{ type: 'heartbeat', seq: 0, intervalMs: 2000 }])
  }

  private send(messages: DeviceMessage[], garble: (m: DeviceMessage) => boolean = () => false): void {
    let text = ''
    for (const m of messages) {
      const line = encodeEvent({ ...m, seq: m.type === 'hello' ? 0 : this.seq } as DeviceMessage)
      if (m.type === 'hello') this.seq = 1
      else this.seq = (this.seq + 1) % 65536
      text += garble(m) ? line.replace(/\*([0-9A-F]{4})/, (_, sum: string) => `*${sum === '0000' ? '0001' : '0000'}`) : line
    }
    this.listener!(Buffer.from(text, 'latin1'))
  }
}

let session: TestTable
let hub: FakeHub

beforeEach(async () => {
  vi.useFakeTimers({ now: 1_700_000_000_000 })
  hub = new FakeHub()
  session = openTable({ devices: { listPorts: async () => [], openPort: async () => hub, helloRetryMs: 2000, blinkSeconds: 5 } })
  session.table.devices.start()
  expect(await session.table.devices.connect('/dev/fake')).toEqual({ ok: true })
  hub.hello()
  hub.answerSnapshots()
  expect(session.table.devices.view().devices[0]).toMatchObject({ state: 'connected' })
})

afterEach(async () => {
  await session.stop()
  vi.useRealTimers()
})

const moves = (): number => session.currentGame?.moves.length ?? 0

describe('a garbled line of a throw', () => {
  it('asks for the hub’s snapshot at once, every time, and the throw counts', () => {
    const waits: number[] = []
    for (let i = 0; i < 12; i++) {
      // People throw a few seconds apart; the hub's heartbeats keep coming meanwhile.
      for (let s = 0; s < 3; s++) {
        vi.advanceTimersByTime(1000)
        hub.heartbeat()
      }
      if (!session.currentGame || offerOf(session.currentGame).finished) expect(session.newGame({ game: 'four-plus', players: ['Ann', 'Bob'] })).toEqual({ ok: true })
      const before = moves()
      const asked = hub.count('state-request')
      const garbledAt = Date.now()
      hub.throwDice({ A: 2, B: 3, C: 5, D: 6 }, DICE[i % 4])
      // Asked while the clock still reads the time of the garbled line: no wait at all.
      const request = hub.commands.filter((c) => c.command.type === 'state-request')[asked]
      waits.push(request ? request.at - garbledAt : Infinity)
      hub.answerSnapshots()
      expect(moves(), `throw ${i + 1}`).toBe(before + 1)
    }
    process.stdout.write(`snapshot asked after a garbled line, 12 throws 3 s apart: ${waits.join(', ')} ms after it (fake clock)\n`)
    expect(waits).toEqual(Array.from({ length: 12 }, () => 0))
  })

  it('a stream of garbled lines makes no loop: the requests back off to one every 8 s', () => {
    const asked = hub.count('state-request')
    // 60 s of a line in two garbled, every 50 ms, with the hub's own lines between.
    for (let t = 0; t < 60_000; t += 50) {
      hub.throwDice({ A: 1 + (t % 6) }, t % 100 === 0 ? 'A' : null)
      hub.answerSnapshots()
      vi.advanceTimersByTime(50)
    }
    const requests = hub.count('state-request') - asked
    process.stdout.write(`snapshot requests in 60 s of garbled lines every 100 ms: ${requests}\n`)
    // 250 ms doubling up to 8 s: 0, 0.25, 0.75, 1.75, 3.75, 7.75, 15.75 s... then one every 8 s.
    expect(requests).toBeGreaterThan(0)
    expect(requests).toBeLessThanOrEqual(14)
    // Calm again: the next garbled line is a new incident, asked at once.
    hub.answerSnapshots()
    vi.advanceTimersByTime(1500)
    hub.answerSnapshots()
    const before = hub.count('state-request')
    hub.throwDice({ B: 4 }, 'B')
    expect(hub.count('state-request')).toBe(before + 1)
  })
})

describe('blinks', () => {
  it('a die is asked to blink once per blink’s length at most, however fast the dice due change', () => {
    const random = seededRandom(5)
    let counted = 0
    session.table.game.subscribe((event) => {
      if (event.type === 'moved' && event.source.kind === 'smart-dice') counted++
    })
    session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    // 25 s of a speed storm: the dice due thrown every 100 ms, each decision taken at once.
    for (let t = 0; t < 25_000; t += 100) {
      if (offerOf(session.currentGame!).finished) session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
      const offer = offerOf(session.currentGame!)
      if (offer.diceDue > 0) {
        const named = session.snapshot().smartDice?.dice.filter((die) => die.role === 'throw').map((die) => die.die) ?? []
        const due = named.length === offer.diceDue ? named : DICE.slice(0, offer.diceDue)
        hub.throwDice(Object.fromEntries(due.map((die) => [die, 1 + Math.floor(random() * 6)])))
      } else session.submit(offer.decisions[Math.floor(random() * offer.decisions.length)].move)
      vi.advanceTimersByTime(100)
    }
    const blinks = hub.count('blink')
    process.stdout.write(`blink lines in 25 s of a speed storm: ${blinks} (${counted} throws of the smart dice counted)\n`)
    expect(counted).toBeGreaterThan(50)
    // Four dice, each lit for 5 s, at most once per 5 s: 4 × 5 in 25 s.
    expect(blinks).toBeGreaterThan(0)
    expect(blinks).toBeLessThanOrEqual(4 * 5)
  })

  it('dice newly due that are not lit are lit at once', () => {
    session.newGame({ game: 'foursies', players: ['Ann', 'Bob', 'Cy'] })
    hub.throwDice({ A: 4, B: 2, C: 6, D: 3 })
    expect(moves()).toBe(1)
    const before = hub.count('blink')
    expect(session.submit({ reroll: [2, 6] })).toEqual({ ok: true })
    const lit = hub.commands.slice(-2).map((c) => (c.command.type === 'blink' ? c.command.die : null))
    expect(hub.count('blink')).toBe(before + 2)
    expect(lit.sort()).toEqual(['B', 'C'])
  })
})
