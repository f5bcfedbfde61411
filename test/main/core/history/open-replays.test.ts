// The replays screens have open are kept by name, a few at a time and within a number of moves.
import { describe, expect, it } from 'vitest'
import { OpenReplays } from '@main/core/history/open-replays'
import { startGame } from '@shared/game'
import type { SteppableGame } from '@shared/replay-steps'

/** A four-plus game whose record claims `moves` moves (only its length matters to what is kept). */
function steppableOf(moves: number): SteppableGame {
  const started = startGame({ game: 'four-plus', players: ['Ann', 'Bob'] })
  if (!started.ok) throw new Error(started.error)
  return { game: { ...started.value, moves: Array.from({ length: moves }, () => ({ move: { roll: [3, 3, 3, 2] } })) }, checkpoints: [started.value.state], lines: [] }
}

const kept = (replays: OpenReplays, names: string[]) => names.filter((name) => replays.step(name, 0).ok)

describe('the open replays', () => {
  it('keeps the six opened last', () => {
    const replays = new OpenReplays()
    const names = Array.from({ length: 8 }, () => replays.add(steppableOf(1)))
    expect(new Set(names).size).toBe(8)
    expect(kept(replays, names)).toEqual(names.slice(2))
    expect(replays.step(names[0], 0)).toEqual({ ok: false, error: 'This replay was closed (other games were opened since): open the game again' })
  })

  it('keeps no more than 500,000 moves in all, but always the newest replay', () => {
    const replays = new OpenReplays()
    const small = replays.add(steppableOf(1_000))
    const big = replays.add(steppableOf(400_000))
    expect(kept(replays, [small, big])).toEqual([small, big])
    const bigger = replays.add(steppableOf(200_000))
    expect(kept(replays, [small, big, bigger])).toEqual([bigger])
    const huge = replays.add(steppableOf(900_000))
    expect(kept(replays, [bigger, huge])).toEqual([huge])
  })
})
