// The game table: the game in progress and its record (the journal). Every throw and decision,
// whatever its source, comes through `submit`, which checks it with the rules engine, saves it,
// then tells whoever listens (`subscribe`) with a typed event that names the move's source. It
// knows nothing of screens, devices or the computer: they listen and act through its methods.
import { randomInt } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import type { HistoryEntry, Outcome } from '@shared/api'
import type { GameSetup } from '@shared/api-methods'
import type { GameDie } from '@shared/devices'
import type { Move } from '@shared/games/types'
import {
  actingComputer,
  computerSeats,
  describeMove,
  moduleOf,
  offerOf,
  play,
  recordText,
  recordTextInSteps,
  replayText,
  replayTextInSteps,
  startGame,
  summaryOf,
  undo,
  type Game
} from '@shared/game'
import { checkHeader, moveKind, movesText, parseMoveLine, serializeHeader, serializeMove, type RecordedMove } from '@shared/record'
import { ENTERED_BY_WORDS } from '@shared/camera'
import { diskTrouble } from '../files/durable-files'
import { log } from '../files/log'
import type { HistoryArchive } from '../history/history-archive'
import { Signal } from '../signal'
import { enteredBy, isPerson, type MoveSource, type News } from './move-source'
import { LogCollector, PlayLog, type PlayLogMark } from './play-log'
import { resumeSavedGame } from './saved-game'
import type { RecordJournal } from './record-journal'

export type TableEvent =
  /** A move was played; its line is written (and is flushed to the disk right after the listeners ran). */
  | { type: 'moved'; game: Game; previous: Game; move: Move; source: MoveSource; redone?: true }
  /** The disk failed to flush the move just shown: it is taken back (nobody chose to undo it). */
  | { type: 'taken-back'; game: Game; previous: Game; news: News }
  | { type: 'undone'; game: Game; previous: Game; source: MoveSource; news: News }
  /** Another game is on the table (started, imported, resumed), or none (closed). */
  | { type: 'replaced'; why: 'started' | 'imported' | 'resumed' | 'closed'; game: Game | null; previous: Game | null; news: News }
  /** A game was put away in the history. */
  | { type: 'archived'; id: string; game: Game }

export type TableListener = (event: TableEvent) => void

export interface GameTableOptions {
  journal: RecordJournal
  archive: HistoryArchive
  now?: () => number
  /** A die value 1-6; cryptographically random unless a test says otherwise. */
  rollDie?: () => number
  appVersion?: string
  /** The smart dice in the game, written into a new game's `meta.dice`. */
  gameDice?: () => GameDie[]
}

/** The longest a long import or export runs before letting the screens' requests through. */
const SLICE_MS = 8

export class GameTable {
  private game: Game | null = null
  /** A long import is being replayed (one at a time). */
  private importing = false
  private lastTakenBack: Game | null = null
  /** The lines undone since the last move, the latest last: what redo plays again. */
  private undone: Move[] = []
  /**
   * The game before its last line, for the words of what undo would take back: every screen's
   * state says them, and folding the game again from its first line (undo) at each push cost a
   * long game's replay on the throw's path. Kept for the current game only (one step back, so a
   * game's earlier states are not all held).
   */
  private beforeLast: { game: Game; before: Game } | null = null
  private readonly events = new Signal<TableEvent>()
  private readonly journal: RecordJournal
  private readonly archive: HistoryArchive
  private readonly now: () => number
  private readonly rollDie: () => number
  private readonly appVersion: string
  private readonly gameDice: () => GameDie[]
  /** What happened, in words (the screens' log, the latest throw, the announcement). */
  readonly playLog = new PlayLog()
  /** What resuming the saved game at start had to say (a crash's cut-off line, an unreadable record). */
  readonly startNews: News | null

  constructor(options: GameTableOptions) {
    this.journal = options.journal
    this.archive = options.archive
    this.now = options.now ?? Date.now
    this.rollDie = options.rollDie ?? (() => randomInt(1, 7))
    this.appVersion = options.appVersion ?? 'dev'
    this.gameDice = options.gameDice ?? (() => [])
    const saved = resumeSavedGame(this.journal)
    this.game = saved.game
    this.playLog.reset(saved.game, saved.entries)
    this.startNews = saved.news
    this.forgetResumedTwin()
  }

  /**
   * A resume from the history writes the game as the current record before it takes the history's
   * copy out (so that a crash leaves two copies, never none): a copy left in the history by a crash
   * between the two is the game on the table, and goes now.
   */
  private forgetResumedTwin(): void {
    const game = this.game
    if (!game || !this.archive.writable()) return
    // Among the games the index lists (read at once; a history without an index is not replayed at start for this).
    const twin = this.archive.twinOf(game, () => recordText(game), this.archive.readIndex() ?? [])
    if (!twin) return
    try {
      this.archive.remove(twin.id)
    } catch {
      // Left for the next start: the history lists it, and it can still be opened.
    }
  }

  /** Listens for every change; returns a function that stops listening. */
  subscribe(listener: TableListener): () => void {
    return this.events.subscribe(listener)
  }

  get current(): Game | null {
    return this.game
  }

  /**
   * The game last shown with a move the disk then failed to flush, and taken back: when the
   * current game goes back from it, that is not an undo (nobody chose to take the move back).
   */
  get takenBack(): Game | null {
    return this.lastTakenBack
  }

  /** Closes the record file (the app is stopping). */
  close(): void {
    this.journal.close()
  }

  /** When a game started, as its history entry will say. */
  startedAt(game: Game): number {
    return this.archive.startedAt(game.header)
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
    if (!header.ok) return refusal(header.error)
    if (setup.computers?.some((seat) => !Number.isInteger(seat) || seat < 0 || seat >= setup.players.length)) {
      return refusal('A computer player must sit in one of the seats')
    }
    const started = startGame(header.value)
    if (!started.ok) return refusal(started.error)
    let archived: Archived
    try {
      archived = this.putAwayWhile((archive) => this.journal.startCurrent(`${serializeHeader(header.value)}\n`, archive))
    } catch (error) {
      return refuseForDisk(error, 'the new game was not started', 'try again')
    }
    this.replace('started', started.value, [], { text: `${moduleOf(started.value).title}: ${header.value.players.join(', ')}. ${whoIsNext(started.value)}`, level: 'info' }, archived)
    return { ok: true }
  }

  /**
   * Checks a throw or decision with the rules, saves it, then tells the listeners. A note (the
   * computer player's reason) goes into the log after the rules' own words.
   */
  submit(move: Move, source: MoveSource, note?: { text: string; seat: number }): Outcome {
    const game = this.game
    if (!game) return refusal('Start a game first')
    const computer = isPerson(source) ? actingComputer(game) : null
    if (computer !== null) return refusal(`It is ${game.header.players[computer]}’s turn: the computer plays it`)
    return this.play(game, move, source, note)
  }

  /** Plays the line undone last again (until a new move is made). */
  redo(source: MoveSource): Outcome {
    const game = this.game
    const next = this.undone.at(-1)
    if (!game || !next) return refusal('Nothing to redo')
    const outcome = this.play(game, next, source, undefined, true)
    if (outcome.ok) this.undone.pop()
    return outcome
  }

  /** What undo and redo would take back and play again, in words (null: nothing). */
  undoRedo(): { undo: string | null; redo: string | null } {
    const game = this.game
    if (!game) return { undo: null, redo: null }
    const last = game.moves.at(-1)
    const next = this.undone.at(-1)
    return {
      undo: last ? describeMove(this.gameBeforeLast(game), last.move) : null,
      redo: next ? describeMove(game, next) : null
    }
  }

  private gameBeforeLast(game: Game): Game {
    if (this.beforeLast?.game !== game) this.beforeLast = { game, before: undo(game) }
    return this.beforeLast.before
  }

  private play(game: Game, move: Move, source: MoveSource, note: { text: string; seat: number } | undefined, redone = false): Outcome {
    const recorded: RecordedMove = { move, at: this.now() }
    const played = play(game, recorded)
    if (!played.ok) return refusal(played.error)
    try {
      this.journal.write(serializeMove(recorded))
    } catch (error) {
      return refuseForDisk(error, `the ${moveKind(move)} was not taken`, 'enter it again')
    }
    this.game = played.game
    this.beforeLast = { game: played.game, before: game }
    const undoneBefore = this.undone
    // A new move starts a new line of play: what was undone can no longer be redone.
    if (!redone) this.undone = []
    const entered = 'roll' in move ? enteredBy(source) : undefined
    const mark = this.playLog.played(game, played.game, recorded, played.events, note, entered && ENTERED_BY_WORDS[entered])
    // The listeners (the screens first) are told while the disk catches up: the line is written
    // (the app being killed cannot lose it), and the next move is taken only once it is on the disk.
    let failed: Outcome | null = null
    try {
      this.emit({ type: 'moved', game: played.game, previous: game, move, source, ...(redone ? { redone } : {}) })
    } finally {
      failed = this.flushMove(move, game, played.game, mark)
      if (failed) this.undone = undoneBefore
    }
    this.playLog.trim()
    return failed ?? { ok: true }
  }

  /** Throws the dice that are due with virtual dice. */
  rollVirtual(source: MoveSource): Outcome {
    if (!this.game) return refusal('Start a game first')
    const offer = offerOf(this.game)
    if (offer.finished) return refusal('The game is over')
    const computer = isPerson(source) ? actingComputer(this.game) : null
    if (computer !== null) return refusal(`It is ${this.game.header.players[computer]}’s turn: the computer plays it`)
    if (offer.diceDue === 0) return refusal('No throw is due now: choose a decision first')
    const values = Array.from({ length: offer.diceDue }, () => this.rollDie())
    return this.submit({ roll: values }, source)
  }

  /** Takes the record's last line back. `device` names a device keypad (its undo is logged with the device). */
  undo(source: MoveSource): Outcome {
    const game = this.game
    if (!game) return refusal('Start a game first')
    if (game.moves.length === 0) return refusal('Nothing to undo yet')
    const previous = undo(game)
    const taken = serializeMove(game.moves[game.moves.length - 1])
    const isTaken = (line: string): boolean => {
      const parsed = parseMoveLine(line.trim())
      return parsed.ok && serializeMove(parsed.value) === taken
    }
    try {
      // One line cut off the end, not the whole record written again.
      if (!this.journal.cutLastLine(isTaken)) this.journal.replaceCurrent(recordText(previous))
    } catch (error) {
      return refuseForDisk(error, 'nothing was taken back', 'undo again')
    }
    this.game = previous
    const last = game.moves[game.moves.length - 1].move
    this.undone = [...this.undone, last]
    const what = describeMove(previous, last)
    const text = source.kind === 'keypad' ? `Undone from ${source.device}: ${what} is taken back` : `Undone: ${what} is taken back`
    this.playLog.undone(previous, source.kind === 'keypad' ? text : null)
    this.emit({ type: 'undone', game: previous, previous: game, source, news: { text, level: 'info' } })
    return { ok: true }
  }

  /**
   * A new game with the same players and options once a game is over, seated as the game's
   * rematch says: Foursies keeps the seats and passes the tab on one seat, as from round to round;
   * the other games rotate the seats by one, so the second player starts (docs/rules-readings.md).
   */
  rematch(): Outcome {
    const game = this.game
    if (!game) return refusal('There is no game to play again')
    const summary = summaryOf(game)
    if (!summary.finished) return refusal('A rematch starts once the game is over')
    const previous = { players: [...game.header.players], rules: { ...(game.header.rules ?? {}) }, computers: computerSeats(game) }
    const { players, rules, computers } = moduleOf(game).rematch(previous, summary)
    return this.newGame({ game: game.header.game, players, ...(Object.keys(rules).length ? { rules } : {}), computers })
  }

  /** Puts the current game in the history, finished or not, and clears the table. */
  abandon(): Outcome {
    if (!this.game) return refusal('There is no game to close')
    // A game without a move is not kept in the history; its header must not come back at the next start either.
    const kept = this.game.moves.length > 0
    let archived: Archived
    try {
      archived = this.putAwayWhile((archive) => {
        const entry = archive()
        if (entry) this.journal.archiveCurrent(entry)
        else this.journal.discardCurrent()
      })
    } catch (error) {
      return refuseForDisk(error, 'the game was not closed', 'try again')
    }
    this.replace('closed', null, [], { text: kept ? 'The game is in the history' : 'The game was closed before its first throw', level: 'info' }, archived)
    return { ok: true }
  }

  /**
   * The record of the game on the table as it is now, written out in slices of a few milliseconds
   * (a 300,000-line game takes about half a second): screens and dice are answered meanwhile, and
   * moves made meanwhile belong to the next export (a game is never changed, only replaced).
   */
  async exportRecord(): Promise<Outcome<{ record: string; fileName: string }>> {
    const game = this.game
    if (!game) return refusal('There is no game to export')
    const started = new Date(this.archive.startedAt(game.header)).toISOString().slice(0, 16).replace(/[T:]/g, '-')
    const record = await inSlices(recordTextInSteps(game))
    return { ok: true, record, fileName: `${game.header.game}-${started}.jsonl` }
  }

  /**
   * Imports a record: checked line by line; a broken one is refused with its line and changes
   * nothing. A long record is replayed in slices of a few milliseconds, so that every screen
   * keeps being answered meanwhile.
   */
  async importRecord(text: string): Promise<Outcome> {
    if (this.importing) return refusal('Another record is being imported: wait for it to finish')
    this.importing = true
    try {
      const log = new LogCollector()
      const replayed = await inSlices(replayTextInSteps(text, { onMove: log.onMove }))
      if (!replayed.ok) return refusal(`Import refused: line ${replayed.line}: ${replayed.error}`)
      const record = await inSlices(recordTextInSteps(replayed.game))
      // Only a game with as many lines can be the same one: a long game on the table is not written out for nothing.
      const onTable = this.game
      if (onTable && onTable.moves.length === replayed.game.moves.length && recordText(onTable) === record) {
        return refusal('Import refused: this game is already on the table')
      }
      const twin = this.archive.twinOf(replayed.game, record)
      if (twin) {
        return refusal(`Import refused: this game is already in the history (${twin.title}, ${twin.players.join(', ')})${twin.finished ? '' : ': resume it from there'}`)
      }
      let archived: Archived
      try {
        archived = await this.putAwayWhileAsync((archive) => this.journal.startCurrentInBackground(record, archive))
      } catch (error) {
        return refuseForDisk(error, 'the record was not imported', 'try again')
      }
      const news = { text: `Imported a game of ${moduleOf(replayed.game).title} with ${movesText(replayed.game.moves.length)}`, level: 'info' as const }
      this.replace('imported', replayed.game, log.entries(replayed.game), news, archived)
      return { ok: true }
    } finally {
      this.importing = false
    }
  }

  /** Makes an abandoned game of the history the game on the table again; the game on the table goes to the history. */
  resumeFromHistory(id: string): Outcome {
    const entry = this.archive.entries().find((candidate) => candidate.id === id)
    if (!entry) return refusal(`No game ${id} in the history`)
    const text = this.archive.readRecord(id)
    const replayed = text === null ? null : replayText(text, { tolerateTruncatedTail: true })
    if (!replayed?.ok) return refusal(`That game cannot be read${replayed && !replayed.ok ? ` (line ${replayed.line}: ${replayed.error})` : ''}`)
    if (summaryOf(replayed.game).finished) return refusal('That game is finished: only an abandoned game can be resumed')
    let archived: Archived
    try {
      archived = this.putAwayWhile((archive) => {
        const away = archive()
        if (away) this.journal.archiveCurrent(away)
        // The record is written as the current one before the history's copy goes: a crash between leaves two copies, never none.
        this.journal.replaceCurrent(text!)
        this.archive.remove(id)
      })
    } catch (error) {
      return refuseForDisk(error, 'the game was not resumed', 'try again')
    }
    const news = `Resumed ${entry.title} with ${entry.players.join(', ')} (${movesText(replayed.game.moves.length)}). ${whoIsNext(replayed.game)}`
    this.replace('resumed', replayed.game, undefined, { text: news, level: 'info' }, archived)
    return { ok: true }
  }

  private emit(event: TableEvent): void {
    this.events.emit(event)
  }

  /** Another game on the table (or none), once its record is in place. */
  private replace(why: Replaced['why'], game: Game | null, entries: Parameters<PlayLog['reset']>[1], news: News, archived: Archived): void {
    const previous = this.game
    this.game = game
    this.undone = []
    this.playLog.reset(game, entries)
    if (archived) this.emit({ type: 'archived', ...archived })
    this.emit({ type: 'replaced', why, game, previous, news })
  }

  /**
   * Runs a journal operation that may put the game on the table away in the history (its
   * `archive` gives the history entry to put it under, or null when it has no move); returns
   * what was put away.
   */
  private putAwayWhile(operation: (archive: () => HistoryEntry | null) => void): Archived {
    let archived: Archived = null
    operation(() => this.archiveEntry((entry) => (archived = entry)))
    return archived
  }

  private async putAwayWhileAsync(operation: (archive: () => HistoryEntry | null) => Promise<void>): Promise<Archived> {
    let archived: Archived = null
    await operation(() => this.archiveEntry((entry) => (archived = entry)))
    return archived
  }

  private archiveEntry(remember: (archived: Archived) => void): HistoryEntry | null {
    // Asked for when the journal is about to put the record away: the game on the table may have moved on meanwhile.
    const game = this.game
    if (!game || game.moves.length === 0) return null
    const entry = this.archive.entryOf(game, this.archive.newId(game))
    remember({ id: entry.id, game })
    return entry
  }

  /** Waits until the move's line is on the disk; when the disk fails it, the line is cut off again and the move taken back. */
  private flushMove(move: Move, before: Game, after: Game, mark: PlayLogMark): Outcome | null {
    try {
      this.journal.flush()
      return null
    } catch (error) {
      const refused = refuseForDisk(error, `the ${moveKind(move)} was not taken`, 'enter it again')
      if (this.game === after) {
        this.lastTakenBack = after
        this.game = before
        this.playLog.takeBack(mark)
        this.emit({ type: 'taken-back', game: before, previous: after, news: { text: refused.error, level: 'error' } })
      }
      return refused
    }
  }
}

type Replaced = Extract<TableEvent, { type: 'replaced' }>

/** A game put away in the history by an operation, or null. */
type Archived = { id: string; game: Game } | null

function refusal(error: string): { ok: false; error: string } {
  return { ok: false, error }
}

/** Refuses what the disk would not save, saying why in plain words. */
function refuseForDisk(error: unknown, notDone: string, retry: string): { ok: false; error: string } {
  const trouble = diskTrouble(error)
  const refused = refusal(`${trouble.what}: ${notDone}. ${trouble.remedy} ${retry}.`)
  // A refusal of the rules is the screen's business; the disk's trouble is the log's too.
  log.warn({ message: refused.error, code: (error as NodeJS.ErrnoException | null)?.code }, 'told the screens of an error')
  return refused
}

function whoIsNext(game: Game): string {
  const toPlay = summaryOf(game).toPlay
  return toPlay ? `${toPlay} to throw.` : ''
}

/** Runs work that pauses now and then (a generator) in slices of a few milliseconds, letting other work run between them. */
export async function inSlices<T>(steps: Generator<void, T>): Promise<T> {
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
