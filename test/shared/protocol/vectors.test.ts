import { describe, expect, it } from 'vitest'
import {
  PROTOCOL_ERROR_CODES,
  canonicalFields,
  encodeCommand,
  encodeEvent,
  parseCommand,
  parseLine,
  type DeviceMessage,
  type HostCommand
} from '@shared/protocol'
import { escape, loadVectors, type Vector } from './vectorFile'

const valid = loadVectors('valid.tsv')
const invalid = loadVectors('invalid.tsv')

const parse = (v: Vector) => (v.dir === 'd' ? parseLine(v.line) : parseCommand(v.line))
const canon = (m: DeviceMessage | HostCommand) =>
  canonicalFields(m).map((kv) => {
    const eq = kv.indexOf('=')
    return kv.slice(0, eq + 1) + escape(kv.slice(eq + 1))
  })
const name = (v: Vector) => `${v.file}:${v.lineNo} ${v.dir} ${v.escaped}`

describe('shared test vectors', () => {
  it('has enough vectors, every message type and every error code', () => {
    expect(valid.length).toBeGreaterThanOrEqual(40)
    expect(invalid.length).toBeGreaterThanOrEqual(40)
    const types = new Set(valid.map((v) => v.fields[0]))
    for (const t of ['hello', 'die', 'rolling', 'settled', 'cocked', 'moved', 'battery', 'heartbeat', 'error',
      'key', 'typed', 'state', 'dstate', 'hello-request', 'state-request', 'blink']) {
      expect(types, t).toContain(`type=${t}`)
    }
    expect(new Set(invalid.map((v) => v.expect))).toEqual(new Set(PROTOCOL_ERROR_CODES))
    expect(valid.every((v) => v.expect === 'ok')).toBe(true)
  })

  it.each(valid.map((v) => [name(v), v] as const))('valid %s', (_, v) => {
    const r = parse(v)
    if (!r.ok) expect.fail(`${r.code}: ${r.reason}`)
    expect(canon(r.message)).toEqual(v.fields)
  })

  it.each(invalid.map((v) => [name(v), v] as const))('invalid %s', (_, v) => {
    const r = parse(v)
    expect(r.ok ? 'ok' : r.code).toBe(v.expect)
    if (!r.ok) expect(r.reason.length).toBeGreaterThan(0)
  })

  it('re-encodes every valid vector to a line that parses to the same message', () => {
    for (const v of valid) {
      const r = parse(v)
      if (!r.ok) throw new Error(name(v))
      const line = v.dir === 'd' ? encodeEvent(r.message as DeviceMessage) : encodeCommand(r.message as HostCommand)
      expect(line.endsWith('\n')).toBe(true)
      const again = v.dir === 'd' ? parseLine(line) : parseCommand(line)
      expect(again, name(v)).toEqual({ ok: true, message: r.message })
    }
  })
})
