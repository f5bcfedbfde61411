// A device of the table as the registry keeps it, the events it passes on, and its name for people.
import { DROP_REASONS, type DeviceState, type DieView, type DropReason, type RawLineView } from '@shared/devices'
import type { DeviceMessage, HelloMessage } from '@shared/protocol'
import { BLUETOOTH_DEVICE, type BluetoothLink } from './bluetooth-link'
import type { DeviceConnection } from './device-connection'

export interface ManagedDevice {
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

export interface Counters {
  dropped: Record<DropReason, number>
  received: number
  lost: number
}

/** What a device said that the table's other parts act on. */
export type DeviceEvent =
  /** A hello: the device's dice (again). `fresh`: its first, or a restart (what its dice showed before is no longer known). */
  | { type: 'hello'; device: ManagedDevice; fresh: boolean; left: string[] }
  /** A die or key line of a device, after the registry checked it and updated the die's view. */
  | { type: 'message'; device: ManagedDevice; message: DeviceMessage; die: DieView | undefined }
  /** A die was put in the game or taken out. */
  | { type: 'in-game'; device: ManagedDevice; die: DieView }
  /** A Bluetooth die dropped out. */
  | { type: 'gone'; device: ManagedDevice; die: DieView }

/** A device's name for people: "Dice hub H1", "Dice keypad K2", "Bluetooth dice". */
export function deviceName(d: ManagedDevice): string {
  if (d.id === BLUETOOTH_DEVICE) return 'Bluetooth dice'
  return d.hello ? `Dice ${d.hello.keypad && d.hello.dice === 0 ? 'keypad' : 'hub'} ${d.hello.serial}` : `Device on ${d.path}`
}

/** Adds the counters of a connection (or an earlier record of the device) to a device's. */
export function addHistory(into: Counters, from: Counters): void {
  for (const r of DROP_REASONS) into.dropped[r] += from.dropped[r]
  into.received += from.received
  into.lost += from.lost
}
