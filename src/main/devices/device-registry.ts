// The devices of this table: smart-dice hubs and serial keypads on their ports, and the Bluetooth
// dice as one more device. It opens their connections, learns each one's dice from its hello
// (merging a device seen again on another path, telling a restart from a reconnect), keeps their
// counters, raw lines, batteries and which dice are in the game, and passes every die and key
// event on to whoever listens (the smart-dice referee, the device keypads) with its device.
//
// Devices are remembered by the serial number of their hello (and the USB serial number of their
// port, when the system lists one). Dice are in the game unless the table takes them out
// (`assignDie`): remembered by hello serial and die id in the settings file, so a hub that comes
// back (or the app after a restart) keeps them.
import type { Outcome } from '@shared/api'
import { dieKey, dieName, DROP_REASONS, type DropReason, type GameDie } from '@shared/devices'
import { seqDistance, type DeviceMessage, type DieMessage, type HelloMessage } from '@shared/protocol'
import type { Settings } from '../core/files/settings'
import type { Notices } from '../core/screens/notices'
import { Signal } from '../core/signal'
import { BLUETOOTH_DEVICE, type BluetoothLink } from './bluetooth-link'
import { DeviceConnection, type HelloContext } from './device-connection'
import { DeviceLines } from './device-lines'
import { addHistory, deviceName, type DeviceEvent, type ManagedDevice } from './managed-device'
import { explainOpenError, openSerialPort, type OpenPort } from './serial-port'

export interface DeviceRegistryOptions {
  notices: Notices
  /** Where die assignments are remembered (`dieAssignments`); without it they last until the app stops. */
  settings?: { get(): Readonly<Settings>; update(change: Partial<Settings>): void } | null
  openPort?: OpenPort
  /** Wait for a hello before asking `hello?`. Default 2000 ms. */
  helloRetryMs?: number
  /** How long `identifyDie` and the dice to throw are lit. Default 5 s. */
  blinkSeconds?: number
  platform?: NodeJS.Platform
  now?: () => number
}

export class DeviceRegistry {
  readonly devices: ManagedDevice[] = []
  /** Each die and key event, each hello and each die put in or out of the game. */
  readonly events = new Signal<DeviceEvent>()
  /** Something a screen shows of the devices changed (counters, raw lines, states). */
  readonly changes = new Signal()
  private readonly notices: Notices
  private readonly settings: DeviceRegistryOptions['settings']
  /** Dice out of the game (false) or put back (true), by `SERIAL/DIE`. */
  private readonly assignments: Map<string, boolean>
  private readonly openPortFn: OpenPort
  private readonly helloRetryMs: number
  readonly blinkSeconds: number
  private readonly platform: NodeJS.Platform
  private readonly now: () => number
  private nextOrder = 0
  /** Until when each die (`SERIAL/DIE`) is lit by the last blink it was sent. */
  private readonly litUntil = new Map<string, number>()
  private readonly lines: DeviceLines
  private stopped = false

  constructor(options: DeviceRegistryOptions) {
    this.notices = options.notices
    this.settings = options.settings ?? null
    this.assignments = new Map(Object.entries(this.settings?.get().dieAssignments ?? {}))
    this.openPortFn = options.openPort ?? openSerialPort
    this.helloRetryMs = options.helloRetryMs ?? 2000
    this.blinkSeconds = options.blinkSeconds ?? 5
    this.platform = options.platform ?? process.platform
    this.now = options.now ?? Date.now
    this.lines = new DeviceLines(this.notices, (event) => this.events.emit(event), () => this.changed())
  }

  async stop(): Promise<void> {
    this.stopped = true
    await Promise.all(this.devices.map((d) => d.conn?.close()))
  }

  /** Opens a port and keeps its device (found again by its USB serial number on another path). */
  async connect(path: string, usbSerial: string | null): Promise<Outcome> {
    const existing = this.devices.find((d) => d.path === path && d.conn)
    if (existing) return { ok: true }
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
      this.notices.post(outcome.error, 'error')
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
    this.notices.post(`${deviceName(device)} disconnected`, 'info')
    return { ok: true }
  }

  /** Lights a die up so people can find it. */
  identify(id: string, dieId: string): Outcome {
    const device = this.devices.find((d) => d.id === id)
    if (!device) return { ok: false, error: `No device ${id}` }
    if (!device.dice.has(dieId)) return { ok: false, error: `${deviceName(device)} has no die ${dieId}` }
    if (!device.conn || device.state === 'refused' || device.state === 'reconnecting') {
      return { ok: false, error: `${deviceName(device)} is not connected` }
    }
    device.conn.send({ type: 'blink', die: dieId, seconds: this.blinkSeconds })
    if (device.hello) this.litUntil.set(dieKey(device.hello.serial, dieId), this.now() + this.blinkSeconds * 1000)
    this.changed()
    return { ok: true }
  }

  /**
   * Lights up a die by its key (`SERIAL/DIE`) when its device is there, unless it is still lit:
   * a die is sent one blink per blink's length at most, however fast the dice due change (a
   * blink sent while one is lit shows nothing more, and a flood of them fills the hub's line).
   */
  blink(key: string): void {
    const device = this.devices.find((d) => d.hello && key.startsWith(`${d.hello.serial}/`))
    if (!device?.conn || device.state === 'refused') return
    const now = this.now()
    if (now < (this.litUntil.get(key) ?? -Infinity)) return
    this.litUntil.set(key, now + this.blinkSeconds * 1000)
    device.conn.send({ type: 'blink', die: key.slice(device.hello!.serial.length + 1), seconds: this.blinkSeconds })
  }

  /** Puts a die in the game or takes it out (remembered by the hub's serial and the die's id). */
  assignDie(id: string, dieId: string, inGame: boolean): Outcome {
    const device = this.devices.find((d) => d.id === id)
    if (!device) return { ok: false, error: `No device ${id}` }
    const die = device.dice.get(dieId)
    if (!die || !device.hello) return { ok: false, error: `${deviceName(device)} has no die ${dieId}` }
    if (inGame && die.refused) return { ok: false, error: die.refused }
    if (die.inGame === inGame) return { ok: true }
    die.inGame = inGame
    this.remember(device.hello.serial, dieId, inGame)
    const name = dieName(die.id, die.colour, die.label)
    this.notices.post(inGame ? `Die ${name} is in the game` : `Die ${name} is out of the game: its throws do not count`, 'info')
    this.events.emit({ type: 'in-game', device, die })
    return { ok: true }
  }

  /** The dice in the game, in die order (for the record header of a new game). */
  gameDice(): GameDie[] {
    return this.devices
      .filter((d) => d.hello !== null && d.state !== 'refused')
      .flatMap((d) => [...d.dice.values()].filter((die) => die.inGame).map((die) => ({ device: d.hello!.serial, die: die.id, label: die.label })))
  }

  /** A die's name by its key (`SERIAL/DIE`): "A (red)"; the key itself when no device has it. */
  dieNameOf(key: string): string {
    for (const d of this.devices) {
      if (!d.hello || !key.startsWith(`${d.hello.serial}/`)) continue
      const die = d.dice.get(key.slice(d.hello.serial.length + 1))
      if (die) return dieName(die.id, die.colour, die.label)
    }
    return key
  }

  /** Devices missing since an unplug that should be found again. */
  missing(): ManagedDevice[] {
    return this.devices.filter((d) => d.state === 'reconnecting' && d.wanted && !d.conn)
  }

  /** Opens a device found again on `path` (the port watcher's poll). */
  async reopen(device: ManagedDevice, path: string): Promise<void> {
    device.path = path
    const outcome = await this.open(device)
    if (!outcome.ok) {
      device.state = 'reconnecting'
      device.reason = outcome.error
      this.changed()
    }
  }

  /** A device of the table, not yet connected (found on a port, or the Bluetooth dice). */
  addDevice(path: string, usbSerial: string | null, id?: string): ManagedDevice {
    const device = this.newDevice(path, usbSerial)
    if (id !== undefined) device.id = id
    this.devices.push(device)
    return device
  }

  get isStopped(): boolean {
    return this.stopped
  }

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
        hello: (hello, dice, before) => this.acceptHello(ref, conn, hello, dice, before),
        message: (m) => this.acceptMessage(ref.device, m),
        changed: () => this.changed(),
        closed: (error) => this.onClosed(ref.device, conn, error),
        refused: (reason) => {
          const d = ref.device
          d.state = 'refused'
          d.reason = reason
          d.wanted = false
          this.notices.post(`${d.path}: ${reason}`, 'error')
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
    addHistory(device.history, conn)
    device.lastSeq = conn.lastSeq
    device.raw = [...device.raw, ...conn.raw].slice(-50)
    device.conn = null
    if (device.state === 'refused' || !device.wanted || this.stopped) return
    device.state = 'reconnecting'
    device.reason = error ? `Unplugged or lost (${error.message}): waiting for it to come back` : 'Closed: waiting for it to come back'
    for (const die of device.dice.values()) if (die.status !== 'offline') die.status = 'unknown'
    this.notices.post(`${deviceName(device)} was unplugged: plug it back in and it reconnects by itself`, 'warning')
  }

  /** A device's hello (from its connection, or made up from the Bluetooth dice connected so far). */
  acceptHello(
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
    if (restarted || firstTime) device.baselinePending = true
    const old = device.dice
    device.dice = new Map()
    // Dice that left the hub's list leave the open throw and are forgotten.
    const left = [...old.keys()].filter((id) => !dice.some((d) => d.die === id))
    const wrongKind: string[] = []
    for (const d of dice) {
      const known = old.get(d.die)
      const refused = d.sides === 6 ? undefined : `Die ${dieName(d.die, d.colour, d.label)} is a d${d.sides}: the games use six-sided dice, so it is not used`
      if (refused) wrongKind.push(refused)
      device.dice.set(d.die, {
        id: d.die,
        sides: d.sides,
        colour: d.colour,
        label: d.label,
        status: known?.status ?? 'unknown',
        face: known?.face ?? null,
        battery: known?.battery ?? null,
        throwNo: known?.throwNo ?? null,
        inGame: refused ? false : (this.assignments.get(dieKey(hello.serial, d.die)) ?? true),
        ...(refused ? { refused } : {})
      })
    }
    const what = [dice.length > 0 ? `${dice.length} ${dice.length === 1 ? 'die' : 'dice'}` : null, hello.keypad ? 'keypad' : null].filter(Boolean).join(' and ')
    if (device.id !== BLUETOOTH_DEVICE && news) {
      const how = firstTime ? 'connected' : restarted ? 'restarted' : 'is back'
      this.notices.post(`${deviceName(device)} ${how}${what ? `: ${what}` : ''}`, 'info')
    }
    if (wrongKind.length > 0) this.notices.post(wrongKind.join('. '), 'warning')
    this.events.emit({ type: 'hello', device, fresh: restarted || firstTime, left })
  }

  /** A line of a device (or an event of a Bluetooth die), checked against the dice its hello declared. */
  acceptMessage(device: ManagedDevice, m: DeviceMessage): void {
    this.lines.accept(device, m)
  }

  private remember(serial: string, dieId: string, inGame: boolean): void {
    const key = dieKey(serial, dieId)
    // Only dice out of the game are kept: in the game is what a die is unless told otherwise.
    if (inGame) this.assignments.delete(key)
    else this.assignments.set(key, false)
    this.settings?.update({ dieAssignments: Object.fromEntries(this.assignments) })
  }

  /** Something a screen shows of the devices changed. */
  changed(): void {
    if (!this.stopped) this.changes.emit()
  }
}
