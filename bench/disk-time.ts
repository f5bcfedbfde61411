// The disk's share of a move in the benches: the line's write (before the screens are told) and
// its flush to the disk (fsync, after they are told), each added up until `reset`.
import type { RecordJournal } from '@main/core/game/record-journal'

export interface DiskTime {
  write: number
  flush: number
  reset(): void
}

export function timeDisk(store: RecordJournal): DiskTime {
  const time: DiskTime = {
    write: 0,
    flush: 0,
    reset() {
      time.write = 0
      time.flush = 0
    }
  }
  const write = store.write.bind(store)
  const flush = store.flush.bind(store)
  store.write = (line: string): void => {
    const started = performance.now()
    write(line)
    time.write += performance.now() - started
  }
  store.flush = (): void => {
    const started = performance.now()
    flush()
    time.flush += performance.now() - started
  }
  return time
}
