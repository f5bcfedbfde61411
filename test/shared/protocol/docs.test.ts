// Every example line in firmware-protocol/PROTOCOL.md must be a valid line, and every message
// type and host command must have at least one example.
import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { crc16, parseCommand, parseLine } from '@shared/protocol'
import { repoPath } from '@test/kit/root'

const doc = readFileSync(repoPath('firmware-protocol', 'PROTOCOL.md'), 'utf8')
const blocks = [...doc.matchAll(/```text\n([\s\S]*?)```/g)].map((m) => m[1])
const examples = blocks.flatMap((b) => b.split('\n')).filter((l) => /\*[0-9A-F]{4}$/.test(l))

describe('PROTOCOL.md examples', () => {
  it('are all valid lines, in the direction shown', () => {
    expect(examples.length).toBeGreaterThan(30)
    const types = new Set<string>()
    for (const ex of examples) {
      const m = /^([DH]): (.*)$/.exec(ex)
      const line = m ? m[2] : ex
      const dev = parseLine(line)
      const host = parseCommand(line)
      if (m?.[1] === 'D' || (!m && dev.ok)) {
        if (!dev.ok) expect.fail(`${ex}: ${dev.code} ${dev.reason}`)
        types.add(dev.message.type)
      } else {
        if (!host.ok) expect.fail(`${ex}: ${host.code} ${host.reason}`)
        types.add(host.message.type)
      }
    }
    expect([...types].sort()).toEqual(
      ['hello', 'die', 'rolling', 'settled', 'cocked', 'moved', 'battery', 'heartbeat', 'error', 'key', 'typed',
        'state', 'dstate', 'hello-request', 'state-request', 'blink'].sort()
    )
  })

  it('worked checksum example is right', () => {
    expect(crc16('hello?')).toBe(0x4283)
    expect(doc).toContain('`hello?*4283`')
    for (const [prefix, hex] of [['h', 0x0c5e], ['he', 0xa38f], ['hel', 0xa7a3], ['hell', 0xcb27], ['hello', 0xd26e]] as const) {
      expect(crc16(prefix)).toBe(hex)
    }
  })
})
