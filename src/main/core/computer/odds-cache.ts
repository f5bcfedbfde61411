// The odds of a position are worked out once, however many screens (and kinds of screen) are
// shown that position: the odds service asks `cached` while it builds a state, and `store`s what
// the odds worker answers.
import type { Header, RecordedMove } from '@shared/record'
import type { Game } from '@shared/game'
import type { Odds } from '@shared/odds'

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

  constructor(private readonly variantOf: (game: Game) => string = () => '') {}

  /** The position's odds if they were worked out already. */
  cached(game: Game): Odds | null {
    const lastMove = game.moves[game.moves.length - 1]
    const variant = this.variantOf(game)
    const entry = this.entries.find(
      (e) => e.header === game.header && e.moveCount === game.moves.length && e.lastMove === lastMove && e.variant === variant
    )
    return entry?.odds ?? null
  }

  /** Keeps the odds worked out for a position (with what they depended on when they were asked for). */
  store(game: Game, variant: string, odds: Odds): void {
    const entry = { header: game.header, moveCount: game.moves.length, lastMove: game.moves[game.moves.length - 1], variant, odds }
    this.entries = [entry, ...this.entries.slice(0, KEPT - 1)]
  }

  variant(game: Game): string {
    return this.variantOf(game)
  }
}
