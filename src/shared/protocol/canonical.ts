// Canonical `key=value` form of a parsed message, as used by firmware-protocol/vectors/*.tsv:
// fields in wire order, null → `-`, booleans → `true`/`false`, numbers in decimal.

import type { DeviceMessage, HostCommand } from './types'

export function canonicalFields(m: DeviceMessage | HostCommand): string[] {
  return Object.entries(m).map(([k, v]) => `${k}=${v === null ? '-' : String(v)}`)
}
