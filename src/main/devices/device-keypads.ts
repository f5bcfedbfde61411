// The keypads built into devices (a dice tray's): each types into an entry of its own, as each
// screen does, and its moves go to the game table as that keypad's.
import { keypadKeyOf, keysOfTyped, type KeypadKey } from '@shared/keypad-keys'
import type { GameTable } from '../core/game/game-table'
import type { Notices } from '../core/screens/notices'
import { TypedEntry } from '../core/screens/typed-entry'
import type { DeviceRegistry } from './device-registry'
import { deviceName, type ManagedDevice } from './managed-device'

export class DeviceKeypads {
  private readonly entries = new Map<string, TypedEntry>()
  private latestKey: string | null = null
  private readonly unsubscribe: (() => void)[]

  constructor(
    registry: DeviceRegistry,
    private readonly table: GameTable,
    private readonly notices: Notices,
    /** Test mode: keys are shown, not entered. */
    private readonly testMode: () => boolean,
    private readonly changed: () => void
  ) {
    this.unsubscribe = [
      registry.events.subscribe((event) => {
        if (event.type !== 'message') return
        const m = event.message
        if (m.type === 'key') this.key(event.device, m.key)
        else if (m.type === 'typed') this.typed(event.device, m.value)
      }),
      // Another game, or a line taken back: what was typed was for the position before.
      table.subscribe((event) => {
        if (event.type === 'replaced' || event.type === 'undone') for (const entry of this.entries.values()) entry.clear()
      })
    ]
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribe) unsubscribe()
  }

  /** The last key or text a device keypad sent (the Devices tab shows it). */
  get lastKey(): string | null {
    return this.latestKey
  }

  private key(device: ManagedDevice, sent: string): void {
    this.latestKey = sent
    if (this.testMode()) return this.changed()
    const key = keypadKeyOf(sent)
    if (key === null) return this.notices.post(`Keypad key "${sent}" means nothing here`, 'warning')
    this.press(device, key as KeypadKey)
  }

  private typed(device: ManagedDevice, value: string): void {
    this.latestKey = value
    if (this.testMode()) return this.changed()
    const keys = keysOfTyped(value)
    if (keys === null) return this.notices.post(`Typed "${value}" on the keypad: type die faces 1-6, or * + - /`, 'warning')
    for (const key of keys) if (!this.press(device, key as KeypadKey)) break
  }

  private press(device: ManagedDevice, key: KeypadKey): boolean {
    const outcome = this.entryOf(device).press(key)
    if (!outcome.ok) this.notices.post(outcome.error, 'error')
    else this.changed()
    return outcome.ok
  }

  private entryOf(device: ManagedDevice): TypedEntry {
    let entry = this.entries.get(device.id)
    if (!entry) {
      entry = new TypedEntry(this.table, { kind: 'keypad', device: `the keypad of ${deviceName(device)}` })
      this.entries.set(device.id, entry)
    }
    return entry
  }
}
