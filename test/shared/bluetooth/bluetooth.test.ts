// Byte vectors written from the published layouts (GameWithPixels/pixels-js DieMessages.ts and
// ParticulaCode/GoDiceJavaScriptAPI godice.js; see the module docs), malformed and truncated ones too.
import { describe, expect, it } from 'vitest'
import { decodePixels, pixelsBlink, pixelDieId } from '@shared/bluetooth/pixels'
import { decodeGoDice, goDiceD6Face, goDiceDieId, goDicePulse } from '@shared/bluetooth/godice'
import { BluetoothDie, hexToBytes } from '@shared/bluetooth/bluetooth-die'

const b = (...n: number[]): Uint8Array => Uint8Array.from(n)
const ascii = (s: string, ...n: number[]): Uint8Array => Uint8Array.from([...[...s].map((c) => c.charCodeAt(0)), ...n.map((x) => (x < 0 ? x + 256 : x))])

/** LegacyIAmADie: 22 bytes (type, leds, colorway, dieType, hash u32, pixelId u32, flash u16, build u32, roll state, face index, battery %, battery state). */
function legacyIAmADie(pixelId: number, face: number, state = 1, battery = 80): Uint8Array {
  const bytes = new Uint8Array(22)
  const v = new DataView(bytes.buffer)
  bytes[0] = 2
  bytes[1] = 6
  v.setUint32(4, 0xdeadbeef, true)
  v.setUint32(8, pixelId, true)
  bytes[18] = state
  bytes[19] = face - 1
  bytes[20] = battery
  bytes[21] = 1
  return bytes
}

/** Current IAmADie: type then 6 chunks, each led by its size. */
function chunkedIAmADie(pixelId: number, face: number, name: string): Uint8Array {
  const version = [15, ...new Array(14).fill(0)]
  const dieInfo = [10, pixelId & 0xff, (pixelId >>> 8) & 0xff, (pixelId >>> 16) & 0xff, pixelId >>> 24, 1, 2, 6, 2, 0]
  const design = [2, 0]
  const nameChunk = [name.length + 2, ...[...name].map((c) => c.charCodeAt(0)), 0]
  const settings = [13, ...new Array(12).fill(0)]
  const status = [5, 77, 1, 1, face - 1]
  return Uint8Array.from([2, ...version, ...dieInfo, ...design, ...nameChunk, ...settings, ...status])
}

describe('Pixels decoder', () => {
  it('reads RollState (type 3, state, face index)', () => {
    expect(decodePixels(b(3, 1, 4))).toEqual({ ok: true, message: { type: 'rollState', state: 'rolled', face: 5 } })
    expect(decodePixels(b(3, 3, 0))).toEqual({ ok: true, message: { type: 'rollState', state: 'rolling', face: 1 } })
    expect(decodePixels(b(3, 4, 2))).toMatchObject({ ok: true, message: { state: 'crooked' } })
  })
  it('reads BatteryLevel (type 34) and the legacy and chunked IAmADie', () => {
    expect(decodePixels(b(34, 55, 6))).toEqual({ ok: true, message: { type: 'batteryLevel', percent: 55, charge: 'charging' } })
    expect(decodePixels(legacyIAmADie(0x12345678, 3))).toMatchObject({ ok: true, message: { type: 'iAmADie', pixelId: 0x12345678, face: 3, battery: 80, rollState: 'rolled' } })
    expect(decodePixels(chunkedIAmADie(0xcafe0001, 6, 'Pixel Red'))).toMatchObject({
      ok: true,
      message: { type: 'iAmADie', pixelId: 0xcafe0001, sides: 6, face: 6, battery: 77, name: 'Pixel Red', rollState: 'rolled' }
    })
    const d20 = legacyIAmADie(0x99, 17)
    d20[1] = 20
    d20[3] = 7
    expect(decodePixels(d20)).toMatchObject({ ok: true, message: { sides: 20, face: 17 } })
    expect(pixelDieId(0xcafe0001)).toBe('P' + (0xcafe0001).toString(36).toUpperCase())
    expect(pixelDieId(0xffffffff)).toMatch(/^P[0-9A-Z]{7}$/)
  })
  it('refuses truncated and malformed notifications without throwing', () => {
    expect(decodePixels(b())).toMatchObject({ ok: false })
    expect(decodePixels(b(3))).toMatchObject({ ok: false, error: expect.stringContaining('RollState') })
    expect(decodePixels(b(3, 9, 0))).toMatchObject({ ok: false, error: expect.stringContaining('unknown state') })
    expect(decodePixels(b(34, 200, 1))).toMatchObject({ ok: false })
    expect(decodePixels(chunkedIAmADie(1, 1, 'x').subarray(0, 30))).toMatchObject({ ok: false })
    expect(decodePixels(b(2, 200, 1, 2))).toMatchObject({ ok: false })
    expect(decodePixels(b(1))).toMatchObject({ ok: false })
    for (let n = 0; n < 2000; n++) {
      const junk = Uint8Array.from({ length: n % 40 }, (_, i) => (n * 31 + i * 17) & 0xff)
      expect(() => decodePixels(junk)).not.toThrow()
    }
  })
  it('encodes Blink as 14 bytes: type 29, count, duration u16, colour u32, face mask u32, fade, loop', () => {
    const blink = pixelsBlink(3)
    expect(blink.length).toBe(14)
    const v = new DataView(blink.buffer, blink.byteOffset)
    expect([blink[0], blink[1], v.getUint16(2, true), v.getUint32(8, true), blink[13]]).toEqual([29, 6, 3000, 0xffffffff, 1])
  })
})

describe('GoDice decoder', () => {
  it('reads R, S, FS, TS, MS, Bat and Col', () => {
    expect(decodeGoDice(ascii('R'))).toEqual({ ok: true, message: { type: 'rolling' } })
    expect(decodeGoDice(ascii('S', 64, 0, 0))).toEqual({ ok: true, message: { type: 'stable', kind: 'stable', face: 6, vector: [64, 0, 0] } })
    expect(decodeGoDice(ascii('S', -60, 5, -3))).toMatchObject({ ok: true, message: { face: 1 } })
    expect(decodeGoDice(ascii('FS', 0, 0, 64))).toMatchObject({ ok: true, message: { kind: 'fake', face: 2 } })
    expect(decodeGoDice(ascii('TS', 0, 62, 4))).toMatchObject({ ok: true, message: { kind: 'tilt', face: 3 } })
    expect(decodeGoDice(ascii('MS', 0, -64, 0))).toMatchObject({ ok: true, message: { kind: 'move', face: 4 } })
    expect(decodeGoDice(ascii('Bat', 87))).toEqual({ ok: true, message: { type: 'battery', percent: 87 } })
    expect(decodeGoDice(ascii('Col', 3))).toEqual({ ok: true, message: { type: 'colour', colour: 'blue' } })
  })
  it('finds every d6 face from its published vector', () => {
    const vectors: [number, number, number][] = [[-64, 0, 0], [0, 0, 64], [0, 64, 0], [0, -64, 0], [0, 0, -64], [64, 0, 0]]
    expect(vectors.map((v) => goDiceD6Face(v))).toEqual([1, 2, 3, 4, 5, 6])
  })
  it('refuses truncated and malformed notifications without throwing', () => {
    expect(decodeGoDice(b())).toMatchObject({ ok: false })
    expect(decodeGoDice(ascii('S', 64))).toMatchObject({ ok: false, error: expect.stringContaining('S needs 4 bytes') })
    expect(decodeGoDice(ascii('FS', 1, 2))).toMatchObject({ ok: false })
    expect(decodeGoDice(ascii('S', 0, 0, 0))).toMatchObject({ ok: false, error: expect.stringContaining('too weak') })
    expect(decodeGoDice(ascii('Bat'))).toMatchObject({ ok: false })
    expect(decodeGoDice(ascii('Bat', 101))).toMatchObject({ ok: false })
    expect(decodeGoDice(ascii('Col', 9))).toMatchObject({ ok: false })
    expect(decodeGoDice(b(0xff, 1))).toMatchObject({ ok: false, error: expect.stringContaining('0xff') })
    for (let n = 0; n < 2000; n++) {
      const junk = Uint8Array.from({ length: n % 12 }, (_, i) => (n * 29 + i * 13) & 0xff)
      expect(() => decodeGoDice(junk)).not.toThrow()
    }
  })
  it('encodes the LED pulse and names a die by its advertised name', () => {
    expect([...goDicePulse(2)]).toEqual([16, 4, 25, 25, 255, 255, 255, 1, 0])
    expect(goDiceDieId('GoDice_5A3C_B_v03')).toBe('G5A3C')
    expect(goDiceDieId('GoDice_ABCDEF123456_K')).toMatch(/^G[0-9A-Z]{7}$/)
  })
})

describe('BluetoothDie: notifications become the hub protocol events', () => {
  it('a Pixel: identity first, then roll → settled with a throw number; crooked → cocked; onFace → moved', () => {
    const die = new BluetoothDie('pixels', 'Pixel 7')
    expect(die.receive(b(3, 3, 0))).toMatchObject({ ok: false, error: expect.stringContaining('IAmADie') })
    expect(die.receive(legacyIAmADie(0xab, 2))).toMatchObject({ ok: true, events: [{ type: 'moved', face: 2 }, { type: 'battery', percent: 80 }] })
    expect(die.id).toBe('P000004R')
    expect(die.face).toBe(2)
    expect(die.receive(b(3, 2, 1)).ok && die.receive(b(3, 3, 1))).toMatchObject({ ok: true, events: [] })
    expect(die.receive(b(3, 1, 4))).toMatchObject({ ok: true, events: [{ type: 'settled', die: 'P000004R', throw: 1, face: 5 }] })
    expect(die.receive(b(3, 3, 0))).toMatchObject({ ok: true, events: [{ type: 'rolling', throw: 2 }] })
    expect(die.receive(b(3, 4, 0))).toMatchObject({ ok: true, events: [{ type: 'cocked', throw: 2 }] })
    expect(die.receive(b(3, 5, 3))).toMatchObject({ ok: true, events: [{ type: 'moved', face: 4 }] })
    expect(die.receive(b(34, 12, 1))).toMatchObject({ ok: true, events: [{ type: 'battery', percent: 12, charge: 'discharging' }] })
    expect(die.receive(legacyIAmADie(0xac, 2))).toMatchObject({ ok: false })
  })
  it('a GoDice: R then S settles; FS/TS/MS and an S without a roll are moves; Col names its colour', () => {
    const die = new BluetoothDie('godice', 'GoDice_00AA_K_v04')
    expect(die.id).toBe('G00AA')
    expect(die.receive(ascii('Col', 1))).toMatchObject({ ok: true, events: [] })
    expect(die.colour).toBe('red')
    expect(die.receive(ascii('R'))).toMatchObject({ events: [{ type: 'rolling', throw: 1 }] })
    expect(die.receive(ascii('R'))).toMatchObject({ events: [] })
    expect(die.receive(ascii('S', 0, 0, 64))).toMatchObject({ events: [{ type: 'settled', throw: 1, face: 2 }] })
    expect(die.receive(ascii('MS', 64, 0, 0))).toMatchObject({ events: [{ type: 'moved', face: 6 }] })
    expect(die.receive(ascii('S', 64, 0, 0))).toMatchObject({ events: [] })
    expect(die.receive(ascii('TS', 0, 64, 0))).toMatchObject({ events: [{ type: 'moved', face: 3 }] })
    expect(die.receive(ascii('R'))).toMatchObject({ events: [{ type: 'rolling', throw: 2 }] })
    // Lost while rolling, back showing 3: a die moved, never a throw that settled.
    die.reconnected()
    expect(die.receive(ascii('S', 0, 64, 0))).toMatchObject({ events: [{ type: 'moved', face: 3 }] })
  })
  it('hexToBytes reads hex and refuses anything else', () => {
    expect([...hexToBytes('52 0a ff')!]).toEqual([0x52, 0x0a, 0xff])
    expect(hexToBytes('5')).toBeNull()
    expect(hexToBytes('zz')).toBeNull()
  })
})
