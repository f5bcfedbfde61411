// Dice Referee line protocol: message shapes. Pure data, no Node/DOM/Electron.
// The wire format is described in firmware-protocol/PROTOCOL.md.

/** Protocol version this code speaks. A host refuses a device whose major differs. */
export const PROTOCOL_MAJOR = 1
export const PROTOCOL_MINOR = 0
/** Longest line in bytes, checksum included, line end (`\r\n` / `\n`) excluded. */
export const MAX_LINE = 96
/** Sequence numbers count 0..65535 then wrap to 0. */
export const SEQ_MODULO = 65536
/** Most dice one device may describe (hello / state count). */
export const MAX_DICE = 64
/** Highest face number (a d100 reports 1..100). */
export const MAX_FACE = 100

/** Charging state of a die's battery. */
export type Charge = 'charging' | 'discharging' | 'full'
export const CHARGES: readonly Charge[] = ['charging', 'discharging', 'full']

/** What a die is doing, as reported in a state snapshot (`dstate`). */
export type DieStatus = 'rolling' | 'settled' | 'cocked' | 'offline'
export const DIE_STATUSES: readonly DieStatus[] = ['rolling', 'settled', 'cocked', 'offline']

/** Device → host: boot / answer to `hello?`. `dice` `die` lines follow. */
export interface HelloMessage {
  type: 'hello'
  seq: number
  major: number
  minor: number
  firmware: string
  firmwareVersion: string
  serial: string
  /** How many `die` lines follow this hello. */
  dice: number
  /** The device has a keypad (sends `key` / `typed`). */
  keypad: boolean
}

/** Device → host: one die of the device, after a hello. */
export interface DieMessage {
  type: 'die'
  seq: number
  /** Stable id (1–8 letters/digits), the same after every reboot. */
  die: string
  /** Number of faces: a d6 has 6. */
  sides: number
  /** Colour people can see, e.g. `red` or `#ff0000`; `-` on the wire when none. */
  colour: string | null
  /** Free text label, may be empty. */
  label: string
}

/** A die left the table surface and is tumbling. `throw` groups dice thrown together. */
export interface RollingMessage {
  type: 'rolling'
  seq: number
  die: string
  throw: number
}

/** A die came to rest showing `face` (1..sides). */
export interface SettledMessage {
  type: 'settled'
  seq: number
  die: string
  throw: number
  face: number
}

/** A die came to rest without a clear face up (leaning on the tray wall, another die…). */
export interface CockedMessage {
  type: 'cocked'
  seq: number
  die: string
  throw: number
}

/** A die was nudged, turned or carried by hand (not thrown). `face` is up now, null if none is clear. */
export interface MovedMessage {
  type: 'moved'
  seq: number
  die: string
  face: number | null
}

export interface BatteryMessage {
  type: 'battery'
  seq: number
  die: string
  /** 0..100 */
  percent: number
  charge: Charge
}

/** The device is alive; the next heartbeat comes within `intervalMs`. */
export interface HeartbeatMessage {
  type: 'heartbeat'
  seq: number
  intervalMs: number
}

export interface ErrorMessage {
  type: 'error'
  seq: number
  /** Short machine code, e.g. `die-lost`, `bad-command`, `unknown-die`. */
  code: string
  /** Die concerned, null when the error is about the whole device. */
  die: string | null
  /** Human text, may be empty. */
  text: string
}

/** One key pressed on the keypad: `0`..`9`, `*`, `#`, `A`..`D`, or a name like `enter`. */
export interface KeyMessage {
  type: 'key'
  seq: number
  key: string
}

/** A value typed and confirmed on the keypad (the keypad firmware collects the keys). */
export interface TypedMessage {
  type: 'typed'
  seq: number
  value: string
}

/** Start of a state snapshot (answer to `state?`): `dice` `dstate` lines follow. */
export interface StateMessage {
  type: 'state'
  seq: number
  dice: number
}

/** One die in a state snapshot. */
export interface DieStateMessage {
  type: 'dstate'
  seq: number
  die: string
  status: DieStatus
  /** Throw of the die's latest roll, null when it has not rolled since boot. */
  throw: number | null
  /** Face up: a number when settled, null when rolling or cocked, last known (or null) when offline. */
  face: number | null
  percent: number | null
  charge: Charge | null
}

/** Every line a device sends. */
export type DeviceMessage =
  | HelloMessage
  | DieMessage
  | RollingMessage
  | SettledMessage
  | CockedMessage
  | MovedMessage
  | BatteryMessage
  | HeartbeatMessage
  | ErrorMessage
  | KeyMessage
  | TypedMessage
  | StateMessage
  | DieStateMessage

export type DeviceMessageType = DeviceMessage['type']

/** Every line a host sends. Host lines carry no sequence number. */
export type HostCommand =
  /** `hello?`: send hello and die lines again. */
  | { type: 'hello-request' }
  /** `state?`: send a full state snapshot. */
  | { type: 'state-request' }
  /** `blink DIE SECONDS`: light a die up so people can find it; 0 seconds stops. */
  | { type: 'blink'; die: string; seconds: number }

export type HostCommandType = HostCommand['type']

/** Why a line was refused. The same codes are used by the C reference and the test vectors. */
export type ProtocolErrorCode =
  | 'empty'
  | 'too-long'
  | 'bad-char'
  | 'malformed'
  | 'bad-checksum'
  | 'unknown-type'
  | 'unknown-major'
  | 'bad-field'

export const PROTOCOL_ERROR_CODES: readonly ProtocolErrorCode[] = [
  'empty',
  'too-long',
  'bad-char',
  'malformed',
  'bad-checksum',
  'unknown-type',
  'unknown-major',
  'bad-field'
]

export type ParseResult<T> =
  | { ok: true; message: T }
  | { ok: false; code: ProtocolErrorCode; reason: string }
