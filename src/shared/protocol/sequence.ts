// Host-side sequence bookkeeping (PROTOCOL.md, "Host behaviour").

import { SEQ_MODULO } from './types'

export type SeqVerdict =
  /** First line since reset (after a hello, call reset then accept the hello's seq). */
  | { kind: 'first' }
  /** The expected next number. Use the line. */
  | { kind: 'next' }
  /** Same number as the last line: ignore the line. */
  | { kind: 'duplicate' }
  /** Lines were lost: use this line, then send `state?`. */
  | { kind: 'gap'; missed: number }
  /** Behind the last number (device restarted and its hello was lost?): ignore, send `hello?`. */
  | { kind: 'stale' }

/** Distance from `last` to `seq` going forward, 0..65535. */
export function seqDistance(last: number, seq: number): number {
  return (((seq - last) % SEQ_MODULO) + SEQ_MODULO) % SEQ_MODULO
}

export class SequenceTracker {
  last: number | null = null

  reset(): void {
    this.last = null
  }

  accept(seq: number): SeqVerdict {
    const last = this.last
    if (last === null) {
      this.last = seq
      return { kind: 'first' }
    }
    const d = seqDistance(last, seq)
    if (d === 0) return { kind: 'duplicate' }
    if (d > SEQ_MODULO / 2) return { kind: 'stale' }
    this.last = seq
    return d === 1 ? { kind: 'next' } : { kind: 'gap', missed: d - 1 }
  }
}

/** What `SequenceOrderer.accept` decided about one line and the lines it was holding back. */
export interface OrderedLines<T> {
  /** Lines to use now, in sequence order. */
  ready: T[]
  /** Lines dropped because they fit no sequence (noise that passed the checksum, or very late). */
  outOfSequence: number
  /** Same number as a line already used. */
  duplicate: boolean
  /** Behind the last number by more than half the range (a restart whose hello was lost?). */
  behind: boolean
  /** Lines the device sent that never arrived (a confirmed gap). */
  lost: number
  /** A line ahead of the next number is held back: the host should ask for a snapshot. */
  held: boolean
}

/**
 * Puts device lines back in sequence order and tells lost lines from noise. A line with the next
 * number is used at once (with any held lines that follow it). A line further ahead is held back:
 * either a line really was lost (the next line, or the snapshot the host asks for, continues from
 * it: then the gap is counted as lost) or it is noise that happened to pass the checksum (the
 * device's next line continues the old numbers: the held line is dropped). A gap is confirmed by
 * `confirm` lines in a row after it (the snapshot the host asks for brings them at once); noise
 * that passed the checksum carries random numbers and seldom makes such a run. Neighbours swapped
 * in transit come out in order. At most `window` lines are held.
 */
export class SequenceOrderer<T> {
  private tracker = new SequenceTracker()
  private held = new Map<number, T>()

  constructor(
    private readonly window = 8,
    private readonly confirm = 3
  ) {}

  get last(): number | null {
    return this.tracker.last
  }

  get holding(): number {
    return this.held.size
  }

  /** Starts again from `seq` (a hello): held lines are dropped, returns how many. */
  reset(seq: number | null): number {
    const dropped = this.held.size
    this.held.clear()
    this.tracker.reset()
    if (seq !== null) this.tracker.accept(seq)
    return dropped
  }

  accept(seq: number, item: T): OrderedLines<T> {
    const out: OrderedLines<T> = { ready: [], outOfSequence: 0, duplicate: false, behind: false, lost: 0, held: false }
    const last = this.tracker.last
    if (last === null) {
      this.tracker.accept(seq)
      out.ready.push(item)
      return out
    }
    const d = seqDistance(last, seq)
    if (d === 0 || this.held.has(seq)) {
      out.duplicate = true
      return out
    }
    if (d > SEQ_MODULO / 2) {
      out.behind = true
      return out
    }
    if (d === 1) {
      this.tracker.accept(seq)
      out.ready.push(item)
      this.drain(out)
      return out
    }
    // Ahead: a confirmed gap once `confirm` lines in a row are held (noise seldom makes a run).
    this.held.set(seq, item)
    const start = this.runStart(seq)
    let end = seq
    while (this.held.has((end + 1) % SEQ_MODULO)) end = (end + 1) % SEQ_MODULO
    if (seqDistance(start, end) + 1 >= this.confirm) {
      out.lost = seqDistance(last, start) - 1
      // Everything held before the run is noise (it is skipped over).
      for (const s of [...this.held.keys()]) {
        if (seqDistance(last, s) < seqDistance(last, start)) {
          this.held.delete(s)
          out.outOfSequence++
        }
      }
      this.tracker.last = (start + SEQ_MODULO - 1) % SEQ_MODULO
      this.drain(out)
      return out
    }
    if (this.held.size > this.window) {
      // The line held longest was never continued: noise.
      const oldest = this.held.keys().next().value as number
      this.held.delete(oldest)
      out.outOfSequence++
    }
    out.held = true
    return out
  }

  private runStart(seq: number): number {
    let s = seq
    while (this.held.has((s + SEQ_MODULO - 1) % SEQ_MODULO)) s = (s + SEQ_MODULO - 1) % SEQ_MODULO
    return s
  }

  private drain(out: OrderedLines<T>): void {
    for (;;) {
      const next = ((this.tracker.last as number) + 1) % SEQ_MODULO
      const item = this.held.get(next)
      if (item === undefined) break
      this.held.delete(next)
      this.tracker.accept(next)
      out.ready.push(item)
    }
    // Held lines now behind the last number were noise.
    for (const s of [...this.held.keys()]) {
      if (seqDistance(this.tracker.last as number, s) > SEQ_MODULO / 2 || s === this.tracker.last) {
        this.held.delete(s)
        out.outOfSequence++
      }
    }
  }
}
