// Encoders: message → `body*HHHH\n`. Every line is checked by the parser before it is returned,
// so an encoder never emits a line the other side would refuse; invalid input throws.

import { withChecksum } from './checksum'
import { parseCommand, parseLine } from './parse'
import type { DeviceMessage, HostCommand, ParseResult } from './types'

const opt = (v: string | number | null): string => (v === null ? '-' : String(v))

/** The body (no checksum) of a device line. */
export function deviceBody(m: DeviceMessage): string {
  switch (m.type) {
    case 'hello':
      return `hello ${m.seq} ${m.major}.${m.minor} ${m.firmware} ${m.firmwareVersion} ${m.serial} ${m.dice} ${m.keypad ? 1 : 0}`
    case 'die':
      return `die ${m.seq} ${m.die} d${m.sides} ${opt(m.colour)}${m.label === '' ? '' : ' ' + m.label}`
    case 'rolling':
      return `rolling ${m.seq} ${m.die} ${m.throw}`
    case 'settled':
      return `settled ${m.seq} ${m.die} ${m.throw} ${m.face}`
    case 'cocked':
      return `cocked ${m.seq} ${m.die} ${m.throw}`
    case 'moved':
      return `moved ${m.seq} ${m.die} ${opt(m.face)}`
    case 'battery':
      return `battery ${m.seq} ${m.die} ${m.percent} ${m.charge}`
    case 'heartbeat':
      return `heartbeat ${m.seq} ${m.intervalMs}`
    case 'error':
      return `error ${m.seq} ${m.code} ${opt(m.die)}${m.text === '' ? '' : ' ' + m.text}`
    case 'key':
      return `key ${m.seq} ${m.key}`
    case 'typed':
      return `typed ${m.seq} ${m.value}`
    case 'state':
      return `state ${m.seq} ${m.dice}`
    case 'dstate':
      return `dstate ${m.seq} ${m.die} ${m.status} ${opt(m.throw)} ${opt(m.face)} ${opt(m.percent)} ${opt(m.charge)}`
  }
}

/** The body (no checksum) of a host line. */
export function commandBody(c: HostCommand): string {
  switch (c.type) {
    case 'hello-request':
      return 'hello?'
    case 'state-request':
      return 'state?'
    case 'blink':
      return `blink ${c.die} ${c.seconds}`
  }
}

function same(parsed: object, wanted: object): boolean {
  const w = wanted as Record<string, unknown>
  for (const [k, v] of Object.entries(parsed)) if (w[k] !== v) return false
  return true
}

function checked<T extends object>(body: string, input: T, parse: (l: string) => ParseResult<T>): string {
  const line = withChecksum(body)
  const r = parse(line)
  if (!r.ok) throw new RangeError(`cannot encode ${JSON.stringify(input)}: ${r.code}: ${r.reason}`)
  if (!same(r.message, input)) {
    throw new RangeError(`cannot encode ${JSON.stringify(input)}: a field holds a space or a bad value`)
  }
  return line + '\n'
}

/** A device line, `body*HHHH\n`, ready to write (firmware simulator, tests). Throws RangeError if invalid. */
export function encodeEvent(m: DeviceMessage): string {
  return checked(deviceBody(m), m, parseLine)
}

/** A host command line, `body*HHHH\n`, ready to write to the port. Throws RangeError if invalid. */
export function encodeCommand(c: HostCommand): string {
  return checked(commandBody(c), c, parseCommand)
}
