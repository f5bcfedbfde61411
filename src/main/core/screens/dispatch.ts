// Every request from a screen arrives here, through Electron IPC or the host's WebSocket. It is
// checked against the screen API's table (src/shared/api-methods.ts) before anything is called:
// the screen's access, then every argument against its schema. A screen is never trusted to send
// the right shape, and a refused request changes nothing. Each method's handler is below; a
// refusal of what a screen asked shows on that screen only.
import type { Outcome, Refusal } from '@shared/api'
import { API_METHODS, checkArgs, isMethodName, type Access, type CheckedArgs, type MethodName, type MethodResult } from '@shared/api-methods'
import type { Table } from '../table'
import { log } from '../files/log'
import type { Screen } from './screen'


interface Context {
  table: Table
  /** The screen that asked: its access, its own entry and messages. */
  screen: Screen
}

type Handler<M extends MethodName> = (context: Context, ...args: CheckedArgs<M>) => MethodResult<M> | Promise<MethodResult<M>>

/** A change outside the game (player list, history): every screen is shown the state again. */
function shown(table: Table, outcome: Outcome): Outcome {
  if (outcome.ok) table.views.changed()
  return outcome
}

const HANDLERS: { [M in MethodName]: Handler<M> } = {
  getState: ({ table, screen }) => ({ ok: true, state: table.views.stateFor(screen) }),
  newGame: ({ screen }, setup) => screen.newGame(setup),
  submit: ({ screen }, move) => screen.submit(move),
  keypad: ({ screen }, key) => screen.keypad(key),
  rollVirtual: ({ screen }) => screen.rollVirtual(),
  undo: ({ screen }) => screen.undo(),
  redo: ({ screen }) => screen.redo(),
  letComputerPlay: ({ screen }) => screen.letComputerPlay(),
  abandon: ({ screen }) => screen.abandon(),
  exportRecord: ({ table }) => table.game.exportRecord(),
  importRecord: ({ screen }, record) => screen.importRecord(record),
  listHistory: ({ table }) => ({ ok: true, games: table.history.list() }),
  openHistory: ({ table }, id) => table.history.open(id),
  historyStep: ({ table }, replay, index) => table.history.step(replay, index),
  resumeHistory: ({ screen }, id) => screen.resumeHistory(id),
  rematch: ({ screen }) => screen.rematch(),
  setSharing: ({ table }, enabled) => table.setSharing(enabled),
  pair: ({ table, screen }, code, name) => pairScreen(table, screen, code, name),
  revokeScreen: ({ table }, id) => table.pairing.withdraw(id),
  joinLeague: ({ table }, url) => table.leagues.join(url),
  hostLeague: ({ table }, setup) => table.leagues.host(setup),
  newPairingCode: ({ table }) => {
    table.pairing.renewCode()
    return { ok: true }
  },
  setShowOdds: ({ screen }, on) => screen.setShowOdds(on),
  listDisplays: async ({ table }) => ({ ok: true, displays: table.shell.displays ? await table.shell.displays.listDisplays() : [] }),
  showScoreboard: ({ table }, displayId) =>
    table.shell.displays ? table.shell.displays.showScoreboard(displayId) : { ok: false, error: 'In a browser, open /scoreboard on the screen that should show it' },
  listPorts: async ({ table }) => ({ ok: true, ports: await table.devices.listPorts() }),
  connectDevice: ({ table }, path) => table.devices.connect(path),
  disconnectDevice: ({ table }, id) => table.devices.disconnect(id),
  identifyDie: ({ table }, id, die) => table.devices.identify(id, die),
  assignDie: ({ table }, id, die, inGame) => table.devices.assignDie(id, die, inGame),
  setDeviceTestMode: ({ table }, on) => table.devices.setTestMode(on),
  cameraThrow: ({ screen }, reading) => screen.cameraThrow(reading),
  setCameraCalibration: ({ table }, camera, calibration) => table.camera.calibrate(camera, calibration),
  setCameraCapture: ({ table }, on) => table.camera.setCapture(on),
  saveCameraCapture: ({ screen }, id, frames) => screen.saveCameraCapture(id, frames),
  reportBluetoothDie: ({ table }, report) => table.devices.bluetooth(report),
  chooseBluetoothDevice: ({ table }, deviceId) =>
    table.shell.chooseBluetoothDevice ? table.shell.chooseBluetoothDevice(deviceId) : { ok: false, error: 'No Bluetooth scan is waiting for a choice' },
  listPeople: async ({ table }) => ({ ok: true, people: await table.players.everyone() }),
  renamePerson: ({ table }, from, to) => shown(table, table.players.rename(from, to)),
  mergePeople: ({ table }, from, into) => shown(table, table.players.merge(from, into)),
  setPersonColour: ({ table }, name, colour) => shown(table, table.players.colour(name, colour)),
  playerStatistics: async ({ table }) => ({ ok: true, players: await table.players.statistics() }),
  statisticsCsv: async ({ table }) => ({ ok: true, csv: await table.players.csv(), fileName: 'dice-referee-statistics.csv' }),
  playerPage: ({ table }, name) => table.players.page(name),
  headToHead: async ({ table }, first, second) => ({ ok: true, result: await table.players.headToHead(first, second) }),
  gameChart: ({ table }, id) => table.players.scoreLine(id, table.game.current),
  trashGame: ({ table }, id) => shown(table, table.players.trash(id)),
  restoreGame: ({ table }, id) => shown(table, table.history.archive.restore(id)),
  listTrash: ({ table }) => ({ ok: true, games: table.history.archive.listTrash() })
}

/** A LAN screen brings the pairing code: its token when right, and a refusal shown on that screen when not. */
async function pairScreen(table: Table, screen: Screen, code: string, name: string): Promise<Outcome<{ token: string }>> {
  if (screen.local) return { ok: false, error: 'This screen is on the host computer: it enters dice without a code' }
  if (!table.sharing.lan()) return { ok: false, error: 'The table is not shared on the network now' }
  const paired = await table.pairing.tryCode(code, screen.address, name)
  if (!paired.ok) log.warn({ from: screen.address }, 'a wrong pairing code')
  else log.info({ from: screen.address, screen: paired.screen, name }, 'a screen paired')
  return screen.answered(paired.ok ? { ok: true, token: paired.token } : paired)
}

/** Why a screen may not call a method of this access level, or null when it may. */
function accessRefused(access: Access, screen: Screen): string | null {
  if (access === 'watch') return null
  if (!screen.canControl) return 'this screen can only watch'
  if (access === 'host' && !screen.local) return 'only a screen on the host computer can do that'
  return null
}

function refuse(method: string, error: string): Refusal {
  log.warn({ method, reason: error }, 'refused a request')
  return { ok: false, error }
}

/**
 * Answers one request of a screen: the method's result, or `{ ok: false, error }` when the screen
 * may not call it or an argument does not fit its schema (then nothing was called).
 */
export async function dispatch(table: Table, screen: Screen, method: string, args: unknown[]): Promise<MethodResult<MethodName>> {
  if (!isMethodName(method)) return refuse(method, `unknown method ${method}`)
  const refused = accessRefused(API_METHODS[method].access, screen)
  if (refused) return refuse(method, refused)
  const checked = checkArgs(method, args)
  if (!checked.ok) return refuse(method, checked.error)
  // TypeScript cannot tie a method name to its own handler's arguments across the union.
  const handler = HANDLERS[method] as (context: Context, ...args: unknown[]) => Promise<MethodResult<MethodName>> | MethodResult<MethodName>
  return handler({ table, screen }, ...(checked.args as unknown[]))
}
