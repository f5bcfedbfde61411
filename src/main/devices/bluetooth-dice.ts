// The Bluetooth dice of this table (Pixels, GoDice), as one more device of the registry: the
// screen that holds the Web Bluetooth connections reports each die's connection, notifications and
// loss; each die joins the device's list as a hub's hello would declare it, and its events go the
// same way as a hub's die lines (bluetooth-link.ts decodes them).
import type { Outcome } from '@shared/api'
import { dieName } from '@shared/devices'
import type { Notices } from '../core/screens/notices'
import { BLUETOOTH_DEVICE, BluetoothLink, type BluetoothReport } from './bluetooth-link'
import type { DeviceRegistry } from './device-registry'
import type { ManagedDevice } from './managed-device'

export class BluetoothDice {
  /** The Bluetooth dice (one device for all of them), made on the first report from a screen. */
  private link: BluetoothLink | null = null

  constructor(
    private readonly registry: DeviceRegistry,
    private readonly notices: Notices,
    private readonly now: () => number = Date.now
  ) {}

  /** What main must write to the dice, waiting for the screen that holds them. */
  get outbox(): BluetoothLink['outbox'] {
    return this.link?.outbox ?? []
  }

  /**
   * A report from the screen that holds the Bluetooth dice: a die connected, sent a notification
   * or dropped out. Its events go the same way as a hub's die lines.
   */
  report(report: BluetoothReport): Outcome {
    if (this.registry.isStopped) return { ok: false, error: 'stopped' }
    const device = this.device()
    const link = this.link!
    const die = link.dieOf(report)
    const dieView = die.id ? device.dice.get(die.id) : undefined
    const name = dieView ? dieName(dieView.id, dieView.colour, dieView.label) : report.name
    switch (report.event) {
      case 'connected':
        die.reconnected()
        for (const bytes of die.greeting()) link.write(report.link, bytes, 'greeting')
        if (die.id && !dieView) this.declareDie(device, die.id, report.name, die.colour, die.sides)
        if (dieView?.status === 'offline') {
          // Back: what it shows is learnt from its next messages, never taken as a throw.
          dieView.status = 'unknown'
          this.notices.post(`Die ${name} is back`, 'info')
        }
        this.registry.changed()
        return { ok: true }
      case 'gone':
        if (!dieView) {
          this.registry.changed()
          return { ok: true }
        }
        dieView.status = 'offline'
        this.registry.events.emit({ type: 'gone', device, die: dieView })
        return { ok: true }
      case 'data': {
        const verdict = link.receive(die, report.data ?? '')
        if (!verdict.ok) {
          this.registry.changed()
          return { ok: true }
        }
        const known = die.id ? device.dice.get(die.id) : undefined
        if (die.id && (!known || (die.colour && known.colour !== die.colour) || known.sides !== die.sides)) {
          this.declareDie(device, die.id, report.name, die.colour, die.sides)
        }
        for (const event of verdict.events) this.registry.acceptMessage(device, event)
        this.registry.changed()
        return { ok: true }
      }
    }
  }

  private device(): ManagedDevice {
    const known = this.registry.devices.find((d) => d.id === BLUETOOTH_DEVICE)
    if (known) return known
    this.link = new BluetoothLink(this.now)
    const device = this.registry.addDevice(this.link.path, null, BLUETOOTH_DEVICE)
    device.conn = this.link
    return device
  }

  /** Adds a die to the Bluetooth device's list (the hub's hello, made from the dice connected so far). */
  private declareDie(device: ManagedDevice, id: string, name: string, colour: string | null, sides: number): void {
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
    if (!device.dice.has(id)) this.notices.post(`Die ${dieName(id, colour, name)} connected by Bluetooth`, 'info')
    this.registry.acceptHello({ device }, this.link!, hello, dice)
  }
}
