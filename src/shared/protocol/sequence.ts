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
