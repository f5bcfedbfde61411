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
import { waitUntil } from '@test/kit/wait'

export interface Rig {
  dir: string
  /** How often the hub sends its heartbeat (what its heartbeat lines say). */
  heartbeatMs: number
  session: TestTable
  hub: SimulatedHub
  manager: Devices
  link(name: string): string
  close(): Promise<void>
}

/** Waits until `check` holds (the kit's waitUntil), saying what it waited for if it never does. */
export async function waitFor(check: () => boolean, what = 'the condition', limitMs?: number): Promise<void> {
  await waitUntil(() => {
    if (!check()) throw new Error(`still waiting for ${what}`)
  }, limitMs)
}

/**
 * Resolves once the host has read every line the hub wrote before, and done what they made it do:
 * a heartbeat the hub writes now has reached the host (lines are read in order), and a turn of the
 * event loop has run what the lines before it left for later. A test that checks that a line did
 * nothing waits for this instead of for a while.
 */
export async function hubLinesRead(r: Rig): Promise<void> {
  const line = r.hub.emit({ type: 'heartbeat', seq: 0, intervalMs: r.heartbeatMs })
  if (!line) throw new Error('the hub is paused: it writes nothing')
  const text = line.trimEnd()
  await waitFor(() => r.manager.view().devices.some((device) => device.raw.some((raw) => raw.dir === 'in' && raw.text === text)), `the host to read ${text}`)
  await new Promise((resolve) => setImmediate(resolve))
}

export async function rig(
  hubOptions: Partial<SimulatedHubOptions> = {},
  deviceOptions: Partial<NonNullable<TableOptions['devices']>> = {},
  connect = true,
  tableOptions: TestTableOptions = {}
): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), 'dice-devices-'))
  const hubSettings = { link: join(dir, 'tty0'), speed: 0.05, heartbeatMs: 200, ...hubOptions }
  const hub = new SimulatedHub(hubSettings)
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
    await waitFor(() => manager.view().devices[0]?.state === 'connected' && manager.view().devices[0].dice.length > 0, 'the hub to connect')
  }
  return {
    dir,
    // A hub without heartbeats (0) is assumed to send one every 2 s, the host's default.
    heartbeatMs: hubSettings.heartbeatMs || 2000,
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
