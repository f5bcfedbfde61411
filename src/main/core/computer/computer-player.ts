// Plays the seats the game's header names as computer players (`meta.computers`): virtual dice
// and the AI's decisions, each after a visible pause so the table can follow. A computer's turn is
// the computer's: the game table refuses people's moves meanwhile. After an undo that lands on a
// computer's turn it waits, so undo can go back further, until the table lets it play again.
import type { Outcome } from '@shared/api'
import { chooseMove } from '@shared/ai'
import { actingComputer, computerSeats, moduleOf, type Game } from '@shared/game'
import type { WinTableSource } from '@shared/games/six-dice/win-play'
import type { GameTable, TableEvent } from '../game/game-table'
import { Signal } from '../signal'
import type { Notices } from '../screens/notices'

export interface ComputerThinking {
  seat: number
  text: string
  /** It waits after an undo that landed on its turn, until the table lets it play (letPlay). */
  waiting?: true
}

export interface ComputerPlayerOptions {
  table: GameTable
  notices: Notices
  /** Solved chance-to-win tables (Farkle, Fouche); without them it plays for points. */
  winTables?: WinTableSource | null
  /** The pause before each action, so people can follow. */
  delayMs?: number
  random?: () => number
}

export class ComputerPlayer {
  private timer: ReturnType<typeof setTimeout> | null = null
  private thinkingNow: ComputerThinking | null = null
  private waitingAfterUndo = false
  /** The game the pending action was planned for. */
  private planned: Game | null = null
  private readonly delayMs: number
  private readonly random: () => number
  private readonly table: GameTable
  private readonly notices: Notices
  private readonly winTables: WinTableSource | null
  private readonly unsubscribe: () => void
  private readonly change = new Signal()

  constructor(options: ComputerPlayerOptions) {
    this.table = options.table
    this.notices = options.notices
    this.winTables = options.winTables ?? null
    this.delayMs = options.delayMs ?? 1200
    this.random = options.random ?? Math.random
    this.unsubscribe = this.table.subscribe((event) => this.onChange(event))
    this.onChange(null)
  }

  stop(): void {
    this.unsubscribe()
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  /** Listens for changes of what the computer is doing. */
  subscribe(listener: () => void): () => void {
    return this.change.subscribe(listener)
  }

  /** What the computer is doing; without reasons (for the TV) it leaves out how it decides. */
  thinking(withReasons: boolean): ComputerThinking | null {
    const game = this.table.current
    if (this.thinkingNow) return game && withReasons ? { ...this.thinkingNow, text: this.thinkingNow.text + this.solveNote(game) } : this.thinkingNow
    const seat = game ? actingComputer(game) : null
    if (!game || seat === null) return null
    const name = game.header.players[seat]
    if (this.waitingAfterUndo) return { seat, text: `${name} waits after the undo: undo further, or let ${name} play`, waiting: true }
    // Between two of its actions (the next one being planned): still its turn, on every screen.
    return { seat, text: `${name} is thinking…` }
  }

  private changed(): void {
    this.change.emit()
  }

  /** After an undo that landed on its turn: the table lets the computer play on. */
  letPlay(): Outcome {
    const game = this.table.current
    const seat = game ? actingComputer(game) : null
    if (!game || seat === null) return { ok: false, error: 'No computer player is to play now' }
    if (!this.waitingAfterUndo) return { ok: false, error: `${game.header.players[seat]} is playing already` }
    this.waitingAfterUndo = false
    this.onChange(null)
    return { ok: true }
  }

  private onChange(event: TableEvent | null): void {
    if (event?.type === 'archived') return
    const before = this.thinkingNow
    const waitedBefore = this.waitingAfterUndo
    this.plan(event)
    if (this.thinkingNow !== before || this.waitingAfterUndo !== waitedBefore) this.changed()
  }

  private plan(event: TableEvent | null): void {
    if (event?.type === 'undone') this.waitingAfterUndo = true
    // A new game, a move played on: no undo to wait after. (A move the disk failed is no undo: plan again as before it.)
    else if (event?.type === 'replaced' || event?.type === 'moved') this.waitingAfterUndo = false
    const game = this.table.current
    // The game is not the one planned for any more (an undo, another game, a move taken back): plan again.
    if (this.timer && this.planned !== game) {
      clearTimeout(this.timer)
      this.timer = null
      this.thinkingNow = null
    }
    if (game) this.prepareWinTable(game)
    if (this.timer || !game || this.waitingAfterUndo) return
    const seat = actingComputer(game)
    if (seat === null) {
      this.thinkingNow = null
      return
    }
    this.thinkingNow = { seat, text: `${game.header.players[seat]} is thinking…` }
    this.planned = game
    this.timer = setTimeout(() => this.act(game), this.delayMs)
  }

  /** Throws the computer's dice with virtual dice, saying why first when it has a reason. */
  private rollFor(source: { kind: 'computer'; seat: number }, why: string | null): Outcome {
    if (why) this.notices.post(why, 'info')
    return this.table.rollVirtual(source)
  }

  /** While the tables its game's computer plays by are being solved (Farkle, Fouche: the chance to win): how far, and that it plays for points meanwhile. */
  private solveNote(game: Game): string {
    const tables = this.winTables
    return tables ? (moduleOf(game).computer?.waitNote?.(game.state, tables) ?? '') : ''
  }

  /** Starts solving the tables a computer will play its game by (Farkle, Fouche: the chance to win), early. */
  private prepareWinTable(game: Game): void {
    const tables = this.winTables
    if (tables && computerSeats(game).length > 0) moduleOf(game).computer?.prepare?.(game.state, tables)
  }

  private act(planned: Game): void {
    this.timer = null
    this.thinkingNow = null
    const game = this.table.current
    // Something else changed the game during the pause: look again.
    if (!game || game !== planned) return this.onChange(null)
    const seat = actingComputer(game)
    if (seat === null) return this.changed()
    const choice = chooseMove(game, this.random, this.winTables ?? undefined)
    const name = game.header.players[seat]
    const source = { kind: 'computer', seat } as const
    const outcome = choice?.move ? this.table.submit(choice.move, source, { text: `${name} ${choice.why}`, seat }) : this.rollFor(source, choice ? `${name} ${choice.why}` : null)
    if (outcome.ok) return
    // Its own move was refused (the disk): said, and tried again after the pause.
    this.notices.post(outcome.error, 'error')
    this.onChange(null)
  }
}
