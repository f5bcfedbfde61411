// A solved chance-to-win table as bytes, for the tables shipped with the app and the cache in the
// data folder (both gzipped by the main process): "DRWT", a little-endian u32 header length, the
// header (JSON: version, options, sizes, the scoring fingerprint, a checksum), then the values.
//
// Each chance is stored as a whole number of 2^-32 (so within 2^-33, 1.2e-10, of the solved
// value), as its difference from a prediction by its neighbours (see predicted), zigzag-coded in
// 5 bytes, byte planes one after the other: the table is smooth, so the differences are small and
// gzip packs them to under a quarter of the float64s (Farkle, target 10,000: 73 KB against
// 313 KB; the float64s themselves gzip to 292 KB). The checksum is FNV-1a (32 bits) of those
// bytes. The final-turn chances are not stored: they follow from the scoring table and are worked
// out again on reading.
// Reading refuses anything that is not exactly a table of this version for these options, so a
// stale, cut-off or damaged file is simply solved again.
import { finalChancesOf, scoringTableOf, throwGroups, WIN_STEP, WIN_TABLE_VERSION, type WinSpec, type WinTable } from './win-solver'

const MAGIC = [0x44, 0x52, 0x57, 0x54] // "DRWT"
/** Stored chances are whole numbers of 2^-QUANTUM_BITS. */
const QUANTUM_BITS = 32
const SCALE = 2 ** QUANTUM_BITS
/** Bytes per stored difference from the prediction (zigzag-coded: under 2^36 for chances). */
const DIFFERENCE_BYTES = 5

interface FileHeader {
  version: number
  spec: WinSpec
  belowTarget: number
  leadCapLevels: number
  roles: 1 | 2
  fingerprint: string
  values: number
  quantumBits: number
  checksum: string
}

function checksumOf(bytes: Uint8Array): string {
  let h = 0x811c9dc5
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0
  return h.toString(16).padStart(8, '0')
}

/** The file name of a table, shipped or cached: one per option set and version. */
export function winTableFileName(spec: WinSpec): string {
  return `${spec.game}-target${spec.target}-entry${spec.entry}.v${WIN_TABLE_VERSION}.bin.gz`
}

/** The largest difference between a table's chances and those read back from its file. */
export const WIN_TABLE_PRECISION = 2 ** -(QUANTUM_BITS + 1)

/**
 * The prediction of value i, from its neighbours at higher a and b, which come before it (the
 * values go from the last index down; (role, a, b) is at (role * n + a) * n + b): the plane
 * through (a + 1, b), (a, b + 1) and (a + 1, b + 1), corrected by the mean of the same plane's
 * misses at (a + 1, b) and (a, b + 1) where there is room.
 */
function predicted(q: Float64Array, n: number, i: number): number {
  const a = Math.floor(i / n) % n
  const b = i % n
  if (a + 1 < n && b + 1 < n) {
    const plane = q[i + n] + q[i + 1] - q[i + n + 1]
    if (a + 2 >= n || b + 2 >= n) return plane
    const missA = q[i + n] - (q[i + 2 * n] + q[i + n + 1] - q[i + 2 * n + 1])
    const missB = q[i + 1] - (q[i + n + 1] + q[i + 2] - q[i + n + 2])
    return plane + Math.round((missA + missB) / 2)
  }
  if (a + 1 < n) return q[i + n]
  if (b + 1 < n) return q[i + 1]
  return SCALE / 2
}

export function encodeWinTable(table: WinTable): Uint8Array {
  const n = table.belowTarget
  const count = table.values.length
  const q = new Float64Array(count)
  // Byte k of every difference, then byte k + 1 of every one: the high bytes are nearly all 0.
  const payload = new Uint8Array(DIFFERENCE_BYTES * count)
  for (let i = count - 1; i >= 0; i--) {
    const v = table.values[i]
    if (!(v >= 0 && v <= 1)) throw new Error(`a table with ${v} at index ${i} (not a chance) cannot be written`)
    q[i] = Math.round(v * SCALE)
    // Differences reach about ±2^34: plain arithmetic rather than 32-bit bit operations.
    const difference = q[i] - predicted(q, n, i)
    let zigzag = difference >= 0 ? 2 * difference : -2 * difference - 1
    for (let k = 0; k < DIFFERENCE_BYTES; k++) {
      payload[k * count + i] = zigzag % 256
      zigzag = Math.floor(zigzag / 256)
    }
  }
  const header: FileHeader = {
    version: table.version,
    spec: table.spec,
    belowTarget: n,
    leadCapLevels: table.leadCapLevels,
    roles: table.roles,
    fingerprint: table.fingerprint,
    values: table.values.length,
    quantumBits: QUANTUM_BITS,
    checksum: checksumOf(payload)
  }
  const head = new TextEncoder().encode(JSON.stringify(header))
  const out = new Uint8Array(8 + head.length + payload.length)
  out.set(MAGIC, 0)
  new DataView(out.buffer).setUint32(4, head.length, true)
  out.set(head, 8)
  out.set(payload, 8 + head.length)
  return out
}

/** The table in `bytes` if it is a whole table of this version for `spec`; else why not. */
export function decodeWinTable(bytes: Uint8Array, spec: WinSpec): { ok: true; table: WinTable } | { ok: false; error: string } {
  const fail = (error: string): { ok: false; error: string } => ({ ok: false, error })
  if (bytes.length < 8 || MAGIC.some((m, i) => bytes[i] !== m)) return fail('not a chance-to-win table')
  const headLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true)
  if (8 + headLength > bytes.length) return fail('cut off in its header')
  let header: FileHeader
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headLength))) as FileHeader
  } catch {
    return fail('its header is not JSON')
  }
  if (header.version !== WIN_TABLE_VERSION) return fail(`version ${header.version}, not ${WIN_TABLE_VERSION}`)
  if (header.spec?.game !== spec.game || header.spec.target !== spec.target || header.spec.entry !== spec.entry) return fail('solved for other options')
  if (header.fingerprint !== throwGroups(scoringTableOf(spec.game)).fingerprint) return fail('solved for another scoring table')
  const n = Math.ceil(spec.target / WIN_STEP)
  const roles = header.roles
  if ((roles !== 1 && roles !== 2) || header.belowTarget !== n || header.values !== roles * n * n) return fail('its sizes do not fit these options')
  if (header.quantumBits !== QUANTUM_BITS || !Number.isInteger(header.leadCapLevels) || header.leadCapLevels < 1) return fail('its sizes are wrong')
  const payload = bytes.subarray(8 + headLength)
  if (checksumOf(payload) !== header.checksum) return fail('damaged (checksum)')
  const count = header.values
  if (payload.length !== DIFFERENCE_BYTES * count) return fail('cut off or too long')
  const q = new Float64Array(count)
  for (let i = count - 1; i >= 0; i--) {
    let zigzag = 0
    for (let k = DIFFERENCE_BYTES - 1; k >= 0; k--) zigzag = zigzag * 256 + payload[k * count + i]
    q[i] = predicted(q, n, i) + (zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2)
    if (!(q[i] >= 0 && q[i] <= SCALE)) return fail('holds a value that is no chance')
  }
  const values = new Float64Array(q.length)
  for (let i = 0; i < q.length; i++) values[i] = q[i] / SCALE
  return {
    ok: true,
    table: {
      spec: { ...spec },
      version: header.version,
      belowTarget: n,
      leadCapLevels: header.leadCapLevels,
      roles,
      values,
      final: finalChancesOf(spec, header.leadCapLevels),
      fingerprint: header.fingerprint
    }
  }
}
