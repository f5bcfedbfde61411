// One connection's bookkeeping, fed bytes directly: what comes before a fresh connection's first
// hello is ignored (PROTOCOL.md §7.1), listed raw and never counted as dropped; bad lines after it are.
import { afterEach, describe, expect, it } from 'vitest'
import { DeviceConnection } from '@main/devices/device-connection'
import type { Transport } from '@main/devices/serial-port'
import { withChecksum } from '@shared/protocol'

const connections: DeviceConnection[] = []
afterEach(async () => {
  for (const connection of connections.splice(0)) await connection.close()
})

function connect(): { connection: DeviceConnection; feed: (text: string) => void; hellos: number } {
  let listener: (chunk: Uint8Array) => void = () => {}
  const transport: Transport = {
    write: () => {},
    close: async () => {},
    onData: (next) => (listener = next),
    onClose: () => {}
  }
  const seen = { hellos: 0 }
  const connection = new DeviceConnection('/dev/fake', transport, {
    hello: () => seen.hellos++,
    message: () => {},
    changed: () => {},
    closed: () => {},
    refused: () => {}
  })
  connections.push(connection)
  return {
    connection,
    feed: (text) => listener(new TextEncoder().encode(text)),
    get hellos() {
      return seen.hellos
    }
  }
}

const total = (connection: DeviceConnection): number => Object.values(connection.dropped).reduce((sum, count) => sum + count, 0)

describe('a fresh connection', () => {
  it('ignores what came before the first hello (a line cut by the port opening, boot noise, a heartbeat) without counting a drop', () => {
    const hub = connect()
    // The port opened in the middle of a line, then a board booting printed noise, then a heartbeat of the running hub.
    hub.feed('7 A 3 4*1A2B\n\x00boot\xff\n')
    hub.feed(`${withChecksum('heartbeat 41 2000')}\n`)
    hub.feed(`${'x'.repeat(120)}\n`)
    hub.feed(`${withChecksum('hello 0 1.0 dr-hub 0.3.1 DRH-000123 0 0')}\n`)
    expect(hub.hellos).toBe(1)
    expect(hub.connection.state).toBe('connected')
    expect(total(hub.connection)).toBe(0)
    const ignored = hub.connection.raw.filter((line) => line.verdict.startsWith('ignored: before the hello'))
    expect(ignored.map((line) => line.verdict)).toEqual([
      'ignored: before the hello (bad-checksum)',
      'ignored: before the hello (bad-char)',
      'ignored: before the hello',
      'ignored: before the hello'
    ])
    // After the hello, a bad line is a drop.
    hub.feed('\x00noise\n')
    expect(hub.connection.dropped['bad-char']).toBe(1)
    expect(total(hub.connection)).toBe(1)
  })
})
