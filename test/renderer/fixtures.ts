import { vi } from 'vitest'
import type {
  DisplayInfo,
  GameSetup,
  GameView,
  HistoryEntry,
  HistoryGame,
  KeypadKey,
  Outcome,
  TableApi,
  TableState
} from '../../src/shared/api'
import type { Move, Summary } from '../../src/shared/engine/types'

const ok: Outcome = { ok: true }

/** A TableApi that records every call and lets a test push states. */
export class FakeTableApi implements TableApi {
  state: TableState
  private listeners = new Set<(state: TableState) => void>()

  constructor(state: TableState = emptyState()) {
    this.state = state
  }

  getState = vi.fn(async (): Promise<TableState> => this.state)
  newGame = vi.fn(async (_setup: GameSetup): Promise<Outcome> => ok)
  submit = vi.fn(async (_move: Move): Promise<Outcome> => ok)
  keypad = vi.fn(async (_key: KeypadKey): Promise<Outcome> => ok)
  rollVirtual = vi.fn(async (): Promise<Outcome> => ok)
  undo = vi.fn(async (): Promise<Outcome> => ok)
  abandon = vi.fn(async (): Promise<Outcome> => ok)
  exportRecord = vi.fn(async (): Promise<{ ok: true; record: string; fileName: string } | { ok: false; error: string }> => ({
    ok: true,
    record: '{"game":"foursies","players":["Ann","Bob"]}\n',
    fileName: 'foursies.jsonl'
  }))
  importRecord = vi.fn(async (_text: string): Promise<Outcome> => ok)
  listHistory = vi.fn(async (): Promise<HistoryEntry[]> => [])
  openHistory = vi.fn(async (_id: string): Promise<HistoryGame | { error: string }> => ({ error: 'not found' }))
  setSharing = vi.fn(async (_enabled: boolean): Promise<Outcome> => ok)
  listDisplays = vi.fn(async (): Promise<DisplayInfo[]> => [])
  showScoreboard = vi.fn(async (_displayId: number | null): Promise<Outcome> => ok)

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
    keypad: { buffer: '', hint: '' },
    message: null,
    recentPlayers: [],
    canControl: true,
    sharing: null,
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
    log: [
      { line: 1, text: 'Ann scores a 4 and has 3', kind: 'score', seat: 0 },
      { line: 2, text: 'Bob throws 2 2 1 5', kind: 'throw', seat: 1 }
    ],
    announcement: null,
    moveCount: 2,
    startedAt: 1_700_000_000_000,
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
    log: [],
    announcement: null,
    moveCount: 5,
    startedAt: 1_700_000_000_000,
    ...overrides
  }
}

export function stateWith(current: GameView | null, overrides: Partial<TableState> = {}): TableState {
  return emptyState({ version: 2, current, keypad: { buffer: '22', hint: 'Type the dice to re-roll, then Enter' }, ...overrides })
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

export function historyGame(): HistoryGame {
  const table = { phase: 'Round 1', dice: [{ value: 4, fresh: true }], turnPoints: null }
  return {
    entry: historyEntry('g1', 2_000),
    record: '{"game":"foursies","players":["Ann","Bob"]}\n',
    steps: [
      { line: 0, text: 'The game starts', summary: foursiesSummary({ toPlay: 'Ann' }), table },
      { line: 1, text: 'Ann throws 4 4 2 3', summary: foursiesSummary(), table },
      { line: 2, text: 'Ann wins the round', summary: foursiesSummary({ finished: true, winners: ['Ann'], toPlay: null }), table }
    ]
  }
}
