// The keypad's keys, in one table: what each does, what shows it, and what presses it on each
// kind of keypad (a computer keyboard by the character it types, a serial keypad by the name its
// `key` lines send, firmware-protocol/PROTOCOL.md "key, typed"). Everything else derives from
// it: the screen API's list of keys, the grammar's keys (./keypad.ts), the keyboard legend, the
// serial keypad (keypadKeyOf, keysOfTyped), the on-screen keypad and the Table screen's keyboard
// (src/renderer/src/lib/keyboard.ts, which adds the numpad's key codes). A game names what its
// own keys (+, *, -) do in its folder (src/shared/games/<game>/index.ts, `keypad`).

export interface KeypadKeyInfo {
  /** The key as the grammar and the screen API know it. */
  key: string
  /** A name for it in test ids and code: "plus", "enter". */
  name: string
  /** What the on-screen keypad's key shows. */
  cap: string
  /** How the keyboard legend names it, or null when the legend does not list it on its own (the digits). */
  legend: string | null
  /** What it does, in the legend's words; for a game's own keys, what it does in most games (a game may say better). */
  does: string
  /** What it does, in a sentence (the on-screen key's tooltip). */
  title: string
  /** The `KeyboardEvent.key` values that press it on a computer keyboard. */
  keyboard: readonly string[]
  /** The names a serial keypad's `key` line may send for it (compared in lower case). */
  serial: readonly string[]
  /** Typed alone on a serial keypad (`typed` line), it is pressed as it is. */
  alone?: true
}

const digit = <const D extends string>(key: D) =>
  ({
    key,
    name: key,
    cap: key,
    legend: null,
    does: key >= '1' && key <= '6' ? `type a ${key}` : 'refused: no die face',
    title: key >= '1' && key <= '6' ? `Type a ${key}` : `${key} is no die face`,
    keyboard: [key],
    serial: [key]
  }) as const

/** Every key, in the order the screen API lists them. */
export const KEYPAD_KEY_TABLE = [
  ...(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'] as const).map(digit),
  {
    key: 'Enter',
    name: 'enter',
    cap: 'Enter',
    legend: 'Enter',
    does: 'enter',
    title: 'Enter the typed dice: the throw that is due, or the dice to keep or re-roll',
    keyboard: ['Enter'],
    serial: ['#', 'enter', 'a']
  },
  { key: 'Backspace', name: 'backspace', cap: '⌫', legend: 'Backspace', does: 'delete a digit', title: 'Delete the last digit', keyboard: ['Backspace'], serial: ['back', 'b'] },
  { key: '+', name: 'plus', cap: '+', legend: '+', does: 'hold all', title: 'Keep or re-roll the most dice on offer', keyboard: ['+'], serial: ['+'], alone: true },
  { key: '-', name: 'minus', cap: '−', legend: '−', does: 'end the turn', title: 'End the turn (Foursies)', keyboard: ['-'], serial: ['-'], alone: true },
  { key: '*', name: 'star', cap: '*', legend: '*', does: 'socks or bank', title: 'Socks (Foursies) or bank (Farkle, Fouche)', keyboard: ['*'], serial: ['*'], alone: true },
  { key: '/', name: 'slash', cap: '/', legend: '/', does: 'undo', title: 'Undo the last line', keyboard: ['/'], serial: ['/', 'd', 'undo'], alone: true },
  // Esc clears what was typed, as `.` does (listed on the Table screen).
  { key: '.', name: 'dot', cap: '.', legend: '. or Esc', does: 'clear', title: 'Clear what was typed', keyboard: ['.', 'Escape'], serial: ['.', 'clear', 'c'] }
] as const satisfies readonly KeypadKeyInfo[]

export type KeypadKey = (typeof KEYPAD_KEY_TABLE)[number]['key']

/** Keys of the keypad grammar (a numeric keypad, the screen's keypad, or a serial keypad). */
export const KEYPAD_KEYS: readonly KeypadKey[] = KEYPAD_KEY_TABLE.map((info) => info.key)

const BY_KEY = new Map<string, KeypadKeyInfo & { key: KeypadKey }>(KEYPAD_KEY_TABLE.map((info) => [info.key, info]))

/** Everything about one key. */
export function keypadKeyInfo(key: KeypadKey): KeypadKeyInfo {
  return BY_KEY.get(key) as KeypadKeyInfo
}

/** What each character a computer keyboard types presses (`KeyboardEvent.key`). */
export const KEYBOARD_KEYS: ReadonlyMap<string, KeypadKey> = new Map(KEYPAD_KEY_TABLE.flatMap((info) => info.keyboard.map((name) => [name, info.key] as const)))

const SERIAL_KEYS: ReadonlyMap<string, KeypadKey> = new Map(KEYPAD_KEY_TABLE.flatMap((info) => info.serial.map((name) => [name.toLowerCase(), info.key] as const)))

/**
 * A serial keypad's key (`key` line) as a key of the keypad grammar, or null. Digits, `*` `+`
 * `-` `/` `.` are themselves; `#`, `enter` and `A` are Enter; `back` and `B` are Backspace;
 * `clear` and `C` clear (`.`); `D` and `undo` undo (`/`).
 */
export function keypadKeyOf(key: string): KeypadKey | null {
  return SERIAL_KEYS.get(key.toLowerCase()) ?? null
}

/** The keys a `typed` value stands for: clear what was typed, the value, then Enter (a lone `*`, `+`, `-` or `/` is pressed as is). */
export function keysOfTyped(value: string): KeypadKey[] | null {
  const alone = KEYPAD_KEY_TABLE.find((info) => 'alone' in info && info.key === value)
  if (alone) return [alone.key]
  if (!/^[0-9]{1,12}$/.test(value)) return null
  return ['.', ...[...value].map((character) => keypadKeyOf(character) as KeypadKey), 'Enter']
}
