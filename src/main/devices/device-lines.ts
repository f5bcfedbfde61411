// What a device's lines mean for its dice: each die or key line is checked against the dice the
// device's hello declared (a die it never declared, a face its die cannot show, keys from a device
// with no keypad are counted and dropped), the die's view is updated (status, face, battery), and
// the line is passed on; a device's errors and low batteries are told to the table.
import { dieName, type DieView } from '@shared/devices'
import type { DeviceMessage } from '@shared/protocol'
import type { Notices } from '../core/screens/notices'
import { deviceName, type DeviceEvent, type ManagedDevice } from './managed-device'

const LOW_BATTERY = 15

export class DeviceLines {
  constructor(
    private readonly notices: Notices,
    private readonly emit: (event: DeviceEvent) => void,
    private readonly changed: () => void
  ) {}

  /** A line of a device (or an event of a Bluetooth die), checked against the dice its hello declared. */
  accept(device: ManagedDevice, m: DeviceMessage): void {
    const die = 'die' in m && m.type !== 'error' ? device.dice.get(m.die) : undefined
    if ('die' in m && m.type !== 'error' && m.type !== 'die' && !die) {
      // Not in the hello's list: never followed (noise could otherwise grow the list without end).
      device.conn?.count('unknown-die')
      return this.changed()
    }
    const face = m.type === 'settled' || m.type === 'moved' || m.type === 'dstate' ? m.face : null
    if (die && face !== null && face > die.sides) {
      device.conn?.count('bad-field')
      this.notices.post(`${deviceName(device)} said die ${dieName(die.id, die.colour, die.label)} shows ${face}, which a d${die.sides} cannot show: the line is ignored`, 'warning')
      return
    }
    if ((m.type === 'key' || m.type === 'typed') && !device.hello?.keypad) {
      device.conn?.count('no-keypad')
      const what = m.type === 'key' ? `key "${m.key}"` : `typed "${m.value}"`
      this.notices.post(`${deviceName(device)} declared no keypad: its ${what} is ignored`, 'warning')
      return
    }
    switch (m.type) {
      case 'rolling':
        if (die) Object.assign(die, { status: 'rolling', face: null, throwNo: m.throw })
        break
      case 'settled':
        if (die) Object.assign(die, { status: 'settled', face: m.face, throwNo: m.throw })
        break
      case 'cocked':
        if (die) Object.assign(die, { status: 'cocked', face: null, throwNo: m.throw })
        break
      case 'moved':
        if (die) Object.assign(die, { status: m.face === null ? 'cocked' : 'settled', face: m.face })
        break
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
        break
      case 'error':
        return this.onDeviceError(device, m.code, m.die, m.text)
      case 'key':
      case 'typed':
        break
      case 'hello':
      case 'die':
      case 'heartbeat':
        return
    }
    this.emit({ type: 'message', device, message: m, die })
  }

  private onDeviceError(device: ManagedDevice, code: string, dieId: string | null, text: string): void {
    const die = dieId ? device.dice.get(dieId) : undefined
    if (code === 'die-lost' && die) die.status = 'offline'
    if (code === 'die-back' || code === 'overflow') device.conn?.requestSnapshot()
    if (code === 'die-back') return this.changed()
    const who = dieId ? `die ${dieName(dieId, die?.colour ?? null, die?.label ?? '')}` : deviceName(device)
    this.notices.post(`${who}: ${code}${text ? ` (${text})` : ''}`, code === 'bad-command' ? 'info' : 'warning')
  }

  private checkBattery(device: ManagedDevice, die: DieView): void {
    const low = die.battery !== null && die.battery.percent <= LOW_BATTERY && die.battery.charge !== 'charging'
    if (low && !device.lowBattery.has(die.id)) {
      device.lowBattery.add(die.id)
      this.notices.post(`Die ${dieName(die.id, die.colour, die.label)} battery low (${die.battery!.percent} %): charge it soon`, 'warning')
    } else {
      if (!low) device.lowBattery.delete(die.id)
      this.changed()
    }
  }
}
