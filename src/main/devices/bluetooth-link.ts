// The Bluetooth dice of this table, seen by the device registry as one more device ("Bluetooth
// dice", id `bluetooth`) with the same surface as a serial connection: counters, the raw event
// log, `send` for a blink. The screen that owns navigator.bluetooth (Web Bluetooth lives in the
// renderer) reports each die's connection and notifications (`BluetoothReport`); the bytes are
// decoded here, in main, by the pure decoders of src/shared/bluetooth, so a malformed notification
// is refused and counted like a bad serial line. What must be written to a die (its greeting, a
// blink) waits in `outbox` until that screen, which watches `DevicesView.bluetooth`, writes it.
import type { BluetoothOutView, DropReason, RawLineView } from '@shared/devices'
import { DROP_REASONS } from '@shared/devices'
import { BluetoothDie, bytesToHex, hexToBytes, type BluetoothKind, type BluetoothVerdict } from '@shared/bluetooth/bluetooth-die'
import type { HostCommand } from '@shared/protocol/types'

export const BLUETOOTH_DEVICE = 'bluetooth'

/** One report from the screen that holds the Bluetooth connections. */
export interface BluetoothReport {
  /** The browser's id for the connection (BluetoothDevice.id): stable while the screen lives. */
  link: string
  kind: BluetoothKind
  /** The advertised name. */
  name: string
  event: 'connected' | 'data' | 'gone'
  /** `data`: the notification's bytes in hex. */
  data?: string
}

const OUTBOX = 32
const RAW = 50

export class BluetoothLink {
  readonly path = 'Web Bluetooth'
  state: 'connected' | 'closed' = 'connected'
  reason: string | null = null
  readonly dropped = Object.fromEntries(DROP_REASONS.map((r) => [r, 0])) as Record<DropReason, number>
  received = 0
  lost = 0
  lastLineAt: number | null = null
  readonly raw: RawLineView[] = []
  readonly lastSeq = null
  snapshotRequests = 0
  /** Dice by the screen's link id. */
  readonly dice = new Map<string, BluetoothDie>()
  /** Writes waiting for the screen, each with a number that only grows. */
  outbox: BluetoothOutView[] = []
  private nextWrite = 1

  constructor(private readonly now: () => number = Date.now) {}

  /** The die of a link (made on its first report; null when the report does not fit the die known on it). */
  dieOf(report: BluetoothReport): BluetoothDie {
    let die = this.dice.get(report.link)
    if (!die || die.kind !== report.kind) {
      die = new BluetoothDie(report.kind, report.name)
      this.dice.set(report.link, die)
    }
    return die
  }

  linkOf(dieId: string): string | null {
    for (const [link, die] of this.dice) if (die.id === dieId) return link
    return null
  }

  /** Decodes a notification, logging and counting it. */
  receive(die: BluetoothDie, hex: string): BluetoothVerdict {
    const bytes = hexToBytes(hex)
    const text = `${die.id ?? die.name} ${bytes ? bytesToHex(bytes) : hex.slice(0, 60)}`
    this.lastLineAt = this.now()
    const verdict: BluetoothVerdict = bytes ? die.receive(bytes) : { ok: false, error: 'not hex' }
    if (verdict.ok) this.received++
    else this.count('malformed')
    this.log('in', verdict.ok ? `${text} (${verdict.text})` : text, verdict.ok ? 'ok' : `malformed: ${verdict.error}`)
    return verdict
  }

  /** Queues bytes for the screen to write to the die on `link`. */
  write(link: string, bytes: Uint8Array, what: string): void {
    const hex = bytesToHex(bytes)
    this.outbox = [...this.outbox, { seq: this.nextWrite++, link, hex }].slice(-OUTBOX)
    this.log('out', `${this.dice.get(link)?.id ?? link} ${hex} (${what})`, 'sent')
  }

  /** The devices' commands: a blink lights the die; nothing else applies to Bluetooth dice. */
  send(command: HostCommand): void {
    if (command.type !== 'blink') return
    const link = this.linkOf(command.die)
    const die = link ? this.dice.get(link) : undefined
    if (link && die) this.write(link, die.blink(command.seconds), `blink ${command.seconds} s`)
  }

  requestSnapshot(): void {
    this.snapshotRequests++
  }

  count(reason: DropReason, n = 1): void {
    this.dropped[reason] += n
  }

  async close(): Promise<void> {
    this.state = 'closed'
  }

  private log(dir: 'in' | 'out', text: string, verdict: string): void {
    this.raw.push({ at: this.now(), dir, text: text.length > 120 ? text.slice(0, 119) + '…' : text, verdict })
    if (this.raw.length > RAW) this.raw.splice(0, this.raw.length - RAW)
  }
}
