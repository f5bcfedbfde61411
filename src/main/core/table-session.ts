// The table's one source of truth: the game in progress, its record on disk, and the state every
// screen is shown. Every source of throws and decisions (screens, keypads, virtual dice, smart
// dice) goes through `submit`, which checks the move with the rules engine, saves it, then shows it.
import { randomInt } from 'node:crypto'
import type {
  Announcement,
  GameSetup,
  GameView,
  HistoryEntry,
  HistoryGame,
  KeypadKey,
  LogEntry,
  MessageLevel,
  Outcome,
  ReplayStep,
  SharingView,
  TableMessage,
  TableState
} from '../../shared/api'
import type { DevicesView, GameDie, SmartDiceView } from '../../shared/devices'
import type { DeviceControl } from './dispatch'
import type { GameEvent, Move } from '../../shared/engine/types'
import { performance } from 'node:perf_hooks'
import { GAMES } from '../../shared/engine'
import {
  describeEvent,
  moduleOf,
  offerOf,
  play,
  recordText,
  recordTextInSteps,
  replayText,
  replayTextInSteps,
  startGame,
  summaryOf,
  tableOf,
  undo,
  type Game
} from '../../shared/game'
import { keypadHint, keysForDecisions, pressKey } from '../../shared/keypad'
import { checkHeader, moveKind, serializeHeader, serializeMove, type Header } from '../../shared/record'
import { oddsFor } from '../../shared/odds'
import type { WinTableSource } from '../../shared/ai/win-play'
import { computerSeats } from './computer-player'
import { diskTrouble, type RecordStore } from './record-store'
import type { SettingsStore } from './settings'

export interface SessionOptions {
  store: RecordStore
  settings: SettingsStore
  now?: () => number
  /** A die value 1-6; cryptographically random unless a test says otherwise. */
  rollDie?: () => number
  appVersion?: string
}

// Screens get the latest entries only: every push carries them, and the TV shows one.
const LOG_SHOWN = 60
/** Log entries kept in memory: a game of half a million lines must not keep a log of millions. */
const LOG_KEPT = 600
/** The longest a long import replays before letting the screens' requests through. */
const IMPORT_SLICE_MS = 8
/** The last time `new Date(t).toISOString()` writes with a four-digit year. */
const LATEST_START = Date.UTC(9999, 11, 31, 23, 59, 59, 999)

export class TableSession {
  private game: Game | null = null
  /** A long import is being replayed (one at a time). */
  private importing = false
  private log: LogEntry[] = []
  private announcement: Announcement | null = null
  private announcementCount = 0
  private keypadBuffer = ''
  private message: TableMessage | null = null
  private messageCount = 0
  private version = 0
  private readonly listeners = new Set<() => void>()
  private readonly store: RecordStore
  private readonly settings: SettingsStore
  private readonly now: () => number
  private readonly rollDie: () => number
  private readonly appVersion: string
  /** Set by whoever serves LAN viewers; null where there is no sharing. */
  sharingView: () => SharingView | null = () => null
  /** Set by the device manager (smart dice, serial keypads); null where there is none. */
  devicesView: () => DevicesView | null = () => null
  /** Set by the device manager: the smart dice against the record (shown by every screen). */
  smartDiceView: () => SmartDiceView | null = () => null
  /** Set by the device manager: the smart dice in the game, written into a new game's `meta.dice`. */
  gameDice: () => GameDie[] = () => []
  /** Set by the computer player: what it is doing now, if it acts next. */
  computerView: () => { seat: number; text: string } | null = () => null
  /** Set by the device manager: what the device API methods call (see dispatch). */
  deviceControl: DeviceControl | null = null
  /** Solved chance-to-win tables (Farkle, Fouche) for the odds and the computer player; null: none. */
  winTables: WinTableSource | null = null

  constructor(options: SessionOptions) {
    this.store = options.store
    this.settings = options.settings
    this.now = options.now ?? Date.now
    this.rollDie = options.rollDie ?? (() => randomInt(1, 7))
    this.appVersion = options.appVersion ?? 'dev'
    this.resume()
  }

  /** Listens for every change; returns a function that stops listening. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  get currentGame(): Game | null {
    return this.game
  }

  /** What the screens were last told (a refusal, a device's or the disk's error, ...). */
  get lastMessage(): TableMessage | null {
    return this.message
  }

  /**
   * The state one screen is shown. `canControl`: it may enter dice and decisions; `local`: it is
   * on the host computer (only those manage devices and see the pairing code).
   */
  snapshot(canControl: boolean, local = canControl): TableState {
    const sharing = this.sharingView()
    return {
      version: this.version,
      current: this.game ? this.gameView(this.game) : null,
      keypad: { buffer: this.keypadBuffer, hint: this.game ? keypadHint(offerOf(this.game)) : 'Start a game first' },
      message: this.message,
      recentPlayers: [...this.settings.get().recentPlayers],
      showOdds: this.settings.get().showOdds,
      canControl,
      sharing: sharing && !local ? { ...sharing, pairingCode: null } : sharing,
      devices: local ? this.devicesView() : null,
      smartDice: this.smartDiceView()
    }
  }

  newGame(setup: GameSetup): Outcome {
    const dice = this.gameDice()
    const header = checkHeader({
      game: setup.game,
      players: setup.players,
      ...(setup.rules ? { rules: setup.rules } : {}),
      meta: {
        startedAt: this.now(),
        app: `dice-referee ${this.appVersion}`,
        ...(setup.computers?.length ? { computers: [...new Set(setup.computers)].sort((a, b) => a - b) } : {}),
        ...(dice.length > 0 ? { dice } : {})
      }
    })
    if (!header.ok) return this.refuse(header.error)
    if (setup.computers?.some((seat) => !Number.isInteger(seat) || seat < 0 || seat >= setup.players.length)) {
      return this.refuse('A computer player must sit in one of the seats')
    }
    const started = startGame(header.value)
    if (!started.ok) return this.refuse(started.error)
    try {
      this.store.startCurrent(`${serializeHeader(header.value)}\n`, () => this.archiveEntry())
    } catch (error) {
      return this.refuseForDisk(error, 'the new game was not started', 'try again')
    }
    this.rememberPlayers(header.value.players)
    this.setGame(started.value, [])
    return this.changed(`${moduleOf(header.value).title}: ${header.value.players.join(', ')}. ${this.whoIsNext()}`, 'info')
  }

  /**
   * Checks a throw or decision with the rules, saves it, then shows it. A note (the computer
   * player's reason) goes into the log after the rules' own words.
   */
  submit(move: Move, note?: { text: string; seat: number }): Outcome {
    const game = this.game
    if (!game) return this.refuse('Start a game first')
    const recorded = { move, at: this.now() }
    const played = play(game, recorded)
    if (!played.ok) return this.refuse(played.error)
    try {
      this.store.append(serializeMove(recorded))
    } catch (error) {
      return this.refuseForDisk(error, `the ${moveKind(move)} was not taken`, 'enter it again')
    }
    this.game = played.game
    this.keypadBuffer = ''
    this.addEvents(played.game, played.game.moves.length, played.events)
    if (note) this.log.push({ line: played.game.moves.length, text: note.text, kind: 'computer', seat: note.seat })
    if (this.log.length > LOG_KEPT) this.log.splice(0, this.log.length - LOG_KEPT)
    this.message = null
    return this.changed()
  }

  /** A keypad key; `from` names a device keypad (its undo is logged with the device). */
  keypad(key: KeypadKey, from?: string): Outcome {
    if (!this.game) return this.refuse('Start a game first')
    const action = pressKey(this.keypadBuffer, key, offerOf(this.game))
    switch (action.type) {
      case 'refused':
        return this.refuse(action.error)
      case 'buffer':
        this.keypadBuffer = action.buffer
        this.message = null
        return this.changed()
      case 'undo':
        this.keypadBuffer = ''
        return this.undo(from)
      case 'move':
        return this.submit(action.move)
    }
  }

  rollVirtual(): Outcome {
    if (!this.game) return this.refuse('Start a game first')
    const offer = offerOf(this.game)
    if (offer.finished) return this.refuse('The game is over')
    if (offer.diceDue === 0) return this.refuse('No throw is due now: choose a decision first')
    const values = Array.from({ length: offer.diceDue }, () => this.rollDie())
    return this.submit({ roll: values })
  }

  undo(from?: string): Outcome {
    const game = this.game
    if (!game) return this.refuse('Start a game first')
    if (game.moves.length === 0) return this.refuse('Nothing to undo yet')
    const previous = undo(game)
    try {
      this.store.replaceCurrent(recordText(previous))
    } catch (error) {
      return this.refuseForDisk(error, 'nothing was taken back', 'undo again')
    }
    this.game = previous
    this.log = this.log.filter((entry) => entry.line <= previous.moves.length)
    // Only the latest entries are kept: after many undos the earlier ones are folded again.
    if (this.log.length < LOG_SHOWN && previous.moves.length > (this.log[0]?.line ?? 0)) this.log = logTail(previous)
    this.announcement = null
    this.keypadBuffer = ''
    if (from === undefined) return this.changed('Undone: the last line is taken back', 'info')
    const text = `Undone from ${from}: the last line is taken back`
    this.log.push({ line: previous.moves.length, text, kind: 'undo' })
    return this.changed(text, 'info')
  }

  /** Puts the current game in the history, finished or not, and clears the table. */
  abandon(): Outcome {
    if (!this.game) return this.refuse('There is no game to close')
    // A game without a move is not kept in the history; its header must not come back at the next start either.
    const kept = this.game.moves.length > 0
    try {
      const entry = this.archiveEntry()
      if (entry) this.store.archiveCurrent(entry)
      else this.store.discardCurrent()
    } catch (error) {
      return this.refuseForDisk(error, 'the game was not closed', 'try again')
    }
    this.setGame(null, [])
    return this.changed(kept ? 'The game is in the history' : 'The game was closed before its first throw', 'info')
  }

  exportRecord(): Outcome<{ record: string; fileName: string }> {
    if (!this.game) return { ok: false, error: 'There is no game to export' }
    const started = new Date(this.startedAt(this.game.header)).toISOString().slice(0, 16).replace(/[T:]/g, '-')
    return { ok: true, record: recordText(this.game), fileName: `${this.game.header.game}-${started}.jsonl` }
  }

  /**
   * Imports a record: checked line by line; a broken one is refused with its line and changes
   * nothing. A long record is replayed in slices of a few milliseconds, so that every screen
   * keeps being answered meanwhile.
   */
  async importRecord(text: string): Promise<Outcome> {
    if (this.importing) return this.refuse('Another record is being imported: wait for it to finish')
    this.importing = true
    try {
      const log = new LogCollector()
      const replayed = await inSlices(replayTextInSteps(text, { onMove: log.onMove }))
      if (!replayed.ok) return this.refuse(`Import refused: line ${replayed.line}: ${replayed.error}`)
      const record = await inSlices(recordTextInSteps(replayed.game))
      try {
        await this.store.startCurrentInBackground(record, () => this.archiveEntry())
      } catch (error) {
        return this.refuseForDisk(error, 'the record was not imported', 'try again')
      }
      this.setGame(replayed.game, log.entries(replayed.game))
      return this.changed(`Imported a game of ${moduleOf(replayed.game).title} with ${replayed.game.moves.length} lines`, 'info')
    } finally {
      this.importing = false
    }
  }

  listHistory(): HistoryEntry[] {
    let entries = this.store.readIndex()
    if (entries === null) {
      entries = this.rebuildIndex()
    } else {
      entries = [...entries, ...this.unindexedEntries(entries)]
    }
    const shown = [...entries].sort((a, b) => b.finishedAt - a.finishedAt)
    if (this.game && summaryOf(this.game).finished) shown.unshift(this.historyEntry(this.game, 'current'))
    return shown
  }

  openHistory(id: string): Outcome<{ game: HistoryGame }> {
    const text = id === 'current' ? (this.game ? recordText(this.game) : null) : this.store.readHistoryRecord(id)
    if (text === null) return { ok: false, error: `No game ${id} in the history` }
    const replayed = replayText(text, { tolerateTruncatedTail: true })
    if (!replayed.ok) return { ok: false, error: `line ${replayed.line}: ${replayed.error}` }
    const steps = replaySteps(replayed.game).map(({ entries: _entries, ...step }) => step)
    return { ok: true, game: { entry: this.historyEntry(replayed.game, id), record: text, steps } }
  }

  setShowOdds(on: boolean): Outcome {
    try {
      this.settings.update({ showOdds: on })
    } catch (error) {
      return this.refuseForDisk(error, 'the setting was not changed', 'try again')
    }
    return this.changed()
  }

  /** Shows every screen the state again after something outside the game changed (a device's view). */
  refresh(): void {
    this.changed()
  }

  /** Reports something to every screen without changing the game (e.g. a device's warning). */
  notify(text: string, level: MessageLevel): void {
    this.changed(text, level)
  }

  /**
   * Resumes the saved game. A line cut off by a crash is dropped; from a line that cannot be read
   * on, the lines are kept in a file next to the record and the game resumes before it. The host
   * starts in any case, even on a read-only disk (then moves are refused until it can be written).
   */
  private resume(): void {
    const bytes = this.store.readCurrentBytes()
    if (bytes === null) return
    const text = bytes.toString('utf8')
    const log = new LogCollector()
    const replayed = replayText(text, { tolerateTruncatedTail: true, onMove: log.onMove })
    const readOnly = this.store.writeProblem()
    const unsavable = readOnly ? ` ${diskTrouble(readOnly).what}: moves cannot be saved until it can be written.` : ''
    if (replayed.ok) {
      if (replayed.truncatedTail) {
        this.store.keepOnly(bytes.lastIndexOf(0x0a) + 1)
        this.message = this.makeMessage(
          `The last line of the saved game was cut off (the app stopped while writing it). The game resumes after line ${replayed.game.moves.length + 1}.${unsavable}`,
          'warning'
        )
      } else {
        this.message = this.makeMessage(`Resumed the game in progress (${replayed.game.moves.length} lines)${unsavable ? `.${unsavable}` : ''}`, readOnly ? 'warning' : 'info')
      }
      this.setGame(replayed.game, log.entries(replayed.game))
      return
    }
    const reason = `line ${replayed.line}: ${replayed.error}`
    const from = replayed.line > 1 ? startOfLine(bytes, replayed.line) : 0
    const before = from > 0 ? new LogCollector() : null
    const resumed = before ? replayText(bytes.subarray(0, from).toString('utf8'), { onMove: before.onMove }) : null
    if (!before || !resumed?.ok) {
      const aside = this.store.setAsideFrom(0, reason)
      this.message = this.makeMessage(
        aside
          ? `The saved game could not be read (${reason}). It was kept as ${aside}.`
          : `The saved game could not be read (${reason}). It stays in ${this.store.currentPath} and is moved aside before a new game is saved.${unsavable}`,
        'error'
      )
      return
    }
    const aside = this.store.setAsideFrom(from, reason)
    const kept = aside ? `were kept in ${aside}` : `stay at the end of ${this.store.currentPath} until they can be kept aside.${unsavable}`
    this.message = this.makeMessage(
      `Line ${replayed.line} of the saved game could not be read (${replayed.error}). The game resumes before it, after ${resumed.game.moves.length} moves; that line and the ones after it ${kept}`,
      'warning'
    )
    this.setGame(resumed.game, before.entries(resumed.game))
  }

  /** Refuses what the disk would not save, saying why in plain words. */
  private refuseForDisk(error: unknown, notDone: string, retry: string): Outcome {
    const trouble = diskTrouble(error)
    return this.refuse(`${trouble.what}: ${notDone}. ${trouble.remedy} ${retry}.`)
  }

  /** Recent names are a convenience: a disk that refuses them does not stop the game. */
  private rememberPlayers(players: string[]): void {
    try {
      this.settings.rememberPlayers(players)
    } catch {
      // See above.
    }
  }

  private setGame(game: Game | null, log: LogEntry[]): void {
    this.game = game
    this.log = log
    this.announcement = null
    this.keypadBuffer = ''
  }

  private addEvents(game: Game, line: number, events: GameEvent[]): void {
    for (const event of events) {
      this.log.push({ line, text: describeEvent(game, event), kind: event.kind, seat: event.seat })
      if (event.announce) {
        this.announcement = { text: event.announce, kind: event.kind, id: ++this.announcementCount }
      }
    }
  }

  /** The history entry of the current game when it is to be kept there (it has a move), else null. */
  private archiveEntry(): HistoryEntry | null {
    if (!this.game || this.game.moves.length === 0) return null
    return this.historyEntry(this.game, this.newHistoryId(this.game))
  }

  private newHistoryId(game: Game): string {
    const stamp = new Date(this.startedAt(game.header)).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')
    return `${stamp}-${game.header.game}-${randomInt(0x100000, 0xffffff).toString(16)}`
  }

  private historyEntry(game: Game, id: string): HistoryEntry {
    const summary = summaryOf(game)
    const lastAt = game.moves.length > 0 ? game.moves[game.moves.length - 1].at : undefined
    return {
      id,
      game: game.header.game,
      title: moduleOf(game).title,
      players: game.header.players,
      winners: summary.winners,
      startedAt: this.startedAt(game.header),
      finishedAt: lastAt ?? this.now(),
      finished: summary.finished,
      moves: game.moves.length
    }
  }

  private rebuildIndex(): HistoryEntry[] {
    const entries: HistoryEntry[] = []
    for (const id of this.store.historyIds()) {
      const text = this.store.readHistoryRecord(id)
      if (text === null) continue
      const replayed = replayText(text, { tolerateTruncatedTail: true })
      if (replayed.ok) entries.push(this.historyEntry(replayed.game, id))
    }
    try {
      this.store.writeIndex(entries)
    } catch {
      // A read-only or full disk: the history is listed all the same, and indexed another time.
    }
    return entries
  }

  /** Games in the history the index lacks (the app stopped between archiving one and indexing it): indexed now. */
  private unindexedEntries(indexed: HistoryEntry[]): HistoryEntry[] {
    const known = new Set(indexed.map((entry) => entry.id))
    const found: HistoryEntry[] = []
    for (const id of this.store.historyIds()) {
      if (known.has(id)) continue
      const text = this.store.readHistoryRecord(id)
      const replayed = text === null ? null : replayText(text, { tolerateTruncatedTail: true })
      if (!replayed?.ok) continue
      const entry = this.historyEntry(replayed.game, id)
      try {
        this.store.appendIndex(entry)
      } catch {
        // Indexed another time; listed now all the same.
      }
      found.push(entry)
    }
    return found
  }

  private startedAt(header: Header): number {
    const started = header.meta?.startedAt
    // Only a time from 1970 to the year 9999: an imported header may say anything, and a time
    // outside makes toISOString throw (or write a '+' or '-' the history ids do not allow).
    return typeof started === 'number' && started >= 0 && started <= LATEST_START ? started : this.now()
  }

  private gameView(game: Game): GameView {
    const module = moduleOf(game)
    const offer = offerOf(game)
    return {
      game: game.header.game,
      title: module.title,
      players: game.header.players,
      rules: { ...(GAMES[game.header.game].defaults as Record<string, unknown>), ...(game.header.rules ?? {}) },
      summary: summaryOf(game),
      offer,
      decisions: keysForDecisions(offer),
      table: tableOf(game),
      log: this.log.slice(-LOG_SHOWN),
      announcement: this.announcement,
      moveCount: game.moves.length,
      startedAt: this.startedAt(game.header),
      computers: computerSeats(game),
      thinking: this.computerView(),
      odds: this.settings.get().showOdds ? oddsFor(game, this.winTables ?? undefined) : null
    }
  }

  private whoIsNext(): string {
    if (!this.game) return ''
    const toPlay = summaryOf(this.game).toPlay
    return toPlay ? `${toPlay} to throw.` : ''
  }

  private makeMessage(text: string, level: MessageLevel): TableMessage {
    return { text, level, id: ++this.messageCount }
  }

  private refuse(error: string): Outcome {
    this.changed(error, 'error')
    return { ok: false, error }
  }

  private changed(text?: string, level: MessageLevel = 'info'): Outcome {
    if (text !== undefined) this.message = this.makeMessage(text, level)
    this.version++
    for (const listener of this.listeners) listener()
    return { ok: true }
  }
}

/**
 * Collects what happened on the last lines of a replay (`onMove`), and describes it as the log
 * once the replay is done: only the latest lines, however long the game.
 */
class LogCollector {
  private readonly recent: { index: number; events: GameEvent[] }[] = []

  readonly onMove = (index: number, events: GameEvent[]): void => {
    this.recent.push({ index, events })
    if (this.recent.length > 2 * LOG_SHOWN) this.recent.splice(0, LOG_SHOWN)
  }

  entries(game: Game): LogEntry[] {
    const module = moduleOf(game)
    return this.recent.slice(-LOG_SHOWN).flatMap(({ index, events }) =>
      events.map((event) => ({ line: index + 1, text: module.describe(event, game.header.players), kind: event.kind, seat: event.seat }))
    )
  }
}

/** The log of a game's latest lines, folded again from its record. */
function logTail(game: Game): LogEntry[] {
  const log = new LogCollector()
  let state = moduleOf(game).init(game.header.players, game.options)
  game.moves.forEach((recorded, index) => {
    const applied = moduleOf(game).apply(state, recorded.move)
    if (!applied.ok) throw new Error(`a recorded move no longer applies: ${applied.error}`)
    state = applied.state
    log.onMove(index, applied.events)
  })
  return log.entries(game)
}

/** Runs work that pauses now and then (a generator) in slices of a few milliseconds, letting other work run between them. */
async function inSlices<T>(steps: Generator<void, T>): Promise<T> {
  let sliceStart = performance.now()
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    if (performance.now() - sliceStart > IMPORT_SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve))
      sliceStart = performance.now()
    }
  }
}

/** The byte where line `line` (1-based) of a record starts. */
function startOfLine(bytes: Buffer, line: number): number {
  let at = 0
  for (let seen = 1; seen < line; seen++) at = bytes.indexOf(0x0a, at) + 1
  return at
}

function replaySteps(game: Game): (ReplayStep & { entries: LogEntry[] })[] {
  const module = moduleOf(game)
  let state = module.init(game.header.players, game.options)
  const steps: (ReplayStep & { entries: LogEntry[] })[] = []
  game.moves.forEach((recorded, index) => {
    const applied = module.apply(state, recorded.move)
    if (!applied.ok) throw new Error(`a recorded move no longer applies: ${applied.error}`)
    state = applied.state
    const entries = applied.events.map((event) => ({
      line: index + 1,
      text: module.describe(event, game.header.players),
      kind: event.kind,
      seat: event.seat
    }))
    steps.push({
      line: index + 1,
      text: entries.map((entry) => entry.text).join(' '),
      summary: module.summary(state),
      table: module.table(state),
      entries
    })
  })
  return steps
}
