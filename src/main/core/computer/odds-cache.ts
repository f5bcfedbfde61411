// The odds of a position are worked out once, however many screens (and kinds of screen) are
// shown that position, and never on the path of a throw: the session asks `cached` while it builds
// a snapshot and has `compute` run after the throw has been pushed to the screens.
import type { Header, RecordedMove } from '../../../shared/record'
import type { Game } from '../../../shared/game'
import { oddsFor, type Odds } from '../../../shared/odds'

interface Entry {
  /** The game: one header object per game started, imported or resumed. */
  header: Header
  moveCount: number
  /**
   * The record's last line itself: after an undo and a different throw, the same move count is a
   * different position. Recorded lines are never changed, so this one names the whole record.
   */
  lastMove: RecordedMove | undefined
  /** What else the figures depend on (how far the chance-to-win tables are solved). */
  variant: string
  odds: Odds
}

/** Positions kept: the one on the table, and a few an undo may come back to. */
const KEPT = 8

export class OddsCache {
  private entries: Entry[] = []
  /** How many positions' odds were worked out (for tests and the bench). */
  computations = 0

  constructor(
    private readonly work: (game: Game) => Odds = oddsFor,
    private readonly variantOf: (game: Game) => string = () => ''
  ) {}

  /** The position's odds if they were worked out already, without working them out. */
  cached(game: Game): Odds | null {
    const lastMove = game.moves[game.moves.length - 1]
    const variant = this.variantOf(game)
    const entry = this.entries.find(
      (e) => e.header === game.header && e.moveCount === game.moves.length && e.lastMove === lastMove && e.variant === variant
    )
    return entry?.odds ?? null
  }

  /** The position's odds, worked out now unless they were already. */
  compute(game: Game): Odds {
    const known = this.cached(game)
    if (known) return known
    const odds = this.work(game)
    this.computations++
    const entry = { header: game.header, moveCount: game.moves.length, lastMove: game.moves[game.moves.length - 1], variant: this.variantOf(game), odds }
    this.entries = [entry, ...this.entries.slice(0, KEPT - 1)]
    return odds
  }
}
