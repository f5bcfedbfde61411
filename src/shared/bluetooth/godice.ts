// GoDice (Particula): the messages the referee uses, decoded and encoded. Pure.
//
// Sources (read, not copied): repository ParticulaCode/GoDiceJavaScriptAPI, file godice.js
// (and its README.md):
// * GATT: the Nordic UART service 6e400001-b5a3-f393-e0a9-e50e24dcca9e, notifications on
//   6e400003-…, writes to 6e400002-…; dice advertise a name starting "GoDice_".
// * Notifications, by their first bytes (ASCII): "R" roll started; "S" + x y z stable;
//   "FS"/"TS"/"MS" + x y z fake-stable, tilt-stable, move-stable; "Bat" + percent; "Col" + colour
//   (0 black, 1 red, 2 green, 3 blue, 4 yellow, 5 orange). x y z are signed bytes, the
//   accelerometer's vector; the face is the one whose reference vector is nearest (d6 shell:
//   1 (-64,0,0), 2 (0,0,64), 3 (0,64,0), 4 (0,-64,0), 5 (0,0,-64), 6 (64,0,0)).
// * Requests: battery level [3], colour [23], LEDs on [8, r1, g1, b1, r2, g2, b2], LED pulses
//   [16, count, on ×10 ms, off ×10 ms, r, g, b, 1, 0].

export const GODICE_SERVICE = '6e400001-b5a3-f393-e0a9-e50e24dcca9e'
export const GODICE_NOTIFY = '6e400003-b5a3-f393-e0a9-e50e24dcca9e'
export const GODICE_WRITE = '6e400002-b5a3-f393-e0a9-e50e24dcca9e'
export const GODICE_NAME_PREFIX = 'GoDice_'

export const GODICE_COLOURS = ['black', 'red', 'green', 'blue', 'yellow', 'orange'] as const
export type GoDiceColour = (typeof GODICE_COLOURS)[number]

/** How a GoDice came to rest: a real roll (`stable`), or the kinds the die reports for a die not properly thrown. */
export type GoDiceStableKind = 'stable' | 'fake' | 'tilt' | 'move'

export type GoDiceMessage =
  | { type: 'rolling' }
  | { type: 'stable'; kind: GoDiceStableKind; face: number; vector: [number, number, number] }
  | { type: 'battery'; percent: number }
  | { type: 'colour'; colour: GoDiceColour }

export type Decoded<M> = { ok: true; message: M } | { ok: false; error: string }

const D6_VECTORS: readonly (readonly [number, number, number])[] = [
  [-64, 0, 0],
  [0, 0, 64],
  [0, 64, 0],
  [0, -64, 0],
  [0, 0, -64],
  [64, 0, 0]
]

/** The face of the d6 shell whose reference vector is nearest the accelerometer's vector. */
export function goDiceD6Face(vector: readonly [number, number, number]): number {
  let best = 1
  let bestDistance = Infinity
  D6_VECTORS.forEach((ref, i) => {
    const d = (vector[0] - ref[0]) ** 2 + (vector[1] - ref[1]) ** 2 + (vector[2] - ref[2]) ** 2
    if (d < bestDistance) {
      bestDistance = d
      best = i + 1
    }
  })
  return best
}

const ascii = (bytes: Uint8Array, text: string): boolean => bytes.length >= text.length && [...text].every((c, i) => bytes[i] === c.charCodeAt(0))
const signed = (b: number): number => (b > 127 ? b - 256 : b)

function stable(bytes: Uint8Array, at: number, kind: GoDiceStableKind, what: string): Decoded<GoDiceMessage> {
  if (bytes.length < at + 3) return { ok: false, error: `${what} needs ${at + 3} bytes, got ${bytes.length}` }
  const vector: [number, number, number] = [signed(bytes[at]), signed(bytes[at + 1]), signed(bytes[at + 2])]
  // A die at rest feels gravity (about 64 on one axis): a vector near zero is no reading at all.
  if (Math.hypot(...vector) < 24) return { ok: false, error: `${what}: vector ${vector.join(' ')} is too weak to tell a face` }
  return { ok: true, message: { type: 'stable', kind, face: goDiceD6Face(vector), vector } }
}

/** Decodes one notification of a GoDice. Never throws: a short or unknown message is refused with why. */
export function decodeGoDice(bytes: Uint8Array): Decoded<GoDiceMessage> {
  if (bytes.length === 0) return { ok: false, error: 'empty notification' }
  if (ascii(bytes, 'Bat')) {
    if (bytes.length < 4) return { ok: false, error: 'Bat needs 4 bytes' }
    if (bytes[3] > 100) return { ok: false, error: `Bat: ${bytes[3]} % is not a percentage` }
    return { ok: true, message: { type: 'battery', percent: bytes[3] } }
  }
  if (ascii(bytes, 'Col')) {
    if (bytes.length < 4) return { ok: false, error: 'Col needs 4 bytes' }
    const colour = GODICE_COLOURS[bytes[3]]
    return colour ? { ok: true, message: { type: 'colour', colour } } : { ok: false, error: `Col: unknown colour ${bytes[3]}` }
  }
  if (ascii(bytes, 'FS')) return stable(bytes, 2, 'fake', 'FS')
  if (ascii(bytes, 'TS')) return stable(bytes, 2, 'tilt', 'TS')
  if (ascii(bytes, 'MS')) return stable(bytes, 2, 'move', 'MS')
  if (ascii(bytes, 'S')) return stable(bytes, 1, 'stable', 'S')
  if (ascii(bytes, 'R')) return { ok: true, message: { type: 'rolling' } }
  return { ok: false, error: `unknown message starting 0x${bytes[0].toString(16).padStart(2, '0')}` }
}

export const goDiceRequestBattery = (): Uint8Array => Uint8Array.of(3)
export const goDiceRequestColour = (): Uint8Array => Uint8Array.of(23)

/** Pulses both LEDs to identify a die: about two pulses a second for `seconds`. */
export function goDicePulse(seconds: number, rgb: readonly [number, number, number] = [255, 255, 255]): Uint8Array {
  const count = Math.max(1, Math.min(255, Math.round(seconds * 2)))
  const [r, g, b] = rgb.map((c) => Math.max(0, Math.min(255, Math.round(c))))
  return Uint8Array.of(16, count, 25, 25, r, g, b, 1, 0)
}

/**
 * The die's own identity within the hub protocol's die id (1 to 8 letters or digits): `G` and the
 * part of its advertised name after "GoDice_" up to the next "_" ("GoDice_5A3C_B_v03" → "G5A3C"),
 * or, when that part does not fit, `G` and 7 base-36 digits of a hash of the whole name.
 */
export function goDiceDieId(name: string): string {
  const rest = name.startsWith(GODICE_NAME_PREFIX) ? name.slice(GODICE_NAME_PREFIX.length) : name
  const part = rest.split('_')[0]
  if (/^[A-Za-z0-9]{1,7}$/.test(part)) return `G${part.toUpperCase()}`
  let hash = 0x811c9dc5
  for (const c of name) hash = Math.imul(hash ^ c.charCodeAt(0), 0x01000193) >>> 0
  return `G${hash.toString(36).toUpperCase().padStart(7, '0').slice(0, 7)}`
}
