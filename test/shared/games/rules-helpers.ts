// Helpers for scenario tests of one game module: states frozen before every apply (so a
// mutation throws), illegal lines checked to leave the state deep-equal.
import { expect } from 'vitest'
import type { GameEvent, GameRules, Move } from '@shared/games/types'

export function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o)
    for (const v of Object.values(o)) deepFreeze(v)
  }
  return o
}

export function moduleHelpers<S, O, E extends GameEvent>(module: GameRules<S, O, E>) {
  function start(players: string[], rules?: Record<string, unknown>): S {
    const parsed = module.parseOptions(rules, players.length)
    if (!parsed.ok) throw new Error(parsed.error)
    return module.init(players, parsed.value)
  }

  /** Applies lines; returns the end state and all events. */
  function play(state: S, lines: Move[]): { state: S; events: E[] } {
    const events: E[] = []
    lines.forEach((move, i) => {
      const applied = module.apply(deepFreeze(state), move)
      if (!applied.ok) throw new Error(`line ${i + 1} ${JSON.stringify(move)}: ${applied.error}`)
      state = applied.state
      events.push(...applied.events)
    })
    return { state, events }
  }

  /** Applies an illegal line: it must be refused and leave the state deep-equal. Returns the reason. */
  function refused(state: S, move: Move): string {
    const before = structuredClone(state)
    const applied = module.apply(deepFreeze(state), move)
    expect(applied.ok).toBe(false)
    expect(state).toEqual(before)
    return applied.ok ? '' : applied.error
  }

  return { start, play, refused }
}

export const roll = (...dice: number[]): Move => ({ roll: dice })
export const keep = (...dice: number[]): Move => ({ keep: dice })
export const BANK: Move = { bank: true }

/** Whole six-dice turns that score the same in Farkle and Fouche. */
export const SIX_DICE_TURNS = {
  /** Banks 1,000: three 1s. */
  bank1000: [roll(1, 1, 1, 2, 3, 4), keep(1, 1, 1), BANK],
  /** Banks 50: a single 5. */
  bank50: [roll(5, 2, 3, 4, 6, 6), keep(5), BANK],
  /** Farkles on its first throw. */
  farkle: [roll(2, 2, 3, 3, 4, 6)]
}
