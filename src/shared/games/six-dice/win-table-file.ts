// A solved chance-to-win table as bytes, for the cache on disk: "DRWT", a little-endian u32
// header length, the header (JSON: version, options, sizes, the scoring fingerprint, a checksum),
// spaces up to a multiple of 8, then the values and the final-turn chances as float64s.
// Reading refuses anything that is not exactly a table of this version for these options, so a
// stale, cut-off or damaged file is simply solved again.
import { throwGroups, scoringTableOf, WIN_TABLE_VERSION, type WinSpec, type WinTable } from './win-solver'

const MAGIC = [0x44, 0x52, 0x57, 0x54] // "DRWT"

interface FileHeader {
  version: number
  spec: WinSpec
  belowTarget: number
  leadCapLevels: number
  roles: 1 | 2
  fingerprint: string
  values: number
  final: number
  checksum: string
}

function checksumOf(bytes: Uint8Array): string {
  let h = 0x811c9dc5
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0
  return h.toString(16).padStart(8, '0')
}

/** The file name of a table's cache: one per option set and version. */
export function winTableFileName(spec: WinSpec): string {
  return `${spec.game}-target${spec.target}-entry${spec.entry}.v${WIN_TABLE_VERSION}.bin`
}

export function encodeWinTable(table: WinTable): Uint8Array {
  const payload = new Uint8Array(8 * (table.values.length + table.final.length))
  new Float64Array(payload.buffer).set(table.values, 0)
  new Float64Array(payload.buffer).set(table.final, table.values.length)
  const header: FileHeader = {
    version: table.version,
    spec: table.spec,
    belowTarget: table.belowTarget,
    leadCapLevels: table.leadCapLevels,
    roles: table.roles,
    fingerprint: table.fingerprint,
    values: table.values.length,
    final: table.final.length,
    checksum: checksumOf(payload)
  }
  let json = JSON.stringify(header)
  while ((8 + json.length) % 8 !== 0) json += ' '
  const head = new TextEncoder().encode(json)
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
  if (8 + headLength > bytes.length || (8 + headLength) % 8 !== 0) return fail('cut off in its header')
  let header: FileHeader
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headLength))) as FileHeader
  } catch {
    return fail('its header is not JSON')
  }
  if (header.version !== WIN_TABLE_VERSION) return fail(`version ${header.version}, not ${WIN_TABLE_VERSION}`)
  if (header.spec?.game !== spec.game || header.spec.target !== spec.target || header.spec.entry !== spec.entry) return fail('solved for other options')
  if (header.fingerprint !== throwGroups(scoringTableOf(spec.game)).fingerprint) return fail('solved for another scoring table')
  const n = Math.ceil(spec.target / 50)
  const roles = header.roles
  if ((roles !== 1 && roles !== 2) || header.belowTarget !== n || header.values !== roles * n * n) return fail('its sizes do not fit these options')
  if (!Number.isInteger(header.final) || header.final < 1 || !Number.isInteger(header.leadCapLevels) || header.leadCapLevels < 1) return fail('its sizes are wrong')
  const payload = bytes.subarray(8 + headLength)
  if (payload.length !== 8 * (header.values + header.final)) return fail('cut off or too long')
  if (checksumOf(payload) !== header.checksum) return fail('damaged (checksum)')
  const numbers = new Float64Array(payload.slice().buffer)
  const values = numbers.slice(0, header.values)
  const final = numbers.slice(header.values)
  for (const x of values) if (!(x >= 0 && x <= 1)) return fail('holds a value that is no chance')
  return {
    ok: true,
    table: { spec: { ...spec }, version: header.version, belowTarget: n, leadCapLevels: header.leadCapLevels, roles, values, final, fingerprint: header.fingerprint }
  }
}
