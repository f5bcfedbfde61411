// Pixels dice (GameWithPixels): the messages the referee uses, decoded and encoded. Pure.
//
// Sources (read, not copied), repository GameWithPixels/pixels-js, package
// @systemic-games/pixels-core-connect:
// * packages/pixels-core-connect/src/PixelsBluetoothIds.ts: the GATT service and characteristics
//   (current firmware a6b9000x-7a5a-43f2-a962-350c8edc9b5b; legacy firmware the Nordic UART
//   service 6e400001-b5a3-f393-e0a9-e50e24dcca9e with notify on 6e400001 and write on 6e400002).
// * packages/pixels-core-connect/src/DieMessages.ts (older: Messages.ts): message type numbers
//   (first byte of every message: whoAreYou 1, iAmADie 2, rollState 3, blink 29, requestBatteryLevel
//   33, batteryLevel 34), the layouts of RollState, BatteryLevel, Blink, LegacyIAmADie (exactly 22
//   bytes) and the chunked IAmADie (each chunk starts with its own size byte).
// * packages/pixels-core-connect/src/PixelRollState.ts: roll states (unknown 0, rolled 1,
//   handling 2, rolling 3, crooked 4, onFace 5; older firmware calls 1 "onFace").
// * packages/pixels-core-utils/src/serializable.ts: numbers are little-endian.
// Faces travel as a 0-based index: the face is index + 1 for a d6.

export const PIXELS_SERVICE = 'a6b90001-7a5a-43f2-a962-350c8edc9b5b'
export const PIXELS_NOTIFY = 'a6b90002-7a5a-43f2-a962-350c8edc9b5b'
export const PIXELS_WRITE = 'a6b90003-7a5a-43f2-a962-350c8edc9b5b'
export const PIXELS_LEGACY_SERVICE = '6e400001-b5a3-f393-e0a9-e50e24dcca9e'
export const PIXELS_LEGACY_NOTIFY = '6e400001-b5a3-f393-e0a9-e50e24dcca9e'
export const PIXELS_LEGACY_WRITE = '6e400002-b5a3-f393-e0a9-e50e24dcca9e'

export const PIXELS_MESSAGE = {
  whoAreYou: 1,
  iAmADie: 2,
  rollState: 3,
  requestRollState: 23,
  blink: 29,
  requestBatteryLevel: 33,
  batteryLevel: 34
} as const

export type PixelRollState = 'unknown' | 'rolled' | 'handling' | 'rolling' | 'crooked' | 'onFace'
const ROLL_STATES: readonly PixelRollState[] = ['unknown', 'rolled', 'handling', 'rolling', 'crooked', 'onFace']

export type PixelBatteryState = 'unknown' | 'ok' | 'low' | 'charging' | 'done' | 'fault'
/** Battery states by number: ok, low, charging, done as listed; the others (transition, bad charging...) count as fault. */
function batteryState(n: number): PixelBatteryState {
  if (n === 1) return 'ok'
  if (n === 2) return 'low'
  if (n === 6 || n === 7) return 'charging'
  if (n === 8) return 'done'
  return n === 0 ? 'unknown' : 'fault'
}

export type PixelMessage =
  | { type: 'iAmADie'; pixelId: number; ledCount: number; sides: number; rollState: PixelRollState; face: number; battery: number; charge: PixelBatteryState; name: string | null }
  | { type: 'rollState'; state: PixelRollState; face: number }
  | { type: 'batteryLevel'; percent: number; charge: PixelBatteryState }
  /** A message the referee does not use (blink acks, debug logs...): known, ignored. */
  | { type: 'other'; id: number }

export type Decoded<M> = { ok: true; message: M } | { ok: false; error: string }

const LEGACY_IAMADIE_SIZE = 22

/**
 * Faces of a die type (pixels-core-animation PixelDieType.ts: unknown 0, d4, d6, d8, d10, d00,
 * d12, d20, d6pipped, d6fudge). Unknown (early firmware): told by the LED count. A fudge die counts
 * as a d3 (its faces are -, blank, +): never a six-sided die for the games.
 */
function sidesOf(dieType: number, ledCount: number): number {
  const sides = [0, 4, 6, 8, 10, 10, 12, 20, 6, 3][dieType] ?? 0
  return sides !== 0 ? sides : ledCount
}

function rollState(n: number): PixelRollState | null {
  return ROLL_STATES[n] ?? null
}

/** Decodes one notification of a Pixels die. Never throws: a short or unknown message is refused with why. */
export function decodePixels(bytes: Uint8Array): Decoded<PixelMessage> {
  if (bytes.length === 0) return { ok: false, error: 'empty notification' }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const type = bytes[0]
  const need = (n: number, what: string): { ok: false; error: string } | null =>
    bytes.length < n ? { ok: false, error: `${what} needs ${n} bytes, got ${bytes.length}` } : null
  switch (type) {
    case PIXELS_MESSAGE.rollState: {
      const short = need(3, 'RollState')
      if (short) return short
      const state = rollState(bytes[1])
      if (state === null) return { ok: false, error: `RollState: unknown state ${bytes[1]}` }
      return { ok: true, message: { type: 'rollState', state, face: bytes[2] + 1 } }
    }
    case PIXELS_MESSAGE.batteryLevel: {
      const short = need(3, 'BatteryLevel')
      if (short) return short
      if (bytes[1] > 100) return { ok: false, error: `BatteryLevel: ${bytes[1]} % is not a percentage` }
      return { ok: true, message: { type: 'batteryLevel', percent: bytes[1], charge: batteryState(bytes[2]) } }
    }
    case PIXELS_MESSAGE.iAmADie:
      return bytes.length === LEGACY_IAMADIE_SIZE ? legacyIAmADie(bytes, view) : chunkedIAmADie(bytes, view)
    default:
      if (type === PIXELS_MESSAGE.whoAreYou || type > 120) return { ok: false, error: `unknown message type ${type}` }
      return { ok: true, message: { type: 'other', id: type } }
  }
}

function legacyIAmADie(bytes: Uint8Array, view: DataView): Decoded<PixelMessage> {
  // type, ledCount, colorway, dieType, dataSetHash(4), pixelId(4), flash(2), build(4), rollState, face, battery %, battery state
  const state = rollState(bytes[18])
  if (state === null) return { ok: false, error: `IAmADie: unknown roll state ${bytes[18]}` }
  return {
    ok: true,
    message: {
      type: 'iAmADie',
      ledCount: bytes[1],
      sides: sidesOf(bytes[3], bytes[1]),
      pixelId: view.getUint32(8, true),
      rollState: state,
      face: bytes[19] + 1,
      battery: Math.min(100, bytes[20]),
      charge: batteryState(bytes[21]),
      name: null
    }
  }
}

/**
 * Current firmware: type, then chunks each led by its size byte: version info, die info (pixelId
 * u32, chip, die type, LED count, colorway, run mode), custom design name, die name (string),
 * settings info, status info (battery %, battery state, roll state, face index).
 */
function chunkedIAmADie(bytes: Uint8Array, view: DataView): Decoded<PixelMessage> {
  const chunks: Uint8Array[] = []
  let at = 1
  for (let i = 0; i < 6; i++) {
    if (at >= bytes.length) return { ok: false, error: `IAmADie: ${6 - i} of 6 chunks missing` }
    const size = bytes[at]
    if (size === 0 || at + size > bytes.length) return { ok: false, error: `IAmADie: chunk ${i + 1} of size ${size} does not fit` }
    chunks.push(bytes.subarray(at, at + size))
    at += size
  }
  const [, dieInfo, , nameChunk, , status] = chunks
  if (dieInfo.length < 8) return { ok: false, error: 'IAmADie: die info chunk too short' }
  if (status.length < 5) return { ok: false, error: 'IAmADie: status chunk too short' }
  const state = rollState(status[3])
  if (state === null) return { ok: false, error: `IAmADie: unknown roll state ${status[3]}` }
  const nameBytes = nameChunk.subarray(1)
  const end = nameBytes.indexOf(0)
  const name = new TextDecoder().decode(end >= 0 ? nameBytes.subarray(0, end) : nameBytes)
  return {
    ok: true,
    message: {
      type: 'iAmADie',
      pixelId: new DataView(view.buffer, dieInfo.byteOffset, dieInfo.byteLength).getUint32(1, true),
      ledCount: dieInfo.length > 7 ? dieInfo[7] : 0,
      sides: sidesOf(dieInfo[6], dieInfo.length > 7 ? dieInfo[7] : 0),
      rollState: state,
      face: status[4] + 1,
      battery: Math.min(100, status[1]),
      charge: batteryState(status[2]),
      name: name === '' ? null : name
    }
  }
}

export const pixelsWhoAreYou = (): Uint8Array => Uint8Array.of(PIXELS_MESSAGE.whoAreYou)
export const pixelsRequestBattery = (): Uint8Array => Uint8Array.of(PIXELS_MESSAGE.requestBatteryLevel)

/** Blink message: count, duration ms (u16), colour 0xRRGGBB (u32), face mask (u32, all faces), fade, loop count. */
export function pixelsBlink(seconds: number, rgb = 0xffffff): Uint8Array {
  const bytes = new Uint8Array(14)
  const view = new DataView(bytes.buffer)
  const count = Math.max(1, Math.min(255, Math.round(seconds * 2)))
  bytes[0] = PIXELS_MESSAGE.blink
  bytes[1] = count
  view.setUint16(2, Math.min(65535, Math.round(seconds * 1000)), true)
  view.setUint32(4, rgb >>> 0, true)
  view.setUint32(8, 0xffffffff, true)
  bytes[12] = 64
  bytes[13] = 1
  return bytes
}

/**
 * The die's own identity as the referee remembers it, within the die id of the hub protocol (1 to 8
 * letters or digits): `P` and the Pixel Id in base 36 (a 32-bit id fits in 7 digits).
 */
export const pixelDieId = (pixelId: number): string => `P${(pixelId >>> 0).toString(36).toUpperCase().padStart(7, '0')}`
