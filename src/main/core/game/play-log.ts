// What happened at the table, in words: the log of the latest record lines, the latest throw with
// who threw it, and the announcement of the last line ("Bust!"). All of it is derived from the
// record (folded again after an undo, a resume or an import) and kept beside the game so that a
// move adds to it instead of folding the whole game again.
import type { Announcement, LastThrow, LogEntry, ScreenKind } from '@shared/api'
import type { GameEvent, Offer, ShownDie } from '@shared/games/types'
import { diceText } from '@shared/dice'
import type { RecordedMove } from '@shared/record'
import { describeEvent, moduleOf, offerOf, play, replayMoves, tableOf, type Game } from '@shared/game'

// Screens get the latest entries only: every push carries them, and the TV shows one.
export const LOG_SHOWN = 60
/**
 * The TV shows the newest entry and sounds the entries of the lines it has not heard: it gets the
 * entries of the last few record lines only (a push a third the size reaches the page sooner).
 */
const SCOREBOARD_LOG_LINES = 3
/** Log entries kept in memory: a game of half a million lines must not keep a log of millions. */
const LOG_KEPT = 600

/** The latest throw of a game: where it is in the record, who threw, and the dice it left. */
interface ThrowMark {
  line: number
  seats: number[]
  values: number[]
  dice: ShownDie[]
}

/** What a move changed in the play log, to take it back when the disk fails the move. */
export interface PlayLogMark {
  lastThrow: ThrowMark | null
  announcement: Announcement | null
  logLength: number
}

export class PlayLog {
  private log: LogEntry[] = []
  private lastThrow: ThrowMark | null = null
  private announcement: Announcement | null = null
  private announcementCount = 0

  /** Starts again from a game as it stands (new, imported, resumed), with the entries of its latest lines. */
  reset(game: Game | null, entries: LogEntry[] = game ? logTail(game) : []): void {
    this.log = entries
    this.lastThrow = game ? lastThrowOf(game) : null
    this.announcement = null
  }

  /**
   * A move was played: its entries, its throw, its announcement (which lasts until the next line).
   * `entered` says how a throw was entered where the source tells it ("Read by the camera"): live
   * only, as the record holds the move alone.
   */
  played(before: Game, after: Game, recorded: RecordedMove, events: GameEvent[], note?: { text: string; seat: number }, entered?: string): PlayLogMark {
    const mark = { lastThrow: this.lastThrow, announcement: this.announcement, logLength: this.log.length }
    const move = recorded.move
    const line = recordLine(after.moves.length)
    const throwers = 'roll' in move ? offerOf(before).throwers : null
    if ('roll' in move && throwers) this.lastThrow = { line, seats: throwers, values: move.roll, dice: diceAfterThrow(after, move.roll) }
    // "Hot dice!" must not carry into the next turn.
    this.announcement = null
    const dice = 'roll' in move ? diceWords(move.roll, throwers ?? [], before.header.players) : undefined
    for (const event of events) {
      const carried = dice && carriesDice(event, throwers ?? []) ? { dice } : {}
      this.log.push({ line, text: describeEvent(after, event), kind: event.kind, seat: event.seat, ...carried })
      if (event.announce) this.announcement = { text: event.announce, kind: event.kind, id: ++this.announcementCount }
    }
    if (note) this.log.push({ line, text: note.text, kind: 'computer', seat: note.seat })
    if (entered) this.log.push({ line, text: entered, kind: ENTERED_BY_KIND })
    return mark
  }

  /** Takes a move back (the disk failed it): the move only added entries. */
  takeBack(mark: PlayLogMark): void {
    this.lastThrow = mark.lastThrow
    this.announcement = mark.announcement
    this.log.length = mark.logLength
  }

  /** Keeps the log short once a move is on the disk (a take-back only cuts it back to its length before). */
  trim(): void {
    if (this.log.length > LOG_KEPT) this.log.splice(0, this.log.length - LOG_KEPT)
  }

  /** The last line was taken back by an undo; `text` says so in the log. */
  undone(previous: Game, text: string | null): void {
    this.log = this.log.filter((entry) => entry.line <= recordLine(previous.moves.length))
    // Only the latest entries are kept: after many undos the earlier ones are folded again.
    if (this.log.length < LOG_SHOWN && recordLine(previous.moves.length) > (this.log[0]?.line ?? 1)) this.log = logTail(previous)
    this.lastThrow = lastThrowOf(previous)
    this.announcement = null
    if (text !== null) this.log.push({ line: previous.moves.length, text, kind: 'undo' })
  }

  /** The entries a kind of screen is shown: the TV gets the moves of the last lines, never the computer's reasons. */
  entries(screen: ScreenKind): LogEntry[] {
    return screen === 'scoreboard' ? entriesOfLastLines(this.log, SCOREBOARD_LOG_LINES, (entry) => entry.kind !== 'computer' && entry.kind !== ENTERED_BY_KIND) : this.log.slice(-LOG_SHOWN)
  }

  get latestAnnouncement(): Announcement | null {
    return this.announcement
  }

  lastThrowView(game: Game, offer: Offer, finished: boolean): LastThrow | null {
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
}

/**
 * Collects what happened on the last lines of a replay (`onMove`), and describes it as the log
 * once the replay is done: only the latest lines, however long the game.
 */
export class LogCollector {
  private readonly recent: { index: number; events: GameEvent[]; before: unknown }[] = []

  readonly onMove = (index: number, events: GameEvent[], before: unknown): void => {
    this.recent.push({ index, events, before })
    if (this.recent.length > 2 * LOG_SHOWN) this.recent.splice(0, LOG_SHOWN)
  }

  entries(game: Game): LogEntry[] {
    const module = moduleOf(game)
    return this.recent.slice(-LOG_SHOWN).flatMap(({ index, events, before }) => {
      const move = game.moves[index].move
      const throwers = module.offer(before).throwers
      const dice = 'roll' in move ? diceWords(move.roll, throwers, game.header.players) : undefined
      const entries: LogEntry[] = events.map((event) => ({
        line: recordLine(index + 1),
        text: module.describe(event, game.header.players),
        kind: event.kind,
        seat: event.seat,
        ...(dice && carriesDice(event, throwers) ? { dice } : {})
      }))
      return entries
    })
  }
}

/** The log entry's kind that says how a throw was entered (the TV does not show it). */
const ENTERED_BY_KIND = 'entered'

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

/** The record line of a move, as `referee replay` numbers it: the header is line 1. */
export function recordLine(moveCount: number): number {
  return moveCount + 1
}

/**
 * A throw's dice in words: sorted as the engines word a throw ("Ann throws 2 3 3 4"), so that one
 * throw reads the same on neighbouring lines; with several throwers each die with its thrower, in
 * seat order ("Ann 3 · Bob 4").
 */
function diceWords(values: readonly number[], seats: readonly number[], players: readonly string[]): string {
  if (seats.length <= 1) return diceText(values)
  return values.map((value, index) => `${players[seats[index]] ?? `Seat ${seats[index] + 1}`} ${value}`).join(' · ')
}

/** Entries that say who plays next ("Bob to throw", "Round 2: Bob holds the tab", "Duel between …"): about the throw to come, not the one just made. */
const NEXT_PLAY_KINDS = new Set(['turn', 'nextTurn', 'roundStart', 'round', 'duel', 'flashStart', 'mustReply'])

/**
 * Whether a log entry of a throw carries the throw's dice: when it is about what the throwers
 * made of it (their score, their bust, their turn's end), not about who plays next, even when the
 * same player throws again.
 */
function carriesDice(event: GameEvent, throwers: readonly number[]): boolean {
  if (NEXT_PLAY_KINDS.has(event.kind)) return false
  const seats = Array.isArray(event.seats) ? (event.seats as number[]) : event.seat !== undefined ? [event.seat] : []
  return seats.some((seat) => throwers.includes(seat))
}

/** The latest throw of a game, folded again from its record (after an undo, a resume or an import). */
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
