// 100,000 random and garbled lines: the parsers never throw, always answer ok or a known code,
// and whatever they accept re-encodes to a line that parses to the same message.
import { describe, expect, it } from 'vitest'
import {
  PROTOCOL_ERROR_CODES,
  encodeCommand,
  encodeEvent,
  parseCommand,
  parseLine,
  type ProtocolErrorCode
} from '@shared/protocol'
import { fuzzLine } from './random'
import { seededRandom } from '@shared/random-play'

describe('fuzz', () => {
  it('100,000 random/garbled lines never throw and give ok or a known error code', () => {
    const rnd = seededRandom(20240601)
    const codes = new Set<string>(PROTOCOL_ERROR_CODES)
    const counts: Record<string, number> = {}
    for (let i = 0; i < 100_000; i++) {
      const line = fuzzLine(rnd)
      for (const dir of ['d', 'h'] as const) {
        let r: ReturnType<typeof parseLine> | ReturnType<typeof parseCommand>
        try {
          r = dir === 'd' ? parseLine(line) : parseCommand(line)
        } catch (e) {
          throw new Error(`threw on ${JSON.stringify(line)}: ${String(e)}`)
        }
        if (r.ok) {
          counts.ok = (counts.ok ?? 0) + 1
          const again =
            r.message.type === 'hello-request' || r.message.type === 'state-request' || r.message.type === 'blink'
              ? parseCommand(encodeCommand(r.message))
              : parseLine(encodeEvent(r.message))
          if (!again.ok || JSON.stringify(again.message) !== JSON.stringify(r.message)) {
            throw new Error(`accepted ${JSON.stringify(line)} but could not re-encode it`)
          }
        } else {
          if (!codes.has(r.code) || typeof r.reason !== 'string' || r.reason === '') {
            throw new Error(`bad failure ${JSON.stringify(r)} for ${JSON.stringify(line)}`)
          }
          counts[r.code] = (counts[r.code] ?? 0) + 1
        }
      }
    }
    // the fuzzer reaches every outcome
    for (const c of ['ok', ...PROTOCOL_ERROR_CODES] as (ProtocolErrorCode | 'ok')[]) {
      expect(counts[c], c).toBeGreaterThan(0)
    }
  })
})
