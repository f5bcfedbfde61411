// Which dice must be thrown next and which hold their values, for every game (src/shared/dice-plan.ts).
import { describe, expect, it } from 'vitest'
import { planDice, type DicePlan } from '@shared/dice-plan'
import { play, startGame, type Game } from '@shared/game'
import { checkHeader } from '@shared/record'
import type { Move } from '@shared/games/types'

const FOUR = ['h/A', 'h/B', 'h/C', 'h/D']
const SIX = [...FOUR, 'h/E', 'h/F']

function game(id: string, players: string[], moves: Move[], computers?: number[]): Game {
  const header = checkHeader({ game: id, players, ...(computers ? { meta: { computers } } : {}) })
  if (!header.ok) throw new Error(header.error)
  const started = startGame(header.value)
  if (!started.ok) throw new Error(started.error)
  let g = started.value
  for (const move of moves) {
    const played = play(g, { move, at: 0 })
    if (!played.ok) throw new Error(played.error)
    g = played.game
  }
  return g
}

function plan(g: Game, dice: string[], table: Record<string, number> = {}, computers: number[] = []): DicePlan {
  const t = new Map(Object.entries(table))
  return planDice({ game: g, dice, table: t, faces: new Map(), computers, duelDice: new Map(), names: new Map(dice.map((k) => [k, k.slice(2)])) })
}

const held = (p: DicePlan): Record<string, number> => Object.fromEntries([...p.held].map(([k, h]) => [k, h.value]))

describe('planDice', () => {
  it('Foursies: the opening throw takes all four; a decision holds every die; a re-roll names the dice of the false four', () => {
    expect(plan(game('foursies', ['Ann', 'Bob'], []), FOUR)).toMatchObject({ due: FOUR, count: 4 })
    const table = { 'h/A': 4, 'h/B': 2, 'h/C': 6, 'h/D': 3 }
    const deciding = plan(game('foursies', ['Ann', 'Bob'], [{ roll: [4, 2, 6, 3] }]), FOUR, table)
    expect(deciding).toMatchObject({ due: [], count: 0 })
    expect(held(deciding)).toEqual(table)
    const reroll = plan(game('foursies', ['Ann', 'Bob'], [{ roll: [4, 2, 6, 3] }, { reroll: [2, 6] }]), FOUR, table)
    expect(reroll.due).toEqual(['h/B', 'h/C'])
    expect(held(reroll)).toEqual({ 'h/A': 4, 'h/D': 3 })
    expect(reroll.held.get('h/A')!.why).toBe('holds the 4 that scored')
    expect(reroll.replacing.get('h/C')).toBe(6)
  })

  it('Foursies: odd man out names the odd die; a run and socks take all four', () => {
    const odd = plan(game('foursies', ['Ann', 'Bob'], [{ roll: [5, 5, 2, 5] }]), FOUR, { 'h/A': 5, 'h/B': 5, 'h/C': 2, 'h/D': 5 })
    expect(odd.due).toEqual(['h/C'])
    expect(held(odd)).toEqual({ 'h/A': 5, 'h/B': 5, 'h/D': 5 })
    expect(plan(game('foursies', ['Ann', 'Bob'], [{ roll: [1, 2, 3, 4] }]), FOUR, { 'h/A': 1, 'h/B': 2, 'h/C': 3, 'h/D': 4 }).due).toEqual(FOUR)
    expect(plan(game('foursies', ['Ann', 'Bob'], [{ roll: [5, 5, 3, 3] }, { socks: true }]), FOUR, { 'h/A': 5, 'h/B': 5, 'h/C': 3, 'h/D': 3 }).due).toEqual(FOUR)
  })

  it('Farkle and Fouche: set-aside dice hold their values; hot dice take all six', () => {
    for (const id of ['farkle', 'fouche']) {
      const table = { 'h/A': 1, 'h/B': 5, 'h/C': 2, 'h/D': 3, 'h/E': 4, 'h/F': 6 }
      const p = plan(game(id, ['Ann', 'Bob'], [{ roll: [1, 5, 2, 3, 4, 6] }, { keep: [1, 5] }]), SIX, table)
      expect(p.due).toEqual(['h/C', 'h/D', 'h/E', 'h/F'])
      expect(held(p)).toEqual({ 'h/A': 1, 'h/B': 5 })
      expect(p.held.get('h/B')!.why).toBe('is set aside on 5')
      const hot = plan(game(id, ['Ann', 'Bob'], [{ roll: [1, 1, 1, 5, 5, 5] }, { keep: [1, 1, 1, 5, 5, 5] }]), SIX, table)
      expect(hot).toMatchObject({ due: SIX, count: 6 })
    }
  })

  it('4-PLU$ takes all four every time; spare dice leave the dice unnamed; a computer seat uses none', () => {
    expect(plan(game('four-plus', ['Ann', 'Bob'], [{ roll: [2, 3, 5, 6] }]), FOUR).due).toEqual(FOUR)
    expect(plan(game('four-plus', ['Ann', 'Bob'], []), SIX)).toMatchObject({ due: null, count: 4 })
    const computer = plan(game('four-plus', ['Ann', 'Robo'], [{ roll: [2, 3, 5, 6] }, { roll: [2, 3, 5, 6] }, { roll: [2, 3, 5, 6] }], [1]), FOUR, {}, [1])
    expect(computer).toMatchObject({ due: [], count: 0, virtual: 'Robo (computer) throws virtual dice: the smart dice are not used' })
  })
})
