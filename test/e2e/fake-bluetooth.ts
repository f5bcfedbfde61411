// A test double of navigator.bluetooth for Chromium (injected with page.addInitScript): it serves
// the GATT services of two Pixels (one on the current firmware's service, one on the legacy one)
// and two GoDice, answers what the app writes the way the dice do (WhoAreYou → IAmADie, GoDice
// colour request → "Col"), and lets the test send notifications, drop a die and bring it back.
// The bytes follow the published layouts (see src/shared/bluetooth/*.ts).
export interface FakeDieSpec {
  id: string
  name: string
  kind: 'pixels' | 'pixels-legacy' | 'godice'
  pixelId?: number
  colour?: number
}

/** Runs in the page: keep it free of imports and closures over test code. */
export function installFakeBluetooth(specs: FakeDieSpec[]): void {
  const UUID = {
    pixels: { service: 'a6b90001-7a5a-43f2-a962-350c8edc9b5b', notify: 'a6b90002-7a5a-43f2-a962-350c8edc9b5b', write: 'a6b90003-7a5a-43f2-a962-350c8edc9b5b' },
    'pixels-legacy': { service: '6e400001-b5a3-f393-e0a9-e50e24dcca9e', notify: '6e400001-b5a3-f393-e0a9-e50e24dcca9e', write: '6e400002-b5a3-f393-e0a9-e50e24dcca9e' },
    godice: { service: '6e400001-b5a3-f393-e0a9-e50e24dcca9e', notify: '6e400003-b5a3-f393-e0a9-e50e24dcca9e', write: '6e400002-b5a3-f393-e0a9-e50e24dcca9e' }
  }
  const u32 = (n: number): number[] => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff]
  const notifyError = (): Error => Object.assign(new Error('GATT Server is disconnected.'), { name: 'NetworkError' })

  class FakeCharacteristic extends EventTarget {
    value: DataView | null = null
    constructor(private readonly onWrite: ((bytes: number[]) => void) | null) {
      super()
    }
    async startNotifications(): Promise<FakeCharacteristic> {
      return this
    }
    async writeValue(value: Uint8Array): Promise<void> {
      this.onWrite?.([...value])
    }
  }

  class FakeDie extends EventTarget {
    readonly id: string
    readonly name: string
    readonly writes: number[][] = []
    inRange = true
    notifyChar: FakeCharacteristic
    readonly gatt: { connected: boolean; connect(): Promise<unknown>; disconnect(): void; getPrimaryService(uuid: string): Promise<unknown> }
    constructor(readonly spec: FakeDieSpec) {
      super()
      this.id = spec.id
      this.name = spec.name
      this.notifyChar = new FakeCharacteristic(null)
      const uuids = UUID[spec.kind]
      const writeChar = new FakeCharacteristic((bytes) => this.written(bytes))
      this.gatt = {
        connected: false,
        connect: async () => {
          if (!this.inRange) throw notifyError()
          this.gatt.connected = true
          this.notifyChar = new FakeCharacteristic(null)
          return this.gatt
        },
        disconnect: () => {
          this.gatt.connected = false
        },
        getPrimaryService: async (uuid: string) => {
          if (!this.gatt.connected) throw notifyError()
          if (uuid !== uuids.service) throw Object.assign(new Error(`No Services matching UUID ${uuid} found in Device.`), { name: 'NotFoundError' })
          return {
            getCharacteristic: async (c: string) => {
              if (c === uuids.notify) return this.notifyChar
              if (c === uuids.write) return writeChar
              throw Object.assign(new Error(`No Characteristics matching UUID ${c}`), { name: 'NotFoundError' })
            }
          }
        }
      }
    }
    notify(bytes: number[]): void {
      if (!this.gatt.connected) return
      this.notifyChar.value = new DataView(Uint8Array.from(bytes).buffer)
      this.notifyChar.dispatchEvent(new Event('characteristicvaluechanged'))
    }
    written(bytes: number[]): void {
      this.writes.push(bytes)
      const face = 1
      if (this.spec.kind === 'pixels' && bytes[0] === 1) {
        // IAmADie, current firmware: chunks (version, die info, design name, die name, settings, status).
        const name = [...this.name].map((c) => c.charCodeAt(0))
        const chunks = [[15, ...new Array(14).fill(0)], [10, ...u32(this.spec.pixelId!), 1, 2, 6, 2, 0], [2, 0], [name.length + 2, ...name, 0], [13, ...new Array(12).fill(0)], [5, 88, 1, 5, face - 1]]
        setTimeout(() => this.notify([2, ...chunks.flat()]), 5)
      }
      if (this.spec.kind === 'pixels-legacy' && bytes[0] === 1) {
        const legacy = [2, 6, 0, 2, 0, 0, 0, 0, ...u32(this.spec.pixelId!), 0, 0, 0, 0, 0, 0, 1, face - 1, 64, 1]
        setTimeout(() => this.notify(legacy), 5)
      }
      if (this.spec.kind === 'godice' && bytes[0] === 23) setTimeout(() => this.notify([67, 111, 108, this.spec.colour ?? 0]), 5)
      if (this.spec.kind === 'godice' && bytes[0] === 3) setTimeout(() => this.notify([66, 97, 116, 71]), 5)
    }
  }

  const dice = new Map(specs.map((spec) => [spec.id, new FakeDie(spec)]))
  const control = {
    /** The die the next requestDevice returns (the one a player would pick in the chooser). */
    next: null as string | null,
    requests: [] as unknown[],
    notify: (id: string, bytes: number[]) => dice.get(id)!.notify(bytes),
    writes: (id: string) => dice.get(id)!.writes,
    drop(id: string) {
      const die = dice.get(id)!
      die.inRange = false
      die.gatt.connected = false
      die.dispatchEvent(new Event('gattserverdisconnected'))
    },
    back(id: string) {
      dice.get(id)!.inRange = true
    }
  }
  Object.defineProperty(window, '__dice', { value: control })
  Object.defineProperty(navigator, 'bluetooth', {
    value: {
      getAvailability: async () => true,
      async requestDevice(options: unknown) {
        control.requests.push(options)
        const die = control.next ? dice.get(control.next) : undefined
        control.next = null
        if (!die) throw Object.assign(new Error('User cancelled the requestDevice() chooser.'), { name: 'NotFoundError' })
        return die
      }
    }
  })
}
