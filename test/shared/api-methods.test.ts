// The screen API's table: every argument is checked by its schema, and a refusal names the field.
import { describe, expect, it } from 'vitest'
import { API_METHODS, checkArgs, isMethodName, requestsOver, type MethodName, type MethodResult } from '@shared/api-methods'

const refused = (error: string) => ({ ok: false, error })

describe('the screen API table', () => {
  it('passes arguments that fit, as main uses them: names trimmed, a move as the record writes it', () => {
    expect(checkArgs('newGame', [{ game: 'farkle', players: ['  Ann ', 'Bob'], rules: { entry: 500 }, computers: [1] }])).toEqual({
      ok: true,
      args: [{ game: 'farkle', players: ['Ann', 'Bob'], rules: { entry: 500 }, computers: [1] }]
    })
    expect(checkArgs('newGame', [{ game: 'foursies', players: Array.from({ length: 16 }, () => 'x'.repeat(40)) }])).toMatchObject({ ok: true })
    expect(checkArgs('submit', [{ keep: [1, 5] }])).toEqual({ ok: true, args: [{ keep: [1, 5] }] })
    expect(checkArgs('keypad', ['Enter'])).toEqual({ ok: true, args: ['Enter'] })
    expect(checkArgs('importRecord', ['{"game":"farkle","players":["A"]}\n'])).toMatchObject({ ok: true })
    expect(checkArgs('openHistory', ['2026-11-30-farkle.jsonl'])).toMatchObject({ ok: true })
    expect(checkArgs('showScoreboard', [null])).toEqual({ ok: true, args: [null] })
    for (const path of ['/dev/ttyACM0', 'COM3', '\\\\.\\COM12']) expect(checkArgs('connectDevice', [path]), path).toMatchObject({ ok: true })
    for (const id of ['DRH-SIM001', 'port:/dev/ttyUSB0', 'port:COM4']) expect(checkArgs('disconnectDevice', [id]), id).toMatchObject({ ok: true })
    expect(checkArgs('assignDie', ['DRH-SIM001', 'E', false])).toEqual({ ok: true, args: ['DRH-SIM001', 'E', false] })
    expect(checkArgs('getState', [])).toEqual({ ok: true, args: [] })
  })

  it('refuses what does not fit, naming the method and the field', () => {
    const cases: [MethodName, unknown[], string][] = [
      ['newGame', [{ game: 'farkle', players: ['Ann', 'Bob', 'x'.repeat(41)] }], 'newGame: players[2] must be a string of at most 40 characters'],
      ['newGame', [{ game: 'farkle', players: ['Ann', 7] }], 'newGame: players[1] must be a string of at most 40 characters'],
      ['newGame', [{ game: 'farkle', players: 'Ann' }], 'newGame: players must be a list of names'],
      ['newGame', [{ game: 'farkle', players: ['Ann'], rules: [] }], 'newGame: rules must be an object of rule options'],
      ['newGame', [{ game: 'farkle', players: ['Ann'], computers: 'all' }], 'newGame: computers must be a list of seat numbers'],
      ['newGame', [null], 'newGame: setup must be a game setup (game, players, rules, computers)'],
      ['submit', [[4, 2, 2, 6]], 'submit: move must be a move object (a record line such as {"roll":[4,2,2,6]})'],
      ['submit', [{ roll: [1], bank: true }], 'submit: move is not a move: a line holds one move, not both "roll" and "bank"'],
      ['submit', [{ game: 'farkle' }], 'submit: move is not a move: a header may only be the first line'],
      ['importRecord', ['x'.repeat(20 * 1024 * 1024 + 1)], 'importRecord: record must be at most 20 MB of text'],
      ['openHistory', ['x'.repeat(81)], 'openHistory: id must be a history id'],
      ['showScoreboard', [1.5], 'showScoreboard: displayId must be a display id or null'],
      ['connectDevice', ['/dev/tty\u0007'], 'connectDevice: path must be a port path (such as /dev/ttyACM0 or COM3)'],
      ['connectDevice', [`/${'x'.repeat(256)}`], 'connectDevice: path must be a port path (such as /dev/ttyACM0 or COM3)'],
      ['disconnectDevice', ['x'.repeat(25)], 'disconnectDevice: deviceId must be a device id (a serial number, or port:PATH)'],
      ['disconnectDevice', ['port:COM'], 'disconnectDevice: deviceId must be a device id (a serial number, or port:PATH)'],
      ['identifyDie', ['DRH-SIM001', 'ABCDEFGHI'], 'identifyDie: dieId must be a die id (1 to 8 letters or digits)'],
      ['setSharing', [1], 'setSharing: enabled must be true or false'],
      ['identifyDie', ['DRH-SIM001'], 'identifyDie takes 2 arguments (deviceId, dieId), not 1'],
      ['keypad', [], 'keypad takes 1 argument (key), not 0']
    ]
    for (const [method, args, error] of cases) expect(checkArgs(method, args), error).toEqual(refused(error))
  })

  it('knows only its own methods', () => {
    expect(isMethodName('submit')).toBe(true)
    for (const name of ['dropTables', 'toString', '__proto__', 'constructor', 42]) expect(isMethodName(name), String(name)).toBe(false)
  })

  it('makes a request per method of the table, each sent with its name and arguments', async () => {
    const sent: [string, unknown[]][] = []
    const requests = requestsOver(async (method, args) => {
      sent.push([method, args])
      return { ok: true } as MethodResult<typeof method>
    })
    expect(Object.keys(requests).sort()).toEqual(Object.keys(API_METHODS).sort())
    await requests.assignDie('DRH-SIM001', 'E', true)
    await requests.undo()
    expect(sent).toEqual([
      ['assignDie', ['DRH-SIM001', 'E', true]],
      ['undo', []]
    ])
  })
})
