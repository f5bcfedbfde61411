// Whether the table is shared on the LAN, and how a screen there reaches it (its addresses, the
// pairing code, a QR code): set by the server that listens there, shown by the screens.
import type { SharingView } from '../../../shared/api'
import { Signal } from '../signal'

export class SharingState {
  private current: SharingView | null = null
  private readonly change = new Signal()

  view(): SharingView | null {
    return this.current
  }

  set(view: SharingView | null): void {
    this.current = view
    this.change.emit()
  }

  subscribe(listener: () => void): () => void {
    return this.change.subscribe(listener)
  }
}
