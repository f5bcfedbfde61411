// A simulated smart-dice hub on a real pseudo-terminal: `socat` makes two linked ptys, the app opens
// `link`, the hub speaks the protocol (firmware-protocol/PROTOCOL.md) on `link.hub`. Used by
// scripts/dice-sim.ts, the device tests and the device bench.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, lstatSync, unlinkSync } from 'node:fs'
import { SerialPort } from 'serialport'
import { encodeEvent, LineAssembler, parseCommand, withChecksum } from '@shared/protocol'
import type { Charge, DeviceMessage, HostCommand } from '@shared/protocol'

export interface SimDie {
  id: string
  sides?: number
  colour?: string | null
  label?: string
  battery?: number
}

export interface SimulatedHubOptions {
  /** Path the app opens (a symlink to a pty); the hub's own end is `${link}.hub`. */
  link: string
  serial?: string
  firmware?: string
  firmwareVersion?: string
  dice?: SimDie[]
  keypad?: boolean
  /** Heartbeat interval in ms; 0 sends none. Default 2000. */
  heartbeatMs?: number
  /** Multiplies every delay (settle times, the 500 ms throw window): 0.1 runs ten times faster. */
  speed?: number
  /** Print some garbage before the first hello, like a board that resets when the port opens. */
  bootNoise?: boolean
  /** Write every byte on its own (a slow link). */
  byteByByte?: boolean
  /** Random source in [0, 1); Math.random by default. */
  random?: () => number
  /** Told every line each way and what the hub does. */
  log?: (text: string) => void
  socatPath?: string
}

export type Outcome = number | 'cocked'

interface DieState {
  spec: Required<SimDie>
  status: 'rolling' | 'settled' | 'cocked' | 'offline'
  throwNo: number | null
  face: number | null
  percent: number
  charge: Charge
  cockNext: boolean
  settleTimer: NodeJS.Timeout | null
}

export const DEFAULT_DICE: SimDie[] = [
  { id: 'A', colour: 'red', label: 'Red' },
  { id: 'B', colour: 'blue', label: 'Blue' },
  { id: 'C', colour: 'white', label: 'Ivory' },
  { id: 'D', colour: 'green', label: 'Green' }
]

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

export class SimulatedHub {
  readonly serial: string
  private link: string
  private readonly opts: SimulatedHubOptions
  private readonly dice = new Map<string, DieState>()
  private readonly random: () => number
  private readonly speed: number
  private socat: ChildProcess | null = null
  private port: SerialPort | null = null
  private readonly rx = new LineAssembler()
  private seq = 0
  private throwCounter = -1
  private openThrow: { no: number; openedAt: number } | null = null
  private heartbeatTimer: NodeJS.Timeout | null = null
  private randomTimer: NodeJS.Timeout | null = null
  private randomOn = false
  private chain: Promise<void> = Promise.resolve()
  private lastLine = ''
  private stopped = false
  private readonly exitHook = (): void => void this.killSocat()
  /** A hung firmware: sends nothing (not even heartbeats) and answers nothing. */
  paused = false
  /** Lines written to the port (lines lost while unplugged are not counted). */
  linesWritten = 0
  /** Host commands received, oldest first. */
  readonly commands: HostCommand[] = []

  constructor(options: SimulatedHubOptions) {
    this.opts = options
    this.link = options.link
    this.serial = options.serial ?? 'DRH-SIM001'
    this.random = options.random ?? Math.random
    this.speed = options.speed ?? 1
    for (const d of options.dice ?? DEFAULT_DICE) {
      this.dice.set(d.id, {
        spec: { id: d.id, sides: d.sides ?? 6, colour: d.colour ?? null, label: d.label ?? '', battery: d.battery ?? 90 },
        status: 'settled',
        throwNo: null,
        face: 1 + Math.floor(this.random() * (d.sides ?? 6)),
        percent: d.battery ?? 90,
        charge: 'discharging',
        cockNext: false,
        settleTimer: null
      })
    }
  }

  /** The path the app opens now (changes with `plug(newLink)`). */
  get path(): string {
    return this.link
  }

  get plugged(): boolean {
    return this.port !== null
  }

  get nextSeq(): number {
    return this.seq
  }

  /** Faces up now, by die id (null: cocked, rolling or unknown). */
  faces(): Record<string, number | null> {
    return Object.fromEntries([...this.dice.values()].map((d) => [d.spec.id, d.status === 'settled' ? d.face : null]))
  }

  async start(): Promise<void> {
    process.once('exit', this.exitHook)
    await this.plug()
    if (this.opts.bootNoise) await this.sendRaw(Buffer.from([0x00, 0xff, 0x1b, 0x5b, 0x32, 0x4a, 0x0d, 0x0a, 0x62, 0x6f, 0x6f, 0x74, 0xfe, 0x0a]))
    this.sendHello()
    const hb = this.opts.heartbeatMs ?? 2000
    if (hb > 0) this.heartbeatTimer = setInterval(() => this.emit({ type: 'heartbeat', seq: 0, intervalMs: hb }), hb)
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer)
    if (this.randomTimer) clearTimeout(this.randomTimer)
    for (const d of this.dice.values()) if (d.settleTimer) clearTimeout(d.settleTimer)
    await this.unplug()
    process.removeListener('exit', this.exitHook)
  }

  /** Pulls the cable: the pty goes away. The hub keeps running; what it sends meanwhile is lost. */
  async unplug(): Promise<void> {
    const port = this.port
    this.port = null
    if (port) await new Promise<void>((resolve) => (port.isOpen ? port.close(() => resolve()) : resolve()))
    await this.killSocat(true)
    this.rx.reset()
    this.say(`unplugged ${this.link}`)
  }

  /** Plugs the cable back in, on the same path or a new one. */
  async plug(link: string = this.link): Promise<void> {
    if (this.port) return
    this.link = link
    await this.startSocat()
    const port = new SerialPort({ path: `${link}.hub`, baudRate: 115200, autoOpen: false })
    await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())))
    port.on('data', (chunk: Buffer) => this.receive(chunk))
    port.on('error', (error) => this.say(`hub port error: ${error.message}`))
    port.on('close', () => {
      if (this.port === port) this.port = null
    })
    this.port = port
    this.say(`plugged in: the app opens ${link}`)
  }

  /** Reboots: sequence numbers and throw numbers start again, then a hello. */
  reboot(): void {
    this.seq = 0
    this.throwCounter = -1
    this.openThrow = null
    for (const d of this.dice.values()) {
      if (d.settleTimer) clearTimeout(d.settleTimer)
      d.settleTimer = null
      d.throwNo = null
      if (d.status === 'rolling') d.status = 'cocked'
    }
    this.sendHello()
  }

  /**
   * Throws dice: `{ A: 4, B: 'cocked' }`. Dice settle a few hundred ms apart (scaled by `speed`).
   * Resolves when the last die has come to rest.
   */
  throw(outcomes: Record<string, Outcome>, options: { settleMs?: number[] } = {}): Promise<void> {
    const ids = Object.keys(outcomes)
    for (const id of ids) if (!this.dice.has(id)) throw new Error(`no die ${id}`)
    const now = Date.now()
    if (!this.openThrow || (!this.anyRolling() && now - this.openThrow.openedAt >= 500 * this.speed)) {
      this.throwCounter = (this.throwCounter + 1) % 65536
      this.openThrow = { no: this.throwCounter, openedAt: now }
    }
    const no = this.openThrow.no
    const order = [...ids].sort(() => this.random() - 0.5)
    const first = 600 + this.random() * 400
    let at = first
    const delays = new Map<string, number>()
    order.forEach((id, i) => {
      if (i > 0) at += 120 + this.random() * 280
      delays.set(id, options.settleMs?.[ids.indexOf(id)] ?? at * this.speed)
    })
    const settledAll = ids.map(
      (id) =>
        new Promise<void>((resolve) => {
          const d = this.dice.get(id)!
          if (d.settleTimer) clearTimeout(d.settleTimer)
          d.status = 'rolling'
          d.throwNo = no
          d.face = null
          this.emit({ type: 'rolling', seq: 0, die: id, throw: no })
          d.settleTimer = setTimeout(() => {
            d.settleTimer = null
            this.settle(d, outcomes[id], no)
            resolve()
          }, delays.get(id))
        })
    )
    return Promise.all(settledAll).then(() => undefined)
  }

  /** A random throw of these dice (all by default). */
  throwRandom(ids: string[] = [...this.dice.keys()], cockedChance = 0): Promise<void> {
    const outcomes: Record<string, Outcome> = {}
    for (const id of ids) {
      const sides = this.dice.get(id)?.spec.sides ?? 6
      outcomes[id] = this.random() < cockedChance ? 'cocked' : 1 + Math.floor(this.random() * sides)
    }
    return this.throw(outcomes)
  }

  /** The die's next throw (or the one it is in) ends cocked. */
  cockNext(id: string): void {
    this.need(id).cockNext = true
  }

  /** A die nudged or turned by hand: `moved` with its face (null: no clear face). */
  nudge(id: string, face: number | null): void {
    const d = this.need(id)
    if (d.settleTimer) {
      clearTimeout(d.settleTimer)
      d.settleTimer = null
    }
    d.status = face === null ? 'cocked' : 'settled'
    d.face = face
    this.emit({ type: 'moved', seq: 0, die: id, face })
  }

  battery(id: string, percent: number, charge: Charge = 'discharging'): void {
    const d = this.need(id)
    d.percent = percent
    d.charge = charge
    this.emit({ type: 'battery', seq: 0, die: id, percent, charge })
  }

  key(key: string): void {
    this.emit({ type: 'key', seq: 0, key })
  }

  typed(value: string): void {
    this.emit({ type: 'typed', seq: 0, value })
  }

  error(code: string, die: string | null, text: string): void {
    this.emit({ type: 'error', seq: 0, code, die, text })
  }

  /** Sends a device message with the next sequence number (the `seq` given is replaced). */
  emit(message: DeviceMessage): string {
    if (this.paused) return ''
    const line = encodeEvent({ ...message, seq: this.seq } as DeviceMessage)
    this.seq = (this.seq + 1) % 65536
    this.lastLine = line
    this.write(line)
    return line
  }

  /** Sends many messages in one write (numbered in order, like `emit`). Resolves when written. */
  emitMany(messages: DeviceMessage[]): Promise<void> {
    if (this.paused) return Promise.resolve()
    let text = ''
    for (const m of messages) {
      text += encodeEvent({ ...m, seq: this.seq } as DeviceMessage)
      this.seq = (this.seq + 1) % 65536
    }
    if (this.port) this.linesWritten += messages.length
    return this.writeBuffer(Buffer.from(text, 'latin1'))
  }

  /**
   * Takes `count` sequence numbers for lines a test writes itself (re-sent or reordered lines):
   * returns the first; the hub's own lines go on after them.
   */
  reserveSeq(count: number): number {
    const first = this.seq
    this.seq = (this.seq + count) % 65536
    return first
  }

  /**
   * Lines a test writes itself (with reserveSeq) change what the hub's snapshot says, as a real
   * hub's lines and state agree: a die rolling or settled in them is so in the hub's next `state`.
   */
  noteSent(messages: readonly DeviceMessage[]): void {
    for (const m of messages) {
      if (m.type !== 'rolling' && m.type !== 'settled') continue
      const die = this.dice.get(m.die)
      if (!die) continue
      if (die.settleTimer) clearTimeout(die.settleTimer)
      die.settleTimer = null
      die.throwNo = m.throw
      die.status = m.type
      if (m.type === 'settled') die.face = m.face
    }
  }

  /** The hub's list of dice changes (a die taken off, one added) and it says hello again. */
  replaceDice(dice: SimDie[]): void {
    for (const d of this.dice.values()) if (d.settleTimer) clearTimeout(d.settleTimer)
    const before = new Map(this.dice)
    this.dice.clear()
    for (const d of dice) {
      const old = before.get(d.id)
      this.dice.set(d.id, old ?? {
        spec: { id: d.id, sides: d.sides ?? 6, colour: d.colour ?? null, label: d.label ?? '', battery: d.battery ?? 90 },
        status: 'settled',
        throwNo: null,
        face: 1,
        percent: d.battery ?? 90,
        charge: 'discharging',
        cockNext: false,
        settleTimer: null
      })
    }
    this.sendHello()
  }

  /** Sends the last line again: the same sequence number twice. */
  replayLast(): void {
    if (this.lastLine) this.write(this.lastLine)
  }

  /** A body with a correct checksum appended (for lines the encoder would refuse). */
  sendBody(body: string): void {
    this.write(withChecksum(body) + '\n')
  }

  /** Raw bytes as they are (noise, fuzz). Resolves when written. */
  sendRaw(data: string | Uint8Array): Promise<void> {
    const buf = typeof data === 'string' ? Buffer.from(data, 'latin1') : Buffer.from(data)
    return this.writeBuffer(buf)
  }

  /** Resolves when everything written so far has left the hub. */
  flush(): Promise<void> {
    const port = this.port
    const pending = this.chain
    return pending.then(() => (port && port.isOpen ? new Promise<void>((resolve) => port.drain(() => resolve())) : undefined))
  }

  /** Stops random throws (a throw already under way still lands). */
  stopRandom(): void {
    this.randomOn = false
    if (this.randomTimer) clearTimeout(this.randomTimer)
    this.randomTimer = null
  }

  /** Throws random dice every few seconds, sometimes cocked (then nudged flat), sometimes nudges one. */
  startRandom(onThrow?: (text: string) => void): void {
    this.stopRandom()
    this.randomOn = true
    const ids = [...this.dice.keys()]
    const next = (): void => {
      if (this.stopped || !this.randomOn) return
      this.randomTimer = setTimeout(
        () => {
          const r = this.random()
          if (r < 0.05 && ids.length > 0) {
            const id = ids[Math.floor(this.random() * ids.length)]
            const face = 1 + Math.floor(this.random() * 6)
            onThrow?.(`nudge ${id} ${face}`)
            this.nudge(id, face)
            next()
            return
          }
          const count = 1 + Math.floor(this.random() * ids.length)
          const chosen = [...ids].sort(() => this.random() - 0.5).slice(0, count)
          onThrow?.(`throw ${chosen.join(' ')}`)
          void this.throwRandom(chosen, 0.08).then(() => {
            for (const id of chosen) {
              const d = this.dice.get(id)!
              if (d.status === 'cocked') setTimeout(() => this.nudge(id, 1 + Math.floor(this.random() * 6)), 1500 * this.speed)
              if (this.random() < 0.1 && d.percent > 5) this.battery(id, d.percent - 5)
            }
            next()
          })
        },
        (2000 + this.random() * 2000) * this.speed
      )
    }
    next()
  }

  // ------------------------------------------------------------ internals

  private need(id: string): DieState {
    const d = this.dice.get(id)
    if (!d) throw new Error(`no die ${id}`)
    return d
  }

  private anyRolling(): boolean {
    for (const d of this.dice.values()) if (d.status === 'rolling') return true
    return false
  }

  private settle(d: DieState, outcome: Outcome, no: number): void {
    if (outcome === 'cocked' || d.cockNext) {
      d.cockNext = false
      d.status = 'cocked'
      d.face = null
      this.emit({ type: 'cocked', seq: 0, die: d.spec.id, throw: no })
    } else {
      d.status = 'settled'
      d.face = outcome
      this.emit({ type: 'settled', seq: 0, die: d.spec.id, throw: no, face: outcome })
    }
  }

  private sendHello(): void {
    const dice = [...this.dice.values()]
    this.emit({
      type: 'hello',
      seq: 0,
      major: 1,
      minor: 0,
      firmware: this.opts.firmware ?? 'dr-sim',
      firmwareVersion: this.opts.firmwareVersion ?? '1.0.0',
      serial: this.serial,
      dice: dice.length,
      keypad: this.opts.keypad ?? false
    })
    for (const d of dice) this.emit({ type: 'die', seq: 0, die: d.spec.id, sides: d.spec.sides, colour: d.spec.colour, label: d.spec.label })
  }

  private sendState(): void {
    const dice = [...this.dice.values()]
    this.emit({ type: 'state', seq: 0, dice: dice.length })
    for (const d of dice) {
      this.emit({
        type: 'dstate',
        seq: 0,
        die: d.spec.id,
        status: d.status,
        throw: d.throwNo,
        face: d.status === 'settled' || d.status === 'offline' ? d.face : null,
        percent: d.percent,
        charge: d.charge
      })
    }
  }

  private receive(chunk: Buffer): void {
    if (this.paused) return
    for (const line of this.rx.push(chunk)) {
      const parsed = parseCommand(line)
      if (!parsed.ok) {
        this.say(`<- ${line}  (${parsed.code})`)
        this.error('bad-command', null, parsed.reason.slice(0, 40))
        continue
      }
      const cmd = parsed.message
      this.commands.push(cmd)
      if (this.commands.length > 1000) this.commands.shift()
      this.say(`<- ${line}`)
      if (cmd.type === 'hello-request') this.sendHello()
      else if (cmd.type === 'state-request') this.sendState()
      else if (cmd.type === 'blink') {
        if (!this.dice.has(cmd.die)) this.error('unknown-die', cmd.die, `no die ${cmd.die}`)
        else this.say(cmd.seconds === 0 ? `die ${cmd.die} stops blinking` : `die ${cmd.die} blinks for ${cmd.seconds} s`)
      }
    }
  }

  private write(line: string): void {
    if (this.opts.log) this.say(`-> ${line.trimEnd()}`)
    if (!this.port) return
    this.linesWritten++
    if (this.opts.byteByByte) void this.writeBuffer(Buffer.from(line, 'latin1'))
    else this.port.write(line)
  }

  private writeBuffer(buf: Buffer): Promise<void> {
    const port = this.port
    if (!port) return Promise.resolve()
    if (!this.opts.byteByByte) {
      return new Promise<void>((resolve) => {
        port.write(buf)
        port.drain(() => resolve())
      })
    }
    this.chain = this.chain.then(async () => {
      for (const byte of buf) {
        if (this.port !== port || !port.isOpen) return
        await new Promise<void>((resolve) => {
          port.write(Buffer.from([byte]))
          port.drain(() => resolve())
        })
        await new Promise((resolve) => setImmediate(resolve))
      }
    })
    return this.chain
  }

  private say(text: string): void {
    this.opts.log?.(text)
  }

  private async startSocat(): Promise<void> {
    const link = this.link
    for (const p of [link, `${link}.hub`]) removeLink(p)
    const socat = spawn(this.opts.socatPath ?? 'socat', ['-d', '-d', `pty,raw,echo=0,link=${link}`, `pty,raw,echo=0,link=${link}.hub`], {
      stdio: ['ignore', 'ignore', 'pipe']
    })
    socat.stderr?.resume()
    this.socat = socat
    const failed = new Promise<never>((_, reject) => {
      socat.once('error', (error) => reject(new Error(`cannot start socat: ${error.message}`)))
      socat.once('exit', (code) => reject(new Error(`socat exited (${code}) before the ptys were ready`)))
    })
    const ready = (async (): Promise<void> => {
      for (let i = 0; i < 400; i++) {
        if (existsSync(link) && existsSync(`${link}.hub`)) return
        await sleep(5)
      }
      throw new Error('socat did not make the ptys within 2 s')
    })()
    await Promise.race([ready, failed])
    failed.catch(() => undefined)
  }

  private killSocat(wait = false): Promise<void> {
    const socat = this.socat
    this.socat = null
    if (!socat || socat.exitCode !== null || socat.signalCode !== null) return Promise.resolve()
    const exited = new Promise<void>((resolve) => socat.once('exit', () => resolve()))
    socat.kill('SIGTERM')
    if (!wait) return Promise.resolve()
    return Promise.race([exited, sleep(1000).then(() => void socat.kill('SIGKILL'))]).then(() => {
      for (const p of [this.link, `${this.link}.hub`]) removeLink(p)
    })
  }
}

function removeLink(path: string): void {
  try {
    if (lstatSync(path).isSymbolicLink()) unlinkSync(path)
  } catch {
    // not there
  }
}
