// The system's serial ports: listed when a screen asks, and polled while a device is missing after
// an unplug, to open it again where it shows up: same USB serial number on any path, or the same path.
import { access } from 'node:fs/promises'
import type { PortView } from '@shared/devices'
import { BLUETOOTH_DEVICE } from './bluetooth-link'
import type { DeviceRegistry } from './device-registry'
import { listSerialPorts, type ListPorts, type PortInfo } from './serial-port'

export class PortWatcher {
  private ports: PortInfo[] = []
  private pollTimer: NodeJS.Timeout | null = null
  private polling = false
  private stopped = false

  constructor(
    private readonly registry: DeviceRegistry,
    private readonly listPorts: ListPorts = listSerialPorts,
    /** How often the port list is polled while a device is missing. */
    private readonly pollMs = 1000
  ) {}

  start(): void {
    if (this.pollTimer) return
    this.pollTimer = setInterval(() => void this.poll(), this.pollMs)
    this.pollTimer.unref?.()
    void this.poll()
  }

  stop(): void {
    this.stopped = true
    if (this.pollTimer) clearInterval(this.pollTimer)
    this.pollTimer = null
  }

  /** Reads the port list again (keeping the last one when the system refuses). */
  async refresh(): Promise<void> {
    try {
      this.ports = await this.listPorts()
    } catch {
      // keep the last list
    }
    for (const d of this.registry.devices) {
      if (d.usbSerial === null) d.usbSerial = this.usbSerialOf(d.path)
    }
  }

  usbSerialOf(path: string): string | null {
    return this.ports.find((p) => p.path === path)?.serialNumber ?? null
  }

  /** Polls the port list once: reconnects missing devices (public for tests). */
  async poll(): Promise<void> {
    if (this.polling || this.stopped) return
    this.polling = true
    try {
      // The port list is only read while a device is missing (screens ask with listPorts).
      if (this.registry.missing().length === 0) return
      await this.refresh()
      for (const device of this.registry.missing()) {
        // Same USB serial number (many hubs also use it as their hello serial), wherever it shows up.
        const serials = [device.usbSerial, device.hello?.serial].filter((s): s is string => typeof s === 'string')
        const byUsb = this.ports.find(
          (p) => p.serialNumber !== undefined && serials.includes(p.serialNumber) && !this.registry.devices.some((d) => d.conn && d.path === p.path)
        )
        const path = byUsb?.path ?? (this.ports.some((p) => p.path === device.path) || (await pathExists(device.path)) ? device.path : null)
        if (path) await this.registry.reopen(device, path)
      }
    } finally {
      this.polling = false
    }
  }

  /** The ports as the Devices tab lists them, with the device open on each. */
  views(): PortView[] {
    const devices = this.registry.devices
    const views: PortView[] = this.ports.map((p) => ({
      path: p.path,
      manufacturer: p.manufacturer ?? null,
      serialNumber: p.serialNumber ?? null,
      vendorId: p.vendorId ?? null,
      productId: p.productId ?? null,
      device: devices.find((d) => d.conn && d.path === p.path)?.id ?? null
    }))
    for (const d of devices) {
      if (d.id === BLUETOOTH_DEVICE) continue // not a port
      if (d.conn && !views.some((v) => v.path === d.path)) {
        views.push({ path: d.path, manufacturer: null, serialNumber: null, vendorId: null, productId: null, device: d.id })
      }
    }
    return views
  }
}

async function pathExists(path: string): Promise<boolean> {
  try {
    await access(path)
    return true
  } catch {
    return false
  }
}
