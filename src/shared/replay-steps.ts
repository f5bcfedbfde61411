// Stepping through a recorded game one line at a time, as the history's replay does, without
// keeping the state after every line: a game of 300,000 lines would need hundreds of megabytes.
// The state is kept every CHECKPOINT_EVERY moves; a step folds forward from the nearest one.
import type { ReplayStep } from './api'
import { moduleOf, type Game } from './game'

const CHECKPOINT_EVERY = 256

export interface SteppableGame {
  readonly game: Game
  /** The state before move k × CHECKPOINT_EVERY, for every k up to the game's length. */
  readonly checkpoints: readonly unknown[]
  /** The record line of every move, as `referee replay` numbers them (blank lines counted). */
  readonly lines: readonly number[]
}

/** Collects the checkpoints and line numbers while a record is replayed: give `onMove` to the replay. */
export function checkpointCollector(): {
  onMove: (index: number, events: unknown, before: unknown, line: number) => void
  checkpoints: unknown[]
  lines: number[]
} {
  const checkpoints: unknown[] = []
  const lines: number[] = []
  return {
    checkpoints,
    lines,
    onMove: (index, _events, before, line) => {
      if (index % CHECKPOINT_EVERY === 0) checkpoints.push(before)
      lines.push(line)
    }
  }
}

/**
 * A game in hand (the one on the table) made steppable, pausing (yielding) every few hundred moves
 * like `replayTextInSteps`. Its record is written without blank lines: move k is on line k + 2.
 */
export function* steppableInSteps(game: Game): Generator<void, SteppableGame> {
  const module = moduleOf(game)
  const checkpoints: unknown[] = []
  const lines: number[] = []
  let state = module.init(game.header.players, game.options)
  for (let index = 0; index < game.moves.length; index++) {
    if (index % CHECKPOINT_EVERY === 0) {
      checkpoints.push(state)
      yield
    }
    const applied = module.apply(state, game.moves[index].move)
    if (!applied.ok) throw new Error(`a recorded move no longer applies: ${applied.error}`)
    state = applied.state
    lines.push(index + 2)
  }
  return { game, checkpoints, lines }
}

/** How many steps a game has: one per move. */
export function stepCountOf(steppable: SteppableGame): number {
  return steppable.game.moves.length
}

/** Step `index` (0 is the first move): what its line did, and the scores and table after it. */
export function stepOf(steppable: SteppableGame, index: number): ReplayStep | null {
  const { game, checkpoints, lines } = steppable
  if (!Number.isInteger(index) || index < 0 || index >= game.moves.length) return null
  const module = moduleOf(game)
  const from = Math.floor(index / CHECKPOINT_EVERY) * CHECKPOINT_EVERY
  let state = checkpoints[from / CHECKPOINT_EVERY]
  let text = ''
  for (let at = from; at <= index; at++) {
    const applied = module.apply(state, game.moves[at].move)
    if (!applied.ok) throw new Error(`a recorded move no longer applies: ${applied.error}`)
    state = applied.state
    if (at === index) text = applied.events.map((event) => module.describe(event, game.header.players)).join(' · ')
  }
  return { line: lines[index], text, summary: module.summary(state), table: module.table(state) }
}
