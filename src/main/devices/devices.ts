// The table's dice devices as one part: the registry of devices (device-registry.ts), the port
// watcher that finds unplugged ones again (port-watcher.ts), the smart-dice referee that turns
// their dice into throws (smart-dice-referee.ts) and the device keypads (device-keypads.ts). Data
// flows one way: device lines -> registry -> referee / keypads -> game table. This is what the
// screen API's device methods call, and what the screens are shown of the devices.
import type { Outcome, PortView } from '@shared/api'
import { dieKey, type BluetoothChoiceView, type DevicesView, type DeviceState, type DeviceView, type GameDie, type SmartDiceView } from '@shared/devices'
import { DROP_REASONS } from '@shared/devices'
import type { GameTable } from '../core/game/game-table'
import type { Notices } from '../core/screens/notices'
import { Signal } from '../core/signal'
import type { BluetoothReport } from './bluetooth-link'
import { BluetoothDice } from './bluetooth-dice'
import { DeviceKeypads } from './device-keypads'
import type { DeviceRegistry } from './device-registry'
import type { ManagedDevice } from './managed-device'
import { PortWatcher } from './port-watcher'
import type { ListPorts } from './serial-port'
import { SmartDiceReferee } from './smart-dice-referee'

export interface DevicesOptions {
  registry: DeviceRegistry
  table: GameTable
  notices: Notices
  listPorts?: ListPorts
  /** How often the port list is polled while a device is missing. Default 1000 ms. */
  pollMs?: number
  /** Screens are refreshed at most this often for device-only changes (raw lines, counters). Default 100 ms. */
  refreshMs?: number
  now?: () => number
}

export class Devices {
  private readonly registry: DeviceRegistry
  private readonly watcher: PortWatcher
  private readonly referee: SmartDiceReferee
  private readonly keypads: DeviceKeypads
  private readonly bluetoothDice: BluetoothDice
  private readonly refreshMs: number
  private refreshTimer: NodeJS.Timeout | null = null
  /** The desktop app's Bluetooth picker list while a scan is open (set by the shell). */
  private bluetoothChooser: BluetoothChoiceView[] | null = null
  private readonly change = new Signal()
  private stopped = false

  constructor(options: DevicesOptions) {
    this.registry = options.registry
    this.refreshMs = options.refreshMs ?? 100
    this.watcher = new PortWatcher(this.registry, options.listPorts, options.pollMs ?? 1000)
    this.referee = new SmartDiceReferee(this.registry, options.table, options.notices, options.now)
    this.bluetoothDice = new BluetoothDice(this.registry, options.notices, options.now)
    this.keypads = new DeviceKeypads(this.registry, options.table, options.notices, () => this.referee.testMode, () => this.changed())
    this.registry.changes.subscribe(() => this.changed())
    this.referee.changes.subscribe(() => this.changed())
  }

  /** Listens for changes of what the screens show of the devices (at most one per `refreshMs`). */
  subscribe(listener: () => void): () => void {
    return this.change.subscribe(listener)
  }

  /** Starts polling the port list (reconnects after unplugs). */
  start(): void {
    this.watcher.start()
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.watcher.stop()
    if (this.refreshTimer) clearTimeout(this.refreshTimer)
    this.refreshTimer = null
    this.referee.stop()
    this.keypads.stop()
    await this.registry.stop()
  }

  /** Polls the port list once (tests). */
  poll(): Promise<void> {
    return this.watcher.poll()
  }

  async listPorts(): Promise<PortView[]> {
    await this.watcher.refresh()
    return this.watcher.views()
  }

  async connect(path: string): Promise<Outcome> {
    await this.watcher.refresh() // learn the port's USB serial number, to find it again on another path
    return this.registry.connect(path, this.watcher.usbSerialOf(path))
  }

  disconnect(id: string): Promise<Outcome> {
    return this.registry.disconnect(id)
  }

  identify(id: string, dieId: string): Outcome {
    return this.registry.identify(id, dieId)
  }

  assignDie(id: string, dieId: string, inGame: boolean): Outcome {
    return this.registry.assignDie(id, dieId, inGame)
  }

  setTestMode(on: boolean): Outcome {
    this.referee.setTestMode(on)
    return { ok: true }
  }

  bluetooth(report: BluetoothReport): Outcome {
    return this.bluetoothDice.report(report)
  }

  /** Shows (or, with null, closes) the desktop app's Bluetooth picker list. */
  setBluetoothChooser(choices: BluetoothChoiceView[] | null): void {
    this.bluetoothChooser = choices
    this.changed()
  }

  /** The dice in the game, in die order (for the record header of a new game). */
  gameDice(): GameDie[] {
    return this.registry.gameDice()
  }

  /** The smart dice against the record, for every screen (null without smart dice in the game). */
  smartDice(): SmartDiceView | null {
    return this.referee.view()
  }

  /** The Devices tab's view: ports, devices and their dice, the throw being assembled. */
  view(): DevicesView {
    return {
      ports: this.watcher.views(),
      devices: this.registry.devices.map((d) => deviceView(d)),
      testMode: this.referee.testMode,
      assembling: this.referee.assembling,
      lastThrow: this.referee.lastThrow,
      lastKey: this.keypads.lastKey,
      bluetooth: { out: this.bluetoothDice.outbox, chooser: this.bluetoothChooser }
    }
  }

  /** The die key the throw assembler uses (tests). */
  static dieKey(serial: string, die: string): string {
    return dieKey(serial, die)
  }

  private changed(): void {
    if (this.refreshTimer || this.stopped) return
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null
      if (!this.stopped) this.change.emit()
    }, this.refreshMs)
    this.refreshTimer.unref?.()
  }
}

function deviceView(d: ManagedDevice): DeviceView {
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
