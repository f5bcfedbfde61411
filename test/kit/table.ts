// A table made by the app's own createTable, in a data folder of its own, seen from a control
// screen on the host computer: the tests act as a person at that screen would (each request
// answered, a refusal shown on that screen), and read what any kind of screen is shown.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { KeypadKey, Outcome, ScreenKind, TableState } from '@shared/api'
import type { GameSetup } from '@shared/api-methods'
import type { Move } from '@shared/games/types'
import type { Odds } from '@shared/odds'
import { actingComputer, type Game } from '@shared/game'
import { createTable, type CreatedTable, type TableOptions } from '@main/core/create-table'
import type { RecordJournal } from '@main/core/game/record-journal'
import type { Screen } from '@main/core/screens/screen'

export interface TestTableOptions extends Partial<TableOptions> {
  /** A fixed clock's start: each reading is a millisecond after the one before. */
  clockFrom?: number
  /** Values virtual dice throw, in order (then `fallbackDie`). */
  rolls?: number[]
  fallbackDie?: number
}

/** Makes a table that serves its screens over HTTP + WebSocket on a free loopback port, and starts it. */
export async function serveTable(rendererDir: string, options: TestTableOptions & { lanAddresses?: () => string[] } = {}): Promise<TestTable> {
  const { lanAddresses, ...rest } = options
  const t = openTable({ ...rest, serve: { rendererDir, port: 0, lanAddresses: lanAddresses ?? (() => []), always: true } })
  await t.table.start()
  return t
}

/** A fresh data folder. */
export function dataFolder(name = 'table'): string {
  return mkdtempSync(join(tmpdir(), `dice-referee-${name}-`))
}

/**
 * Makes a table. Unless the test says otherwise: a fresh data folder, computer seats played by
 * hand, no chance-to-win tables, and (with `rolls` or `fallbackDie`) virtual dice that throw what
 * the test says.
 */
export function openTable(options: TestTableOptions = {}): TestTable {
  const { clockFrom, rolls, fallbackDie, ...tableOptions } = options
  let clock = clockFrom ?? 0
  const queue = [...(rolls ?? [])]
  const table = createTable({
    computer: 'none',
    winTables: 'none',
    ...tableOptions,
    dataDir: tableOptions.dataDir ?? dataFolder(),
    ...(clockFrom !== undefined ? { now: () => ++clock } : {}),
    ...(rolls !== undefined || fallbackDie !== undefined ? { rollDie: () => queue.shift() ?? fallbackDie ?? 3 } : {})
  })
  return new TestTable(table)
}

/** A table and the control screen of the host computer the test acts at. */
export class TestTable {
  readonly screen: Screen
  private readonly others = new Map<string, Screen>()

  constructor(readonly table: CreatedTable) {
    this.screen = table.screens.open({ kind: 'control', canControl: true, local: true }, 'test')
  }

  get dataDir(): string {
    return this.table.dataDir
  }

  /** The game table's record file, for tests that make the disk fail or watch how it is written. */
  get journal(): RecordJournal {
    return (this.table.game as unknown as { journal: RecordJournal }).journal
  }

  get currentGame(): Game | null {
    return this.table.game.current
  }

  get players(): CreatedTable['players'] {
    return this.table.players
  }

  /**
   * What a screen is shown: by default the test's own screen; another role (a LAN viewer, the TV)
   * is a screen of its own, opened on first use.
   */
  snapshot(canControl = true, local = canControl, kind: ScreenKind = 'control'): TableState {
    return this.table.views.stateFor(this.screenFor(canControl, local, kind))
  }

  /** The test's own screen, or a screen of another role (opened on first use, then the same one). */
  screenFor(canControl = true, local = canControl, kind: ScreenKind = 'control'): Screen {
    if (canControl && local && kind === 'control') return this.screen
    const role = `${canControl}/${local}/${kind}`
    let screen = this.others.get(role)
    if (!screen) {
      screen = this.table.screens.open({ kind, canControl, local }, 'test-other')
      this.others.set(role, screen)
    }
    return screen
  }

  /** The server's address (a table made with `serve`, once started). */
  get url(): string {
    if (!this.table.server) throw new Error('this table has no server (make it with serve, then start it)')
    return this.table.server.url
  }

  newGame(setup: GameSetup): Outcome {
    return this.screen.newGame(setup)
  }

  submit(move: Move): Outcome {
    return this.screen.submit(move)
  }

  /** The move of whoever is to act: a computer seat's as the computer's (tables made with `computer: 'none'` play those seats by hand). */
  play(move: Move): Outcome {
    const game = this.table.game.current
    const seat = game ? actingComputer(game) : null
    return seat === null ? this.submit(move) : this.table.game.submit(move, { kind: 'computer', seat })
  }

  keypad(key: KeypadKey): Outcome {
    return this.screen.keypad(key)
  }

  rollVirtual(): Outcome {
    return this.screen.rollVirtual()
  }

  undo(): Outcome {
    return this.screen.undo()
  }

  rematch(): Outcome {
    return this.screen.rematch()
  }

  abandon(): Outcome {
    return this.screen.abandon()
  }

  importRecord(text: string): Promise<Outcome> {
    return this.screen.importRecord(text)
  }

  exportRecord(): ReturnType<CreatedTable['game']['exportRecord']> {
    return this.table.game.exportRecord()
  }

  listHistory(): ReturnType<CreatedTable['history']['list']> {
    return this.table.history.list()
  }

  openHistory(id: string): ReturnType<CreatedTable['history']['open']> {
    return this.table.history.open(id)
  }

  historyStep(replay: string, index: number): ReturnType<CreatedTable['history']['step']> {
    return this.table.history.step(replay, index)
  }

  resumeHistory(id: string): Outcome {
    return this.screen.resumeHistory(id)
  }

  setShowOdds(on: boolean): Outcome {
    return this.screen.setShowOdds(on)
  }

  /** The odds of the game on the table once the odds worker has worked them out and they are shown. */
  oddsShown(): Promise<Odds> {
    return this.shown(() => this.snapshot(true).current?.odds ?? null)
  }

  /** What `value` finds in what the screens are shown, as soon as it finds something (now, or at a later change). */
  shown<T>(value: () => T | null): Promise<T> {
    const now = value()
    if (now !== null) return Promise.resolve(now)
    return new Promise((resolve) => {
      const stop = this.table.views.subscribe(() => {
        const found = value()
        if (found === null) return
        stop()
        resolve(found)
      })
    })
  }

  /** Listens for every change of what the screens show. */
  subscribe(listener: () => void): () => void {
    return this.table.views.subscribe(listener)
  }

  stop(): Promise<void> {
    return this.table.stop()
  }
}
