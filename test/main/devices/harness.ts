// Shared set-up for the device tests: a real pty pair made by socat, the simulated hub on one end,
// a table (temp data dir, made by the app's createTable) with its devices on the other.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import type { TableOptions } from '@main/core/create-table'
import type { Devices } from '@main/devices/devices'
import { SimulatedHub, type SimulatedHubOptions } from '@scripts/simulated-hub'
import { openTable, type TestTable, type TestTableOptions } from '@test/kit/table'

export interface Rig {
  dir: string
  session: TestTable
  hub: SimulatedHub
  manager: Devices
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
  deviceOptions: Partial<NonNullable<TableOptions['devices']>> = {},
  connect = true,
  tableOptions: TestTableOptions = {}
): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), 'dice-devices-'))
  const hub = new SimulatedHub({ link: join(dir, 'tty0'), speed: 0.05, heartbeatMs: 200, ...hubOptions })
  await hub.start()
  const session = openTable({
    ...tableOptions,
    dataDir: join(dir, 'data'),
    devices: {
      // ptys are not in the system's port list: list the hub's current path with its serial number, like a USB port
      listPorts: async () => (hub.plugged ? [{ path: hub.path, serialNumber: hub.serial, manufacturer: 'Simulated', vendorId: '1209', productId: 'd1ce' }] : []),
      pollMs: 50,
      helloRetryMs: 150,
      refreshMs: 10,
      ...deviceOptions
    }
  })
  const manager = session.table.devices
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
      await session.stop()
      await hub.stop()
      rmSync(dir, { recursive: true, force: true })
    }
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
