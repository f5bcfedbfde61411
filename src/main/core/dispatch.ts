// Every request from a screen arrives here, through Electron IPC or the host's WebSocket. It is
// checked against the screen API's table (src/shared/api-methods.ts) before anything is called:
// the caller's access, then every argument against its schema. A screen is never trusted to send
// the right shape, and a refused request changes nothing. Each method's handler is below.
import type { DisplayInfo, Outcome, PortView, Refusal } from '../../shared/api'
import { API_METHODS, checkArgs, isMethodName, type Access, type CheckedArgs, type MethodName, type MethodResult } from '../../shared/api-methods'
import { log } from './log'
import type { TableSession } from './table-session'
import type { BluetoothReport } from '../devices/bluetooth-link'

export interface DisplayControl {
  listDisplays(): Promise<DisplayInfo[]>
  showScoreboard(displayId: number | null): Promise<Outcome>
}

/** Smart dice and serial keypads (the DeviceManager). */
export interface DeviceControl {
  listPorts(): Promise<PortView[]>
  connect(path: string): Promise<Outcome>
  disconnect(id: string): Promise<Outcome>
  identify(id: string, dieId: string): Outcome
  assignDie(id: string, dieId: string, inGame: boolean): Outcome
  setTestMode(on: boolean): Outcome
  /** A report from the screen holding the Bluetooth dice. */
  bluetooth?(report: BluetoothReport): Outcome
}

export interface Caller {
  /** LAN viewers may only watch. */
  canControl: boolean
  /** A screen on this computer (not a LAN device, paired or not): may manage devices and sharing. */
  local: boolean
  displays?: DisplayControl
  setSharing?: (enabled: boolean) => Promise<Outcome>
  devices?: DeviceControl
  /** The TV's scoreboard: its state carries the moves, never the computer's reasons or the odds. */
  scoreboard?: boolean
  /** The desktop app's answer to Electron's Bluetooth device selection (src/main/bluetooth-chooser.ts). */
  chooseBluetoothDevice?: (deviceId: string | null) => Outcome
}

interface Context {
  session: TableSession
  caller: Caller
  /** The device manager, for a screen on the host computer; null where there is none. */
  devices: DeviceControl | null
}

type Handler<M extends MethodName> = (context: Context, ...args: CheckedArgs<M>) => MethodResult<M> | Promise<MethodResult<M>>

/** A change outside the game (player list, history): every screen is shown the state again. */
function shown(session: TableSession, outcome: Outcome): Outcome {
  if (outcome.ok) session.refresh()
  return outcome
}

const NO_DEVICES: Refusal = { ok: false, error: 'Dice devices are not available here' }

const HANDLERS: { [M in MethodName]: Handler<M> } = {
  getState: ({ session, caller }) => ({ ok: true, state: session.snapshot(caller.canControl, caller.local, caller.scoreboard ? 'scoreboard' : 'control') }),
  newGame: ({ session }, setup) => session.newGame(setup),
  submit: ({ session }, move) => session.submit(move),
  keypad: ({ session }, key) => session.keypad(key),
  rollVirtual: ({ session }) => session.rollVirtual(),
  undo: ({ session }) => session.undo(),
  abandon: ({ session }) => session.abandon(),
  exportRecord: ({ session }) => session.exportRecord(),
  importRecord: ({ session }, record) => session.importRecord(record),
  listHistory: ({ session }) => ({ ok: true, games: session.listHistory() }),
  openHistory: ({ session }, id) => session.openHistory(id),
  historyStep: ({ session }, replay, index) => session.historyStep(replay, index),
  resumeHistory: ({ session }, id) => session.resumeHistory(id),
  rematch: ({ session }) => session.rematch(),
  setSharing: ({ caller }, enabled) => (caller.setSharing ? caller.setSharing(enabled) : { ok: false, error: 'Sharing is not available here' }),
  setShowOdds: ({ session }, on) => session.setShowOdds(on),
  listDisplays: async ({ caller }) => ({ ok: true, displays: caller.displays ? await caller.displays.listDisplays() : [] }),
  showScoreboard: ({ caller }, displayId) =>
    caller.displays
      ? caller.displays.showScoreboard(displayId)
      : { ok: false, error: 'In a browser, open /scoreboard on the screen that should show it' },
  listPorts: async ({ devices }) => ({ ok: true, ports: devices ? await devices.listPorts() : [] }),
  connectDevice: ({ devices }, path) => (devices ? devices.connect(path) : NO_DEVICES),
  disconnectDevice: ({ devices }, id) => (devices ? devices.disconnect(id) : NO_DEVICES),
  identifyDie: ({ devices }, id, die) => (devices ? devices.identify(id, die) : NO_DEVICES),
  assignDie: ({ devices }, id, die, inGame) => (devices ? devices.assignDie(id, die, inGame) : NO_DEVICES),
  setDeviceTestMode: ({ devices }, on) => (devices ? devices.setTestMode(on) : NO_DEVICES),
  reportBluetoothDie: ({ devices }, report) => (devices?.bluetooth ? devices.bluetooth(report) : NO_DEVICES),
  chooseBluetoothDevice: ({ caller }, deviceId) =>
    caller.chooseBluetoothDevice ? caller.chooseBluetoothDevice(deviceId) : { ok: false, error: 'No Bluetooth scan is waiting for a choice' },
  listPeople: async ({ session }) => ({ ok: true, people: await session.players.everyone() }),
  renamePerson: ({ session }, from, to) => shown(session, session.players.rename(from, to)),
  mergePeople: ({ session }, from, into) => shown(session, session.players.merge(from, into)),
  setPersonColour: ({ session }, name, colour) => shown(session, session.players.colour(name, colour)),
  playerStatistics: async ({ session }) => ({ ok: true, players: await session.players.statistics() }),
  statisticsCsv: async ({ session }) => ({ ok: true, csv: await session.players.csv(), fileName: 'dice-referee-statistics.csv' }),
  playerPage: ({ session }, name) => session.players.page(name),
  headToHead: async ({ session }, first, second) => ({ ok: true, result: await session.players.headToHead(first, second) }),
  gameChart: ({ session }, id) => session.players.scoreLine(id, session.currentGame),
  trashGame: ({ session }, id) => shown(session, session.players.trash(id)),
  restoreGame: ({ session }, id) => shown(session, session.players.restore(id)),
  listTrash: ({ session }) => ({ ok: true, games: session.players.listTrash() })
}

/** Why a caller may not call a method of this access level, or null when it may. */
function accessRefused(access: Access, caller: Caller): string | null {
  if (access === 'watch') return null
  if (!caller.canControl) return 'this screen can only watch'
  if (access === 'host' && !caller.local) return 'only a screen on the host computer can do that'
  return null
}

function refuse(method: string, error: string): Refusal {
  log.warn({ method, reason: error }, 'refused a request')
  return { ok: false, error }
}

/**
 * Answers one request: the method's result, or `{ ok: false, error }` when the caller may not
 * call it or an argument does not fit its schema (then nothing was called).
 */
export async function dispatch(session: TableSession, caller: Caller, method: string, args: unknown[]): Promise<MethodResult<MethodName>> {
  if (!isMethodName(method)) return refuse(method, `unknown method ${method}`)
  const refused = accessRefused(API_METHODS[method].access, caller)
  if (refused) return refuse(method, refused)
  const checked = checkArgs(method, args)
  if (!checked.ok) return refuse(method, checked.error)
  const devices = caller.local ? (caller.devices ?? session.deviceControl) : null
  // TypeScript cannot tie a method name to its own handler's arguments across the union.
  const handler = HANDLERS[method] as (context: Context, ...args: unknown[]) => Promise<MethodResult<MethodName>> | MethodResult<MethodName>
  return handler({ session, caller, devices }, ...(checked.args as unknown[]))
}
