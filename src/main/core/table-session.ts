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
  LastThrow,
  LogEntry,
  MessageLevel,
  Outcome,
  ReplayStep,
  ScreenKind,
  SharingView,
  TableMessage,
  TableState
} from '../../shared/api'
import type { DevicesView, GameDie, SmartDiceView } from '../../shared/devices'
import type { DeviceControl } from './dispatch'
import type { GameEvent, Move, Offer, ShownDie } from '../../shared/games/types'
import { performance } from 'node:perf_hooks'
import { GAMES } from '../../shared/games'
import {
  computerSeats,
  describeEvent,
  moduleOf,
  offerOf,
  personNames,
  play,
  recordText,
  recordTextInSteps,
  replayMoves,
  replayText,
  replayTextInSteps,
  startGame,
  summaryOf,
  tableOf,
  undo,
  type Game
} from '../../shared/game'
import { keypadHint, keypadLegend, keysForDecisions, pressKey } from '../../shared/keypad'
import { checkHeader, moveKind, movesText, parseMoveLine, serializeHeader, serializeMove, type Header } from '../../shared/record'
import { oddsFor, type Odds } from '../../shared/odds'
import type { WinTableSource } from '../../shared/games/six-dice/win-play'
import { OddsCache } from './odds-cache'
import { OpenReplays } from './open-replays'
import { checkpointCollector, steppableInSteps, stepCountOf, type SteppableGame } from '../../shared/replay-steps'
import { PlayerRecords } from './player-records'
import { diskTrouble, type RecordStore } from './record-store'
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
/**
 * The TV shows the newest entry and sounds the entries of the lines it has not heard: it gets the
 * entries of the last few record lines only (a push a third the size reaches the page sooner).
 */
const SCOREBOARD_LOG_LINES = 3
/** Log entries kept in memory: a game of half a million lines must not keep a log of millions. */
const LOG_KEPT = 600
/** The longest a long import or export runs before letting the screens' requests through. */
const SLICE_MS = 8
/** The last time `new Date(t).toISOString()` writes with a four-digit year. */
const LATEST_START = Date.UTC(9999, 11, 31, 23, 59, 59, 999)

export class TableSession {
  private game: Game | null = null
  /** A long import is being replayed (one at a time). */
  private importing = false
  private log: LogEntry[] = []
  /** The latest throw: its record line, and the seats whose dice it holds. */
  private lastThrow: ThrowMark | null = null
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
  private readonly replays = new OpenReplays()
  /** The position whose odds are to be worked out once the state without them is pushed. */
  private oddsDue: Game | null = null
  private lastTakenBack: Game | null = null
  /** Set by whoever serves LAN viewers; null where there is no sharing. */
  sharingView: () => SharingView | null = () => null
  /** Set by the device manager (smart dice, serial keypads); null where there is none. */
  devicesView: () => DevicesView | null = () => null
  /** Set by the device manager: the smart dice against the record (shown by every screen). */
  smartDiceView: () => SmartDiceView | null = () => null
  /** Set by the device manager: the smart dice in the game, written into a new game's `meta.dice`. */
  gameDice: () => GameDie[] = () => []
  /** Set by the computer player: what it is doing now, if it acts next. */
  computerView: (withReasons: boolean) => { seat: number; text: string } | null = () => null
  /** Set by the device manager: what the device API methods call (see dispatch). */
  deviceControl: DeviceControl | null = null
  /** Solved chance-to-win tables (Farkle, Fouche) for the odds and the computer player; null: none. */
  winTables: WinTableSource | null = null

  /** Players as people, their statistics (cached beside the history index), charts and the trash. */
  readonly players: PlayerRecords
  /** The game being moved to the history by the store operation under way. */
  private archiving: { id: string; game: Game } | null = null

  constructor(options: SessionOptions) {
    this.store = options.store
    this.players = new PlayerRecords(
      options.store,
      () => this.listHistory(),
      (done, total) =>
        this.notify(done < total ? `Rebuilding the statistics from the records: ${done} of ${total} games` : `Statistics rebuilt from ${total} records`, 'info'),
      options.now ?? Date.now
    )
    this.settings = options.settings
    this.now = options.now ?? Date.now
    this.rollDie = options.rollDie ?? (() => randomInt(1, 7))
    this.appVersion = options.appVersion ?? 'dev'
    // Farkle and Fouche odds carry the chance to win once its table is solved, or how far solving is.
    this.odds =
      options.odds ??
      new OddsCache(
        (game) => oddsFor(game, this.winTables ?? undefined),
        (game) => (this.winTables ? (moduleOf(game).odds.tablesKey?.(game.state, this.winTables) ?? '') : '')
      )
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

  /**
   * The game last shown with a move the disk then failed to flush, and taken back: when the
   * current game goes back from it, that is not an undo (nobody chose to take the move back).
   */
  get takenBack(): Game | null {
    return this.lastTakenBack
  }

  /** What the screens were last told (a refusal, a device's or the disk's error, ...). */
  get lastMessage(): TableMessage | null {
    return this.message
  }

  /**
   * The state one screen is shown. `canControl`: it may enter dice and decisions; `local`: it is
   * on the host computer (only those manage devices and see the pairing code).
   */
  snapshot(canControl: boolean, local = canControl, screen: ScreenKind = 'control'): TableState {
    const sharing = this.sharingView()
    return {
      version: this.version,
      current: this.game ? this.gameView(this.game, screen) : null,
      keypad: {
        buffer: this.keypadBuffer,
        hint: this.game ? keypadHint(offerOf(this.game), this.game.header.players) : 'Start a game first',
        legend: keypadLegend(this.game?.header.game ?? null)
      },
      message: this.message,
      recentPlayers: [...this.settings.get().recentPlayers],
      showOdds: this.settings.get().showOdds,
      canControl,
      sharing: sharing && !local ? { ...sharing, pairingCode: null } : sharing,
      devices: local && screen === 'control' ? this.devicesView() : null,
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
      this.noteArchived()
    } catch (error) {
      return this.refuseForDisk(error, 'the new game was not started', 'try again')
    }
    this.rememberPlayers(personNames(header.value))
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
    const throwers = 'roll' in move ? offerOf(game).throwers : null
    const played = play(game, recorded)
    if (!played.ok) return this.refuse(played.error)
    try {
      this.store.write(serializeMove(recorded))
    } catch (error) {
      return this.refuseForDisk(error, `the ${moveKind(move)} was not taken`, 'enter it again')
    }
    const before = this.moveMark()
    this.game = played.game
    this.keypadBuffer = ''
    const line = recordLine(played.game.moves.length)
    if ('roll' in move && throwers) this.lastThrow = { line, seats: throwers, values: move.roll, dice: diceAfterThrow(played.game, move.roll) }
    // An announcement lasts until the next line: "Hot dice!" must not carry into the next turn.
    this.announcement = null
    this.addEvents(played.game, line, played.events, 'roll' in move ? diceWords(move.roll, throwers ?? [], game.header.players) : undefined)
    if (note) this.log.push({ line, text: note.text, kind: 'computer', seat: note.seat })
    this.message = null
    // The screens are told while the disk catches up: the line is written (the app being killed
    // cannot lose it), and the next move is taken only once it is on the disk.
    let failed: Outcome | null = null
    try {
      this.changed()
    } finally {
      failed = this.flushMove(move, before, played.game)
    }
    if (this.log.length > LOG_KEPT) this.log.splice(0, this.log.length - LOG_KEPT)
    return failed ?? { ok: true }
  }

  /** Waits until the move's line is on the disk; when the disk fails it, the line is cut off again and the move taken back. */
  private flushMove(move: Move, before: MoveMark, game: Game): Outcome | null {
    try {
      this.store.flush()
      return null
    } catch (error) {
      if (this.game === game) {
        this.lastTakenBack = game
        this.restore(before)
      }
      return this.refuseForDisk(error, `the ${moveKind(move)} was not taken`, 'enter it again')
    }
  }

  /** What a move changes in the session besides the record, to take it back when the disk fails it. */
  private moveMark(): MoveMark {
    return { game: this.game, keypadBuffer: this.keypadBuffer, lastThrow: this.lastThrow, announcement: this.announcement, logLength: this.log.length, message: this.message }
  }

  private restore(mark: MoveMark): void {
    this.game = mark.game
    this.keypadBuffer = mark.keypadBuffer
    this.lastThrow = mark.lastThrow
    this.announcement = mark.announcement
    // The move only added entries (the log is trimmed once the move is on the disk).
    this.log.length = mark.logLength
    this.message = mark.message
  }

  /** A keypad key; `from` names a device keypad (its undo is logged with the device). */
  keypad(key: KeypadKey, from?: string): Outcome {
    if (!this.game) return this.refuse('Start a game first')
    const action = pressKey(this.keypadBuffer, key, offerOf(this.game))
    switch (action.type) {
      case 'refused':
        // A refused entry clears what was typed, so the next digits start afresh (a wrong digit alone keeps the rest).
        if (key === 'Enter') this.keypadBuffer = ''
        return this.refuse(action.error)
      case 'buffer':
        this.keypadBuffer = action.buffer
        this.message = null
        return this.changed()
      case 'undo':
        this.keypadBuffer = ''
        return this.undo(from)
      case 'move':
        // A move the rules refuse clears what was typed as well.
        this.keypadBuffer = ''
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
    try {
      // One line cut off the end, not the whole record written again.
      if (!this.store.cutLastLine(isTaken)) this.store.replaceCurrent(recordText(previous))
    } catch (error) {
      return this.refuseForDisk(error, 'nothing was taken back', 'undo again')
    }
    this.game = previous
    this.log = this.log.filter((entry) => entry.line <= recordLine(previous.moves.length))
    // Only the latest entries are kept: after many undos the earlier ones are folded again.
    if (this.log.length < LOG_SHOWN && recordLine(previous.moves.length) > (this.log[0]?.line ?? 1)) this.log = logTail(previous)
    this.lastThrow = lastThrowOf(previous)
    this.announcement = null
    this.keypadBuffer = ''
    if (from === undefined) return this.changed('Undone: the last line is taken back', 'info')
    const text = `Undone from ${from}: the last line is taken back`
    this.log.push({ line: previous.moves.length, text, kind: 'undo' })
    return this.changed(text, 'info')
  }

  /**
   * A new game with the same players and options once a game is over, seated as the game's
   * rematch says: Foursies keeps the seats and passes the tab on one seat, as from round to round;
   * the other games rotate the seats by one, so the second player starts (docs/rules-readings.md).
   */
  rematch(): Outcome {
    const game = this.game
    if (!game) return this.refuse('There is no game to play again')
    const summary = summaryOf(game)
    if (!summary.finished) return this.refuse('A rematch starts once the game is over')
    const previous = { players: [...game.header.players], rules: { ...(game.header.rules ?? {}) }, computers: computerSeats(game) }
    const { players, rules, computers } = moduleOf(game).rematch(previous, summary)
    return this.newGame({ game: game.header.game, players, ...(Object.keys(rules).length ? { rules } : {}), computers })
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
      this.noteArchived()
    } catch (error) {
      return this.refuseForDisk(error, 'the game was not closed', 'try again')
    }
    this.setGame(null, [])
    return this.changed(kept ? 'The game is in the history' : 'The game was closed before its first throw', 'info')
  }

  /**
   * The record of the game on the table as it is now, written out in slices of a few milliseconds
   * (a 300,000-line game takes about half a second): screens and dice are answered meanwhile, and
   * moves made meanwhile belong to the next export (a game is never changed, only replaced).
   */
  async exportRecord(): Promise<Outcome<{ record: string; fileName: string }>> {
    const game = this.game
    if (!game) return { ok: false, error: 'There is no game to export' }
    const started = new Date(this.startedAt(game.header)).toISOString().slice(0, 16).replace(/[T:]/g, '-')
    const record = await inSlices(recordTextInSteps(game))
    return { ok: true, record, fileName: `${game.header.game}-${started}.jsonl` }
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
      // Only a game with as many lines can be the same one: a long game on the table is not written out for nothing.
      const onTable = this.game
      if (onTable && onTable.moves.length === replayed.game.moves.length && recordText(onTable) === record) {
        return this.refuse('Import refused: this game is already on the table')
      }
      const twin = this.historyTwin(replayed.game, record)
      if (twin) {
        return this.refuse(
          `Import refused: this game is already in the history (${twin.title}, ${twin.players.join(', ')})${twin.finished ? '' : ': resume it from there'}`
        )
      }
      try {
        await this.store.startCurrentInBackground(record, () => this.archiveEntry())
        this.noteArchived()
      } catch (error) {
        return this.refuseForDisk(error, 'the record was not imported', 'try again')
      }
      this.setGame(replayed.game, log.entries(replayed.game))
      return this.changed(`Imported a game of ${moduleOf(replayed.game).title} with ${movesText(replayed.game.moves.length)}`, 'info')
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

  /** Makes an abandoned (unfinished) game of the history the game on the table again; the game on the table goes to the history. */
  resumeHistory(id: string): Outcome {
    const entries = this.listHistory().filter((entry) => entry.id !== 'current')
    const entry = entries.find((candidate) => candidate.id === id)
    if (!entry) return this.refuse(`No game ${id} in the history`)
    const text = this.store.readHistoryRecord(id)
    const replayed = text === null ? null : replayText(text, { tolerateTruncatedTail: true })
    if (!replayed?.ok) return this.refuse(`That game cannot be read${replayed && !replayed.ok ? ` (line ${replayed.line}: ${replayed.error})` : ''}`)
    if (summaryOf(replayed.game).finished) return this.refuse('That game is finished: only an abandoned game can be resumed')
    try {
      const archived = this.archiveEntry()
      if (archived) this.store.archiveCurrent(archived)
      this.noteArchived()
      if (!this.store.restoreFromHistory(id, this.store.readIndex() ?? entries)) return this.refuse(`No game ${id} in the history`)
    } catch (error) {
      return this.refuseForDisk(error, 'the game was not resumed', 'try again')
    }
    this.setGame(replayed.game, logTail(replayed.game))
    return this.changed(`Resumed ${entry.title} with ${entry.players.join(', ')} (${movesText(replayed.game.moves.length)}). ${this.whoIsNext()}`, 'info')
  }

  /**
   * Opens a game of the history ('current': the game on the table, as it is now) for a replay,
   * in slices like an import: a long game is read and replayed once, and its steps are then
   * asked for one at a time (`historyStep`).
   */
  async openHistory(id: string): Promise<Outcome<{ game: HistoryGame }>> {
    let steppable: SteppableGame
    let text: string
    if (id === 'current') {
      // The game on the table is in hand: its moves are shared, not read again.
      const game = this.game
      if (!game) return { ok: false, error: 'No game on the table' }
      text = await inSlices(recordTextInSteps(game))
      steppable = await inSlices(steppableInSteps(game))
    } else {
      const read = this.store.readHistoryRecord(id)
      if (read === null) return { ok: false, error: `No game ${id} in the history` }
      text = read
      const collector = checkpointCollector()
      const replayed = await inSlices(replayTextInSteps(text, { tolerateTruncatedTail: true, onMove: collector.onMove }))
      if (!replayed.ok) return { ok: false, error: `line ${replayed.line}: ${replayed.error}` }
      steppable = { game: replayed.game, checkpoints: collector.checkpoints, lines: collector.lines }
    }
    const replay = this.replays.add(steppable)
    return { ok: true, game: { entry: this.historyEntry(steppable.game, id), record: text, replay, stepCount: stepCountOf(steppable) } }
  }

  /** Step `index` of a replay opened with `openHistory`. */
  historyStep(replay: string, index: number): Outcome<{ step: ReplayStep }> {
    return this.replays.step(replay, index)
  }

  setShowOdds(on: boolean): Outcome {
    try {
      this.settings.update({ showOdds: on })
    } catch (error) {
      return this.refuseForDisk(error, 'the setting was not changed', 'try again')
    }
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
        this.message = this.makeMessage(`Resumed the game in progress (${movesText(replayed.game.moves.length)})${unsavable ? `.${unsavable}` : ''}`, readOnly ? 'warning' : 'info')
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
      `Line ${replayed.line} of the saved game could not be read (${replayed.error}). The game resumes before it, after ${movesText(resumed.game.moves.length)}; that line and the ones after it ${kept}`,
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
      this.players.remember(players)
    } catch {
      // See above.
    }
  }

  private setGame(game: Game | null, log: LogEntry[]): void {
    this.game = game
    this.log = log
    this.lastThrow = game ? lastThrowOf(game) : null
    this.announcement = null
    this.keypadBuffer = ''
  }

  private addEvents(game: Game, line: number, events: GameEvent[], dice?: string): void {
    for (const event of events) {
      this.log.push({ line, text: describeEvent(game, event), kind: event.kind, seat: event.seat, ...(dice ? { dice } : {}) })
      if (event.announce) {
        this.announcement = { text: event.announce, kind: event.kind, id: ++this.announcementCount }
      }
    }
  }

  /** The history entry of the current game when it is to be kept there (it has a move), else null. */
  private archiveEntry(): HistoryEntry | null {
    this.archiving = null
    if (!this.game || this.game.moves.length === 0) return null
    const entry = this.historyEntry(this.game, this.newHistoryId(this.game))
    this.archiving = { id: entry.id, game: this.game }
    return entry
  }

  /** Tells the player statistics about the game just archived (derived data: a failure only delays it). */
  private noteArchived(): void {
    const archived = this.archiving
    this.archiving = null
    if (!archived) return
    try {
      this.players.archived(archived.id, archived.game)
    } catch {
      // The statistics cache fills in a record it lacks the next time it is read.
    }
  }

  private newHistoryId(game: Game): string {
    const stamp = new Date(this.startedAt(game.header)).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')
    return `${stamp}-${game.header.game}-${randomInt(0x100000, 0xffffff).toString(16)}`
  }

  /** The game of the history that is this record (same game, players and start, same lines), if any. */
  private historyTwin(game: Game, text: string): HistoryEntry | null {
    const started = game.header.meta?.startedAt
    for (const entry of this.listHistory()) {
      if (entry.id === 'current' || entry.game !== game.header.game || entry.startedAt !== started) continue
      if (entry.players.join('\n') !== game.header.players.join('\n') || entry.moves !== game.moves.length) continue
      const stored = this.store.readHistoryRecord(entry.id)
      const replayed = stored === null ? null : replayText(stored, { tolerateTruncatedTail: true })
      if (replayed?.ok && recordText(replayed.game) === text) return entry
    }
    return null
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
      moves: game.moves.length,
      standings: moduleOf(game).standings(game.state)
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

  private gameView(game: Game, screen: ScreenKind): GameView {
    const module = moduleOf(game)
    const offer = offerOf(game)
    const summary = summaryOf(game)
    return {
      game: game.header.game,
      title: module.title,
      players: game.header.players,
      rules: { ...(GAMES[game.header.game].defaults as Record<string, unknown>), ...(game.header.rules ?? {}) },
      summary,
      standings: module.standings(game.state),
      offer,
      decisions: keysForDecisions(offer),
      table: tableOf(game),
      lastThrow: this.lastThrowView(game, offer, summary.finished),
      // The TV gets the moves, never the computer's reasons or the odds.
      log: screen === 'scoreboard' ? entriesOfLastLines(this.log, SCOREBOARD_LOG_LINES, (entry) => entry.kind !== 'computer') : this.log.slice(-LOG_SHOWN),
      announcement: this.announcement,
      moveCount: game.moves.length,
      startedAt: this.startedAt(game.header),
      computers: computerSeats(game),
      thinking: this.computerView(screen !== 'scoreboard'),
      odds: screen === 'control' ? this.oddsShown(game) : null
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

  private lastThrowView(game: Game, offer: Offer, finished: boolean): LastThrow | null {
    const thrown = this.lastThrow
    if (!thrown) return null
    const players = game.header.players
    const throwers = thrown.seats.map((seat) => players[seat] ?? `Seat ${seat + 1}`)
    const acting = offer.toPlay !== null ? [offer.toPlay] : offer.throwers
    const current = !finished && acting.length === thrown.seats.length && acting.every((seat, index) => seat === thrown.seats[index])
    let caption: string
    if (thrown.seats.length === 1) caption = current ? `${throwers[0]}’s throw` : `${throwers[0]}’s last throw`
    else caption = `${current ? 'Duel throw' : 'Last duel throw'}: ${diceWords(thrown.values, thrown.seats, players)}`
    return { line: thrown.line, throwers, values: [...thrown.values], dice: thrown.dice.map((die) => ({ ...die })), current, caption }
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

/** What a move changes in the session besides the record (see `TableSession.moveMark`). */
interface MoveMark {
  game: Game | null
  keypadBuffer: string
  lastThrow: TableSession['lastThrow']
  announcement: Announcement | null
  logLength: number
  message: TableMessage | null
}

/**
 * Collects what happened on the last lines of a replay (`onMove`), and describes it as the log
 * once the replay is done: only the latest lines, however long the game.
 */
class LogCollector {
  private readonly recent: { index: number; events: GameEvent[]; before: unknown }[] = []

  readonly onMove = (index: number, events: GameEvent[], before: unknown): void => {
    this.recent.push({ index, events, before })
    if (this.recent.length > 2 * LOG_SHOWN) this.recent.splice(0, LOG_SHOWN)
  }

  entries(game: Game): LogEntry[] {
    const module = moduleOf(game)
    return this.recent.slice(-LOG_SHOWN).flatMap(({ index, events, before }) => {
      const move = game.moves[index].move
      const dice = 'roll' in move ? diceWords(move.roll, module.offer(before).throwers, game.header.players) : undefined
      return events.map((event) => ({
        line: recordLine(index + 1),
        text: module.describe(event, game.header.players),
        kind: event.kind,
        seat: event.seat,
        ...(dice ? { dice } : {})
      }))
    })
  }
}

/** The log of a game's latest lines, folded again from its record. */
function logTail(game: Game): LogEntry[] {
  const log = new LogCollector()
  const module = moduleOf(game)
  let state = module.init(game.header.players, game.options)
  game.moves.forEach((recorded, index) => {
    const applied = module.apply(state, recorded.move)
    if (!applied.ok) throw new Error(`a recorded move no longer applies: ${applied.error}`)
    log.onMove(index, applied.events, state)
    state = applied.state
  })
  return log.entries(game)
}

/** Runs work that pauses now and then (a generator) in slices of a few milliseconds, letting other work run between them. */
async function inSlices<T>(steps: Generator<void, T>): Promise<T> {
  let sliceStart = performance.now()
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    if (performance.now() - sliceStart > SLICE_MS) {
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

/** The record line of a move, as `referee replay` numbers it: the header is line 1. */
function recordLine(moveCount: number): number {
  return moveCount + 1
}

/** A throw's dice in words: "4 4 5 6", or with several throwers "Ann 3 · Bob 4". */
function diceWords(values: readonly number[], seats: readonly number[], players: readonly string[]): string {
  if (seats.length <= 1) return values.join(' ')
  return values.map((value, index) => `${players[seats[index]] ?? `Seat ${seats[index] + 1}`} ${value}`).join(' · ')
}

/** The latest throw of a game, folded again from its record (after an undo, a resume or an import). */
/** The latest throw of a game: where it is in the record, who threw, and the dice it left. */
interface ThrowMark {
  line: number
  seats: number[]
  values: number[]
  dice: ShownDie[]
}

function lastThrowOf(game: Game): ThrowMark | null {
  let index = game.moves.length - 1
  while (index >= 0 && !('roll' in game.moves[index].move)) index--
  if (index < 0) return null
  const before = replayMoves(game, index)
  const move = game.moves[index].move as { roll: number[] }
  const after = play(before, game.moves[index])
  if (!after.ok) throw new Error(`a recorded move no longer applies: ${after.error}`)
  return { line: recordLine(index + 1), seats: offerOf(before).throwers, values: move.roll, dice: diceAfterThrow(after.game, move.roll) }
}

/**
 * The dice as a throw left them: the engine's view right after it when that view shows this throw
 * (its fresh dice are the values thrown: a Foursies re-roll beside the dice kept, Farkle's dice set
 * aside apart), else just the values (a throw that ended the round and started a duel).
 */
function diceAfterThrow(after: Game, values: readonly number[]): ShownDie[] {
  const shown = tableOf(after).dice
  const fresh = shown.filter((die) => die.fresh).map((die) => die.value)
  const same = fresh.length === values.length && [...fresh].sort().join() === [...values].sort().join()
  return same ? shown.map((die) => ({ ...die })) : values.map((value) => ({ value, fresh: true }))
}

/**
 * The entries `shown` of the last `lines` record lines that have such entries (in order). Walks
 * back from the end: the log holds up to LOG_KEPT entries and the TV's state is built on every move.
 */
function entriesOfLastLines(log: readonly LogEntry[], lines: number, shown: (entry: LogEntry) => boolean): LogEntry[] {
  const entries: LogEntry[] = []
  let seen = 0
  for (let index = log.length - 1; index >= 0; index--) {
    const entry = log[index]
    if (!shown(entry)) continue
    if (entries.length === 0 || entry.line !== entries[entries.length - 1].line) {
      if (seen === lines) break
      seen++
    }
    entries.push(entry)
  }
  return entries.reverse()
}
