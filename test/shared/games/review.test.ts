// Review scenarios: each test is named after the sentence of docs/rules/*.md or
// docs/record-format.md that the engine disagreed with before its fix.
import { describe, expect, it } from 'vitest'
import { farkle } from '@shared/games/farkle'
import { fouche } from '@shared/games/fouche'
import type { Move } from '@shared/games/types'
import { replayText } from '@shared/game'
import { moduleHelpers } from './rules-helpers'

const roll = (...d: number[]): Move => ({ roll: d })
const keep = (...d: number[]): Move => ({ keep: d })

describe('record-format: {"keep":[...]} sets these scoring dice aside from the latest throw', () => {
  // A keep of seven or more dice used to alias onto other values (seven 1s read as one 2,
  // twenty-one 1s as three 2s) and could be accepted against a throw that holds no 1 at all.
  for (const [game, module] of [['farkle', farkle], ['fouche', fouche]] as const) {
    const { start, play, refused } = moduleHelpers(module)

    it(`${game}: a keep of more dice than the throw holds is refused (21 ones against 2 2 2 3 4 6)`, () => {
      const s = play(start(['Ann', 'Bob'], { entry: 0 }), [roll(2, 2, 2, 3, 4, 6)]).state
      const reason = refused(s, keep(...new Array<number>(21).fill(1)))
      expect(reason).toMatch(/no 1 in the throw|only 6 dice/)
      // the honest keep still scores
      expect(play(s, [keep(2, 2, 2)]).state.turnPoints).toBe(200)
    })

    it(`${game}: twenty-one 5s are refused against 6 6 6 2 3 4 (they once read as three 6s)`, () => {
      const s = play(start(['Ann'], { entry: 0 }), [roll(6, 6, 6, 2, 3, 4)]).state
      refused(s, keep(...new Array<number>(21).fill(5)))
    })

    it(`${game}: referee replay stops at the oversized keep with "line 3: "`, () => {
      const text = [
        `{"game":"${game}","players":["Ann","Bob"],"rules":{"entry":0}}`,
        '{"roll":[2,2,2,3,4,6]}',
        `{"keep":[${new Array<number>(21).fill(1).join(',')}]}`,
        '{"bank":true}'
      ].join('\n')
      const replayed = replayText(text)
      expect(replayed.ok).toBe(false)
      if (!replayed.ok) expect(replayed.line).toBe(3)
    })
  }
})

// The three discrepancies below are in the record reader and the referee command
// (src/shared/record.ts, src/cli/referee.ts), outside the files this review may change: they are
// skipped until those files are fixed. Unskip them with the fix.
describe('record-format: a line that the rules do not allow stops the replay with "line N: "', () => {
  const HEADER = '{"game":"foursies","players":["Ann","Bob"]}'

  it('malformed JSON: a leading zero in "at" (JSON has none) is refused, fast path or not', () => {
    const replayed = replayText(`${HEADER}\n{"roll":[4,4,4,4],"at":0123}\n`)
    expect(replayed).toMatchObject({ ok: false, line: 2 })
  })

  it('a repeated key makes a line malformed: checking it never overflows on deeply nested JSON', () => {
    const deep = '['.repeat(10000) + ']'.repeat(10000)
    // valid JSON, no repeated key: the header is fine
    expect(() => replayText(`{"game":"foursies","players":["Ann"],"meta":{"x":${deep}}}\n`)).not.toThrow()
    // an unknown key on line 2 is reported as such, not as a crash
    expect(replayText(`${HEADER}\n{"roll":[4,4,4,4],"x":${deep}}\n`)).toMatchObject({ ok: false, line: 2 })
  })
})
