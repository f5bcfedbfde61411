import { describe, expect, it } from 'vitest'
import {
  checksum,
  crc16,
  crc16Bytes,
  encodeCommand,
  encodeEvent,
  parseCommand,
  parseLine,
  withChecksum,
  type DeviceMessage
} from '@shared/protocol'
import { randomMessage } from './random'
import { seededRandom } from '@shared/random-play'

describe('checksum', () => {
  it('is CRC-16/CCITT-FALSE', () => {
    expect(crc16('123456789')).toBe(0x29b1)
    expect(crc16Bytes(new TextEncoder().encode('123456789'))).toBe(0x29b1)
    expect(crc16('')).toBe(0xffff)
    expect(checksum('settled 44 A 7 5')).toBe('CBE2')
    expect(withChecksum('hello?')).toBe('hello?*' + checksum('hello?'))
  })
})

describe('encoders', () => {
  it('write the documented lines', () => {
    expect(encodeEvent({ type: 'settled', seq: 44, die: 'A', throw: 7, face: 5 })).toBe('settled 44 A 7 5*CBE2\n')
    expect(encodeCommand({ type: 'blink', die: 'A', seconds: 3 })).toBe('blink A 3*1574\n')
    expect(encodeCommand({ type: 'hello-request' })).toMatch(/^hello\?\*[0-9A-F]{4}\n$/)
    expect(encodeCommand({ type: 'state-request' })).toMatch(/^state\?\*[0-9A-F]{4}\n$/)
    expect(encodeEvent({ type: 'moved', seq: 1, die: 'B', face: null })).toMatch(/^moved 1 B -\*/)
  })

  it('round-trip 20,000 random messages of every type', () => {
    const rnd = seededRandom(7)
    const seen = new Set<string>()
    for (let i = 0; i < 20_000; i++) {
      const m = randomMessage(rnd)
      seen.add(m.type)
      const line = encodeEvent(m)
      expect(line.length).toBeLessThanOrEqual(97)
      const r = parseLine(line)
      if (!r.ok) throw new Error(`${JSON.stringify(m)} → ${line}: ${r.code} ${r.reason}`)
      expect(r.message).toEqual(m)
    }
    expect(seen.size).toBe(13)
    for (const c of [
      { type: 'hello-request' as const },
      { type: 'state-request' as const },
      { type: 'blink' as const, die: 'Z9', seconds: 60 }
    ]) {
      expect(parseCommand(encodeCommand(c))).toEqual({ ok: true, message: c })
    }
  })

  it('refuse messages the other side would reject or read differently', () => {
    const bad: DeviceMessage[] = [
      { type: 'settled', seq: 1, die: 'A', throw: 1, face: 0 },
      { type: 'settled', seq: 65536, die: 'A', throw: 1, face: 1 },
      { type: 'settled', seq: 1, die: 'A B', throw: 1, face: 2 },
      { type: 'rolling', seq: 1, die: '', throw: 1 },
      { type: 'die', seq: 1, die: 'A', sides: 6, colour: 're d', label: '' },
      { type: 'die', seq: 1, die: 'A', sides: 6, colour: 'red', label: 'é' },
      { type: 'error', seq: 1, code: 'x', die: null, text: 't'.repeat(90) },
      { type: 'battery', seq: 1, die: 'A', percent: 101, charge: 'full' },
      { type: 'dstate', seq: 1, die: 'A', status: 'settled', throw: null, face: null, percent: null, charge: null },
      { type: 'hello', seq: 0, major: 2, minor: 0, firmware: 'f', firmwareVersion: '1', serial: 's', dice: 1, keypad: false },
      { type: 'key', seq: 1, key: 'a\nb' },
      { type: 'heartbeat', seq: 1, intervalMs: 1.5 }
    ]
    for (const m of bad) expect(() => encodeEvent(m), JSON.stringify(m)).toThrow(RangeError)
    expect(() => encodeCommand({ type: 'blink', die: 'A', seconds: 61 })).toThrow(RangeError)
  })
})
