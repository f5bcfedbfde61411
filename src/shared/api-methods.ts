// The screen API in one table: every method a screen may call, with the schema of its arguments
// (their types come from it), who may call it, and what it answers. Everything else is made from
// this table: main's request checks and dispatcher (src/main/core/screens/dispatch.ts), the Electron
// preload's bridge and the headless host's WebSocket client. Adding a method is one entry here
// and one handler in dispatch.ts.
import * as v from 'valibot'
import type { DisplayInfo, HistoryEntry, HistoryGame, Outcome, PortView, ReplayStep, TableState } from './api'
import type { StatePatch } from './state-patch'
import { KEYPAD_KEYS } from './keypad-keys'
import type { Move } from './games/types'
import { GAME_IDS } from './games'
import { checkMove, MAX_NAME_LENGTH, MAX_PLAYERS } from './record'
import { CAMERA_LIMITS, type CameraReading } from './camera'
import { UNREADABLE_REASONS, type TrayCalibration } from './vision/types'
import type { GameChart, HeadToHead, PlayerList, PlayerPage, PlayerStatistics, TrashEntry } from './stats'

/**
 * Who may call a method. `watch`: any screen, LAN viewers too. `control`: screens that may control
 * the table (those on the host computer and LAN devices that brought the pairing code). `host`:
 * screens on the host computer only (its windows and its own browser), which also control it.
 */
export type Access = 'watch' | 'control' | 'host'

interface Arg<S extends v.GenericSchema = v.GenericSchema> {
  readonly name: string
  readonly schema: S
}

/** What a method answers when it succeeds, besides `ok: true`: a type only (main makes the value). */
declare const ANSWER: unique symbol
interface Answer<T extends object> {
  readonly [ANSWER]?: T
}

interface MethodSpec {
  readonly access: Access
  readonly args: readonly Arg[]
  readonly answers: Answer<object>
}

function arg<S extends v.GenericSchema>(name: string, schema: S): Arg<S> {
  return { name, schema }
}

function answers<T extends object = Record<never, never>>(): Answer<T> {
  return {}
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** The message of an object schema: a missing field, a field it does not have, or not an object. */
function objectMessage(what: string) {
  return (issue: v.StrictObjectIssue): string => {
    if (!issue.path?.length) return `must be ${what}`
    return issue.expected === 'never' ? `is not a field of ${what}` : 'is missing'
  }
}

// Limits a screen's request cannot pass: a game's are the record's own (record.ts), checked here
// first to name the argument.
export { MAX_NAME_LENGTH }
const MAX_RECORD_LENGTH = 20 * 1024 * 1024

const GAME_SETUP = 'a game setup (game, players, rules, computers)'
const gameSetupFields = v.strictObject(
  {
    game: v.picklist(GAME_IDS, `must be one of the games (${GAME_IDS.join(', ')})`),
    players: v.pipe(
      v.array(
        v.pipe(
          v.string(`must be a string of at most ${MAX_NAME_LENGTH} characters`),
          v.trim(),
          v.maxLength(MAX_NAME_LENGTH, `must be a string of at most ${MAX_NAME_LENGTH} characters`)
        ),
        'must be a list of names'
      ),
      v.maxLength(MAX_PLAYERS, `must list at most ${MAX_PLAYERS} players`)
    ),
    /** Options of the game's rules page (record header `rules`): the engine checks them. */
    rules: v.optional(v.custom<Record<string, unknown>>(isPlainObject, 'must be an object of rule options')),
    /** Seats played by the computer (saved in the record header's `meta.computers`). */
    computers: v.optional(
      v.array(v.pipe(v.number('must be a seat number'), v.integer('must be a seat number')), 'must be a list of seat numbers')
    )
  },
  objectMessage(GAME_SETUP)
)
// Valibot's object schemas take an array for an object: it is refused first, by name.
const gameSetup = v.pipe(v.custom<v.InferInput<typeof gameSetupFields>>(isPlainObject, `must be ${GAME_SETUP}`), gameSetupFields)

/** A throw or a decision as the record format writes it, without the time (main adds that). */
const screenMove = v.pipe(
  v.custom<Move>(isPlainObject, 'must be a move object (a record line such as {"roll":[4,2,2,6]})'),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const checked = checkMove(dataset.value as Record<string, unknown>)
    if (!checked.ok) {
      addIssue({ message: `is not a move: ${checked.error}` })
      return NEVER
    }
    if (checked.value.at !== undefined) {
      addIssue({ message: 'must not carry a time ("at"): main writes it' })
      return NEVER
    }
    return checked.value.move
  })
)

const onOff = v.boolean('must be true or false')

const CONTROL_CHARACTER = /[\x00-\x1f\x7f]/ // eslint-disable-line no-control-regex
/** A serial port path: absolute (`/dev/ttyACM0`), or a Windows COM port (`COM3`, `\\.\COM12`). */
const portPath = v.pipe(
  v.string('must be a port path'),
  v.check(
    (path) =>
      path.length >= 1 &&
      path.length <= 256 &&
      !CONTROL_CHARACTER.test(path) &&
      (path.startsWith('/') || /^(\\\\\.\\)?COM\d{1,3}$/i.test(path)),
    'must be a port path (such as /dev/ttyACM0 or COM3)'
  )
)

/** A person's name on the player list (or a seat name in a record). */
const personName = v.pipe(
  v.string(`must be a name of at most ${MAX_NAME_LENGTH} characters`),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(MAX_NAME_LENGTH, `must be a name of at most ${MAX_NAME_LENGTH} characters`)
)
const historyId = v.pipe(v.string('must be a history id'), v.regex(/^[\w.-]{1,80}$/, 'must be a history id'))

/** A device id: a serial number from a hello, or `port:PATH` before one. */
const deviceId = v.pipe(
  v.string('must be a device id'),
  v.check(
    (id) => (id.startsWith('port:') ? v.is(portPath, id.slice(5)) : /^[A-Za-z0-9._+#-]{1,24}$/.test(id)),
    'must be a device id (a serial number, or port:PATH)'
  )
)

/** A die id as a hub's hello lists it. */
const dieId = v.pipe(v.string('must be a die id'), v.regex(/^[A-Za-z0-9]{1,8}$/, 'must be a die id (1 to 8 letters or digits)'))

/** A Bluetooth die's report from the screen that holds the Web Bluetooth connections. */
const bluetoothReport = v.strictObject(
  {
    link: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(128, 'must be at most 128 characters')),
    kind: v.picklist(['pixels', 'godice'], 'must be pixels or godice'),
    name: v.pipe(v.string('must be a string'), v.maxLength(64, 'must be at most 64 characters'), v.check((name) => !CONTROL_CHARACTER.test(name), 'must be printable')),
    event: v.picklist(['connected', 'data', 'gone'], 'must be connected, data or gone'),
    /** `data`: the notification's bytes in hex (a Bluetooth LE notification is at most 512 bytes). */
    data: v.optional(v.pipe(v.string('must be hex'), v.maxLength(1024, 'must be at most 512 bytes'), v.regex(/^([0-9a-fA-F]{2})*$/, 'must be hex')))
  },
  objectMessage('a Bluetooth die report (link, kind, name, event, data)')
)

// The camera (src/shared/camera.ts): a reading, a tray's corners, capture mode's frames.
const printable = (name: string): boolean => !CONTROL_CHARACTER.test(name)
const cameraName = v.pipe(
  v.string('must be a camera name'),
  v.minLength(1, 'must not be empty'),
  v.maxLength(CAMERA_LIMITS.nameChars, `must be at most ${CAMERA_LIMITS.nameChars} characters`),
  v.check(printable, 'must be printable')
)
const cameraThrowId = v.pipe(v.string('must be a throw id'), v.regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be a throw id (1 to 40 letters, digits, - or _)'))
/** A coordinate in a frame's pixels (a die or a corner may lie a little outside the frame). */
const coordinate = v.pipe(
  v.number('must be a number of pixels'),
  v.finite('must be a number of pixels'),
  v.minValue(-CAMERA_LIMITS.side, `must be within ${CAMERA_LIMITS.side} pixels of the frame`),
  v.maxValue(2 * CAMERA_LIMITS.side, `must be within ${CAMERA_LIMITS.side} pixels of the frame`)
)
const frameSide = v.pipe(
  v.number('must be a number of pixels'),
  v.integer('must be a whole number of pixels'),
  v.minValue(1, `must be from 1 to ${CAMERA_LIMITS.side} pixels`),
  v.maxValue(CAMERA_LIMITS.side, `must be from 1 to ${CAMERA_LIMITS.side} pixels`)
)
const point = v.tuple([coordinate, coordinate], 'must be a point [x, y]')
const box = v.tuple([coordinate, coordinate, coordinate, coordinate], 'must be a box [x, y, width, height]')
const corners = v.pipe(
  v.array(point, 'must be a list of corners'),
  v.minLength(3, 'must have at least 3 corners'),
  v.maxLength(CAMERA_LIMITS.corners, `must have at most ${CAMERA_LIMITS.corners} corners`)
)
/** An object of the fields `fields` says (an array is refused first, by name: valibot's object schemas take one). */
function plainObject<S extends v.GenericSchema>(what: string, fields: S) {
  return v.pipe(v.custom<v.InferInput<S>>(isPlainObject, `must be ${what}`), fields)
}
const CAMERA_DIE = 'a die of a camera reading (value, confidence, box, unreadable, thumbnail)'
const cameraDie = plainObject(
  CAMERA_DIE,
  v.strictObject(
    {
      value: v.nullable(v.picklist([1, 2, 3, 4, 5, 6], 'must be a die value 1 to 6 or null')),
      confidence: v.pipe(v.number('must be a number from 0 to 1'), v.minValue(0, 'must be a number from 0 to 1'), v.maxValue(1, 'must be a number from 0 to 1')),
      box,
      unreadable: v.optional(v.picklist(UNREADABLE_REASONS, `must be one of: ${UNREADABLE_REASONS.join(', ')}`)),
      thumbnail: v.optional(
        v.pipe(
          v.string('must be a JPEG data: URL'),
          v.maxLength(CAMERA_LIMITS.thumbnailChars, `must be at most ${CAMERA_LIMITS.thumbnailChars} characters`),
          v.regex(/^data:image\/jpeg;base64,[A-Za-z0-9+/]+=*$/, 'must be a JPEG data: URL')
        )
      )
    },
    objectMessage(CAMERA_DIE)
  )
)
const CAMERA_READING = 'a camera reading (id, camera, width, height, dice, tray)'
const cameraReading = v.pipe(
  plainObject(
    CAMERA_READING,
    v.strictObject(
      {
        id: cameraThrowId,
        camera: cameraName,
        width: frameSide,
        height: frameSide,
        dice: v.pipe(v.array(cameraDie, 'must be a list of dice'), v.maxLength(CAMERA_LIMITS.dice, `must list at most ${CAMERA_LIMITS.dice} dice`)),
        tray: v.nullable(corners)
      },
      objectMessage(CAMERA_READING)
    )
  ),
  v.transform((reading): CameraReading => reading as CameraReading)
)
const TRAY_CALIBRATION = 'a tray calibration (polygon, width, height)'
const trayCalibration = v.pipe(
  plainObject(TRAY_CALIBRATION, v.strictObject({ polygon: corners, width: frameSide, height: frameSide }, objectMessage(TRAY_CALIBRATION))),
  v.transform((calibration): TrayCalibration => calibration as TrayCalibration)
)
/** A frame of a throw in capture mode: a JPEG, base64. */
const jpegFrame = v.pipe(
  v.string('must be a JPEG in base64'),
  v.maxLength(CAMERA_LIMITS.frameChars, `must be at most ${CAMERA_LIMITS.frameChars} characters of base64`),
  v.regex(/^\/9j\/[A-Za-z0-9+/]*=*$/, 'must be a JPEG in base64')
)

export const API_METHODS = {
  getState: { access: 'watch', args: [], answers: answers<{ state: TableState }>() },
  newGame: { access: 'control', args: [arg('setup', gameSetup)], answers: answers() },
  /** Sends one record line (a throw or a decision) as entered on a screen. */
  submit: { access: 'control', args: [arg('move', screenMove)], answers: answers() },
  keypad: {
    access: 'control',
    args: [arg('key', v.picklist(KEYPAD_KEYS, `must be a keypad key (${KEYPAD_KEYS.join(' ')})`))],
    answers: answers()
  },
  /** Throws exactly the dice that are due with virtual dice. */
  rollVirtual: { access: 'control', args: [], answers: answers() },
  undo: { access: 'control', args: [], answers: answers() },
  /** Plays the line undone last again (until a new move is made). */
  redo: { access: 'control', args: [], answers: answers() },
  /** After an undo that landed on a computer seat's turn (it waits, so undo can go further): the computer plays on. */
  letComputerPlay: { access: 'control', args: [], answers: answers() },
  /** Leaves the current game unfinished (it stays in the history as abandoned). */
  abandon: { access: 'control', args: [], answers: answers() },
  exportRecord: { access: 'control', args: [], answers: answers<{ record: string; fileName: string }>() },
  importRecord: {
    access: 'control',
    args: [arg('record', v.pipe(v.string('must be text'), v.maxLength(MAX_RECORD_LENGTH, 'must be at most 20 MB of text')))],
    answers: answers()
  },
  listHistory: { access: 'watch', args: [], answers: answers<{ games: HistoryEntry[] }>() },
  openHistory: {
    access: 'watch',
    args: [arg('id', v.pipe(v.string('must be a history id'), v.regex(/^[\w.-]{1,80}$/, 'must be a history id')))],
    answers: answers<{ game: HistoryGame }>()
  },
  /** One step of a replay opened with openHistory (0 is the record's first move). */
  historyStep: {
    access: 'watch',
    args: [
      arg('replay', v.pipe(v.string('must be a replay name'), v.regex(/^[\w.-]{1,80}$/, 'must be a replay name'))),
      arg('index', v.pipe(v.number('must be a step number'), v.integer('must be a step number'), v.minValue(0, 'must be a step number')))
    ],
    answers: answers<{ step: ReplayStep }>()
  },
  /** Puts an abandoned, unfinished game of the history back on the table (the game on the table goes to the history). */
  resumeHistory: {
    access: 'control',
    args: [arg('id', v.pipe(v.string('must be a history id'), v.regex(/^[\w.-]{1,80}$/, 'must be a history id')))],
    answers: answers()
  },
  /** At the end of a game: a new game with the same players and options, the seats rotated (docs/rules-readings.md). */
  rematch: { access: 'control', args: [], answers: answers() },
  setSharing: { access: 'host', args: [arg('enabled', onOff)], answers: answers() },
  /**
   * A LAN screen brings the pairing code shown on the host: it may enter dice from then on, with
   * the token it gets (kept by the screen, sent with `?token=` when it connects), until withdrawn.
   */
  pair: {
    access: 'watch',
    args: [
      arg('code', v.pipe(v.string('must be the pairing code'), v.maxLength(32, 'must be the pairing code'))),
      arg('name', v.pipe(v.string('must be a name for this screen'), v.maxLength(60, 'must be at most 60 characters'), v.check((name) => !CONTROL_CHARACTER.test(name), 'must be printable')))
    ],
    answers: answers<{ token: string }>()
  },
  /** Joins a league (http://NAME:PASSWORD@HOST:PORT/DB: this table's name in it and the password), or leaves it (null). */
  joinLeague: {
    access: 'host',
    args: [arg('url', v.nullable(v.pipe(v.string('must be a league address or null'), v.maxLength(2048, 'must be at most 2048 characters'))))],
    answers: answers()
  },
  /** This computer hosts the club's league on a port with a password, or stops hosting it (null). */
  hostLeague: {
    access: 'host',
    args: [
      arg(
        'setup',
        v.nullable(
          v.strictObject(
            {
              port: v.pipe(v.number('must be a port'), v.integer('must be a port'), v.minValue(1024, 'must be a port from 1024 to 65535'), v.maxValue(65535, 'must be a port from 1024 to 65535')),
              password: v.pipe(v.string('must be a password'), v.minLength(4, 'must be at least 4 characters'), v.maxLength(200, 'must be at most 200 characters'))
            },
            objectMessage('a league host setup (port, password)')
          )
        )
      )
    ],
    answers: answers()
  },
  /** Withdraws a paired screen's right to enter dice (it can still watch). */
  revokeScreen: { access: 'host', args: [arg('id', v.pipe(v.string('must be a screen id'), v.regex(/^[a-f0-9]{16}$/, 'must be a screen id')))], answers: answers() },
  /** Shows a new pairing code; screens paired already stay paired. */
  newPairingCode: { access: 'host', args: [], answers: answers() },
  /** Shows or hides the odds of each decision on the table screen (the TV never shows them). */
  setShowOdds: { access: 'control', args: [arg('on', onOff)], answers: answers() },
  /** Displays the scoreboard window can open on (none where there is no Electron). */
  listDisplays: { access: 'watch', args: [], answers: answers<{ displays: DisplayInfo[] }>() },
  /** Opens the scoreboard fullscreen on a display (remembered); null closes it. */
  showScoreboard: {
    access: 'host',
    args: [arg('displayId', v.nullable(v.pipe(v.number('must be a display id or null'), v.integer('must be a display id or null'))))],
    answers: answers()
  },
  // Smart dice and serial keypads (main answers them even where no devices are wired).
  /** Serial ports the system lists, with USB details. */
  listPorts: { access: 'host', args: [], answers: answers<{ ports: PortView[] }>() },
  /** Opens a port and keeps it: the device is remembered by serial number and reconnected after an unplug. */
  connectDevice: { access: 'host', args: [arg('path', portPath)], answers: answers() },
  /** Closes a device (its `DeviceView.id`) and forgets it. */
  disconnectDevice: { access: 'host', args: [arg('deviceId', deviceId)], answers: answers() },
  /** Lights a die up for a few seconds so people can find it. */
  identifyDie: { access: 'host', args: [arg('deviceId', deviceId), arg('dieId', dieId)], answers: answers() },
  /** Puts a die in the game or takes it out (remembered by the hub's serial and the die's id). */
  assignDie: { access: 'host', args: [arg('deviceId', deviceId), arg('dieId', dieId), arg('inGame', onOff)], answers: answers() },
  /**
   * What a screen's camera read once the dice settled: main takes it as the throw when every die
   * is sure and as many dice as are due are in the tray, fills it into this screen's keypad when
   * not, and refuses a tilted die (src/main/devices/camera-dice.ts).
   */
  cameraThrow: { access: 'control', args: [arg('reading', cameraReading)], answers: answers<{ taken: boolean; text: string }>() },
  /** A camera's tray (its corners as that camera sees them), remembered by the camera's name; null forgets it. */
  setCameraCalibration: { access: 'control', args: [arg('camera', cameraName), arg('calibration', v.nullable(trayCalibration))], answers: answers() },
  /** Capture mode: each confirmed camera throw's frames are saved in the data folder with the values taken. */
  setCameraCapture: { access: 'host', args: [arg('on', onOff)], answers: answers() },
  /** The frames of a camera throw the table took (JPEG, base64), saved in capture mode. */
  saveCameraCapture: {
    access: 'control',
    args: [
      arg('id', cameraThrowId),
      arg('frames', v.pipe(v.array(jpegFrame, 'must be a list of JPEG frames'), v.minLength(1, 'must hold a frame'), v.maxLength(CAMERA_LIMITS.frames, `must hold at most ${CAMERA_LIMITS.frames} frames`)))
    ],
    answers: answers<{ files: string[] }>()
  },
  /** Test mode: throws are shown, not sent to the game. */
  setDeviceTestMode: { access: 'host', args: [arg('on', onOff)], answers: answers() },
  /** A Bluetooth die connected, sent a notification or dropped out (src/main/devices/bluetooth-link.ts). */
  reportBluetoothDie: { access: 'host', args: [arg('report', bluetoothReport)], answers: answers() },
  /** The desktop app's Bluetooth picker: the die chosen (an id of `DevicesView.bluetooth.chooser`), or null to cancel. */
  chooseBluetoothDevice: {
    access: 'host',
    args: [arg('deviceId', v.nullable(v.pipe(v.string('must be a device id'), v.maxLength(128, 'must be at most 128 characters'))))],
    answers: answers()
  },
  // Players as people, their statistics and charts (src/shared/stats, docs/statistics.md).
  /** The player list: people, their colours and the earlier names that mean them. */
  listPeople: { access: 'watch', args: [], answers: answers<{ people: PlayerList }>() },
  /** Renames a person; their games under the old name stay theirs. */
  renamePerson: { access: 'control', args: [arg('from', personName), arg('to', personName)], answers: answers() },
  /** Makes two names one person (`from` joins `into`). */
  mergePeople: { access: 'control', args: [arg('from', personName), arg('into', personName)], answers: answers() },
  setPersonColour: {
    access: 'control',
    args: [arg('name', personName), arg('colour', v.pipe(v.string('must be a colour'), v.regex(/^#[0-9a-f]{6}$/, 'must be a colour (#rrggbb)')))],
    answers: answers()
  },
  /** Every person's statistics over the finished games in the history. */
  playerStatistics: { access: 'watch', args: [], answers: answers<{ players: PlayerStatistics[] }>() },
  /** The same statistics as CSV, with a file name to save it under. */
  statisticsCsv: { access: 'watch', args: [], answers: answers<{ csv: string; fileName: string }>() },
  /** One person's statistics, form over their latest games and head-to-head against each opponent. */
  playerPage: { access: 'watch', args: [arg('name', personName)], answers: answers<{ page: PlayerPage }>() },
  headToHead: { access: 'watch', args: [arg('first', personName), arg('second', personName)], answers: answers<{ result: HeadToHead }>() },
  /** Each seat's score after every turn of a history game ("current": the game on the table). */
  gameChart: { access: 'watch', args: [arg('id', historyId)], answers: answers<GameChart>() },
  /** Moves a history game to the trash, from where it can be restored. */
  trashGame: { access: 'control', args: [arg('id', historyId)], answers: answers() },
  restoreGame: { access: 'control', args: [arg('id', historyId)], answers: answers() },
  listTrash: { access: 'watch', args: [], answers: answers<{ games: TrashEntry[] }>() }
} as const satisfies Record<string, MethodSpec>

type Methods = typeof API_METHODS
export type MethodName = keyof Methods

type SchemaOf<A> = A extends Arg<infer S> ? S : never
type InputsOf<A extends readonly Arg[]> = { -readonly [K in keyof A]: v.InferInput<SchemaOf<A[K]>> }
type OutputsOf<A extends readonly Arg[]> = { -readonly [K in keyof A]: v.InferOutput<SchemaOf<A[K]>> }
/** The arguments of a method as a screen sends them. */
export type MethodArgs<M extends MethodName> = InputsOf<Methods[M]['args']>
/** The arguments of a method once main has checked them (names trimmed, a move without its time). */
export type CheckedArgs<M extends MethodName> = OutputsOf<Methods[M]['args']>
/** What a method answers: `{ ok: true, ...what it answers }`, or `{ ok: false, error }` when refused. */
export type MethodResult<M extends MethodName> = Methods[M]['answers'] extends Answer<infer T> ? Outcome<T> : never

export type GameSetup = v.InferOutput<typeof gameSetup>

/** Every request a screen can make, typed from the table. */
export type TableRequests = { [M in MethodName]: (...args: MethodArgs<M>) => Promise<MethodResult<M>> }

/** The one API every screen talks to, whether through Electron's preload or the host's WebSocket. */
export interface TableApi extends TableRequests {
  /** Called with every new state; returns a function that stops listening. */
  onState(listener: (state: TableState) => void): () => void
}

export const METHOD_NAMES = Object.keys(API_METHODS) as MethodName[]

export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.hasOwn(API_METHODS, name)
}

/** A transport's one way of sending a request (Electron's invoke channel, the host's WebSocket). */
export type SendRequest = <M extends MethodName>(method: M, args: MethodArgs<M>) => Promise<MethodResult<M>>

/** Makes the typed requests of a transport, one per method of the table. */
export function requestsOver(send: SendRequest): TableRequests {
  const requests: Partial<Record<MethodName, (...args: never[]) => Promise<unknown>>> = {}
  for (const method of METHOD_NAMES) requests[method] = (...args) => send(method, args as MethodArgs<typeof method>)
  return requests as TableRequests
}

/** Where an issue is inside an argument: `players[2]`, `rules`; empty for the argument itself. */
function issuePath(issue: v.BaseIssue<unknown>): string {
  let path = ''
  for (const item of issue.path ?? []) {
    if (typeof item.key === 'number') path += `[${item.key}]`
    else path += path ? `.${String(item.key)}` : String(item.key)
  }
  return path
}

/**
 * Checks a request's arguments against its method's schemas. The refusal names the method and the
 * field ("newGame: players[2] must be a string of at most 40 characters").
 */
export function checkArgs<M extends MethodName>(method: M, args: unknown[]): { ok: true; args: CheckedArgs<M> } | { ok: false; error: string } {
  const specs: readonly Arg[] = API_METHODS[method].args
  if (args.length !== specs.length) {
    const names = specs.map((spec) => spec.name).join(', ')
    return { ok: false, error: `${method} takes ${specs.length} argument${specs.length === 1 ? '' : 's'}${names ? ` (${names})` : ''}, not ${args.length}` }
  }
  const checked: unknown[] = []
  for (const [index, spec] of specs.entries()) {
    const result = v.safeParse(spec.schema, args[index], { abortEarly: true })
    if (!result.success) {
      const issue = result.issues[0]
      const path = issuePath(issue)
      // An argument that is a list names its item by the argument ("frames[0]"), an object's field by itself ("players[2]").
      return { ok: false, error: `${method}: ${path.startsWith('[') ? spec.name + path : path || spec.name} ${issue.message}` }
    }
    checked.push(result.output)
  }
  return { ok: true, args: checked as CheckedArgs<M> }
}

/** The headless host's WebSocket transport (path `/api`): requests, replies and state pushes. */
export interface WireRequest {
  id: number
  method: MethodName
  args: unknown[]
}
export type WireReply = { id: number; result: unknown } | { id: number; error: string }
/**
 * A state push: the whole state, or (to a screen that asked for patches with `patches=1` in its
 * address) what changed since the state it was pushed last, whose version is `from`.
 */
export type WirePush = { state: TableState } | { patch: StatePatch; from: number }
