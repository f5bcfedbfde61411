// The camera as a dice source, in main (src/main/devices/camera-dice.ts): what a screen's settled
// reading becomes. A sure reading of the dice due is the throw ("Read by the camera" in the live log;
// the record holds the throw alone, as any other); an unsure one goes to that screen's keypad filled in, where Enter
// takes it and digits correct it ("Corrected by hand"); a tilted die is refused; the tray must
// hold exactly the dice due (those kept are set aside); a request that does not fit the screen
// API's schema is refused and changes nothing. Capture mode saves a taken throw's frames.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Outcome } from '@shared/api'
import type { CameraDie, CameraReading } from '@shared/camera'
import { dispatch } from '@main/core/screens/dispatch'
import { SettingsStore } from '@main/core/files/settings'
import { parseManifest } from '@shared/vision/manifest'
import { openTable, type TestTable } from '@test/kit/table'

const tables: TestTable[] = []
afterEach(async () => {
  for (const table of tables.splice(0)) await table.stop()
})

function table(): TestTable {
  const t = openTable({ clockFrom: 1_000 })
  tables.push(t)
  return t
}

let throwCount = 0
/** A die at column `x` of the tray: sure unless a confidence is given. */
function die(value: CameraDie['value'], x: number, confidence = 0.95, unreadable?: CameraDie['unreadable']): CameraDie {
  return { value, confidence: value === null ? 0 : confidence, box: [100 + x * 120, 300 + (x % 2) * 40, 60, 60], ...(unreadable ? { unreadable } : {}) }
}

function reading(dice: CameraDie[], camera = 'Desk webcam'): CameraReading {
  return { id: `throw-${++throwCount}`, camera, width: 1280, height: 720, dice, tray: [[200, 100], [1000, 100], [1000, 650], [200, 650]] }
}

function read(t: TestTable, values: Array<CameraDie['value']>, confidences: number[] = []): CameraReading {
  return reading(values.map((value, index) => die(value, index, confidences[index] ?? 0.95)))
}

/** The move lines of the game's record as written on the disk. */
function recordLines(t: TestTable): Array<Record<string, unknown>> {
  return readFileSync(join(t.dataDir, 'current.jsonl'), 'utf8').trim().split('\n').slice(1).map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('a camera reading the table takes or asks about', () => {
  it('takes a sure reading of the dice due as the throw, read by the camera in the log, the record holding the throw alone', async () => {
    const t = table()
    expect(t.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })).toEqual({ ok: true })
    const outcome = t.screen.cameraThrow(read(t, [2, 3, 5, 6]))
    expect(outcome).toEqual({ ok: true, taken: true, text: 'Read by the camera: 2 3 5 6' })
    expect(t.currentGame!.moves.map((m) => m.move)).toEqual([{ roll: [2, 3, 5, 6] }])
    expect(recordLines(t)[0]).toEqual({ roll: [2, 3, 5, 6], at: expect.any(Number) })
    const state = t.snapshot()
    expect(state.current!.log.map((entry) => entry.text)).toContain('Read by the camera')
    expect(state.camera!.lastThrow).toMatchObject({ outcome: 'taken', confirmed: [2, 3, 5, 6], by: 'camera' })
    // The TV shows the throw, not how it was entered.
    expect(t.snapshot(false, false, 'scoreboard').current!.log.map((entry) => entry.text)).not.toContain('Read by the camera')
    expect(t.snapshot(false, false, 'scoreboard').camera).toBeNull()
    // The record holds the throw and its time only (its format has no key for how it was entered):
    // the history replays it as any throw.
    expect(t.abandon()).toEqual({ ok: true })
    const opened = await t.openHistory(t.listHistory()[0].id)
    if (!opened.ok) throw new Error(opened.error)
    const step = t.historyStep(opened.game.replay, 0)
    expect(step.ok && step.step.text).not.toContain('Read by the camera')
  })

  it('fills an unsure reading into that screen’s keypad only, with the reason on that screen; one Enter takes it as the camera’s', () => {
    const t = table()
    t.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    const other = t.screenFor(true, false)
    const outcome = t.screen.cameraThrow(read(t, [4, 4, 1, 6], [0.95, 0.5, 0.9, 0.9]))
    expect(outcome).toMatchObject({ ok: true, taken: false })
    expect(t.currentGame!.moves).toEqual([])
    const mine = t.snapshot()
    expect(mine.keypad.buffer).toBe('4416')
    expect(mine.message).toMatchObject({ level: 'warning', text: 'The camera is not sure of the 4: Enter takes 4 4 1 6, or type the throw' })
    // Another screen's keypad and message are its own.
    expect(t.table.views.stateFor(other).keypad.buffer).toBe('')
    expect(t.table.views.stateFor(other).message?.text).not.toContain('camera')
    expect(t.keypad('Enter')).toEqual({ ok: true })
    expect(t.currentGame!.moves.map((m) => m.move)).toEqual([{ roll: [4, 4, 1, 6] }])
    expect(recordLines(t)[0]).not.toHaveProperty('by')
    expect(t.snapshot().current!.log.at(-1)!.text).toBe('Read by the camera')
    expect(t.snapshot().camera!.lastThrow).toMatchObject({ outcome: 'taken', confirmed: [4, 4, 1, 6], by: 'camera' })
  })

  it('digits replace a reading filled in: the throw is corrected by hand', () => {
    const t = table()
    t.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    t.screen.cameraThrow(read(t, [4, 4, 1, 6], [0.95, 0.5, 0.9, 0.9]))
    for (const key of ['4', '3', '1', '6'] as const) t.keypad(key)
    expect(t.snapshot().keypad.buffer).toBe('4316')
    expect(t.keypad('Enter')).toEqual({ ok: true })
    expect(recordLines(t)[0]).toEqual({ roll: [4, 3, 1, 6], at: expect.any(Number) })
    expect(t.snapshot().current!.log.at(-1)!.text).toBe('Corrected by hand')
    expect(t.snapshot().camera!.lastThrow).toMatchObject({ confirmed: [4, 3, 1, 6], by: 'camera-corrected', text: 'Corrected by hand: 4 3 1 6' })
  })

  it('the same digits typed again over a reading are the camera’s; Backspace edits the reading, Esc clears it and what is typed after is the person’s own', () => {
    const t = table()
    t.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    t.screen.cameraThrow(read(t, [4, 2, 3, 5], [0.95, 0.5, 0.9, 0.9]))
    t.keypad('Backspace')
    t.keypad('3')
    expect(t.snapshot().keypad.buffer).toBe('4233')
    expect(t.keypad('Enter')).toEqual({ ok: true })
    expect(recordLines(t)[0]).toEqual({ roll: [4, 2, 3, 3], at: expect.any(Number) })
    // Bob's throw: Esc forgets the reading, and the throw typed after it is an ordinary typed throw.
    t.screen.cameraThrow(read(t, [4, 4, 3, 5], [0.95, 0.5, 0.9, 0.9]))
    expect(t.snapshot().keypad.buffer).toBe('4435')
    t.keypad('.')
    for (const key of ['4', '4', '3', '5'] as const) t.keypad(key)
    expect(t.keypad('Enter')).toEqual({ ok: true })
    expect(recordLines(t)[1]).toEqual({ roll: [4, 4, 3, 5], at: expect.any(Number) })
    // Typed the same as the camera read, over the reading: the camera's.
    t.screen.cameraThrow(read(t, [2, 2, 5, 6], [0.95, 0.5, 0.9, 0.9]))
    for (const key of ['6', '5', '2', '2'] as const) t.keypad(key)
    expect(t.keypad('Enter')).toEqual({ ok: true })
    expect(recordLines(t)[2]).toEqual({ roll: [6, 5, 2, 2], at: expect.any(Number) })
  })

  it('a die the camera could not read: the dice it read are filled in and the person types the rest', () => {
    const t = table()
    t.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    const unread = reading([die(2, 0), die(null, 1, 0, 'pips unclear'), die(5, 2), die(6, 3)])
    const outcome = t.screen.cameraThrow(unread)
    expect(outcome).toMatchObject({ ok: true, taken: false, text: 'The camera read 2 5 6 and could not read one die: type it, then Enter' })
    expect(t.snapshot().keypad.buffer).toBe('256')
    t.keypad('3')
    expect(t.snapshot().keypad.buffer).toBe('2563')
    t.keypad('Enter')
    expect(recordLines(t)[0]).toEqual({ roll: [2, 5, 6, 3], at: expect.any(Number) })
  })

  it('refuses a tilted die: nothing is taken or filled in, and the screen is told why', () => {
    const t = table()
    t.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    const cocked = reading([die(2, 0), die(null, 1, 0, 'cocked'), die(5, 2), die(6, 3)])
    expect(t.screen.cameraThrow(cocked)).toEqual({ ok: false, error: 'A die is tilted: straighten it or type the throw' })
    expect(t.currentGame!.moves).toEqual([])
    expect(t.snapshot().keypad.buffer).toBe('')
    expect(t.snapshot().message).toMatchObject({ level: 'error', text: 'A die is tilted: straighten it or type the throw' })
    expect(t.snapshot().camera!.lastThrow).toMatchObject({ outcome: 'refused', confirmed: null })
  })

  it('asks when the tray holds more or fewer dice than are due; a die outside the tray does not count', () => {
    const t = table()
    t.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    expect(t.screen.cameraThrow(read(t, [1, 2, 3]))).toEqual({ ok: false, error: 'The camera sees 3 dice in the tray and 4 dice are due: throw all of them into the tray, or type the throw' })
    expect(t.screen.cameraThrow(read(t, [1, 2, 3, 4, 5]))).toMatchObject({ ok: false, error: expect.stringContaining('sees 5 dice in the tray and 4 dice are due: set the dice that stay aside') })
    const withOneOut = reading([die(2, 0), die(3, 1), die(5, 2), die(6, 3), die(null, 4, 0, 'outside the tray')])
    expect(t.screen.cameraThrow(withOneOut)).toEqual({ ok: true, taken: true, text: 'Read by the camera: 2 3 5 6' })
    expect(t.currentGame!.moves).toHaveLength(1)
  })

  it('respects the dice plan: after a keep only the dice due are read, the dice kept must be out of the tray', () => {
    const t = table()
    t.newGame({ game: 'farkle', players: ['Ann', 'Bob'] })
    expect(t.screen.cameraThrow(read(t, [1, 1, 1, 5, 2, 3]))).toMatchObject({ ok: true, taken: true })
    expect(t.submit({ keep: [1, 1, 1] })).toEqual({ ok: true })
    expect(t.snapshot().current!.offer.diceDue).toBe(3)
    // The three dice kept left in the tray with the three thrown: not taken.
    const sixAgain = reading([die(1, 0), die(1, 1), die(1, 2), die(4, 3), die(6, 4), die(2, 5)].map((d, i) => ({ ...d, box: [50 + i * 150, 500, 60, 60] as [number, number, number, number] })))
    expect(t.screen.cameraThrow(sixAgain)).toMatchObject({ ok: false, error: expect.stringContaining('sees 6 dice in the tray and 3 dice are due') })
    expect(t.currentGame!.moves).toHaveLength(2)
    // The kept dice taken out: the three left did not move, so that is no throw either.
    const left = reading(sixAgain.dice.slice(3))
    expect(t.screen.cameraThrow(left)).toEqual({ ok: true, taken: false, text: 'The dice in the tray did not move: no throw' })
    expect(t.currentGame!.moves).toHaveLength(2)
    // Thrown: three dice elsewhere.
    expect(t.screen.cameraThrow(read(t, [5, 3, 4]))).toMatchObject({ ok: true, taken: true, text: 'Read by the camera: 5 3 4' })
    expect(t.currentGame!.moves.at(-1)!.move).toEqual({ roll: [5, 3, 4] })
  })

  it('no throw due, no game, a game over or a computer’s turn: refused as for smart dice', () => {
    const t = table()
    expect(t.screen.cameraThrow(read(t, [1, 2, 3, 4]))).toEqual({ ok: false, error: 'Start a game first' })
    t.newGame({ game: 'farkle', players: ['Ann', 'Bob'] })
    t.screen.cameraThrow(read(t, [1, 1, 1, 5, 2, 3]))
    expect(t.screen.cameraThrow(read(t, [6, 2, 3, 4, 4, 2]))).toEqual({ ok: false, error: 'No throw is due now: choose a decision first' })
    const computerTable = table()
    computerTable.newGame({ game: 'foursies', players: ['Robo', 'Ann'], computers: [0] })
    expect(computerTable.screen.cameraThrow(read(computerTable, [1, 2, 3, 4]))).toEqual({ ok: false, error: 'It is Robo’s turn: the computer plays it' })
  })

  it('a move from elsewhere drops a reading filled in, unless the person edited it', () => {
    const t = table()
    t.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    t.screen.cameraThrow(read(t, [4, 4, 1, 6], [0.95, 0.5, 0.9, 0.9]))
    expect(t.snapshot().keypad.buffer).toBe('4416')
    const other = t.screenFor(true, false)
    expect(other.submit({ roll: [4, 4, 1, 6] })).toEqual({ ok: true })
    expect(t.snapshot().keypad.buffer).toBe('')
    expect(recordLines(t)[0]).not.toHaveProperty('by')
    expect(t.snapshot().camera!.lastThrow!.confirmed).toBeNull()
  })
})

describe('what a screen may send of the camera', () => {
  it('refuses readings that do not fit the schema, and changes nothing', async () => {
    const t = table()
    t.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    const good = read(t, [2, 3, 5, 6])
    const bad: Array<[unknown, string]> = [
      [{ ...good, dice: [{ ...good.dice[0], value: 7 }, ...good.dice.slice(1)] }, 'cameraThrow: dice[0].value must be a die value 1 to 6 or null'],
      [{ ...good, dice: [{ ...good.dice[0], confidence: 1.5 }] }, 'cameraThrow: dice[0].confidence must be a number from 0 to 1'],
      [{ ...good, dice: [{ ...good.dice[0], box: [1, 2, 3] }] }, 'cameraThrow: dice[0].box[3] must be a number of pixels'],
      [{ ...good, dice: [{ ...good.dice[0], box: 'big' }] }, 'cameraThrow: dice[0].box must be a box [x, y, width, height]'],
      [{ ...good, dice: Array.from({ length: 25 }, () => good.dice[0]) }, 'cameraThrow: dice must list at most 24 dice'],
      [{ ...good, dice: [{ ...good.dice[0], thumbnail: 'javascript:alert(1)' }] }, 'cameraThrow: dice[0].thumbnail must be a JPEG data: URL'],
      [{ ...good, dice: [{ ...good.dice[0], thumbnail: `data:image/jpeg;base64,${'A'.repeat(20_000)}` }] }, 'cameraThrow: dice[0].thumbnail must be at most 16000 characters'],
      [{ ...good, dice: [{ ...good.dice[0], unreadable: 'drunk' }] }, expect.stringContaining('cameraThrow: dice[0].unreadable must be one of')],
      [{ ...good, camera: '' }, 'cameraThrow: camera must not be empty'],
      [{ ...good, camera: 'x'.repeat(201) }, 'cameraThrow: camera must be at most 200 characters'],
      [{ ...good, id: '../../etc' }, expect.stringContaining('cameraThrow: id must be a throw id')],
      [{ ...good, width: 0 }, 'cameraThrow: width must be from 1 to 8192 pixels'],
      [{ ...good, extra: 1 }, 'cameraThrow: extra is not a field of a camera reading (id, camera, width, height, dice, tray)'],
      [[good], 'cameraThrow: reading must be a camera reading (id, camera, width, height, dice, tray)'],
      [{ ...good, tray: [[1, 2]] }, 'cameraThrow: tray must have at least 3 corners'],
      [{ ...good, dice: [{ ...good.dice[0], box: [Number.NaN, 1, 2, 3] }] }, 'cameraThrow: dice[0].box[0] must be a number of pixels']
    ]
    for (const [payload, error] of bad) {
      expect(await dispatch(t.table, t.screen, 'cameraThrow', [payload])).toEqual({ ok: false, error })
    }
    expect(t.currentGame!.moves).toEqual([])
    expect(t.snapshot().keypad.buffer).toBe('')
    expect(t.snapshot().camera!.lastThrow).toBeNull()
    // A screen that may only watch cannot send a reading; a throw may not claim to be the camera's.
    const viewer = t.screenFor(false, false)
    expect(await dispatch(t.table, viewer, 'cameraThrow', [good])).toEqual({ ok: false, error: 'this screen can only watch' })
    expect(await dispatch(t.table, t.screen, 'submit', [{ roll: [1, 2, 3, 4], by: 'camera' }])).toEqual({ ok: false, error: 'submit: move is not a move: unknown key "by"' })
    expect(t.currentGame!.moves).toEqual([])
    expect(await dispatch(t.table, t.screen, 'cameraThrow', [good])).toMatchObject({ ok: true, taken: true })
  })

  it('remembers a camera’s tray in the settings; a bad tray is refused; null forgets it', async () => {
    const t = table()
    const tray = { polygon: [[200, 100], [1000, 110], [990, 650], [210, 640]], width: 1280, height: 720 }
    expect(await dispatch(t.table, t.screen, 'setCameraCalibration', ['Desk webcam (046d:0825)', tray])).toEqual({ ok: true })
    expect(t.snapshot().camera!.calibrations).toEqual({ 'Desk webcam (046d:0825)': tray })
    expect(new SettingsStore(t.dataDir).get().cameraCalibrations).toEqual({ 'Desk webcam (046d:0825)': tray })
    expect(await dispatch(t.table, t.screen, 'setCameraCalibration', ['Desk webcam (046d:0825)', { ...tray, polygon: [[1, 2]] }])).toEqual({
      ok: false,
      error: 'setCameraCalibration: polygon must have at least 3 corners'
    })
    expect(await dispatch(t.table, t.screen, 'setCameraCalibration', ['Desk\nwebcam', tray])).toEqual({ ok: false, error: 'setCameraCalibration: camera must be printable' })
    expect(await dispatch(t.table, t.screen, 'setCameraCalibration', ['Desk webcam (046d:0825)', null])).toEqual({ ok: true })
    expect(new SettingsStore(t.dataDir).get().cameraCalibrations).toEqual({})
    // A paired phone may calibrate its own camera; capture mode is the host's.
    const phone = t.table.screens.open({ kind: 'control', canControl: true, local: false }, 'phone')
    expect(await dispatch(t.table, phone, 'setCameraCalibration', ['Back camera', tray])).toEqual({ ok: true })
    expect(await dispatch(t.table, phone, 'setCameraCapture', [true])).toEqual({ ok: false, error: 'only a screen on the host computer can do that' })
    expect(t.table.views.stateFor(phone).camera!.captureFolder).toBeNull()
  })

  it('capture mode: a taken throw’s frames are saved with the values the table took, in the manifest the eval reads', async () => {
    const t = table()
    t.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]).toString('base64')
    const throwOne = read(t, [4, 4, 1, 6], [0.95, 0.5, 0.9, 0.9])
    t.screen.cameraThrow(throwOne)
    expect(await dispatch(t.table, t.screen, 'saveCameraCapture', [throwOne.id, [jpeg]])).toEqual({ ok: false, error: 'Capture mode is off: the frames were not saved' })
    expect(await dispatch(t.table, t.screen, 'setCameraCapture', [true])).toEqual({ ok: true })
    expect(t.snapshot().camera!.capture).toBe(true)
    expect(await dispatch(t.table, t.screen, 'saveCameraCapture', [throwOne.id, [jpeg]])).toEqual({ ok: false, error: 'That camera throw was not taken: its frames are saved once it is' })
    // Corrected on the keypad: the values taken are the corrected ones.
    for (const key of ['4', '3', '1', '6', 'Enter'] as const) t.keypad(key)
    expect(await dispatch(t.table, t.screen, 'saveCameraCapture', [throwOne.id, ['/9j/notajpeg']])).toEqual({ ok: false, error: 'A frame is not a whole JPEG picture: nothing was saved' })
    expect(await dispatch(t.table, t.screen, 'saveCameraCapture', [throwOne.id, ['not base64 at all!']])).toMatchObject({ ok: false, error: 'saveCameraCapture: frames[0] must be a JPEG in base64' })
    const other = t.screenFor(true, false)
    expect(await dispatch(t.table, other, 'saveCameraCapture', [throwOne.id, [jpeg]])).toMatchObject({ ok: false, error: expect.stringContaining('No camera throw of this screen') })
    const saved = (await dispatch(t.table, t.screen, 'saveCameraCapture', [throwOne.id, [jpeg, jpeg]])) as Outcome<{ files: string[] }>
    expect(saved).toMatchObject({ ok: true, files: [expect.stringMatching(/^throw-.*-1\.jpg$/), expect.stringMatching(/^throw-.*-2\.jpg$/)] })
    const folder = join(t.dataDir, 'captures')
    if (!saved.ok) throw new Error(saved.error)
    expect(readdirSync(folder).sort()).toEqual(['manifest.jsonl', ...saved.files].sort())
    const manifest = parseManifest(readFileSync(join(folder, 'manifest.jsonl'), 'utf8'))
    expect(manifest.ok && manifest.lines.map((line) => [line.values, line.camera, line.tray])).toEqual([
      [[4, 3, 1, 6], 'Desk webcam', throwOne.tray],
      [[4, 3, 1, 6], 'Desk webcam', throwOne.tray]
    ])
    expect(await dispatch(t.table, t.screen, 'saveCameraCapture', [throwOne.id, [jpeg]])).toEqual({ ok: false, error: 'The frames of that throw are saved already' })
    expect(existsSync(join(folder, 'manifest.jsonl'))).toBe(true)
  })
})
