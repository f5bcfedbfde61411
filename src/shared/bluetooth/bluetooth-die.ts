// One Bluetooth die (Pixels or GoDice) seen as the serial hub's protocol sees a die: its
// notifications, decoded by ./pixels.ts or ./godice.ts, become the same `rolling` / `settled` /
// `cocked` / `moved` / `battery` messages a hub sends, with throw numbers counted here (one per
// roll). That is how every die, whatever its kind, enters the one throw assembly. Pure.
//
// Readings (docs/rules-readings.md, "Bluetooth dice"):
// * Pixels: `rolling` or `handling` starts a roll once; `rolled` (older firmware: `onFace`, the same
//   number) after a roll settles it, `crooked` cocks it; `onFace` (current firmware: at rest
//   without a roll) is a die moved by hand.
// * GoDice: "R" starts a roll; "S" after a roll settles it; "FS", "TS", "MS" (fake, tilt, move
//   stable) and an "S" with no roll before it are a die moved by hand (the face it shows now).
import type { BatteryMessage, Charge, CockedMessage, MovedMessage, RollingMessage, SettledMessage } from '../protocol/types'
import { decodeGoDice, GODICE_COLOURS, goDiceDieId, goDicePulse, goDiceRequestBattery, goDiceRequestColour } from './godice'
import { decodePixels, pixelDieId, pixelsBlink, pixelsRequestBattery, pixelsWhoAreYou, type PixelBatteryState } from './pixels'

export type BluetoothKind = 'pixels' | 'godice'
export const BLUETOOTH_KINDS: readonly BluetoothKind[] = ['pixels', 'godice']

export type DieEvent = RollingMessage | SettledMessage | CockedMessage | MovedMessage | BatteryMessage

export type BluetoothVerdict =
  /** Used: the die events it made (maybe none: a repeated state, a message the referee ignores). */
  | { ok: true; events: DieEvent[]; text: string }
  | { ok: false; error: string }

const hex = (bytes: Uint8Array): string => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(' ')

function pixelCharge(state: PixelBatteryState): Charge {
  return state === 'charging' ? 'charging' : state === 'done' ? 'full' : 'discharging'
}

export class BluetoothDie {
  /** The referee's id for the die (pixelDieId once the die said who it is, goDiceDieId from its name). */
  id: string | null
  colour: string | null = null
  /** Faces (Pixels tell their die type; GoDice are read as the d6 shell). */
  sides = 6
  face: number | null = null
  private throwNo = 0
  private rolling = false

  constructor(
    readonly kind: BluetoothKind,
    /** The advertised name. */
    readonly name: string
  ) {
    this.id = kind === 'godice' ? goDiceDieId(name) : null
  }

  /** What to write to the die right after connecting (Pixels: who are you; GoDice: colour, battery). */
  greeting(): Uint8Array[] {
    return this.kind === 'pixels' ? [pixelsWhoAreYou(), pixelsRequestBattery()] : [goDiceRequestColour(), goDiceRequestBattery()]
  }

  /** The bytes that light the die up for `seconds`. */
  blink(seconds: number): Uint8Array {
    return this.kind === 'pixels' ? pixelsBlink(seconds) : goDicePulse(seconds)
  }

  /** Starts a new life after a reconnect: a roll that began before the loss is not continued. */
  reconnected(): void {
    this.rolling = false
  }

  receive(bytes: Uint8Array): BluetoothVerdict {
    return this.kind === 'pixels' ? this.pixels(bytes) : this.goDice(bytes)
  }

  private die(): string {
    return this.id ?? ''
  }

  private roll(): DieEvent[] {
    if (this.rolling) return []
    this.rolling = true
    this.face = null
    this.throwNo = (this.throwNo + 1) % 65536
    return [{ type: 'rolling', seq: 0, die: this.die(), throw: this.throwNo }]
  }

  private settle(face: number): DieEvent[] {
    if (!this.rolling) return this.move(face)
    this.rolling = false
    this.face = face
    return [{ type: 'settled', seq: 0, die: this.die(), throw: this.throwNo, face }]
  }

  private cock(): DieEvent[] {
    if (!this.rolling) return this.move(null)
    this.rolling = false
    this.face = null
    return [{ type: 'cocked', seq: 0, die: this.die(), throw: this.throwNo }]
  }

  private move(face: number | null): DieEvent[] {
    this.rolling = false
    if (face === this.face) return []
    this.face = face
    return [{ type: 'moved', seq: 0, die: this.die(), face }]
  }

  private pixels(bytes: Uint8Array): BluetoothVerdict {
    const decoded = decodePixels(bytes)
    if (!decoded.ok) return decoded
    const m = decoded.message
    if (m.type === 'iAmADie') {
      const id = pixelDieId(m.pixelId)
      if (this.id !== null && this.id !== id) return { ok: false, error: `IAmADie: Pixel Id ${id} where ${this.id} was connected` }
      this.id = id
      this.sides = m.sides
      // The face it lies on now is never a throw (first contact, or back after a loss): a die moved.
      const resting = m.rollState === 'rolled' || m.rollState === 'onFace'
      const events = resting ? this.move(m.face) : []
      this.rolling = false
      events.push({ type: 'battery', seq: 0, die: id, percent: m.battery, charge: pixelCharge(m.charge) })
      return { ok: true, events, text: `IAmADie ${id}, face ${m.face}, battery ${m.battery} %` }
    }
    if (this.id === null) return { ok: false, error: 'message before the die said who it is (IAmADie)' }
    if (m.type === 'batteryLevel') {
      return { ok: true, events: [{ type: 'battery', seq: 0, die: this.die(), percent: m.percent, charge: pixelCharge(m.charge) }], text: `battery ${m.percent} %` }
    }
    if (m.type === 'other') return { ok: true, events: [], text: `message ${m.id} (not used)` }
    const text = `roll state ${m.state}, face ${m.face}`
    switch (m.state) {
      case 'rolling':
      case 'handling':
        return { ok: true, events: this.roll(), text }
      case 'rolled':
        return { ok: true, events: this.settle(m.face), text }
      case 'crooked':
        return { ok: true, events: this.cock(), text }
      case 'onFace':
        return { ok: true, events: this.move(m.face), text }
      case 'unknown':
        return { ok: true, events: [], text }
    }
  }

  private goDice(bytes: Uint8Array): BluetoothVerdict {
    const decoded = decodeGoDice(bytes)
    if (!decoded.ok) return decoded
    const m = decoded.message
    switch (m.type) {
      case 'rolling':
        return { ok: true, events: this.roll(), text: 'roll' }
      case 'stable': {
        const text = `${m.kind} ${m.vector.join(' ')} → ${m.face}`
        return { ok: true, events: m.kind === 'stable' ? this.settle(m.face) : this.move(m.face), text }
      }
      case 'battery':
        return { ok: true, events: [{ type: 'battery', seq: 0, die: this.die(), percent: m.percent, charge: 'discharging' }], text: `battery ${m.percent} %` }
      case 'colour':
        this.colour = m.colour
        return { ok: true, events: [], text: `colour ${m.colour}` }
    }
  }
}

export { hex as bytesToHex, GODICE_COLOURS }

/** Parses `"52 0a ff"` (spaces optional) into bytes; null when it is not hex. */
export function hexToBytes(text: string): Uint8Array | null {
  const clean = text.replace(/\s+/g, '')
  if (clean.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(clean)) return null
  const bytes = new Uint8Array(clean.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16)
  return bytes
}
