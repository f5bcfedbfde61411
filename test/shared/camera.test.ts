// What a camera reading is to the table (judgeCameraReading, src/shared/camera.ts), and the
// record's `by` that says a throw was read by the camera or corrected by hand.
import { describe, expect, it } from 'vitest'
import { diceLeftToRight, judgeCameraReading, type CameraDie } from '@shared/camera'
import { checkMove, parseMoveLine, serializeMove } from '@shared/record'

function die(value: CameraDie['value'], x: number, confidence = 0.95, unreadable?: CameraDie['unreadable']): CameraDie {
  return { value, confidence: value === null ? 0 : confidence, box: [x, 100, 50, 50], ...(unreadable ? { unreadable } : {}) }
}
const ONE_THROWER = { due: 3, throwers: ['Ann'] }

describe('judgeCameraReading', () => {
  it('takes every die sure, left to right', () => {
    expect(judgeCameraReading([die(5, 300), die(2, 100), die(6, 200)], ONE_THROWER)).toEqual({ kind: 'take', values: [2, 6, 5] })
  })

  it('a die at the sure mark is sure; just under it is asked about', () => {
    expect(judgeCameraReading([die(1, 0, 0.8), die(2, 100), die(3, 200)], ONE_THROWER).kind).toBe('take')
    expect(judgeCameraReading([die(1, 0, 0.79), die(2, 100), die(3, 200)], ONE_THROWER)).toEqual({
      kind: 'ask',
      values: [1, 2, 3],
      text: 'The camera is not sure of the 1: Enter takes 1 2 3, or type the throw'
    })
  })

  it('a duel is asked about even when sure: whose die is whose is the people’s to say', () => {
    expect(judgeCameraReading([die(4, 200), die(3, 100)], { due: 2, throwers: ['Ann', 'Bob'] })).toEqual({
      kind: 'ask',
      values: [3, 4],
      text: 'Duel: the camera read 3 4, left to right for Ann and Bob: Enter takes it in that order, or type the throw'
    })
  })

  it('refuses tilted dice before counting, and names the dice outside the tray', () => {
    expect(judgeCameraReading([die(null, 0, 0, 'cocked'), die(null, 50, 0, 'cocked'), die(2, 100)], ONE_THROWER)).toEqual({
      kind: 'refuse',
      text: '2 dice are tilted: straighten them or type the throw'
    })
    expect(judgeCameraReading([die(1, 0), die(2, 100), die(3, 200), die(null, 900, 0, 'outside the tray')], ONE_THROWER)).toEqual({ kind: 'take', values: [1, 2, 3] })
    expect(judgeCameraReading([die(1, 0), die(2, 100), die(null, 900, 0, 'outside the tray')], ONE_THROWER)).toEqual({
      kind: 'refuse',
      text: 'The camera sees 2 dice in the tray and 3 dice are due: throw all of them into the tray, or type the throw (1 die is outside the tray: it does not count)'
    })
    expect(judgeCameraReading([], { due: 1, throwers: ['Ann'] })).toEqual({ kind: 'refuse', text: 'The camera sees 0 dice in the tray and 1 die is due: throw them into the tray, or type the throw' })
  })

  it('dice it could not read: the rest filled in, or nothing when it read none', () => {
    expect(judgeCameraReading([die(1, 0), die(null, 100, 0, 'pips unclear'), die(null, 200, 0, 'frames disagree')], ONE_THROWER)).toEqual({
      kind: 'ask',
      values: [1],
      text: 'The camera read 1 and could not read 2 dice: type them, then Enter'
    })
    expect(judgeCameraReading([die(null, 0, 0, 'not a die face')], { due: 1, throwers: ['Ann'] })).toEqual({ kind: 'ask', values: [], text: 'The camera could not read the dice: type the throw' })
  })

  it('says why no throw is taken when the rules want none', () => {
    expect(judgeCameraReading([die(1, 0)], { blocked: 'The game is over' })).toEqual({ kind: 'refuse', text: 'The game is over' })
  })

  it('orders dice left to right by their centres, then top to bottom', () => {
    const dice = [die(1, 300), die(2, 0), { ...die(3, 0), box: [0, 20, 50, 50] as [number, number, number, number] }]
    expect(diceLeftToRight(dice).map((d) => d.value)).toEqual([3, 2, 1])
  })
})

describe('the record holds the move and its time only', () => {
  it('has no key for how a throw was entered: a line with "by" is refused, and a camera’s throw is written as any throw', () => {
    expect(checkMove({ roll: [1], by: 'camera' })).toEqual({ ok: false, error: 'unknown key "by"' })
    expect(parseMoveLine('{"roll":[1,2,3,4],"at":5,"by":"camera"}')).toEqual({ ok: false, error: 'unknown key "by"' })
    expect(serializeMove({ move: { roll: [1, 2, 3, 4] }, at: 5 })).toBe('{"roll":[1,2,3,4],"at":5}')
  })
})
