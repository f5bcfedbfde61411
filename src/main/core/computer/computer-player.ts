// Plays the seats the game's header names as computer players (`meta.computers`): virtual dice
// and the AI's decisions, each after a visible pause so the table can follow. After an undo that
// lands on a computer's turn it waits until the table plays on, so undo can go back further.
import type { Outcome } from '../../../shared/api'
import { chooseMove } from '../../../shared/ai'
import { inFinalTurn, specOf } from '../../../shared/ai/win-play'
import { solvable } from '../../../shared/ai/win-solver'
import type { SixDiceState } from '../../../shared/engine/six-dice'
import { computerSeats, offerOf, type Game } from '../../../shared/game'
import type { WinTableSource } from '../../../shared/ai/win-play'
import type { GameTable } from '../game/game-table'
import { Signal } from '../signal'
import type { Notices } from '../screens/notices'

export interface ComputerThinking {
  seat: number
  text: string
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
  private lastGame: Game | null = null
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
    this.unsubscribe = this.table.subscribe(() => this.onChange())
    this.onChange()
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
    const seat = game ? this.actingComputer(game) : null
    if (game && seat !== null && this.waitingAfterUndo) {
      return { seat, text: `${game.header.players[seat]} waits after the undo: play its turn by hand, or undo further` }
    }
    return null
  }

  /** The computer seat that must act now, or null when a person (or nobody) acts. */
  private actingComputer(game: Game): number | null {
    const seats = computerSeats(game)
    if (seats.length === 0) return null
    const offer = offerOf(game)
    if (offer.finished) return null
    const actors = offer.toPlay !== null ? [offer.toPlay] : offer.throwers
    if (actors.length === 0 || !actors.every((seat) => seats.includes(seat))) return null
    return actors[0]
  }

  private changed(): void {
    this.change.emit()
  }

  private onChange(): void {
    const game = this.table.current
    const previous = this.lastGame
    this.lastGame = game
    if (game && previous && game.header === previous.header) {
      if (game.moves.length < previous.moves.length && previous === this.table.takenBack) {
        // Not an undo: the disk failed the move just shown. Plan again as before it.
        if (this.timer) clearTimeout(this.timer)
        this.timer = null
        this.thinkingNow = null
      } else if (game.moves.length < previous.moves.length) this.waitingAfterUndo = true
      else if (game.moves.length > previous.moves.length && !this.timer) this.waitingAfterUndo = false
    } else {
      this.waitingAfterUndo = false
    }
    if (game) this.prepareWinTable(game)
    if (this.timer || !game || this.waitingAfterUndo) return
    const seat = this.actingComputer(game)
    if (seat === null) return
    this.thinkingNow = { seat, text: `${game.header.players[seat]} is thinking…` }
    this.timer = setTimeout(() => this.act(game), this.delayMs)
    this.changed()
  }

  /** Throws the computer's dice with virtual dice, saying why first when it has a reason. */
  private rollFor(source: { kind: 'computer'; seat: number }, why: string | null): Outcome {
    if (why) this.notices.post(why, 'info')
    return this.table.rollVirtual(source)
  }

  /** While the chance-to-win table of its game is being solved: how far, and that it plays for points meanwhile. */
  private solveNote(game: Game): string {
    const id = game.header.game
    const tables = this.winTables
    if ((id !== 'farkle' && id !== 'fouche') || !tables || game.header.players.length < 2) return ''
    const state = game.state as SixDiceState
    const spec = specOf(state)
    if (inFinalTurn(state) || !solvable(spec) || tables.table(spec)) return ''
    return ` (playing for points until the chance to win is known: ${tables.status(spec)})`
  }

  /** Starts solving the chance-to-win table a computer will play Farkle or Fouche by, early. */
  private prepareWinTable(game: Game): void {
    const id = game.header.game
    if ((id !== 'farkle' && id !== 'fouche') || game.header.players.length < 2 || computerSeats(game).length === 0) return
    this.winTables?.table(specOf(game.state as SixDiceState))
  }

  private act(planned: Game): void {
    this.timer = null
    this.thinkingNow = null
    const game = this.table.current
    // Something else changed the game during the pause: look again.
    if (!game || game !== planned) return this.onChange()
    const seat = this.actingComputer(game)
    if (seat === null) return this.changed()
    const choice = chooseMove(game, this.random, this.winTables ?? undefined)
    const name = game.header.players[seat]
    const source = { kind: 'computer', seat } as const
    const outcome = choice?.move ? this.table.submit(choice.move, source, { text: `${name} ${choice.why}`, seat }) : this.rollFor(source, choice ? `${name} ${choice.why}` : null)
    if (!outcome.ok) this.notices.post(outcome.error, 'error')
  }
}
