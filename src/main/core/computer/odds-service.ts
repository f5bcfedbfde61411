// The odds the table screens show: worked out once per position (odds-cache.ts), and never on the
// path of a throw: a position not yet worked out is shown without odds, worked out right after
// the push, and pushed again with them.
import type { Game } from '../../../shared/game'
import type { Odds } from '../../../shared/odds'
import type { GameTable } from '../game/game-table'
import { Signal } from '../signal'
import type { OddsCache } from './odds-cache'

export class OddsService {
  /** The position whose odds are to be worked out once the state without them is pushed. */
  private due: Game | null = null
  private readonly change = new Signal()

  constructor(
    private readonly cache: OddsCache,
    private readonly table: GameTable,
    /** Whether the table screen shows the odds now. */
    private readonly wanted: () => boolean
  ) {}

  subscribe(listener: () => void): () => void {
    return this.change.subscribe(listener)
  }

  /** The position's odds from the cache, or null now and worked out right after this push. */
  shown(game: Game): Odds | null {
    const odds = this.cache.cached(game)
    if (odds === null && this.due !== game) {
      this.due = game
      setImmediate(() => {
        if (this.due === game) this.due = null
        if (this.table.current !== game || !this.wanted() || this.cache.cached(game)) return
        this.cache.compute(game)
        this.change.emit()
      })
    }
    return odds
  }

  /** Works out the odds of the game on the table now (the table asked to see them: shown in this push). */
  computeNow(): void {
    const game = this.table.current
    if (game) this.cache.compute(game)
  }
}
