// Words and small helpers for showing smart dice and serial keypads.
import type { DeviceState, DieStatusView, DropReason, RawLineView } from '@shared/devices'

export const DEVICE_STATE_LABELS: Record<DeviceState, string> = {
  connecting: 'Connecting…',
  connected: 'Connected',
  stale: 'No heartbeat',
  reconnecting: 'Reconnecting…',
  refused: 'Refused'
}

/** The badge tone of a device state. */
export function deviceTone(state: DeviceState): 'good' | 'warn' | 'bad' | 'muted' {
  switch (state) {
    case 'connected':
      return 'good'
    case 'stale':
    case 'reconnecting':
      return 'warn'
    case 'refused':
      return 'bad'
    default:
      return 'muted'
  }
}

export const DIE_STATUS_LABELS: Record<DieStatusView, string> = {
  unknown: 'Not heard yet',
  rolling: 'Rolling',
  settled: 'Settled',
  cocked: 'Cocked',
  offline: 'Offline'
}

export const DROP_REASON_LABELS: Record<DropReason, string> = {
  'too-long': 'Too long',
  'bad-char': 'Bad character',
  malformed: 'Malformed',
  'bad-checksum': 'Bad checksum',
  'unknown-type': 'Unknown type',
  'unknown-major': 'Unknown protocol',
  'bad-field': 'Bad field',
  duplicate: 'Duplicate',
  behind: 'Out of order',
  'out-of-sequence': 'Out of sequence',
  'unknown-die': 'Unknown die',
  'no-keypad': 'Keys without keypad'
}

/** A die colour safe to hand to CSS (a word or a hex colour), or null. */
export function cssColour(colour: string | null): string | null {
  if (!colour) return null
  return /^#[0-9a-f]{3,8}$/i.test(colour) || /^[a-z]{3,24}$/i.test(colour) ? colour : null
}

/** `12:04:05.120` */
export function clockTime(at: number): string {
  const d = new Date(at)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`
}

/** The raw lines to show: the last `limit`, newest first. */
export function newestFirst(raw: readonly RawLineView[], limit = 50): RawLineView[] {
  return raw.slice(-limit).reverse()
}

export const diceCount = (n: number): string => (n === 1 ? '1 die' : `${n} dice`)

/** How a raw line went: `ok` and `sent` are fine, `ok (2 lost)` used but after a gap, anything else dropped. */
export function verdictTone(verdict: string): 'ok' | 'warn' | 'bad' {
  if (verdict === 'ok' || verdict === 'sent') return 'ok'
  // A line held until the sequence catches up is used later, or counted as out of sequence.
  return verdict.startsWith('ok') || verdict.startsWith('held') ? 'warn' : 'bad'
}
