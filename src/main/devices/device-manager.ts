// Smart dice and serial keypads for the table session. Composes from outside the session: reads
// the rules' offer, sends complete throws with `submit`, keypad keys with `keypad`, warnings with
// `notify`, and its own view through `session.devicesView` + `refresh`.
//
// Devices are remembered by the serial number of their hello (and the USB serial number of their
// port, when the system lists one). After an unplug the manager polls the port list and reopens the
// device where it shows up again: same USB serial number on any path, or the same path.
//
// Dice are in the game unless the table takes them out (`assignDie`): remembered by hello serial
// and die id in the settings file, so a hub that comes back (or the app after a restart) keeps them.
import type { Outcome } from '../../shared/api'
import {
  dieName,
  dieKey,
  DROP_REASONS,
  ThrowAssembler,
  type CountedThrowView,
  type DeviceState,
  type DeviceView,
  type DevicesView,
  type DieView,
  type DropReason,
  type PortView,
  type RawLineView,
  type GameDie,
  type ThrowRules
} from '../../shared/devices'
import { computerSeats, offerOf, type Game } from '../../shared/game'
import { EMPTY_PLAN, listNames, planDice, type DicePlan } from '../../shared/dice-plan'
import type { SmartDiceView, SmartDieView } from '../../shared/devices'
import { keypadKeyOf, keysOfTyped, type KeypadKey } from '../../shared/keypad-keys'
import { seqDistance, type DeviceMessage, type DieMessage, type HelloMessage } from '../../shared/protocol'
import type { SettingsStore } from '../core/settings'
import type { TableSession } from '../core/table-session'
import { DeviceConnection, type HelloContext } from './device-connection'
import { BLUETOOTH_DEVICE, BluetoothLink, type BluetoothReport } from './bluetooth-link'
import type { BluetoothChoiceView } from '../../shared/devices'
import { explainOpenError, listSerialPorts, openSerialPort, type ListPorts, type OpenPort, type PortInfo } from './serial-port'

export interface DeviceManagerOptions {
  session: TableSession
  /** Where die assignments are remembered (`dieAssignments`); without it they last until the app stops. */
  settings?: Pick<SettingsStore, 'get' | 'update'>
  listPorts?: ListPorts
  openPort?: OpenPort
  /** How often the port list is polled while a device is missing. Default 1000 ms. */
  pollMs?: number
  /** Wait for a hello before asking `hello?`. Default 2000 ms. */
  helloRetryMs?: number
  /** How long `identifyDie` lights a die. Default 5 s. */
  blinkSeconds?: number
  /** Screens are refreshed at most this often for device-only changes (raw lines, counters). Default 100 ms. */
  refreshMs?: number
  platform?: NodeJS.Platform
  now?: () => number
}

interface ManagedDevice {
  /** Hello serial once known, else `port:PATH`. */
  id: string
  path: string
  usbSerial: string | null
  order: number
  conn: DeviceConnection | BluetoothLink | null
  state: DeviceState
  reason: string | null
  hello: HelloMessage | null
  dice: Map<string, DieView>
  /** The next snapshot only teaches faces and throw numbers (first hello, or a restart). */
  baselinePending: boolean
  snapshotBaseline: boolean
  /** Keep looking for it after an unplug. */
  wanted: boolean
  /** Counters and raw lines of earlier connections, kept across reconnects. */
  history: Counters
  /** Latest sequence number of the last connection: lines sent while unplugged show in `lost`. */
  lastSeq: number | null
  /** Raw lines of earlier connections. */
  raw: RawLineView[]
  lowBattery: Set<string>
}

const LOW_BATTERY = 15

export class DeviceManager {
  private readonly session: TableSession
  private readonly settings: Pick<SettingsStore, 'get' | 'update'> | null
  /** Dice out of the game (false) or put back (true), by `SERIAL/DIE`. */
  private readonly assignments: Map<string, boolean>
  private readonly listPortsFn: ListPorts
  private readonly openPortFn: OpenPort
  private readonly pollMs: number
  private readonly helloRetryMs: number
  private readonly blinkSeconds: number
  private readonly refreshMs: number
  private readonly platform: NodeJS.Platform
  private readonly now: () => number
  private readonly assembler = new ThrowAssembler()
  private readonly devices: ManagedDevice[] = []
  private ports: PortInfo[] = []
  private nextOrder = 0
  private testMode = false
  private lastThrow: CountedThrowView | null = null
  private lastKey: string | null = null
  private lastProblem: string | null = null
  private pollTimer: NodeJS.Timeout | null = null
  private polling = false
  private refreshTimer: NodeJS.Timeout | null = null
  private submitting = false
  private seenGame: { header: unknown; moves: number } | null = null
  /** The value of the throw in play each smart die holds, by die key (what the record says it shows). */
  private table = new Map<string, number>()
  /** Die of each duellist for the duel in play. */
  private readonly duelDice = new Map<number, string>()
  /** The plan for the record as it stands (the assembler keeps a copy it may adjust). */
  private plan: DicePlan = EMPTY_PLAN
  private lastBlink = ''
  /** The Bluetooth dice (one device for all of them), made on the first report from a screen. */
  private bluetoothLink: BluetoothLink | null = null
  /** The desktop app's Bluetooth picker list while a scan is open (set by the shell). */
  bluetoothChooser: BluetoothChoiceView[] | null = null
  private readonly unsubscribe: () => void
  private stopped = false

  constructor(options: DeviceManagerOptions) {
    this.session = options.session
    this.settings = options.settings ?? null
    this.assignments = new Map(Object.entries(this.settings?.get().dieAssignments ?? {}))
    this.listPortsFn = options.listPorts ?? listSerialPorts
    this.openPortFn = options.openPort ?? openSerialPort
    this.pollMs = options.pollMs ?? 1000
    this.helloRetryMs = options.helloRetryMs ?? 2000
    this.blinkSeconds = options.blinkSeconds ?? 5
    this.refreshMs = options.refreshMs ?? 100
    this.platform = options.platform ?? process.platform
    this.now = options.now ?? Date.now
    this.session.devicesView = () => this.view()
    this.session.smartDiceView = () => this.smartDiceView()
    this.session.gameDice = () => this.gameDice()
    this.session.deviceControl = this
    this.seenGame = this.gameMark(this.session.currentGame)
    this.unsubscribe = this.session.subscribe(() => this.onSessionChange())
  }

  /** Starts polling the port list (reconnects after unplugs). */
  start(): void {
    if (this.pollTimer) return
    this.pollTimer = setInterval(() => void this.poll(), this.pollMs)
    this.pollTimer.unref?.()
    void this.poll()
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.pollTimer) clearInterval(this.pollTimer)
    this.pollTimer = null
    if (this.refreshTimer) clearTimeout(this.refreshTimer)
    this.refreshTimer = null
    this.unsubscribe()
    await Promise.all(this.devices.map((d) => d.conn?.close()))
    this.session.devicesView = () => null
    this.session.smartDiceView = () => null
    this.session.gameDice = () => []
    if (this.session.deviceControl === this) this.session.deviceControl = null
  }

  // ------------------------------------------------------------------ API

  async listPorts(): Promise<PortView[]> {
    await this.refreshPorts()
    return this.portViews()
  }

  async connect(path: string): Promise<Outcome> {
    const existing = this.devices.find((d) => d.path === path && d.conn)
    if (existing) return { ok: true }
    await this.refreshPorts() // learn the port's USB serial number, to find it again on another path
    const usbSerial = this.ports.find((p) => p.path === path)?.serialNumber ?? null
    let device = this.devices.find((d) => d.path === path || (usbSerial !== null && d.usbSerial === usbSerial))
    if (!device) {
      device = this.newDevice(path, usbSerial)
      this.devices.push(device)
    }
    device.wanted = true
    device.path = path
    const outcome = await this.open(device)
    if (!outcome.ok) {
      // A port that never opened is not kept.
      if (!device.hello) this.devices.splice(this.devices.indexOf(device), 1)
      this.session.notify(outcome.error, 'error')
    } else this.changed()
    return outcome
  }

  async disconnect(id: string): Promise<Outcome> {
    const device = this.devices.find((d) => d.id === id)
    if (!device) return { ok: false, error: `No device ${id}` }
    device.wanted = false
    this.devices.splice(this.devices.indexOf(device), 1)
    const conn = device.conn
    device.conn = null
    await conn?.close()
    this.session.notify(`${this.deviceName(device)} disconnected`, 'info')
    return { ok: true }
  }

  identify(id: string, dieId: string): Outcome {
    const device = this.devices.find((d) => d.id === id)
    if (!device) return { ok: false, error: `No device ${id}` }
    if (!device.dice.has(dieId)) return { ok: false, error: `${this.deviceName(device)} has no die ${dieId}` }
    if (!device.conn || device.state === 'refused' || device.state === 'reconnecting') {
      return { ok: false, error: `${this.deviceName(device)} is not connected` }
    }
    device.conn.send({ type: 'blink', die: dieId, seconds: this.blinkSeconds })
    this.changed()
    return { ok: true }
  }

  /** Puts a die in the game or takes it out (remembered by the hub's serial and the die's id). */
  assignDie(id: string, dieId: string, inGame: boolean): Outcome {
    const device = this.devices.find((d) => d.id === id)
    if (!device) return { ok: false, error: `No device ${id}` }
    const die = device.dice.get(dieId)
    if (!die || !device.hello) return { ok: false, error: `${this.deviceName(device)} has no die ${dieId}` }
    if (inGame && die.refused) return { ok: false, error: die.refused }
    if (die.inGame === inGame) return { ok: true }
    die.inGame = inGame
    const serial = device.hello.serial
    this.remember(serial, dieId, inGame)
    this.assembler.setInGame(serial, dieId, inGame)
    const name = dieName(die.id, die.colour, die.label)
    this.session.notify(inGame ? `Die ${name} is in the game` : `Die ${name} is out of the game: its throws do not count`, 'info')
    // Out of the open throw: what is left may be complete now (or show another problem).
    this.replan()
    this.evaluate()
    return { ok: true }
  }

  /** The dice in the game, in die order (for the record header of a new game). */
  gameDice(): GameDie[] {
    return this.devices
      .filter((d) => d.hello !== null && d.state !== 'refused')
      .flatMap((d) => [...d.dice.values()].filter((die) => die.inGame).map((die) => ({ device: d.hello!.serial, die: die.id, label: die.label })))
  }

  setTestMode(on: boolean): Outcome {
    this.testMode = on
    this.assembler.clear()
    this.replan()
    this.lastProblem = null
    this.session.notify(on ? 'Dice test mode: throws are shown, not counted' : 'Dice test mode off: throws count again', 'info')
    return { ok: true }
  }

  view(): DevicesView {
    return {
      ports: this.portViews(),
      devices: this.devices.map((d) => this.deviceView(d)),
      testMode: this.testMode,
      assembling: this.assembler.view(),
      lastThrow: this.lastThrow,
      lastKey: this.lastKey,
      bluetooth: { out: this.bluetoothLink?.outbox ?? [], chooser: this.bluetoothChooser }
    }
  }

  /** Shows (or, with null, closes) the desktop app's Bluetooth picker list. */
  setBluetoothChooser(choices: BluetoothChoiceView[] | null): void {
    this.bluetoothChooser = choices
    this.changed()
  }

  // ------------------------------------------------------------------ Bluetooth dice

  /**
   * A report from the screen that holds the Bluetooth dice: a die connected, sent a notification
   * or dropped out. Its events go through the same path as a hub's die lines (`onMessage`).
   */
  bluetooth(report: BluetoothReport): Outcome {
    if (this.stopped) return { ok: false, error: 'stopped' }
    const device = this.bluetoothDevice()
    const link = this.bluetoothLink!
    const die = link.dieOf(report)
    const dieView = die.id ? device.dice.get(die.id) : undefined
    const name = dieView ? dieName(dieView.id, dieView.colour, dieView.label) : report.name
    switch (report.event) {
      case 'connected':
        die.reconnected()
        for (const bytes of die.greeting()) link.write(report.link, bytes, 'greeting')
        if (die.id && !dieView) this.declareBluetoothDie(device, die.id, report.name, die.colour, die.sides)
        if (dieView?.status === 'offline') {
          // Back: what it shows is learnt from its next messages, never taken as a throw.
          dieView.status = 'unknown'
          this.session.notify(`Die ${name} is back`, 'info')
        }
        this.changed()
        return { ok: true }
      case 'gone': {
        if (!dieView) {
          this.changed()
          return { ok: true }
        }
        dieView.status = 'offline'
        const key = dieKey(BLUETOOTH_DEVICE, dieView.id)
        const during = this.assembler.isThrown(key)
        this.session.notify(
          during
            ? `Die ${name} dropped out during the throw: type the throw on the keypad (it reconnects by itself when it comes back)`
            : `Die ${name} dropped out: it reconnects by itself when it comes back`,
          'warning'
        )
        return { ok: true }
      }
      case 'data': {
        const verdict = link.receive(die, report.data ?? '')
        if (!verdict.ok) {
          this.changed()
          return { ok: true }
        }
        const known = die.id ? device.dice.get(die.id) : undefined
        if (die.id && (!known || (die.colour && known.colour !== die.colour) || known.sides !== die.sides)) {
          this.declareBluetoothDie(device, die.id, report.name, die.colour, die.sides)
        }
        for (const event of verdict.events) this.onMessage(device, event)
        this.changed()
        return { ok: true }
      }
    }
  }

  private bluetoothDevice(): ManagedDevice {
    let device = this.devices.find((d) => d.id === BLUETOOTH_DEVICE)
    if (device) return device
    this.bluetoothLink = new BluetoothLink(this.now)
    device = this.newDevice(this.bluetoothLink.path, null)
    device.id = BLUETOOTH_DEVICE
    device.conn = this.bluetoothLink
    this.devices.push(device)
    return device
  }

  /** Adds a die to the Bluetooth device's list (the hub's hello, made from the dice connected so far). */
  private declareBluetoothDie(device: ManagedDevice, id: string, name: string, colour: string | null, sides: number): void {
    const labels = new Map([...device.dice.values()].map((d) => [d.id, { label: d.label, colour: d.colour, sides: d.sides }]))
    labels.set(id, { label: name, colour, sides })
    const dice = [...labels].map(([die, l]) => ({ type: 'die' as const, seq: 1, die, sides: l.sides, colour: l.colour, label: l.label }))
    const hello = {
      type: 'hello' as const,
      seq: 1,
      major: 1,
      minor: 0,
      firmware: 'web-bluetooth',
      firmwareVersion: '-',
      serial: BLUETOOTH_DEVICE,
      dice: dice.length,
      keypad: false
    }
    // Said before the hello, whose warning (a die of another kind) must be the one left showing.
    if (!device.dice.has(id)) this.session.notify(`Die ${dieName(id, colour, name)} connected by Bluetooth`, 'info')
    this.onHello({ device }, this.bluetoothLink!, hello, dice)
  }

  /** Polls the port list once: reconnects missing devices (public for tests). */
  async poll(): Promise<void> {
    if (this.polling || this.stopped) return
    this.polling = true
    try {
      // The port list is only read while a device is missing (screens ask with listPorts).
      if (!this.devices.some((d) => d.state === 'reconnecting' && d.wanted && !d.conn)) return
      await this.refreshPorts()
      for (const device of this.devices) {
        if (device.state !== 'reconnecting' || !device.wanted || device.conn) continue
        // Same USB serial number (many hubs also use it as their hello serial), wherever it shows up.
        const serials = [device.usbSerial, device.hello?.serial].filter((s): s is string => typeof s === 'string')
        const byUsb = this.ports.find((p) => p.serialNumber !== undefined && serials.includes(p.serialNumber) && !this.devices.some((d) => d.conn && d.path === p.path))
        const path = byUsb?.path ?? (this.ports.some((p) => p.path === device.path) || (await pathExists(device.path)) ? device.path : null)
        if (!path) continue
        device.path = path
        const outcome = await this.open(device)
        if (!outcome.ok) {
          device.state = 'reconnecting'
          device.reason = outcome.error
          this.changed()
        }
      }
    } finally {
      this.polling = false
    }
  }

  // ------------------------------------------------------------------ connections

  private newDevice(path: string, usbSerial: string | null): ManagedDevice {
    return {
      id: `port:${path}`,
      path,
      usbSerial,
      order: this.nextOrder++,
      conn: null,
      state: 'connecting',
      reason: null,
      hello: null,
      dice: new Map(),
      baselinePending: true,
      snapshotBaseline: false,
      wanted: true,
      history: { dropped: Object.fromEntries(DROP_REASONS.map((r) => [r, 0])) as Record<DropReason, number>, received: 0, lost: 0 },
      raw: [],
      lastSeq: null,
      lowBattery: new Set()
    }
  }

  private async open(device: ManagedDevice): Promise<Outcome> {
    let transport
    try {
      transport = await this.openPortFn(device.path)
    } catch (error) {
      const reason = explainOpenError(error, device.path, this.platform)
      device.reason = reason
      return { ok: false, error: reason }
    }
    if (this.stopped || !device.wanted) {
      await transport.close()
      return { ok: false, error: 'stopped' }
    }
    device.state = 'connecting'
    device.reason = null
    // Events follow `ref.device`: a hello may show this is a device already known (merged into it).
    const ref = { device }
    const conn: DeviceConnection = new DeviceConnection(
      device.path,
      transport,
      {
        hello: (hello, dice, before) => this.onHello(ref, conn, hello, dice, before),
        message: (m) => this.onMessage(ref.device, m),
        changed: () => this.changed(),
        closed: (error) => this.onClosed(ref.device, conn, error),
        refused: (reason) => {
          const d = ref.device
          d.state = 'refused'
          d.reason = reason
          d.wanted = false
          this.session.notify(`${d.path}: ${reason}`, 'error')
          void conn.close()
        }
      },
      { helloRetryMs: this.helloRetryMs, now: this.now }
    )
    device.conn = conn
    return { ok: true }
  }

  private onClosed(device: ManagedDevice, conn: DeviceConnection, error: Error | null): void {
    if (device.conn !== conn) return
    this.keepCounters(device, conn)
    device.conn = null
    if (device.state === 'refused' || !device.wanted || this.stopped) return
    device.state = 'reconnecting'
    device.reason = error ? `Unplugged or lost (${error.message}): waiting for it to come back` : 'Closed: waiting for it to come back'
    for (const die of device.dice.values()) if (die.status !== 'offline') die.status = 'unknown'
    this.session.notify(`${this.deviceName(device)} was unplugged: plug it back in and it reconnects by itself`, 'warning')
  }

  private keepCounters(device: ManagedDevice, conn: DeviceConnection): void {
    addHistory(device.history, conn)
    device.lastSeq = conn.lastSeq
    device.raw = [...device.raw, ...conn.raw].slice(-50)
  }

  private onHello(
    ref: { device: ManagedDevice },
    conn: DeviceConnection | BluetoothLink,
    hello: HelloMessage,
    dice: DieMessage[],
    before: HelloContext = { previousSeq: null, wasOutOfTouch: true }
  ): void {
    let device = ref.device
    // The same device already known under another record (connected by another path): merge into the older one.
    const twin = this.devices.find((d) => d !== device && d.id === hello.serial)
    if (twin) {
      if (twin.conn && twin.conn !== conn) {
        device.state = 'refused'
        device.reason = `${hello.serial} is already connected on ${twin.path}`
        device.wanted = false
        void conn.close()
        this.changed()
        return
      }
      this.devices.splice(this.devices.indexOf(device), 1)
      twin.conn = conn
      twin.path = conn.path
      twin.wanted = true
      twin.usbSerial = device.usbSerial ?? twin.usbSerial
      addHistory(twin.history, device.history)
      device = twin
      ref.device = twin
    }
    // A restart: its hello starts again at 0, or, when that hello was lost, the answer to `hello?`
    // is behind the last number heard (from this connection, or the one before it).
    const lastHeard = before.previousSeq ?? device.lastSeq
    const restarted = device.hello !== null && (hello.seq === 0 || (lastHeard !== null && seqDistance(lastHeard, hello.seq) > 32768))
    const firstTime = device.hello === null
    // The answer to a `hello?` of a device that stayed in touch is no news for the table.
    const news = firstTime || restarted || before.wasOutOfTouch
    device.id = hello.serial
    device.hello = hello
    device.state = 'connected'
    device.reason = null
    if (!restarted && device.lastSeq !== null) {
      const missed = seqDistance(device.lastSeq, hello.seq) - 1
      if (missed > 0 && missed < 32768) device.history.lost += missed
    }
    device.lastSeq = null
    let rethrow: string[] = []
    if (restarted || firstTime) {
      device.baselinePending = true
      rethrow = this.assembler.restarted(hello.serial)
    }
    const old = device.dice
    device.dice = new Map()
    // Dice that left the hub's list leave the open throw and are forgotten.
    for (const id of old.keys()) if (!dice.some((d) => d.die === id)) this.assembler.forget(hello.serial, id)
    const wrongKind: string[] = []
    dice.forEach((d, i) => {
      const before = old.get(d.die)
      const refused = d.sides === 6 ? undefined : `Die ${dieName(d.die, d.colour, d.label)} is a d${d.sides}: the games use six-sided dice, so it is not used`
      if (refused) wrongKind.push(refused)
      device.dice.set(d.die, {
        id: d.die,
        sides: d.sides,
        colour: d.colour,
        label: d.label,
        status: before?.status ?? 'unknown',
        face: before?.face ?? null,
        battery: before?.battery ?? null,
        throwNo: before?.throwNo ?? null,
        inGame: refused ? false : (this.assignments.get(dieKey(hello.serial, d.die)) ?? true),
        ...(refused ? { refused } : {})
      })
      this.assembler.register(hello.serial, d.die, device.order * 1000 + i, dieName(d.die, d.colour, d.label))
      this.assembler.setInGame(hello.serial, d.die, device.dice.get(d.die)!.inGame)
    })
    const what = [dice.length > 0 ? `${dice.length} ${dice.length === 1 ? 'die' : 'dice'}` : null, hello.keypad ? 'keypad' : null].filter(Boolean).join(' and ')
    if (device.id !== BLUETOOTH_DEVICE && news) {
      const how = firstTime ? 'connected' : restarted ? 'restarted' : 'is back'
      this.session.notify(`${this.deviceName(device)} ${how}${what ? `: ${what}` : ''}`, 'info')
    }
    if (wrongKind.length > 0) this.session.notify(wrongKind.join('. '), 'warning')
    if (rethrow.length > 0) {
      const them = rethrow.length === 1 ? `die ${rethrow[0]}` : `dice ${listNames(rethrow)}`
      this.session.notify(`${this.deviceName(device)} restarted during a throw: throw ${them} again, or type the throw`, 'warning')
    }
    this.replan()
  }

  // ------------------------------------------------------------------ messages

  private onMessage(device: ManagedDevice, m: DeviceMessage): void {
    const serial = device.id
    const die = 'die' in m && m.type !== 'error' ? device.dice.get(m.die) : undefined
    if ('die' in m && m.type !== 'error' && m.type !== 'die' && !die) {
      // Not in the hello's list: never followed (noise could otherwise grow the list without end).
      device.conn?.count('unknown-die')
      return this.changed()
    }
    const face = m.type === 'settled' || m.type === 'moved' || m.type === 'dstate' ? m.face : null
    if (die && face !== null && face > die.sides) {
      device.conn?.count('bad-field')
      this.session.notify(`${this.deviceName(device)} said die ${dieName(die.id, die.colour, die.label)} shows ${face}, which a d${die.sides} cannot show: the line is ignored`, 'warning')
      return
    }
    if ((m.type === 'key' || m.type === 'typed') && !device.hello?.keypad) {
      device.conn?.count('no-keypad')
      const what = m.type === 'key' ? `key "${m.key}"` : `typed "${m.value}"`
      this.session.notify(`${this.deviceName(device)} declared no keypad: its ${what} is ignored`, 'warning')
      return
    }
    switch (m.type) {
      case 'rolling':
        if (die) Object.assign(die, { status: 'rolling', face: null, throwNo: m.throw })
        this.assembler.rolling(serial, m.die, m.throw)
        this.askIfDoubted(device)
        if (!this.assembler.isInGame(serial, m.die)) return this.outOfGame(die ?? null, m.die)
        this.evaluate()
        return
      case 'settled':
        if (die) Object.assign(die, { status: 'settled', face: m.face, throwNo: m.throw })
        this.assembler.settled(serial, m.die, m.throw, m.face)
        this.askIfDoubted(device)
        this.evaluate()
        return
      case 'cocked':
        if (die) Object.assign(die, { status: 'cocked', face: null, throwNo: m.throw })
        this.assembler.cocked(serial, m.die, m.throw)
        this.askIfDoubted(device)
        this.evaluate()
        return
      case 'moved':
        if (die) Object.assign(die, { status: m.face === null ? 'cocked' : 'settled', face: m.face })
        this.assembler.moved(serial, m.die, m.face)
        this.evaluate()
        return
      case 'battery':
        if (die) {
          die.battery = { percent: m.percent, charge: m.charge }
          this.checkBattery(device, die)
        }
        return
      case 'state':
        device.snapshotBaseline = device.baselinePending
        device.baselinePending = false
        return
      case 'dstate':
        if (die) {
          die.status = m.status
          die.face = m.status === 'settled' || m.status === 'offline' ? m.face : null
          die.throwNo = m.throw
          if (m.percent !== null && m.charge !== null) die.battery = { percent: m.percent, charge: m.charge }
        }
        this.assembler.snapshot(serial, m.die, m.status, m.throw, m.face, device.snapshotBaseline)
        this.evaluate()
        return
      case 'error':
        this.onDeviceError(device, m.code, m.die, m.text)
        return
      case 'key': {
        this.lastKey = m.key
        const key = keypadKeyOf(m.key)
        if (this.testMode) return this.changed()
        if (key === null) {
          this.session.notify(`Keypad key "${m.key}" means nothing here`, 'warning')
          return
        }
        this.session.keypad(key as KeypadKey, `the keypad of ${this.deviceName(device)}`)
        return
      }
      case 'typed': {
        this.lastKey = m.value
        const keys = keysOfTyped(m.value)
        if (this.testMode) return this.changed()
        if (keys === null) {
          this.session.notify(`Typed "${m.value}" on the keypad: type die faces 1-6, or * + - /`, 'warning')
          return
        }
        for (const key of keys) if (!this.session.keypad(key as KeypadKey, `the keypad of ${this.deviceName(device)}`).ok) break
        return
      }
      case 'hello':
      case 'die':
      case 'heartbeat':
        return
    }
  }

  /** A line was dropped as late though its throw was never seen: the device's snapshot settles it. */
  private askIfDoubted(device: ManagedDevice): void {
    if (this.assembler.takeDoubt()) device.conn?.requestSnapshot()
  }

  private onDeviceError(device: ManagedDevice, code: string, dieId: string | null, text: string): void {
    const die = dieId ? device.dice.get(dieId) : undefined
    if (code === 'die-lost' && die) die.status = 'offline'
    if (code === 'die-back' || code === 'overflow') device.conn?.requestSnapshot()
    if (code === 'die-back') return this.changed()
    const who = dieId ? `die ${dieName(dieId, die?.colour ?? null, die?.label ?? '')}` : this.deviceName(device)
    this.session.notify(`${who}: ${code}${text ? ` (${text})` : ''}`, code === 'bad-command' ? 'info' : 'warning')
  }

  private checkBattery(device: ManagedDevice, die: DieView): void {
    const low = die.battery !== null && die.battery.percent <= LOW_BATTERY && die.battery.charge !== 'charging'
    if (low && !device.lowBattery.has(die.id)) {
      device.lowBattery.add(die.id)
      this.session.notify(`Die ${dieName(die.id, die.colour, die.label)} battery low (${die.battery!.percent} %): charge it soon`, 'warning')
    } else {
      if (!low) device.lowBattery.delete(die.id)
      this.changed()
    }
  }

  // ------------------------------------------------------------------ throws

  private rules(): ThrowRules {
    if (this.testMode) return { due: null }
    const game = this.session.currentGame
    if (!game) return { due: 0, blocked: 'Start a game first' }
    const offer = offerOf(game)
    if (offer.finished) return { due: 0, blocked: 'The game is over' }
    if (this.plan.virtual !== null) return { due: 0, blocked: this.plan.virtual }
    return { due: offer.diceDue }
  }

  private evaluate(): void {
    this.assembler.setRules(this.rules())
    const verdict = this.assembler.verdict()
    for (const note of this.assembler.takeNotes()) this.session.notify(note, 'warning')
    if (verdict.kind === 'complete') {
      this.assembler.counted()
      this.lastProblem = null
      this.lastThrow = { values: verdict.values, dice: verdict.names, at: this.now(), sent: !this.testMode, flags: verdict.flags }
      if (this.testMode) {
        this.session.notify(`Test throw: ${verdict.values.join(' ')} (${verdict.names.join(', ')}), not counted`, 'info')
        return
      }
      const held = this.assembler.currentPlan?.held ?? new Map()
      this.submitting = true
      let outcome: Outcome
      try {
        outcome = this.session.submit({ roll: verdict.values })
      } finally {
        this.submitting = false
      }
      if (outcome.ok) {
        // The dice of the throw in play: those that stayed, and those just thrown.
        this.table = new Map([...held].map(([key, h]) => [key, h.value]))
        verdict.keys.forEach((key, i) => this.table.set(key, verdict.values[i]))
        this.replan()
      }
      if (outcome.ok && verdict.flags.length > 0) this.session.notify(verdict.flags.join('. '), 'warning')
      return
    }
    if (verdict.kind === 'problem') {
      if (verdict.text !== this.lastProblem) {
        this.lastProblem = verdict.text
        this.session.notify(verdict.text, 'warning')
        return
      }
    } else this.lastProblem = null
    this.changed()
  }

  /** A die out of the game rolled: a quiet note, unless a problem with the throw is being shown. */
  private outOfGame(die: DieView | null, dieId: string): void {
    if (this.lastProblem === null) {
      this.session.notify(`Die ${dieName(dieId, die?.colour ?? null, die?.label ?? '')} is not in the game: its throw does not count`, 'info')
    } else this.changed()
  }

  private remember(serial: string, dieId: string, inGame: boolean): void {
    const key = dieKey(serial, dieId)
    // Only dice out of the game are kept: in the game is what a die is unless told otherwise.
    if (inGame) this.assignments.delete(key)
    else this.assignments.set(key, false)
    this.settings?.update({ dieAssignments: Object.fromEntries(this.assignments) })
  }

  private gameMark(game: Game | null): { header: unknown; moves: number } | null {
    return game ? { header: game.header, moves: game.moves.length } : null
  }

  private onSessionChange(): void {
    const game = this.session.currentGame
    const mark = this.gameMark(game)
    const seen = this.seenGame
    if (mark?.header === seen?.header && mark?.moves === seen?.moves) return
    this.seenGame = mark
    if (this.submitting) return
    // Changed by someone else: a throw typed by hand, an undo or another game clears the open
    // throw; a decision keeps it (dice thrown before the decision was entered).
    const last = game && game.moves.length > 0 ? game.moves[game.moves.length - 1].move : null
    const oneMore = mark !== null && seen !== null && mark.header === seen.header && mark.moves === seen.moves + 1 && last !== null
    const decision = oneMore && !('roll' in last!)
    if (!decision) {
      this.assembler.clear()
      this.lastProblem = null
      if (oneMore && 'roll' in last! && this.plan.virtual === null) this.typedThrow(last.roll, game!)
      else this.table.clear()
    }
    this.replan()
    if (this.assembler.isOpen) queueMicrotask(() => this.evaluate())
  }

  /**
   * A throw entered by keypad, screen or virtual dice while smart dice are in the game: the typed
   * values stand for the dice that were due (the record is the override), and the table is told.
   */
  private typedThrow(values: number[], game: Game): void {
    const due = this.plan.due
    const held = this.assembler.currentPlan?.held ?? this.plan.held
    this.table = new Map([...held].map(([key, h]) => [key, h.value]))
    if (!due || due.length !== values.length || due.length === 0) {
      this.table.clear()
      return
    }
    due.forEach((key, i) => this.table.set(key, values[i]))
    const names = due.map((key) => this.dieNameOf(key))
    queueMicrotask(() => {
      // Unless the throw was taken back meanwhile (the disk failed it): its refusal stays the message.
      if (this.session.currentGame !== game) return
      this.session.notify(`Entered by hand: ${values.join(' ')} in place of ${listNames(names)} (the smart dice are not read for this throw)`, 'info')
    })
  }

  /** Works out again which dice are due and which hold their values (the record or the dice changed). */
  private replan(): void {
    const game = this.session.currentGame
    const dice = this.gameDice().map((d) => dieKey(d.device, d.die))
    if (this.testMode || !game || dice.length === 0) {
      this.plan = EMPTY_PLAN
      this.assembler.setPlan(null)
      return
    }
    const faces = new Map(dice.map((key) => [key, this.assembler.faceOf(key)]))
    const names = new Map(dice.map((key) => [key, this.dieNameOf(key)]))
    this.plan = planDice({ game, dice, table: this.table, faces, computers: computerSeats(game), duelDice: this.duelDice, names })
    this.assembler.setPlan(this.plan)
    this.blinkDue()
  }

  /**
   * Lights up the dice that must be thrown (the protocol's blink), once per new set of dice; not
   * when every die is due (nothing to find).
   */
  private blinkDue(): void {
    const all = this.gameDice().length
    const due = this.plan.count > 0 && this.plan.due && this.plan.due.length < all ? this.plan.due : null
    const mark = due ? due.join(',') + `#${this.session.currentGame?.moves.length ?? 0}` : ''
    if (mark === this.lastBlink) return
    this.lastBlink = mark
    if (!due) return
    for (const key of due) {
      const device = this.devices.find((d) => d.hello && key.startsWith(`${d.hello.serial}/`))
      if (!device?.conn || device.state === 'refused') continue
      device.conn.send({ type: 'blink', die: key.slice(device.hello!.serial.length + 1), seconds: this.blinkSeconds })
    }
  }

  private dieNameOf(key: string): string {
    for (const d of this.devices) {
      if (!d.hello || !key.startsWith(`${d.hello.serial}/`)) continue
      const die = d.dice.get(key.slice(d.hello.serial.length + 1))
      if (die) return dieName(die.id, die.colour, die.label)
    }
    return key
  }

  /** The smart dice against the record, for every screen (null without smart dice in the game). */
  smartDiceView(): SmartDiceView | null {
    const game = this.session.currentGame
    if (!game || this.testMode) return null
    const inGame = this.devices.flatMap((d) =>
      d.hello && d.state !== 'refused' ? [...d.dice.values()].filter((die) => die.inGame).map((die) => ({ serial: d.hello!.serial, die })) : []
    )
    if (inGame.length === 0) return null
    const plan = this.assembler.currentPlan ?? this.plan
    const due = plan.count > 0 ? plan.due : null
    const strays = new Map(this.assembler.strayDice().map((s) => [s.key, s]))
    const dice: SmartDieView[] = inGame.map(({ serial, die }) => {
      const key = dieKey(serial, die.id)
      const held = plan.held.get(key)
      return {
        device: serial,
        die: die.id,
        name: dieName(die.id, die.colour, die.label),
        colour: die.colour,
        role: due?.includes(key) ? 'throw' : held ? 'hold' : 'idle',
        record: held?.value ?? plan.replacing.get(key) ?? null,
        face: die.status === 'settled' ? die.face : null,
        seat: plan.seats.get(key) ?? null,
        agrees: !strays.has(key)
      }
    })
    const players = game.header.players
    let toThrow = ''
    if (plan.virtual === null && plan.count > 0) {
      if (due && plan.seats.size > 0) toThrow = listNames(due.map((key) => `${players[plan.seats.get(key)!]} throws ${this.dieNameOf(key)}`))
      else if (due) toThrow = `Throw ${listNames(due.map((key) => this.dieNameOf(key)))}`
      else toThrow = `Throw any ${plan.count} ${plan.count === 1 ? 'die' : 'dice'}`
    }
    const disagreements = [...strays.values()].map((s) => s.text)
    const verdict = this.assembler.verdict()
    if (verdict.kind === 'problem' && verdict.problem === 'not-due') disagreements.push(verdict.text)
    return { toThrow, dice, disagreements, note: plan.virtual }
  }

  // ------------------------------------------------------------------ view

  private changed(): void {
    if (this.refreshTimer || this.stopped) return
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null
      if (!this.stopped) this.session.refresh()
    }, this.refreshMs)
    this.refreshTimer.unref?.()
  }

  private async refreshPorts(): Promise<void> {
    try {
      this.ports = await this.listPortsFn()
    } catch {
      // keep the last list
    }
    for (const d of this.devices) {
      if (d.usbSerial === null) d.usbSerial = this.ports.find((p) => p.path === d.path)?.serialNumber ?? null
    }
  }

  private portViews(): PortView[] {
    const views: PortView[] = this.ports.map((p) => ({
      path: p.path,
      manufacturer: p.manufacturer ?? null,
      serialNumber: p.serialNumber ?? null,
      vendorId: p.vendorId ?? null,
      productId: p.productId ?? null,
      device: this.devices.find((d) => d.conn && d.path === p.path)?.id ?? null
    }))
    for (const d of this.devices) {
      if (d.id === BLUETOOTH_DEVICE) continue // not a port
      if (d.conn && !views.some((v) => v.path === d.path)) {
        views.push({ path: d.path, manufacturer: null, serialNumber: null, vendorId: null, productId: null, device: d.id })
      }
    }
    return views
  }

  private deviceView(d: ManagedDevice): DeviceView {
    const c = d.conn
    const dropped = { ...d.history.dropped }
    if (c) for (const r of DROP_REASONS) dropped[r] += c.dropped[r]
    let state: DeviceState = d.state
    let reason = d.reason
    if (c && d.state !== 'refused') {
      state = c.state === 'stale' ? 'stale' : c.state === 'connecting' ? 'connecting' : c.state === 'connected' ? 'connected' : d.state
      if (c.state === 'stale') reason = c.reason
    }
    return {
      id: d.id,
      path: d.path,
      state,
      reason,
      serial: d.hello?.serial ?? null,
      firmware: d.hello?.firmware ?? null,
      firmwareVersion: d.hello?.firmwareVersion ?? null,
      protocol: d.hello ? `${d.hello.major}.${d.hello.minor}` : null,
      keypad: d.hello?.keypad ?? false,
      dice: [...d.dice.values()].map((die) => ({ ...die, battery: die.battery ? { ...die.battery } : null })),
      dropped,
      received: d.history.received + (c?.received ?? 0),
      lost: d.history.lost + (c?.lost ?? 0),
      lastLineAt: c?.lastLineAt ?? null,
      raw: c ? [...d.raw, ...c.raw].slice(-50) : [...d.raw]
    }
  }

  private deviceName(d: ManagedDevice): string {
    if (d.id === BLUETOOTH_DEVICE) return 'Bluetooth dice'
    return d.hello ? `Dice ${d.hello.keypad && d.hello.dice === 0 ? 'keypad' : 'hub'} ${d.hello.serial}` : `Device on ${d.path}`
  }

  /** The die key the throw assembler uses (tests). */
  static dieKey(serial: string, die: string): string {
    return dieKey(serial, die)
  }
}

interface Counters {
  dropped: Record<DropReason, number>
  received: number
  lost: number
}

function addHistory(into: Counters, from: Counters): void {
  for (const r of DROP_REASONS) into.dropped[r] += from.dropped[r]
  into.received += from.received
  into.lost += from.lost
}

async function pathExists(path: string): Promise<boolean> {
  const { access } = await import('node:fs/promises')
  try {
    await access(path)
    return true
  } catch {
    return false
  }
}
