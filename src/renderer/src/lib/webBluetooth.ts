// Web Bluetooth, the few parts the dice need. The DOM library of TypeScript has no Web Bluetooth
// types (they live in @types/web-bluetooth): these structural types are written here from the
// specification (https://webbluetoothcg.github.io/web-bluetooth/) instead of adding a dependency
// for five interfaces.
import { GODICE_NAME_PREFIX, GODICE_NOTIFY, GODICE_SERVICE, GODICE_WRITE } from '@shared/bluetooth/godice'
import {
  PIXELS_LEGACY_NOTIFY,
  PIXELS_LEGACY_SERVICE,
  PIXELS_LEGACY_WRITE,
  PIXELS_NOTIFY,
  PIXELS_SERVICE,
  PIXELS_WRITE
} from '@shared/bluetooth/pixels'
import type { BluetoothKind } from '@shared/bluetooth/bluetooth-die'

export interface WebBluetoothCharacteristic extends EventTarget {
  value?: DataView | null
  startNotifications(): Promise<WebBluetoothCharacteristic>
  writeValue(value: Uint8Array): Promise<void>
}
export interface WebBluetoothService {
  getCharacteristic(uuid: string): Promise<WebBluetoothCharacteristic>
}
export interface WebBluetoothServer {
  connected: boolean
  connect(): Promise<WebBluetoothServer>
  disconnect(): void
  getPrimaryService(uuid: string): Promise<WebBluetoothService>
}
export interface WebBluetoothDevice extends EventTarget {
  id: string
  name?: string | null
  gatt?: WebBluetoothServer
}
export interface WebBluetooth {
  getAvailability?(): Promise<boolean>
  requestDevice(options: {
    filters: ({ services?: string[] } | { namePrefix: string })[]
    optionalServices?: string[]
  }): Promise<WebBluetoothDevice>
  /** Devices this page was allowed before (Chromium, behind a flag in some versions). */
  getDevices?(): Promise<WebBluetoothDevice[]>
}

/** The picker's filters: Pixels by their service (both firmwares), GoDice by name. */
export const DICE_REQUEST = {
  filters: [{ services: [PIXELS_SERVICE] }, { services: [PIXELS_LEGACY_SERVICE] }, { namePrefix: GODICE_NAME_PREFIX }],
  optionalServices: [PIXELS_SERVICE, PIXELS_LEGACY_SERVICE, GODICE_SERVICE]
}

export function kindOf(device: WebBluetoothDevice): BluetoothKind {
  return (device.name ?? '').startsWith(GODICE_NAME_PREFIX) ? 'godice' : 'pixels'
}

/** Why this page cannot use Bluetooth, in words a player can act on; null when it can. */
export async function bluetoothUnavailable(nav: { bluetooth?: WebBluetooth } = navigator as never, secure = window.isSecureContext): Promise<string | null> {
  if (!secure) {
    return 'Bluetooth needs a secure page: connect the dice from the host computer (its window, or http://localhost), not from a screen on the network.'
  }
  if (!nav.bluetooth) return 'This browser has no Web Bluetooth: use the desktop app, or Chrome or Edge on the host computer.'
  try {
    if (nav.bluetooth.getAvailability && !(await nav.bluetooth.getAvailability())) {
      return 'No Bluetooth adapter is available (switched off, or on Linux BlueZ is not installed or not running).'
    }
  } catch (error) {
    return `Bluetooth is not available: ${error instanceof Error ? error.message : String(error)}`
  }
  return null
}

/** The die's notify and write characteristics: Pixels (current firmware, else legacy) or GoDice. */
export async function openDie(
  server: WebBluetoothServer,
  kind: BluetoothKind
): Promise<{ notify: WebBluetoothCharacteristic; write: WebBluetoothCharacteristic }> {
  if (kind === 'godice') {
    const service = await server.getPrimaryService(GODICE_SERVICE)
    return { notify: await service.getCharacteristic(GODICE_NOTIFY), write: await service.getCharacteristic(GODICE_WRITE) }
  }
  let service: WebBluetoothService
  try {
    service = await server.getPrimaryService(PIXELS_SERVICE)
  } catch {
    const legacy = await server.getPrimaryService(PIXELS_LEGACY_SERVICE)
    return { notify: await legacy.getCharacteristic(PIXELS_LEGACY_NOTIFY), write: await legacy.getCharacteristic(PIXELS_LEGACY_WRITE) }
  }
  return { notify: await service.getCharacteristic(PIXELS_NOTIFY), write: await service.getCharacteristic(PIXELS_WRITE) }
}

export const toHex = (view: DataView): string => {
  let out = ''
  for (let i = 0; i < view.byteLength; i++) out += view.getUint8(i).toString(16).padStart(2, '0')
  return out
}
