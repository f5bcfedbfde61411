import { describe, expect, it } from 'vitest'
import { checkMove, decodeRecordBytes, MAX_NAME_LENGTH, MAX_PLAYERS, parseHeaderLine, parseMoveLine, serializeMove, splitRecordLines } from '@shared/record'

describe('record lines (record-format.md)', () => {
  it('reads each kind of move line', () => {
    expect(parseMoveLine('{"roll":[4,2,2,6]}')).toEqual({ ok: true, value: { move: { roll: [4, 2, 2, 6] } } })
    expect(parseMoveLine('{"reroll":[2,2]}')).toEqual({ ok: true, value: { move: { reroll: [2, 2] } } })
    expect(parseMoveLine('{"socks":true}')).toEqual({ ok: true, value: { move: { socks: true } } })
    expect(parseMoveLine('{"end":true}')).toEqual({ ok: true, value: { move: { end: true } } })
    expect(parseMoveLine('{"keep":[1,1,1,5]}')).toEqual({ ok: true, value: { move: { keep: [1, 1, 1, 5] } } })
    expect(parseMoveLine('{"bank":true,"at":1700000000000}')).toEqual({ ok: true, value: { move: { bank: true }, at: 1700000000000 } })
  })

  it.each([
    ['{"roll":[4,2,2,6]', 'not valid JSON'],
    ['[1,2]', 'a record line must be a JSON object'],
    ['{"roll":[1,2],"roll":[3,4]}', 'a key is repeated'],
    ['{"roll":[1,7]}', '7 is not a die value (1-6)'],
    ['{"roll":[1,2.5]}', '2.5 is not a die value (1-6)'],
    ['{"roll":["1"]}', '"1" is not a die value (1-6)'],
    ['{"keep":[]}', '"keep" must not be empty'],
    ['{"reroll":[]}', '"reroll" must not be empty'],
    ['{"bank":1}', '"bank" must be exactly true'],
    ['{"socks":false}', '"socks" must be exactly true'],
    ['{"roll":[1],"keep":[1]}', 'a line holds one move, not both "roll" and "keep"'],
    ['{"dice":[1]}', 'unknown key "dice"'],
    ['{"at":5}', 'the line holds no move'],
    ['{"roll":[1],"at":"noon"}', '"at" must be a time in milliseconds'],
    ['{"game":"farkle","players":["A"]}', 'a header may only be the first line']
  ])('refuses %s', (line, error) => {
    expect(parseMoveLine(line)).toEqual({ ok: false, error })
  })

  it('finds a repeated key inside a nested header object too', () => {
    expect(parseHeaderLine('{"game":"farkle","players":["A"],"rules":{"entry":0,"entry":5}}')).toEqual({ ok: false, error: 'a key is repeated' })
  })

  it('does not mistake a colon inside a name for a key', () => {
    const header = parseHeaderLine('{"game":"farkle","players":["A\\":","B"]}')
    expect(header.ok && header.value.players).toEqual(['A":', 'B'])
  })

  it.each([
    ['{"game":"chess","players":["A"]}', 'unknown game "chess" (expected one of foursies, farkle, fouche, four-plus)'],
    ['{"game":"farkle"}', '"players" must be a list of names'],
    ['{"game":"farkle","players":[]}', 'a game needs at least one player'],
    ['{"game":"farkle","players":["A",""]}', 'every player name must be a non-empty string'],
    ['{"game":"farkle","players":["A","A"]}', 'two players are called "A"'],
    ['{"game":"farkle","players":["A"],"rules":[]}', '"rules" must be an object'],
    ['{"game":"farkle","players":["A"],"meta":3}', '"meta" must be an object'],
    ['{"game":"farkle","players":["A"],"seed":3}', 'unknown header key "seed"'],
    ['{"players":["A"]}', 'the header has no "game"'],
    // One set of limits however a record arrives: the screen API's for a new game are these.
    [`{"game":"farkle","players":${JSON.stringify(Array.from({ length: 17 }, (_, i) => `P${i}`))}}`, 'a game has at most 16 players, not 17'],
    [`{"game":"farkle","players":["A","${'x'.repeat(41)}"]}`, 'a player name is at most 40 characters, not 41']
  ])('refuses the header %s', (line, error) => {
    expect(parseHeaderLine(line)).toEqual({ ok: false, error })
  })

  it('takes 16 players of 40 characters, the limits of a game started on a screen', () => {
    const players = Array.from({ length: MAX_PLAYERS }, (_, i) => `${i}`.padEnd(MAX_NAME_LENGTH, 'x'))
    expect(parseHeaderLine(JSON.stringify({ game: 'farkle', players })).ok).toBe(true)
  })

  it('accepts a byte-order mark and CRLF line ends', () => {
    expect(splitRecordLines('\ufeffa\r\nb\r\n')).toEqual(['a', 'b'])
  })

  it('names the line that is not UTF-8', () => {
    const bytes = new Uint8Array([...Buffer.from('{"game":"farkle","players":["A"]}\n'), 0xff, 0x0a])
    expect(decodeRecordBytes(bytes)).toEqual({ ok: false, line: 2, error: 'the line is not valid UTF-8' })
  })

  it('writes moves back as the same line', () => {
    const move = checkMove({ keep: [1, 5], at: 12 })
    expect(move.ok && serializeMove(move.value)).toBe('{"keep":[1,5],"at":12}')
  })
})
