// Plays the seats the game's header names as computer players (`meta.computers`): virtual dice
// and the AI's decisions, each after a visible pause so the table can follow. After an undo that
// lands on a computer's turn it waits until the table plays on, so undo can go back further.
import { chooseMove } from '../../shared/ai'
import { inFinalTurn, specOf } from '../../shared/games/six-dice/win-play'
import { solvable } from '../../shared/games/six-dice/win-solver'
import type { SixDiceState } from '../../shared/games/six-dice/rules'
import { computerSeats, offerOf, type Game } from '../../shared/game'
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

  /** While the chance-to-win table of its game is being solved: how far, and that it plays for points meanwhile. */
  private solveNote(game: Game): string {
    const id = game.header.game
    const tables = this.session.winTables
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
    this.session.winTables?.table(specOf(game.state as SixDiceState))
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
