// Every request from a screen arrives here, through Electron IPC or the host's WebSocket. Its
// payload is checked before anything is called: a screen is never trusted to send the right shape.
import type { ApiMethod, GameSetup, KeypadKey } from '../../shared/api'
import { KEYPAD_KEYS } from '../../shared/api'
import { GAME_IDS, type GameId } from '../../shared/engine/types'
import { checkMove } from '../../shared/record'
import type { TableSession } from './table-session'

export interface DisplayControl {
  listDisplays(): Promise<unknown>
  showScoreboard(displayId: number | null): Promise<unknown>
}

/** Smart dice and serial keypads (the DeviceManager). */
export interface DeviceControl {
  listPorts(): Promise<unknown>
  connect(path: string): Promise<unknown>
  disconnect(id: string): Promise<unknown>
  identify(id: string, dieId: string): unknown
  assignDie(id: string, dieId: string, inGame: boolean): unknown
  setTestMode(on: boolean): unknown
}

export interface Caller {
  /** LAN viewers may only watch. */
  canControl: boolean
  /** A screen on this computer (not a LAN device, paired or not): may manage devices and sharing. */
  local: boolean
  displays?: DisplayControl
  setSharing?: (enabled: boolean) => Promise<unknown>
  devices?: DeviceControl
  /** The TV's scoreboard: its state carries the moves, never the computer's reasons or the odds. */
  scoreboard?: boolean
}

export class RequestError extends Error {}

const READ_ONLY: ReadonlySet<ApiMethod> = new Set(['getState', 'listHistory', 'openHistory', 'listDisplays'])
const LOCAL_ONLY: ReadonlySet<ApiMethod> = new Set([
  'setSharing',
  'listPorts',
  'connectDevice',
  'disconnectDevice',
  'identifyDie',
  'assignDie',
  'setDeviceTestMode',
  'showScoreboard'
])
const MAX_RECORD_BYTES = 20 * 1024 * 1024

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function expectArgs(args: unknown[], count: number, method: string): void {
  if (!Array.isArray(args) || args.length !== count) throw new RequestError(`${method} takes ${count} argument(s)`)
}

function checkSetup(value: unknown): GameSetup {
  if (!isRecord(value)) throw new RequestError('a game setup must be an object')
  for (const key of Object.keys(value)) {
    if (!['game', 'players', 'rules', 'computers'].includes(key)) throw new RequestError(`unknown setup key "${key}"`)
  }
  if (typeof value.game !== 'string' || !(GAME_IDS as readonly string[]).includes(value.game)) {
    throw new RequestError('unknown game')
  }
  if (!Array.isArray(value.players) || !value.players.every((name) => typeof name === 'string')) {
    throw new RequestError('players must be a list of names')
  }
  if (value.players.length > 16) throw new RequestError('at most 16 players')
  const players = (value.players as string[]).map((name) => name.trim())
  if (players.some((name) => name.length > 40)) throw new RequestError('a name has at most 40 characters')
  if (value.rules !== undefined && !isRecord(value.rules)) throw new RequestError('rules must be an object')
  if (value.computers !== undefined && (!Array.isArray(value.computers) || !value.computers.every((seat) => Number.isInteger(seat)))) {
    throw new RequestError('computers must be a list of seat numbers')
  }
  return {
    game: value.game as GameId,
    players,
    ...(value.rules ? { rules: value.rules as Record<string, unknown> } : {}),
    ...(value.computers ? { computers: value.computers as number[] } : {})
  }
}

const NO_DEVICES = { ok: false, error: 'Dice devices are not available here' }

/** A serial port path: absolute (`/dev/ttyACM0`), or a Windows COM port (`COM3`, `\\.\COM12`). */
function checkPortPath(value: unknown): string {
  if (typeof value !== 'string' || value.length < 1 || value.length > 256) throw new RequestError('not a port path')
  if ([...value].some((c) => c < ' ' || c === '\x7f')) throw new RequestError('not a port path')
  if (!value.startsWith('/') && !/^(\\\\\.\\)?COM\d{1,3}$/i.test(value)) throw new RequestError('not a port path')
  return value
}

/** A device id: a serial number from a hello, or `port:PATH` before one. */
function checkDeviceId(value: unknown): string {
  if (typeof value !== 'string') throw new RequestError('not a device id')
  if (value.startsWith('port:')) {
    checkPortPath(value.slice(5))
    return value
  }
  if (!/^[A-Za-z0-9._+#-]{1,24}$/.test(value)) throw new RequestError('not a device id')
  return value
}

/** A die id as a hub's hello lists it. */
function checkDieId(value: unknown): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9]{1,8}$/.test(value)) throw new RequestError('not a die id')
  return value
}

/** Calls the session (or the shell's display and sharing controls) for one checked request. */
export async function dispatch(session: TableSession, caller: Caller, method: ApiMethod, args: unknown[]): Promise<unknown> {
  if (!READ_ONLY.has(method) && !caller.canControl) throw new RequestError('this screen can only watch')
  const devices = caller.local ? (caller.devices ?? session.deviceControl) : null
  if (LOCAL_ONLY.has(method) && !caller.local) throw new RequestError('only a screen on the host computer can do that')
  switch (method) {
    case 'getState':
      expectArgs(args, 0, method)
      return session.snapshot(caller.canControl, caller.local, caller.scoreboard ? 'scoreboard' : 'control')
    case 'newGame':
      expectArgs(args, 1, method)
      return session.newGame(checkSetup(args[0]))
    case 'submit': {
      expectArgs(args, 1, method)
      if (!isRecord(args[0])) throw new RequestError('a move must be an object')
      const move = checkMove(args[0])
      if (!move.ok || move.value.at !== undefined) throw new RequestError(move.ok ? 'a move from a screen has no time' : move.error)
      return session.submit(move.value.move)
    }
    case 'keypad':
      expectArgs(args, 1, method)
      if (!(KEYPAD_KEYS as readonly unknown[]).includes(args[0])) throw new RequestError('not a keypad key')
      return session.keypad(args[0] as KeypadKey)
    case 'rollVirtual':
      expectArgs(args, 0, method)
      return session.rollVirtual()
    case 'undo':
      expectArgs(args, 0, method)
      return session.undo()
    case 'abandon':
      expectArgs(args, 0, method)
      return session.abandon()
    case 'exportRecord':
      expectArgs(args, 0, method)
      return session.exportRecord()
    case 'importRecord':
      expectArgs(args, 1, method)
      if (typeof args[0] !== 'string') throw new RequestError('a record must be text')
      if (args[0].length > MAX_RECORD_BYTES) throw new RequestError('that record is too large')
      return session.importRecord(args[0])
    case 'listHistory':
      expectArgs(args, 0, method)
      return session.listHistory()
    case 'openHistory':
      expectArgs(args, 1, method)
      if (typeof args[0] !== 'string' || !/^[\w.-]{1,80}$/.test(args[0])) throw new RequestError('not a history id')
      return session.openHistory(args[0])
    case 'resumeHistory':
      expectArgs(args, 1, method)
      if (typeof args[0] !== 'string' || !/^[\w.-]{1,80}$/.test(args[0])) throw new RequestError('not a history id')
      return session.resumeHistory(args[0])
    case 'rematch':
      expectArgs(args, 0, method)
      return session.rematch()
    case 'setSharing':
      expectArgs(args, 1, method)
      if (typeof args[0] !== 'boolean') throw new RequestError('sharing is on or off')
      if (!caller.setSharing) return { ok: false, error: 'Sharing is not available here' }
      return caller.setSharing(args[0])
    case 'setShowOdds':
      expectArgs(args, 1, method)
      if (typeof args[0] !== 'boolean') throw new RequestError('odds are shown or not')
      return session.setShowOdds(args[0])
    case 'listDisplays':
      expectArgs(args, 0, method)
      return caller.displays ? caller.displays.listDisplays() : []
    case 'showScoreboard':
      expectArgs(args, 1, method)
      if (args[0] !== null && (typeof args[0] !== 'number' || !Number.isInteger(args[0]))) throw new RequestError('not a display id')
      if (!caller.displays) return { ok: false, error: 'In a browser, open /scoreboard on the screen that should show it' }
      return caller.displays.showScoreboard(args[0] as number | null)
    case 'listPorts':
      expectArgs(args, 0, method)
      return devices ? devices.listPorts() : []
    case 'connectDevice': {
      expectArgs(args, 1, method)
      const path = checkPortPath(args[0])
      return devices ? devices.connect(path) : NO_DEVICES
    }
    case 'disconnectDevice': {
      expectArgs(args, 1, method)
      const id = checkDeviceId(args[0])
      return devices ? devices.disconnect(id) : NO_DEVICES
    }
    case 'identifyDie': {
      expectArgs(args, 2, method)
      const id = checkDeviceId(args[0])
      const die = checkDieId(args[1])
      return devices ? devices.identify(id, die) : NO_DEVICES
    }
    case 'assignDie': {
      expectArgs(args, 3, method)
      const id = checkDeviceId(args[0])
      const die = checkDieId(args[1])
      if (typeof args[2] !== 'boolean') throw new RequestError('a die is in the game or not')
      return devices ? devices.assignDie(id, die, args[2]) : NO_DEVICES
    }
    case 'setDeviceTestMode':
      expectArgs(args, 1, method)
      if (typeof args[0] !== 'boolean') throw new RequestError('test mode is on or off')
      return devices ? devices.setTestMode(args[0]) : NO_DEVICES
    default:
      throw new RequestError(`unknown method ${String(method)}`)
  }
}
