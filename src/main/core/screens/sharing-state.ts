// Whether the table is shared on the LAN and where: the addresses the server listens on there and
// their QR codes, set by the server that listens; shown by the screens with the pairing's code and
// paired screens (pairing.ts).
import { Signal } from '../signal'

export interface LanSharing {
  /** The scoreboard's address on each LAN address. */
  urls: string[]
  /** A QR code of the first one (for a TV or a phone to watch). */
  qrSvg: string | null
  /** A QR code of the first address with the pairing code (for the table's phone to pair). */
  pairQrSvg: string | null
}

export class SharingState {
  private current: LanSharing | null = null
  private readonly change = new Signal()

  /** Where the table is shared; null while sharing is off. */
  lan(): LanSharing | null {
    return this.current
  }

  set(lan: LanSharing | null): void {
    this.current = lan
    this.change.emit()
  }

  subscribe(listener: () => void): () => void {
    return this.change.subscribe(listener)
  }
}
