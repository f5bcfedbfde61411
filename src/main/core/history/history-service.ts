// The history as the screens use it: the games put away (and the game on the table once it is
// over), replays to step through, and resuming an abandoned game.
import type { HistoryEntry, HistoryGame, Outcome, ReplayStep } from '@shared/api'
import { recordTextInSteps, replayTextInSteps, summaryOf } from '@shared/game'
import { checkpointCollector, steppableInSteps, stepCountOf, type SteppableGame } from '@shared/replay-steps'
import { inSlices, type GameTable } from '../game/game-table'
import type { HistoryArchive } from './history-archive'
import { OpenReplays } from './open-replays'

export class HistoryService {
  private readonly replays = new OpenReplays()

  constructor(
    readonly archive: HistoryArchive,
    private readonly table: GameTable
  ) {}

  /** Every game of the history, newest first; the game on the table first once it is over ('current'). */
  list(): HistoryEntry[] {
    const shown = this.archive.entries()
    const game = this.table.current
    if (game && summaryOf(game).finished) shown.unshift(this.archive.entryOf(game, 'current'))
    return shown
  }

  /** Makes an abandoned game of the history the game on the table again. */
  resume(id: string): Outcome {
    return this.table.resumeFromHistory(id)
  }

  /**
   * Opens a game of the history ('current': the game on the table, as it is now) for a replay,
   * in slices like an import: a long game is read and replayed once, and its steps are then
   * asked for one at a time (`step`).
   */
  async open(id: string): Promise<Outcome<{ game: HistoryGame }>> {
    let steppable: SteppableGame
    let text: string
    if (id === 'current') {
      // The game on the table is in hand: its moves are shared, not read again.
      const game = this.table.current
      if (!game) return { ok: false, error: 'No game on the table' }
      text = await inSlices(recordTextInSteps(game))
      steppable = await inSlices(steppableInSteps(game))
    } else {
      const read = this.archive.readRecord(id)
      if (read === null) return { ok: false, error: `No game ${id} in the history` }
      text = read
      const collector = checkpointCollector()
      const replayed = await inSlices(replayTextInSteps(text, { tolerateTruncatedTail: true, onMove: collector.onMove }))
      if (!replayed.ok) return { ok: false, error: `line ${replayed.line}: ${replayed.error}` }
      steppable = { game: replayed.game, checkpoints: collector.checkpoints, lines: collector.lines }
    }
    const replay = this.replays.add(steppable)
    return { ok: true, game: { entry: this.archive.entryOf(steppable.game, id), record: text, replay, stepCount: stepCountOf(steppable) } }
  }

  /** Step `index` of a replay opened with `open`. */
  step(replay: string, index: number): Outcome<{ step: ReplayStep }> {
    return this.replays.step(replay, index)
  }
}
