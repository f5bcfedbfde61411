// Incremental framer: byte chunks in, complete lines out. Bytes map 1:1 to char codes (latin1), so
// non-ASCII noise stays visible to the parser as `bad-char` instead of being rewritten by a decoder.

import { MAX_LINE } from './types'

export interface LineAssemblerStats {
  /** Lines returned. */
  lines: number
  /** Lines dropped because they were longer than the maximum. */
  overlong: number
  /** Empty lines skipped (`\n` or `\r\n` alone). */
  blank: number
  /** Bytes pushed. */
  bytes: number
}

export class LineAssembler {
  readonly maxLength: number
  readonly stats: LineAssemblerStats = { lines: 0, overlong: 0, blank: 0, bytes: 0 }
  private readonly buf: Uint8Array
  private len = 0
  private overflow = false

  constructor(options: { maxLength?: number } = {}) {
    this.maxLength = options.maxLength ?? MAX_LINE
    // one spare byte for the `\r` of `\r\n`
    this.buf = new Uint8Array(this.maxLength + 1)
  }

  /** Feeds a chunk (any size, lines may be split anywhere) and returns the lines it completed, without line ends. */
  push(chunk: Uint8Array): string[] {
    const out: string[] = []
    const cap = this.buf.length
    this.stats.bytes += chunk.length
    let start = 0
    while (start < chunk.length) {
      const nl = chunk.indexOf(10, start)
      const end = nl < 0 ? chunk.length : nl
      if (!this.overflow) {
        const n = end - start
        if (this.len + n > cap) this.overflow = true
        else {
          this.buf.set(chunk.subarray(start, end), this.len)
          this.len += n
        }
      }
      if (nl < 0) break
      this.finishLine(out)
      start = nl + 1
    }
    return out
  }

  /** Forgets a partial line (e.g. when the port is reopened). Stats are kept. */
  reset(): void {
    this.len = 0
    this.overflow = false
  }

  private finishLine(out: string[]): void {
    let l = this.len
    if (l > 0 && this.buf[l - 1] === 13) l--
    if (this.overflow || l > this.maxLength) this.stats.overlong++
    else if (l === 0) this.stats.blank++
    else {
      out.push(latin1(this.buf, l))
      this.stats.lines++
    }
    this.len = 0
    this.overflow = false
  }
}

function latin1(buf: Uint8Array, n: number): string {
  return String.fromCharCode.apply(null, buf.subarray(0, n) as unknown as number[])
}
