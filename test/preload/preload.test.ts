// The preload exposes one small typed API (the methods of the screen API's table) and never ipcRenderer itself.
import { describe, expect, it, vi } from 'vitest'
import { API_METHODS } from '@shared/api-methods'

const fake = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  invoked: [] as unknown[][],
  listeners: new Map<string, (...args: unknown[]) => void>()
}))

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (name: string, api: unknown) => fake.exposed.set(name, api) },
  ipcRenderer: {
    invoke: (...args: unknown[]) => {
      fake.invoked.push(args)
      return Promise.resolve({ ok: true })
    },
    on: (channel: string, listener: (...args: unknown[]) => void) => fake.listeners.set(channel, listener),
    removeListener: (channel: string) => fake.listeners.delete(channel)
  }
}))

describe('the preload', () => {
  it('exposes only the table API, as window.diceReferee', async () => {
    await import('@preload/index')
    expect([...fake.exposed.keys()]).toEqual(['diceReferee'])
    const api = fake.exposed.get('diceReferee') as Record<string, (...args: unknown[]) => unknown>
    expect(Object.values(api).every((member) => typeof member === 'function')).toBe(true)
    expect(Object.keys(api)).not.toContain('invoke')
    expect(Object.keys(api).sort()).toEqual([...Object.keys(API_METHODS), 'onState'].sort())

    await api.submit({ roll: [4, 2, 2, 6] })
    expect(fake.invoked.at(-1)).toEqual(['table:call', 'submit', [{ roll: [4, 2, 2, 6] }]])
    await api.keypad('Enter')
    expect(fake.invoked.at(-1)).toEqual(['table:call', 'keypad', ['Enter']])

    const states: unknown[] = []
    const stop = api.onState((state: unknown) => states.push(state)) as () => void
    fake.listeners.get('table:state')!({}, { version: 3 })
    expect(states).toEqual([{ version: 3 }])
    stop()
    expect(fake.listeners.has('table:state')).toBe(false)
  })
})
