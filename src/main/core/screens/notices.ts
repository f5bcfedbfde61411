// What every screen is told: news of the table (a game started, an undo, a device's warning, the
// disk's trouble). A screen's own refusals are its own (see screen.ts); both take their numbers
// from here, so a screen shows whichever of the two is newer.
import type { MessageLevel, TableMessage } from '@shared/api'
import { Signal } from '../signal'

export class Notices {
  private latestMessage: TableMessage | null = null
  private count = 0
  /** Every message, with the change that brought it or on its own (the log). */
  private readonly told = new Signal<TableMessage>()
  /** A message posted on its own: a change of what the screens show. */
  readonly changes = new Signal()

  /** Tells every screen. */
  post(text: string, level: MessageLevel): void {
    const message = this.make(text, level)
    this.latestMessage = message
    this.told.emit(message)
    this.changes.emit()
  }

  /**
   * The news that comes with a change of the game table (an undo, a new game): shown with that
   * change's own push, so it tells no listener of its own.
   */
  setWithChange(text: string, level: MessageLevel): void {
    this.latestMessage = this.make(text, level)
    this.told.emit(this.latestMessage)
  }

  /** The table moved on: news of the position before is old. */
  clear(): void {
    this.latestMessage = null
  }

  get latest(): TableMessage | null {
    return this.latestMessage
  }

  /** A message numbered after every one before it (for a screen's own). */
  make(text: string, level: MessageLevel): TableMessage {
    return { text, level, id: ++this.count }
  }

  /** Listens for every message the screens are told. */
  subscribe(listener: (message: TableMessage) => void): () => void {
    return this.told.subscribe(listener)
  }
}
