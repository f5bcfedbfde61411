// The games screens are stepping through in the history's replay. Opening one replays it once
// and keeps it here under a name; each step is then worked out from it when a screen asks
// (src/shared/replay-steps.ts). A screen's replay of the game on the table stays the game as it
// was when opened, whatever is played meanwhile.
import type { ReplayStep } from '@shared/api'
import { stepOf, type SteppableGame } from '@shared/replay-steps'

/**
 * Replays kept: each opening adds one (the same game opened twice is two), so a screen whose
 * replay was pushed out by six openings since (on any screen) is told to open it again.
 */
const KEPT = 6
/**
 * Moves kept in all (a move is about 150 bytes): a few screens replaying the longest records
 * do not pile up hundreds of megabytes. The newest replay is kept whatever its length.
 */
const MOVES_KEPT = 500_000

export class OpenReplays {
  private kept: { name: string; steppable: SteppableGame }[] = []
  private opened = 0

  /** Keeps a replay (forgetting those opened longest ago when there are too many); its name. */
  add(steppable: SteppableGame): string {
    const name = `replay-${++this.opened}`
    this.kept = [{ name, steppable }, ...this.kept.slice(0, KEPT - 1)]
    let moves = 0
    let keep = 0
    for (const kept of this.kept) {
      moves += kept.steppable.game.moves.length
      if (keep > 0 && moves > MOVES_KEPT) break
      keep++
    }
    this.kept = this.kept.slice(0, keep)
    return name
  }

  step(name: string, index: number): { ok: true; step: ReplayStep } | { ok: false; error: string } {
    const replay = this.kept.find((kept) => kept.name === name)
    if (!replay) return { ok: false, error: 'This replay was closed (other games were opened since): open the game again' }
    const step = stepOf(replay.steppable, index)
    if (!step) return { ok: false, error: `This game has no step ${index + 1}` }
    return { ok: true, step }
  }
}
