import { describe, expect, it } from 'vitest'
import { LineAssembler, MAX_LINE, encodeEvent, parseLine } from '@shared/protocol'
import { int, randomMessage } from './random'
import { seededRandom } from '@shared/random-play'

const bytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0))

describe('LineAssembler', () => {
  it('splits lines, strips \\r\\n, skips blank lines', () => {
    const a = new LineAssembler()
    expect(a.push(bytes('one\r\ntwo\n\r\n\nthr'))).toEqual(['one', 'two'])
    expect(a.push(bytes('ee'))).toEqual([])
    expect(a.push(bytes('\n'))).toEqual(['three'])
    expect(a.stats).toEqual({ lines: 3, overlong: 0, blank: 2, bytes: 18 })
  })

  it('keeps bytes 1:1 so noise reaches the parser as bad-char', () => {
    const a = new LineAssembler()
    const [line] = a.push(Uint8Array.of(0x41, 0xff, 0x00, 0x0d, 0x0a))
    expect([...line].map((c) => c.charCodeAt(0))).toEqual([0x41, 0xff, 0x00])
    expect(parseLine(line)).toMatchObject({ ok: false, code: 'bad-char' })
  })

  it('drops and counts overlong lines up to the next newline, then carries on', () => {
    const a = new LineAssembler()
    const ok = 'y'.repeat(MAX_LINE)
    expect(a.push(bytes('x'.repeat(500) + '\nfine\n' + ok + '\r\n' + ok + '\n' + ok + 'z\n' + ok + 'z\r\n'))).toEqual([
      'fine',
      ok,
      ok
    ])
    expect(a.stats.overlong).toBe(3)
    // an overlong line split over many chunks
    for (let i = 0; i < 50; i++) expect(a.push(bytes('w'.repeat(37)))).toEqual([])
    expect(a.push(bytes('\nafter\n'))).toEqual(['after'])
    expect(a.stats.overlong).toBe(4)
  })

  it('reset forgets a partial line', () => {
    const a = new LineAssembler()
    a.push(bytes('garbage from before the board reset'))
    a.reset()
    expect(a.push(bytes('hello\n'))).toEqual(['hello'])
  })

  it('gives the same lines however the stream is chunked (bytes arriving one at a time too)', () => {
    const rnd = seededRandom(11)
    let stream = 'boot noise \x00\xff\r\n'
    const want: string[] = ['boot noise \x00\xff']
    for (let i = 0; i < 2000; i++) {
      const line = encodeEvent(randomMessage(rnd))
      const crlf = rnd() < 0.5
      stream += crlf ? line.replace('\n', '\r\n') : line
      want.push(line.slice(0, -1))
    }
    const all = bytes(stream)
    for (const maxChunk of [1, 2, 7, 64, 4096]) {
      const a = new LineAssembler()
      const got: string[] = []
      for (let i = 0; i < all.length; ) {
        const n = maxChunk === 1 ? 1 : int(rnd, 1, maxChunk)
        got.push(...a.push(all.subarray(i, i + n)))
        i += n
      }
      expect(got).toEqual(want)
      expect(got.slice(1).every((l) => parseLine(l).ok)).toBe(true)
    }
  })

  it('frames and parses every line of a stream fed in large chunks (how fast: npm run bench devices)', () => {
    const rnd = seededRandom(3)
    const lines: string[] = []
    for (let i = 0; i < 2000; i++) lines.push(encodeEvent(randomMessage(rnd)))
    const chunk = bytes(lines.join(''))
    const a = new LineAssembler()
    let parsed = 0
    for (let rep = 0; rep < 50; rep++) {
      for (const l of a.push(chunk)) if (parseLine(l).ok) parsed++
    }
    expect(parsed).toBe(100_000)
  })
})
