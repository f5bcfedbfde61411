// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { commandForKey, historyShortcut, isTypingTarget } from '@renderer/lib/keyboard'

function key(key: string, code: string, modifiers: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey', boolean>> = {}) {
  return commandForKey({ key, code, ctrlKey: false, metaKey: false, altKey: false, ...modifiers })
}

describe('commandForKey', () => {
  it('maps the top-row digits, 0 and 7-9 included (main refuses those with a message)', () => {
    for (const digit of '0123456789') expect(key(digit, `Digit${digit}`)).toEqual({ type: 'keypad', key: digit })
  })

  it('maps the numpad by its code, with Num Lock on or off', () => {
    expect(key('4', 'Numpad4')).toEqual({ type: 'keypad', key: '4' })
    expect(key('ArrowLeft', 'Numpad4')).toEqual({ type: 'keypad', key: '4' })
    expect(key('Enter', 'NumpadEnter')).toEqual({ type: 'keypad', key: 'Enter' })
    expect(key('+', 'NumpadAdd')).toEqual({ type: 'keypad', key: '+' })
    expect(key('-', 'NumpadSubtract')).toEqual({ type: 'keypad', key: '-' })
    expect(key('*', 'NumpadMultiply')).toEqual({ type: 'keypad', key: '*' })
    expect(key('/', 'NumpadDivide')).toEqual({ type: 'keypad', key: '/' })
    expect(key(',', 'NumpadDecimal')).toEqual({ type: 'keypad', key: '.' })
  })

  it('maps Enter, Backspace, the operators and Space', () => {
    expect(key('Enter', 'Enter')).toEqual({ type: 'keypad', key: 'Enter' })
    expect(key('Backspace', 'Backspace')).toEqual({ type: 'keypad', key: 'Backspace' })
    for (const operator of ['+', '-', '*', '/', '.']) expect(key(operator, 'Whatever')).toEqual({ type: 'keypad', key: operator })
    expect(key(' ', 'Space')).toEqual({ type: 'roll' })
  })

  it('leaves other keys and shortcuts alone', () => {
    expect(key('a', 'KeyA')).toBeNull()
    // Esc clears what was typed, as the keypad's `.` does.
    expect(key('Escape', 'Escape')).toEqual({ type: 'keypad', key: '.' })
    expect(key('1', 'Digit1', { ctrlKey: true })).toBeNull()
    expect(key('r', 'KeyR', { metaKey: true })).toBeNull()
  })
})

describe('isTypingTarget', () => {
  it('is true for text fields and false for buttons', () => {
    const text = document.createElement('input')
    const checkbox = document.createElement('input')
    checkbox.type = 'checkbox'
    expect(isTypingTarget(text)).toBe(true)
    expect(isTypingTarget(document.createElement('textarea'))).toBe(true)
    expect(isTypingTarget(checkbox)).toBe(false)
    expect(isTypingTarget(document.createElement('button'))).toBe(false)
    expect(isTypingTarget(null)).toBe(false)
  })
})

describe('historyShortcut', () => {
  const shortcut = (key: string, modifiers: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {}) =>
    historyShortcut({ key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...modifiers })

  it('undoes with Ctrl+Z or ⌘Z, redoes with Ctrl+Y, Ctrl+Shift+Z or ⌘⇧Z; nothing else', () => {
    expect(shortcut('z', { ctrlKey: true })).toBe('undo')
    expect(shortcut('z', { metaKey: true })).toBe('undo')
    expect(shortcut('y', { ctrlKey: true })).toBe('redo')
    expect(shortcut('Z', { ctrlKey: true, shiftKey: true })).toBe('redo')
    expect(shortcut('Z', { metaKey: true, shiftKey: true })).toBe('redo')
    expect(shortcut('z')).toBeNull()
    expect(shortcut('z', { ctrlKey: true, altKey: true })).toBeNull()
    expect(shortcut('r', { ctrlKey: true })).toBeNull()
  })
})
