// A list of listeners told of each change: how the table's parts say that something changed
// without knowing who listens.
export class Signal<T = void> {
  private readonly listeners = new Set<(value: T) => void>()

  /** Listens; returns a function that stops listening. */
  subscribe(listener: (value: T) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  emit(value: T): void {
    for (const listener of this.listeners) listener(value)
  }
}
