// Shared set-up for the device tests: a real pty pair made by socat, the simulated hub on one end,
// a TableSession (temp data dir) with a DeviceManager on the other.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { RecordStore } from '../../src/main/core/record-store'
import { SettingsStore } from '../../src/main/core/settings'
import { TableSession } from '../../src/main/core/table-session'
import { DeviceManager, type DeviceManagerOptions } from '../../src/main/devices/device-manager'
import { SimulatedHub, type SimulatedHubOptions } from '../../src/main/devices/simulated-hub'

export interface Rig {
  dir: string
  session: TableSession
  hub: SimulatedHub
  manager: DeviceManager
  link(name: string): string
  close(): Promise<void>
}

export async function waitFor(check: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

export async function rig(
  hubOptions: Partial<SimulatedHubOptions> = {},
  managerOptions: Partial<DeviceManagerOptions> = {},
  connect = true
): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), 'dice-devices-'))
  const settings = new SettingsStore(join(dir, 'data'))
  const session = new TableSession({ store: new RecordStore(join(dir, 'data')), settings })
  const hub = new SimulatedHub({ link: join(dir, 'tty0'), speed: 0.05, heartbeatMs: 200, ...hubOptions })
  await hub.start()
  const manager = new DeviceManager({
    session,
    settings,
    // ptys are not in the system's port list: list the hub's current path with its serial number, like a USB port
    listPorts: async () => (hub.plugged ? [{ path: hub.path, serialNumber: hub.serial, manufacturer: 'Simulated', vendorId: '1209', productId: 'd1ce' }] : []),
    pollMs: 50,
    helloRetryMs: 150,
    refreshMs: 10,
    ...managerOptions
  })
  manager.start()
  if (connect) {
    const outcome = await manager.connect(hub.path)
    if (!outcome.ok) throw new Error(outcome.error)
    await waitFor(() => manager.view().devices[0]?.state === 'connected' && manager.view().devices[0].dice.length > 0, 5000, 'the hub to connect')
  }
  return {
    dir,
    session,
    hub,
    manager,
    link: (name) => join(dir, name),
    close: async () => {
      await manager.stop()
      await hub.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** A small seeded random number generator (mulberry32), so a failing fuzz run can be repeated. */
export function mulberry32(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Opens rigs for the calling test file and closes every one of them after each test. */
export function rigsClosedAfterEach(): (...args: Parameters<typeof rig>) => Promise<Rig> {
  const rigs: Rig[] = []
  afterEach(async () => {
    while (rigs.length) await rigs.pop()!.close()
  })
  return async (...args) => {
    const r = await rig(...args)
    rigs.push(r)
    return r
  }
}
