// Random device messages and fuzz lines for the round-trip and fuzz tests, drawn from a seeded
// generator (the project's one: seededRandom in @shared/random-play).
import { encodeEvent, withChecksum, type Charge, type DeviceMessage, type DieStatus } from '@shared/protocol'

export type Rng = () => number

export const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1))
export const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const NAME = ALNUM + '._+-#'
const str = (r: Rng, chars: string, lo: number, hi: number) => {
  let s = ''
  for (let i = int(r, lo, hi); i > 0; i--) s += chars[Math.floor(r() * chars.length)]
  return s
}
const printable = (r: Rng, lo: number, hi: number) => {
  let s = ''
  for (let i = int(r, lo, hi); i > 0; i--) s += String.fromCharCode(int(r, 0x20, 0x7e))
  return s
}
const token = (r: Rng, lo: number, hi: number) => {
  let s = ''
  for (let i = int(r, lo, hi); i > 0; i--) s += String.fromCharCode(int(r, 0x21, 0x7e))
  return s
}
const orNull = <T>(r: Rng, v: T): T | null => (r() < 0.3 ? null : v)

export function randomMessage(r: Rng): DeviceMessage {
  const seq = int(r, 0, 65535)
  const die = str(r, ALNUM, 1, 8)
  const charges: Charge[] = ['charging', 'discharging', 'full']
  switch (int(r, 0, 12)) {
    case 0:
      return { type: 'hello', seq, major: 1, minor: int(r, 0, 999), firmware: str(r, NAME, 1, 16),
        firmwareVersion: str(r, NAME, 1, 16), serial: str(r, NAME, 1, 24), dice: int(r, 0, 64), keypad: r() < 0.5 }
    case 1:
      return { type: 'die', seq, die, sides: int(r, 2, 100), colour: orNull(r, str(r, NAME, 1, 16).replace(/^-$/, 'x')),
        label: r() < 0.3 ? '' : token(r, 1, 1) + printable(r, 0, 40) }
    case 2:
      return { type: 'rolling', seq, die, throw: int(r, 0, 65535) }
    case 3:
      return { type: 'settled', seq, die, throw: int(r, 0, 65535), face: int(r, 1, 100) }
    case 4:
      return { type: 'cocked', seq, die, throw: int(r, 0, 65535) }
    case 5:
      return { type: 'moved', seq, die, face: orNull(r, int(r, 1, 100)) }
    case 6:
      return { type: 'battery', seq, die, percent: int(r, 0, 100), charge: pick(r, charges) }
    case 7:
      return { type: 'heartbeat', seq, intervalMs: int(r, 1, 65535) }
    case 8:
      return { type: 'error', seq, code: str(r, NAME, 1, 24), die: orNull(r, die), text: printable(r, 0, 40) }
    case 9:
      return { type: 'key', seq, key: token(r, 1, 8) }
    case 10:
      return { type: 'typed', seq, value: token(r, 1, 32) }
    case 11:
      return { type: 'state', seq, dice: int(r, 0, 64) }
    default: {
      const status = pick<DieStatus>(r, ['rolling', 'settled', 'cocked', 'offline'])
      const face = status === 'settled' ? int(r, 1, 100) : status === 'offline' ? orNull(r, int(r, 1, 100)) : null
      return { type: 'dstate', seq, die, status, throw: orNull(r, int(r, 0, 65535)), face,
        percent: orNull(r, int(r, 0, 100)), charge: orNull(r, pick(r, charges)) }
    }
  }
}

const WORDS = ['hello', 'die', 'rolling', 'settled', 'cocked', 'moved', 'battery', 'heartbeat', 'error', 'key',
  'typed', 'state', 'dstate', 'hello?', 'state?', 'blink', 'x', '']
const PIECES = ['0', '1', '65535', '65536', '-', 'A', 'd6', 'd1', '1.0', '2.0', 'full', 'settled', 'rolling', ' ',
  '  ', '*', '-1', '00000', 'ZZZZZZZZZ', '\\', '#']

/** One fuzz line from one of several strategies (raw bytes, mutated lines, word soup...). */
export function fuzzLine(r: Rng): string {
  const s = int(r, 0, 5)
  if (s === 0) {
    // raw random bytes, any value
    let l = ''
    for (let i = int(r, 0, 120); i > 0; i--) l += String.fromCharCode(int(r, 0, 255))
    return l
  }
  if (s === 1 || s === 2) {
    // a valid line, mutated; s === 2 recomputes the checksum so field checks are reached
    const line = encodeEvent(randomMessage(r)).slice(0, -1)
    let body = line.slice(0, -5)
    for (let k = int(r, 1, 3); k > 0; k--) {
      const p = int(r, 0, body.length)
      const m = int(r, 0, 3)
      const ch = r() < 0.8 ? String.fromCharCode(int(r, 0x20, 0x7e)) : String.fromCharCode(int(r, 0, 255))
      if (m === 0) body = body.slice(0, p) + ch + body.slice(p + 1)
      else if (m === 1) body = body.slice(0, p) + ch + body.slice(p)
      else if (m === 2) body = body.slice(0, p) + body.slice(p + 1)
      else body = body.slice(0, p)
    }
    return s === 2 ? withChecksum(body) : body + line.slice(-5)
  }
  if (s === 3) {
    // word soup with a correct checksum
    let body = pick(r, WORDS)
    for (let i = int(r, 0, 9); i > 0; i--) body += ' ' + pick(r, PIECES)
    return withChecksum(body)
  }
  if (s === 4) {
    // valid line with line-end variants or a truncated / padded checksum
    const line = encodeEvent(randomMessage(r)).slice(0, -1)
    return pick(r, [line + '\r', line + '\n', line + '\r\n', line.slice(0, -1), line + '0', line.toLowerCase(), line])
  }
  return withChecksum('x'.repeat(int(r, 80, 100)))
}
