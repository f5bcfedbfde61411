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
import { GAMES } from '../../shared/engine'
import {
  describeEvent,
  moduleOf,
  offerOf,
  play,
  recordText,
  replayText,
  startGame,
  summaryOf,
  tableOf,
  undo,
  type Game
} from '../../shared/game'
import { keypadHint, keysForDecisions, pressKey } from '../../shared/keypad'
import { checkHeader, moveKind, parseMoveLine, serializeHeader, serializeMove, type Header } from '../../shared/record'
import type { Odds } from '../../shared/odds'
import { OddsCache } from './odds-cache'
import { computerSeats } from './computer-player'
import type { RecordStore } from './record-store'
import type { SettingsStore } from './settings'

export interface SessionOptions {
  store: RecordStore
  settings: SettingsStore
  now?: () => number
  /** A die value 1-6; cryptographically random unless a test says otherwise. */
  rollDie?: () => number
  appVersion?: string
  /** Where the odds of each position are kept once worked out (a test may count the work). */
  odds?: OddsCache
}

// Screens get the latest entries only: every push carries them, and the TV shows one.
const LOG_SHOWN = 60
/** The last time `new Date(t).toISOString()` writes with a four-digit year. */
const LATEST_START = Date.UTC(9999, 11, 31, 23, 59, 59, 999)

export class TableSession {
  private game: Game | null = null
  /** A failed write may have left the file behind the game: rewrite it whole next time. */
  private recordNeedsRewrite = false
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
  private readonly odds: OddsCache
  /** The position whose odds are to be worked out once the state without them is pushed. */
  private oddsDue: Game | null = null
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

  constructor(options: SessionOptions) {
    this.store = options.store
    this.settings = options.settings
    this.now = options.now ?? Date.now
    this.rollDie = options.rollDie ?? (() => randomInt(1, 7))
    this.appVersion = options.appVersion ?? 'dev'
    this.odds = options.odds ?? new OddsCache()
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
    this.archiveCurrent()
    this.store.replaceCurrent(`${serializeHeader(header.value)}\n`)
    this.settings.rememberPlayers(header.value.players)
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
    const unsaved = this.save(
      () => (this.recordNeedsRewrite ? this.store.replaceCurrent(recordText(played.game)) : this.store.append(serializeMove(recorded))),
      game
    )
    if (unsaved) return this.refuse(`The ${moveKind(move)} could not be saved (${unsaved}), so it was not taken: enter it again once the disk has room`)
    this.game = played.game
    this.keypadBuffer = ''
    this.addEvents(played.game, played.game.moves.length, played.events)
    if (note) this.log.push({ line: played.game.moves.length, text: note.text, kind: 'computer', seat: note.seat })
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
    const taken = serializeMove(game.moves[game.moves.length - 1])
    const isTaken = (line: string): boolean => {
      const parsed = parseMoveLine(line.trim())
      return parsed.ok && serializeMove(parsed.value) === taken
    }
    // One line cut off the end, not the whole record written again (unless a failed write left the file behind).
    const unsaved = this.save(() => {
      if (this.recordNeedsRewrite || !this.store.cutLastLine(isTaken)) this.store.replaceCurrent(recordText(previous))
    }, game)
    if (unsaved) return this.refuse(`The undo could not be saved (${unsaved}): nothing was taken back`)
    this.game = previous
    this.log = this.log.filter((entry) => entry.line <= previous.moves.length)
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
    if (!kept) this.store.discardCurrent()
    this.archiveCurrent()
    this.setGame(null, [])
    return this.changed(kept ? 'The game is in the history' : 'The game was closed before its first throw', 'info')
  }

  exportRecord(): Outcome<{ record: string; fileName: string }> {
    if (!this.game) return { ok: false, error: 'There is no game to export' }
    const started = new Date(this.startedAt(this.game.header)).toISOString().slice(0, 16).replace(/[T:]/g, '-')
    return { ok: true, record: recordText(this.game), fileName: `${this.game.header.game}-${started}.jsonl` }
  }

  /** Imports a record: checked line by line; a broken one is refused with its line and changes nothing. */
  importRecord(text: string): Outcome {
    const replayed = replayText(text)
    if (!replayed.ok) return this.refuse(`Import refused: line ${replayed.line}: ${replayed.error}`)
    this.archiveCurrent()
    this.store.replaceCurrent(recordText(replayed.game))
    this.setGame(replayed.game, rebuildLog(replayed.game))
    return this.changed(`Imported a game of ${moduleOf(replayed.game).title} with ${replayed.game.moves.length} lines`, 'info')
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
    this.settings.update({ showOdds: on })
    // Asked for now: worked out before this push, not after it.
    if (on && this.game) this.odds.compute(this.game)
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

  private resume(): void {
    const text = this.store.readCurrent()
    if (text === null) return
    const replayed = replayText(text, { tolerateTruncatedTail: true })
    if (!replayed.ok) {
      const aside = this.store.setAsideCurrent(`line ${replayed.line}: ${replayed.error}`)
      this.message = this.makeMessage(
        `The saved game could not be read (line ${replayed.line}: ${replayed.error}). It was kept as ${aside}.`,
        'error'
      )
      return
    }
    if (replayed.truncatedTail) {
      this.store.replaceCurrent(recordText(replayed.game))
      this.message = this.makeMessage(
        `The last line of the saved game was cut off (the app stopped while writing it). The game resumes after line ${replayed.game.moves.length + 1}.`,
        'warning'
      )
    } else {
      this.message = this.makeMessage(`Resumed the game in progress (${replayed.game.moves.length} lines)`, 'info')
    }
    this.setGame(replayed.game, rebuildLog(replayed.game))
  }

  /**
   * Writes to disk; when that fails (a full disk, a pulled USB stick), puts the record back as
   * `standing` so that file and screens still agree, and says why. Returns null on success.
   */
  private save(write: () => void, standing: Game): string | null {
    try {
      write()
      this.recordNeedsRewrite = false
      return null
    } catch (error) {
      try {
        this.store.replaceCurrent(recordText(standing))
        this.recordNeedsRewrite = false
      } catch {
        // The disk refuses even the repair: the next move rewrites the whole record.
        this.recordNeedsRewrite = true
      }
      return (error as NodeJS.ErrnoException).code ?? (error as Error).message
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

  private archiveCurrent(): void {
    if (!this.game) return
    if (this.game.moves.length === 0) return
    this.store.archiveCurrent(this.historyEntry(this.game, this.newHistoryId(this.game)))
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
    this.store.writeIndex(entries)
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
      this.store.appendIndex(entry)
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
      odds: this.oddsShown(game)
    }
  }

  /**
   * The odds, when the table screen shows them: from the cache, or else null in this push and
   * worked out right after it (a position takes up to tens of milliseconds, which the throw
   * must not wait for on its way to the TV), followed by a push with them.
   */
  private oddsShown(game: Game): Odds | null {
    if (!this.settings.get().showOdds) return null
    const odds = this.odds.cached(game)
    if (odds === null && this.oddsDue !== game) {
      this.oddsDue = game
      setImmediate(() => {
        if (this.oddsDue === game) this.oddsDue = null
        if (this.game !== game || !this.settings.get().showOdds || this.odds.cached(game)) return
        this.odds.compute(game)
        this.changed()
      })
    }
    return odds
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

/** The log of a whole game, folded again from its record. */
function rebuildLog(game: Game): LogEntry[] {
  return replaySteps(game).flatMap((step) => step.entries)
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
