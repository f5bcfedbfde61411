// Plays the seats the game's header names as computer players (`meta.computers`): virtual dice
// and the AI's decisions, each after a visible pause so the table can follow. After an undo that
// lands on a computer's turn it waits until the table plays on, so undo can go back further.
import { chooseMove } from '../../shared/ai'
import { computerSeats, moduleOf, offerOf, type Game } from '../../shared/game'
import type { TableSession } from './table-session'

export interface ComputerThinking {
  seat: number
  text: string
}

export interface ComputerPlayerOptions {
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
  private readonly unsubscribe: () => void

  constructor(
    private readonly session: TableSession,
    options: ComputerPlayerOptions = {}
  ) {
    this.delayMs = options.delayMs ?? 1200
    this.random = options.random ?? Math.random
    this.unsubscribe = session.subscribe(() => this.onChange())
    session.computerView = (withReasons) => this.view(withReasons)
    this.onChange()
  }

  stop(): void {
    this.unsubscribe()
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  /** What the computer is doing; without reasons (for the TV) it leaves out how it decides. */
  private view(withReasons: boolean): ComputerThinking | null {
    const game = this.session.currentGame
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

  private onChange(): void {
    const game = this.session.currentGame
    const previous = this.lastGame
    this.lastGame = game
    if (game && previous && game.header === previous.header) {
      if (game.moves.length < previous.moves.length && previous === this.session.takenBack) {
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
    this.session.refresh()
  }

  /** While the tables its game's computer plays by are being solved (Farkle, Fouche: the chance to win): how far, and that it plays for points meanwhile. */
  private solveNote(game: Game): string {
    const tables = this.session.winTables
    return tables ? (moduleOf(game).computer?.waitNote?.(game.state, tables) ?? '') : ''
  }

  /** Starts solving the tables a computer will play its game by (Farkle, Fouche: the chance to win), early. */
  private prepareWinTable(game: Game): void {
    const tables = this.session.winTables
    if (tables && computerSeats(game).length > 0) moduleOf(game).computer?.prepare?.(game.state, tables)
  }

  private act(planned: Game): void {
    this.timer = null
    this.thinkingNow = null
    const game = this.session.currentGame
    // Something else changed the game during the pause: look again.
    if (!game || game !== planned) return this.onChange()
    const seat = this.actingComputer(game)
    if (seat === null) return this.session.refresh()
    const choice = chooseMove(game, this.random, this.session.winTables ?? undefined)
    const name = game.header.players[seat]
    if (choice?.move) this.session.submit(choice.move, { text: `${name} ${choice.why}`, seat })
    else {
      if (choice) this.session.notify(`${name} ${choice.why}`, 'info')
      this.session.rollVirtual()
    }
  }
}
