import { vi, type Mock } from 'vitest'
import type { DevicesView, GameView, HistoryEntry, HistoryGame, TableState } from '@shared/api'
import { METHOD_NAMES, type MethodName, type TableApi, type TableRequests } from '@shared/api-methods'
import type { Summary } from '@shared/games/types'
import { DROP_REASONS, type DeviceView, type DropReason } from '@shared/devices'

type RequestMocks = { [M in MethodName]: Mock<TableRequests[M]> }

/** A mock per method of the screen API's table, each answering `{ ok: true }` unless told otherwise. */
const RequestMocks = class {
  constructor() {
    for (const method of METHOD_NAMES) Object.assign(this, { [method]: vi.fn(async () => ({ ok: true })) })
  }
} as unknown as new () => RequestMocks

/** A TableApi that records every call and lets a test push states. */
export class FakeTableApi extends RequestMocks implements TableApi {
  state: TableState
  private listeners = new Set<(state: TableState) => void>()

  constructor(state: TableState = emptyState()) {
    super()
    this.state = state
    this.getState.mockImplementation(async () => ({ ok: true, state: this.state }))
    this.exportRecord.mockResolvedValue({ ok: true, record: '{"game":"foursies","players":["Ann","Bob"]}\n', fileName: 'foursies.jsonl' })
    this.listHistory.mockResolvedValue({ ok: true, games: [] })
    this.openHistory.mockResolvedValue({ ok: false, error: 'not found' })
    this.listDisplays.mockResolvedValue({ ok: true, displays: [] })
    this.listPeople.mockResolvedValue({ ok: true, people: [] })
    this.listTrash.mockResolvedValue({ ok: true, games: [] })
    this.playerStatistics.mockResolvedValue({ ok: true, players: [] })
    this.gameChart.mockResolvedValue({ ok: true, players: [], colours: [], counts: 'points', line: [] })
    this.listPorts.mockImplementation(async () => ({ ok: true, ports: this.state.devices?.ports ?? [] }))
  }

  onState(listener: (state: TableState) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  push(state: TableState): void {
    this.state = state
    for (const listener of this.listeners) listener(state)
  }
}

export function emptyState(overrides: Partial<TableState> = {}): TableState {
  return {
    version: 1,
    current: null,
    keypad: { buffer: '', hint: '', legend: [] },
    message: null,
    recentPlayers: [],
    showOdds: false,
    canControl: true,
    trust: 'host',
    sharing: null,
    devices: null,
    ...overrides
  }
}

export function foursiesSummary(overrides: Partial<Summary> = {}): Summary {
  return {
    game: 'foursies',
    finished: false,
    winners: [],
    players: [
      { name: 'Ann', score: 3, rounds: 1, tours: 0, out: false },
      { name: 'Bob', score: 1, rounds: 2, tours: 1, out: false },
      { name: 'Cy', score: 0, rounds: 0, tours: 0, out: false }
    ],
    toPlay: 'Bob',
    tab: 'Cy',
    ...overrides
  }
}

/** A Foursies game in progress: Bob threw 2 2 1 5 and may re-roll a false four, or end. */
export function foursiesGame(overrides: Partial<GameView> = {}): GameView {
  return {
    game: 'foursies',
    title: 'Foursies',
    players: ['Ann', 'Bob', 'Cy'],
    rules: { match: 'tour' },
    summary: foursiesSummary(),
    standings: [
      { name: 'Bob', place: 1, shown: '1 tour · 2 rounds', winner: false },
      { name: 'Ann', place: 2, shown: '0 tours · 1 round', winner: false },
      { name: 'Cy', place: 3, shown: '0 tours · 0 rounds', winner: false }
    ],
    offer: {
      finished: false,
      toPlay: 1,
      throwers: [1],
      diceDue: 0,
      throwNote: 'Odd man out: re-roll the 5',
      decisions: [
        { move: { reroll: [2, 2] }, label: 'Re-roll 2+2' },
        { move: { end: true }, label: 'End the turn' }
      ],
      blocked: [{ move: { socks: true }, label: 'Socks', reason: 'Socks needs two pairs' }]
    },
    decisions: [
      { move: { reroll: [2, 2] }, label: 'Re-roll 2+2', keys: '22 Enter or +' },
      { move: { end: true }, label: 'End the turn', keys: '-' }
    ],
    table: {
      phase: 'Round 2 · Tour 1',
      dice: [
        { value: 2, fresh: true },
        { value: 2, fresh: true },
        { value: 1, fresh: false },
        { value: 5, fresh: true }
      ],
      turnPoints: 0,
      notes: { 2: '1 throw fewer' }
    },
    lastThrow: { line: 3, throwers: ['Bob'], values: [2, 2, 5], dice: [2, 2, 1, 5].map((value) => ({ value, fresh: value !== 1 })), current: true, caption: 'Bob’s throw' },
    log: [
      { line: 2, text: 'Ann scores a 4 and has 3', kind: 'score', seat: 0, dice: '4 2 3 6' },
      { line: 3, text: 'Bob throws 2 2 1 5', kind: 'throw', seat: 1, dice: '2 2 1 5' }
    ],
    announcement: null,
    moveCount: 2,
    startedAt: 1_700_000_000_000,
    computers: [],
    undo: null,
    redo: null,
    thinking: null,
    odds: null,
    ...overrides
  }
}

export function farkleGame(overrides: Partial<GameView> = {}): GameView {
  return {
    game: 'farkle',
    title: 'Farkle',
    players: ['Ann', 'Bob'],
    rules: { entry: 500, target: 10000 },
    summary: {
      game: 'farkle',
      finished: false,
      winners: [],
      players: [
        { name: 'Ann', score: 1250, out: false },
        { name: 'Bob', score: 0, out: false }
      ],
      toPlay: 'Ann'
    },
    standings: [
      { name: 'Ann', place: 1, shown: '1,250', winner: false },
      { name: 'Bob', place: 2, shown: '0', winner: false }
    ],
    offer: {
      finished: false,
      toPlay: 0,
      throwers: [0],
      diceDue: 6,
      decisions: [],
      blocked: []
    },
    decisions: [],
    table: {
      phase: 'Turn 3',
      dice: [
        { value: 1, fresh: false, setAside: true },
        { value: 5, fresh: true },
        { value: 3, fresh: true }
      ],
      turnPoints: 350
    },
    lastThrow: { line: 6, throwers: ['Ann'], values: [5, 3], dice: [{ value: 5, fresh: true }, { value: 3, fresh: true }], current: true, caption: 'Ann’s throw' },
    log: [],
    announcement: null,
    moveCount: 5,
    startedAt: 1_700_000_000_000,
    computers: [],
    undo: null,
    redo: null,
    thinking: null,
    odds: null,
    ...overrides
  }
}

export function stateWith(current: GameView | null, overrides: Partial<TableState> = {}): TableState {
  return emptyState({ version: 2, current, keypad: { buffer: '22', hint: 'Type the dice to re-roll, then Enter', legend: [{ key: '+', does: 'largest re-roll' }] }, ...overrides })
}

export function historyEntry(id: string, finishedAt: number, finished = true): HistoryEntry {
  return {
    id,
    game: 'foursies',
    title: 'Foursies',
    players: ['Ann', 'Bob'],
    winners: finished ? ['Ann'] : [],
    startedAt: finishedAt - 60_000,
    finishedAt,
    finished,
    moves: 12
  }
}

/** A three-step history game, with `historyStep` answering its steps on `api`. */
export function historyGame(api?: FakeTableApi): HistoryGame {
  const table = { phase: 'Round 1', dice: [{ value: 4, fresh: true }], turnPoints: null }
  const steps = [
    { line: 2, text: 'Ann throws 4 4 2 3', summary: foursiesSummary({ toPlay: 'Ann' }), table },
    { line: 3, text: 'Ann ends the turn on 4', summary: foursiesSummary(), table },
    { line: 4, text: 'Ann wins the round', summary: foursiesSummary({ finished: true, winners: ['Ann'], toPlay: null }), table }
  ]
  api?.historyStep.mockImplementation(async (replay, index) =>
    replay === 'replay-1' && steps[index] ? { ok: true, step: steps[index] } : { ok: false, error: `This game has no step ${index + 1}` }
  )
  return {
    entry: historyEntry('g1', 2_000),
    record: '{"game":"foursies","players":["Ann","Bob"]}\n',
    replay: 'replay-1',
    stepCount: steps.length
  }
}

function noDrops(counts: Partial<Record<DropReason, number>> = {}): Record<DropReason, number> {
  return Object.fromEntries(DROP_REASONS.map((reason) => [reason, counts[reason] ?? 0])) as Record<DropReason, number>
}

export function connectedHub(overrides: Partial<DeviceView> = {}): DeviceView {
  return {
    id: 'HUB-0042',
    path: '/dev/ttyACM0',
    state: 'connected',
    reason: null,
    serial: 'HUB-0042',
    firmware: 'dicehub',
    firmwareVersion: '1.4.2',
    protocol: '1.0',
    keypad: true,
    dice: [
      { id: 'A', sides: 6, colour: 'red', label: 'A', status: 'settled', face: 4, battery: { percent: 82, charge: 'discharging' }, throwNo: 12, inGame: true },
      { id: 'B', sides: 6, colour: 'blue', label: 'Lucky', status: 'cocked', face: null, battery: { percent: 9, charge: 'charging' }, throwNo: 12, inGame: true },
      { id: 'C', sides: 6, colour: null, label: 'C', status: 'offline', face: null, battery: null, throwNo: null, inGame: true }
    ],
    dropped: noDrops({ 'bad-checksum': 3, duplicate: 1 }),
    received: 1520,
    lost: 2,
    lastLineAt: 1_700_000_100_000,
    raw: [
      { at: 1_700_000_099_000, dir: 'out', text: 'blink A 3*1574', verdict: 'sent' },
      { at: 1_700_000_099_500, dir: 'in', text: 'settled 41 A 12 4*0000', verdict: 'bad-checksum' },
      { at: 1_700_000_100_000, dir: 'in', text: 'cocked 42 B 12*BC65', verdict: 'ok' }
    ],
    ...overrides
  }
}

/** A hub on /dev/ttyACM0 with three dice, a refused port, and a throw being assembled. */
export function devicesView(overrides: Partial<DevicesView> = {}): DevicesView {
  return {
    ports: [
      { path: '/dev/ttyACM0', manufacturer: 'Dice Works', serialNumber: 'HUB-0042', vendorId: '2e8a', productId: '000a', device: 'HUB-0042' },
      { path: '/dev/ttyUSB0', manufacturer: 'FTDI', serialNumber: 'A50285BI', vendorId: '0403', productId: '6001', device: null }
    ],
    devices: [
      connectedHub(),
      {
        ...connectedHub(),
        id: 'port:/dev/ttyUSB0',
        path: '/dev/ttyUSB0',
        state: 'refused',
        reason: 'No permission to open /dev/ttyUSB0: add your user to the dialout group (sudo usermod -aG dialout $USER), then log out and in again (or reboot)',
        serial: null,
        firmware: null,
        firmwareVersion: null,
        protocol: null,
        keypad: false,
        dice: [],
        dropped: noDrops(),
        received: 0,
        lost: 0,
        lastLineAt: null,
        raw: []
      }
    ],
    testMode: false,
    assembling: {
      due: 4,
      state: 'problem',
      text: 'B (Lucky) is cocked: throw it again, nudge it flat, or type the throw',
      dice: [
        { device: 'HUB-0042', die: 'A', name: 'A (red)', status: 'settled', face: 4, before: 2, flag: null },
        { device: 'HUB-0042', die: 'B', name: 'B (Lucky)', status: 'cocked', face: null, before: 5, flag: null }
      ]
    },
    lastThrow: { values: [2, 2, 1, 5], dice: ['A (red)', 'B (Lucky)', 'C', 'D'], at: 1_700_000_050_000, sent: true, flags: [] },
    lastKey: '5',
    ...overrides
  }
}
