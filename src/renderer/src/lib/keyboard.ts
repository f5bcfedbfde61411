import { KEYBOARD_KEYS, type KeypadKey } from '@shared/keypad-keys'

export type KeyCommand = { type: 'keypad'; key: KeypadKey } | { type: 'roll' }

const NUMPAD_CODES: Record<string, KeypadKey> = {
  NumpadEnter: 'Enter',
  NumpadAdd: '+',
  NumpadSubtract: '-',
  NumpadMultiply: '*',
  NumpadDivide: '/',
  NumpadDecimal: '.',
  NumpadComma: '.'
}

type KeyLike = Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey'>

/**
 * What a physical key means on the Table screen. The numpad is read by its code, so it works
 * with Num Lock off and with a decimal comma; everything else by the character it types.
 */
export function commandForKey(event: KeyLike): KeyCommand | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null
  if (event.key === ' ' || event.code === 'Space') return { type: 'roll' }
  const numpadDigit = /^Numpad([0-9])$/.exec(event.code)
  if (numpadDigit) return { type: 'keypad', key: numpadDigit[1] as KeypadKey }
  const numpad = NUMPAD_CODES[event.code]
  if (numpad) return { type: 'keypad', key: numpad }
  // Every other key by the character it types, from the keypad's key table (src/shared/keypad-keys.ts).
  const key = KEYBOARD_KEYS.get(event.key)
  return key ? { type: 'keypad', key } : null
}

/** Ctrl+Z (⌘Z) undoes the last line, Ctrl+Y or Ctrl+Shift+Z (⌘⇧Z) plays it again, as in any editor. */
export function historyShortcut(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>): 'undo' | 'redo' | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null
  const key = event.key.toLowerCase()
  if (key === 'z') return event.shiftKey ? 'redo' : 'undo'
  if (key === 'y' && !event.shiftKey) return 'redo'
  return null
}

/** Typing in a field must not throw dice. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).tagName !== 'string') return false
  const element = target as HTMLElement
  const tag = element.tagName.toLowerCase()
  if (tag === 'textarea' || tag === 'select' || element.isContentEditable) return true
  if (tag !== 'input') return false
  const type = ((element as HTMLInputElement).type || 'text').toLowerCase()
  return !['button', 'checkbox', 'radio', 'file', 'submit', 'reset', 'range', 'color'].includes(type)
}
