// The odds the table screens show: worked out once per position (odds-cache.ts), never on the
// thread that takes the throws (in the odds worker, odds-thread.ts): a position not yet worked out
// is shown without odds, worked out meanwhile, and pushed again with them.
import type { Game } from '@shared/game'
import type { Odds } from '@shared/odds'
import type { GameTable } from '../game/game-table'
import { Signal } from '../signal'
import type { OddsCache } from './odds-cache'

/** Works out a position's odds away from the throw's thread. */
export type OddsWork = (game: Game) => Promise<Odds>

export class OddsService {
  /** The position being worked out now, and the one asked for after it (the latest wins). */
  private working: Game | null = null
  private next: Game | null = null
  private readonly change = new Signal()
  /** Positions whose odds could not be worked out (the worker failed): said once, not asked again. */
  private failed: Game | null = null

  constructor(
    private readonly cache: OddsCache,
    private readonly table: GameTable,
    /** Whether the table screen shows the odds now. */
    private readonly wanted: () => boolean,
    private readonly work: OddsWork
  ) {}

  subscribe(listener: () => void): () => void {
    return this.change.subscribe(listener)
  }

  /** The position's odds from the cache, or null now and worked out meanwhile (then pushed). */
  shown(game: Game): Odds | null {
    const odds = this.cache.cached(game)
    if (odds === null && game !== this.working && game !== this.failed) this.ask(game)
    return odds
  }

  private ask(game: Game): void {
    if (this.working) {
      this.next = game
      return
    }
    this.working = game
    const variant = this.cache.variant(game)
    void this.work(game).then(
      (odds) => {
        this.cache.store(game, variant, odds)
        this.done(game, true)
      },
      () => {
        this.failed = game
        this.done(game, false)
      }
    )
  }

  private done(game: Game, worked: boolean): void {
    this.working = null
    const next = this.next
    this.next = null
    const current = this.table.current
    if (next && next === current && this.wanted() && !this.cache.cached(next)) this.ask(next)
    // The screens are shown the odds of the game on the table only.
    if (worked && game === current && this.wanted()) this.change.emit()
  }
}
