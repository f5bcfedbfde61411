// Line parser: one complete line (without or with its `\r\n`) → message or error code.
// Never throws. Grammar: firmware-protocol/PROTOCOL.md. Mirrors firmware-protocol/c/dr_protocol.c.

import { crc16 } from './checksum'
import {
  MAX_DICE,
  MAX_FACE,
  MAX_LINE,
  PROTOCOL_MAJOR,
  type Charge,
  type DeviceMessage,
  type DieStatus,
  type HostCommand,
  type ParseResult,
  type ProtocolErrorCode
} from './types'

type Fail = { ok: false; code: ProtocolErrorCode; reason: string }
const fail = (code: ProtocolErrorCode, reason: string): Fail => ({ ok: false, code, reason })

/** Thrown inside field builders, caught once in parseBody. */
class FieldError {
  constructor(readonly reason: string) {}
}

// ---------- field readers (throw FieldError) ----------

/** 1–5 decimal digits, value 0..max. */
function num(s: string, name: string, max: number, min = 0): number {
  const n = s.length
  if (n < 1 || n > 5) throw new FieldError(`${name} must be ${min}..${max}`)
  let v = 0
  for (let i = 0; i < n; i++) {
    const d = s.charCodeAt(i) - 48
    if (d < 0 || d > 9) throw new FieldError(`${name} must be ${min}..${max}`)
    v = v * 10 + d
  }
  if (v < min || v > max) throw new FieldError(`${name} must be ${min}..${max}`)
  return v
}

const numOrNone = (s: string, name: string, max: number, min = 0): number | null =>
  s === '-' ? null : num(s, name, max, min)

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
}

/** Die id: 1–8 letters or digits. */
function dieId(s: string): string {
  if (s.length < 1 || s.length > 8) throw new FieldError('die id must be 1-8 letters/digits')
  for (let i = 0; i < s.length; i++) {
    if (!isAlnum(s.charCodeAt(i))) throw new FieldError('die id must be 1-8 letters/digits')
  }
  return s
}

/** Name: 1..max of letters, digits and `. _ + - #`. */
function name(s: string, what: string, max: number): string {
  if (s.length < 1 || s.length > max) throw new FieldError(`${what} must be 1-${max} name characters`)
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    // . _ + - #
    if (!isAlnum(c) && c !== 46 && c !== 95 && c !== 43 && c !== 45 && c !== 35) {
      throw new FieldError(`${what} must be 1-${max} name characters`)
    }
  }
  return s
}

/** Any run of printable non-space characters (tokenising already guarantees that), 1..max long. */
function token(s: string, what: string, max: number): string {
  if (s.length > max) throw new FieldError(`${what} is longer than ${max}`)
  return s
}

function charge(s: string): Charge {
  if (s === 'charging' || s === 'discharging' || s === 'full') return s
  throw new FieldError('charge must be charging, discharging or full')
}

function dieStatus(s: string): DieStatus {
  if (s === 'rolling' || s === 'settled' || s === 'cocked' || s === 'offline') return s
  throw new FieldError('status must be rolling, settled, cocked or offline')
}

function sides(s: string): number {
  if (s.length < 2 || s.charCodeAt(0) !== 100 /* d */) throw new FieldError('die type must be d2..d100')
  return num(s.slice(1), 'die type', MAX_FACE, 2)
}

const seq = (s: string): number => num(s, 'seq', 65535)
const face = (s: string): number => num(s, 'face', MAX_FACE, 1)

// ---------- message table ----------

interface Spec<T> {
  /** Fixed fields after the type word. */
  fields: number
  /** A free-text field (rest of the line, may be empty) follows the fixed fields. */
  text: boolean
  build(f: string[], text: string): T
}

const DEVICE: Record<string, Spec<DeviceMessage>> = {
  // hello is special-cased in parseBody (its version is checked before anything else)
  hello: {
    fields: 7,
    text: false,
    build: (f) => {
      const dot = f[1].indexOf('.')
      return {
        type: 'hello',
        seq: seq(f[0]),
        major: num(f[1].slice(0, dot), 'major', 999),
        minor: num(f[1].slice(dot + 1), 'minor', 999),
        firmware: name(f[2], 'firmware', 16),
        firmwareVersion: name(f[3], 'firmware version', 16),
        serial: name(f[4], 'serial', 24),
        dice: num(f[5], 'dice', MAX_DICE),
        keypad: num(f[6], 'keypad', 1) === 1
      }
    }
  },
  die: {
    fields: 4,
    text: true,
    build: (f, text) => ({
      type: 'die',
      seq: seq(f[0]),
      die: dieId(f[1]),
      sides: sides(f[2]),
      colour: f[3] === '-' ? null : name(f[3], 'colour', 16),
      label: text
    })
  },
  rolling: {
    fields: 3,
    text: false,
    build: (f) => ({ type: 'rolling', seq: seq(f[0]), die: dieId(f[1]), throw: num(f[2], 'throw', 65535) })
  },
  settled: {
    fields: 4,
    text: false,
    build: (f) => ({
      type: 'settled',
      seq: seq(f[0]),
      die: dieId(f[1]),
      throw: num(f[2], 'throw', 65535),
      face: face(f[3])
    })
  },
  cocked: {
    fields: 3,
    text: false,
    build: (f) => ({ type: 'cocked', seq: seq(f[0]), die: dieId(f[1]), throw: num(f[2], 'throw', 65535) })
  },
  moved: {
    fields: 3,
    text: false,
    build: (f) => ({ type: 'moved', seq: seq(f[0]), die: dieId(f[1]), face: numOrNone(f[2], 'face', MAX_FACE, 1) })
  },
  battery: {
    fields: 4,
    text: false,
    build: (f) => ({
      type: 'battery',
      seq: seq(f[0]),
      die: dieId(f[1]),
      percent: num(f[2], 'percent', 100),
      charge: charge(f[3])
    })
  },
  heartbeat: {
    fields: 2,
    text: false,
    build: (f) => ({ type: 'heartbeat', seq: seq(f[0]), intervalMs: num(f[1], 'interval', 65535, 1) })
  },
  error: {
    fields: 3,
    text: true,
    build: (f, text) => ({
      type: 'error',
      seq: seq(f[0]),
      code: name(f[1], 'code', 24),
      die: f[2] === '-' ? null : dieId(f[2]),
      text
    })
  },
  key: {
    fields: 2,
    text: false,
    build: (f) => ({ type: 'key', seq: seq(f[0]), key: token(f[1], 'key', 8) })
  },
  typed: {
    fields: 2,
    text: false,
    build: (f) => ({ type: 'typed', seq: seq(f[0]), value: token(f[1], 'value', 32) })
  },
  state: {
    fields: 2,
    text: false,
    build: (f) => ({ type: 'state', seq: seq(f[0]), dice: num(f[1], 'dice', MAX_DICE) })
  },
  dstate: {
    fields: 7,
    text: false,
    build: (f) => {
      const s = seq(f[0])
      const die = dieId(f[1])
      const status = dieStatus(f[2])
      const thr = numOrNone(f[3], 'throw', 65535)
      const fc = numOrNone(f[4], 'face', MAX_FACE, 1)
      if (status === 'settled' && fc === null) throw new FieldError('a settled die needs a face')
      if ((status === 'rolling' || status === 'cocked') && fc !== null) {
        throw new FieldError(`a ${status} die has no face (-)`)
      }
      return {
        type: 'dstate',
        seq: s,
        die,
        status,
        throw: thr,
        face: fc,
        percent: numOrNone(f[5], 'percent', 100),
        charge: f[6] === '-' ? null : charge(f[6])
      }
    }
  }
}

const HOST: Record<string, Spec<HostCommand>> = {
  'hello?': { fields: 0, text: false, build: () => ({ type: 'hello-request' }) },
  'state?': { fields: 0, text: false, build: () => ({ type: 'state-request' }) },
  blink: {
    fields: 2,
    text: false,
    build: (f) => ({ type: 'blink', die: dieId(f[0]), seconds: num(f[1], 'seconds', 60) })
  }
}

// ---------- framing ----------

function hexVal(c: number): number {
  if (c >= 48 && c <= 57) return c - 48
  if (c >= 65 && c <= 70) return c - 55
  if (c >= 97 && c <= 102) return c - 87
  return -1
}

/** Checks length, characters and checksum; returns the body length or a failure. */
function checkFrame(line: string): number | Fail {
  let len = line.length
  if (len > 0 && line.charCodeAt(len - 1) === 10) len--
  if (len > 0 && line.charCodeAt(len - 1) === 13) len--
  if (len === 0) return fail('empty', 'empty line')
  if (len > MAX_LINE) return fail('too-long', `line is ${len} bytes, the maximum is ${MAX_LINE}`)
  for (let i = 0; i < len; i++) {
    const c = line.charCodeAt(i)
    if (c < 0x20 || c > 0x7e) return fail('bad-char', `byte 0x${c.toString(16)} at ${i} is not printable ASCII`)
  }
  const star = len - 5
  if (star < 1 || line.charCodeAt(star) !== 42) return fail('malformed', 'line must end with *HHHH')
  let sent = 0
  for (let i = star + 1; i < len; i++) {
    const h = hexVal(line.charCodeAt(i))
    if (h < 0) return fail('malformed', 'checksum must be 4 hex digits')
    sent = (sent << 4) | h
  }
  const crc = crc16(line, 0, star)
  if (crc !== sent) {
    return fail('bad-checksum', `checksum ${line.slice(star + 1, len)} should be ${crc.toString(16).toUpperCase().padStart(4, '0')}`)
  }
  return star
}

function parseBody<T>(line: string, table: Record<string, Spec<T>>, isDevice: boolean): ParseResult<T> {
  const framed = checkFrame(line)
  if (typeof framed !== 'number') return framed
  const len = framed
  let pos = line.indexOf(' ')
  if (pos < 0 || pos > len) pos = len
  if (pos === 0) return fail('malformed', 'line starts with a space')
  const word = line.slice(0, pos)
  const spec = Object.prototype.hasOwnProperty.call(table, word) ? table[word] : undefined
  if (spec === undefined) return fail('unknown-type', `unknown message type "${word}"`)

  const f: string[] = []
  while (f.length < spec.fields && pos < len) {
    const start = pos + 1 // line[pos] is a space
    let end = line.indexOf(' ', start)
    if (end < 0 || end > len) end = len
    if (end === start) return fail('malformed', 'empty field (two spaces, or a space at the end)')
    f.push(line.slice(start, end))
    pos = end
  }
  try {
    if (isDevice && word === 'hello') {
      // seq and version come first and never move, so an unknown major is recognised whatever follows
      if (f.length < 2) return fail('malformed', 'hello needs seq and version')
      seq(f[0])
      const dot = f[1].indexOf('.')
      if (dot < 1 || dot > 3 || f[1].length - dot - 1 < 1 || f[1].length - dot - 1 > 3) {
        throw new FieldError('version must be MAJOR.MINOR')
      }
      const major = num(f[1].slice(0, dot), 'major', 999)
      num(f[1].slice(dot + 1), 'minor', 999)
      if (major !== PROTOCOL_MAJOR) {
        return fail('unknown-major', `protocol ${f[1]}: this host speaks major ${PROTOCOL_MAJOR}`)
      }
    }
    if (f.length < spec.fields) return fail('malformed', `${word} needs ${spec.fields} fields, got ${f.length}`)
    const text = spec.text && pos < len ? line.slice(pos + 1, len) : ''
    return { ok: true, message: spec.build(f, text) }
  } catch (e) {
    if (e instanceof FieldError) return fail('bad-field', e.reason)
    throw e
  }
}

/** Parses one line a device sent. A trailing `\n` / `\r\n` is allowed. Never throws. */
export function parseLine(line: string): ParseResult<DeviceMessage> {
  return parseBody(line, DEVICE, true)
}

/** Parses one line a host sent (what firmware or a simulator reads). Never throws. */
export function parseCommand(line: string): ParseResult<HostCommand> {
  return parseBody(line, HOST, false)
}
