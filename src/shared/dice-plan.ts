// Which physical die holds which value of the throw in play, and which dice must be thrown next
// (issue 11). Pure: the smart-dice referee (src/main/devices/smart-dice-referee.ts) feeds it the game (the record's fold), the smart dice in the
// game and what it knows of their values; it answers a plan the throw assembler enforces and the
// screens show. The rules stay in the engines: this only reads what their states say is kept.
//
// Readings (docs/rules-readings.md, "Smart dice: which physical die"):
// * Dice showing the same value are interchangeable: any die showing a value that is due may be
//   thrown for it (the assembler swaps the two).
// * Which dice hold their values is each game's (its folder's dice-plan.ts: GameDefinition.heldDice).
// * A duel gives each duellist a die for the whole duel: the k-th duellist in seat order throws
//   the k-th die in die order (device order, then the hub's order).
// * A computer player's throws are virtual: no smart die is due and none is compared.
import { moduleOf, offerOf, type Game } from './game'
import { listNames } from './dice'

/** "A (red)", "A (red) and B (blue)", "A, B and C" (re-exported for the smart-dice referee). */
export { listNames }

/** A die the plan names, by its key (`SERIAL/DIE`). */
export interface HeldDie {
  value: number
  /** Why it must stay, to follow the die's name: "holds the 4 that scored". */
  why: string
}

export interface DicePlan {
  /** The dice to throw now in the order of the roll line's values; null when they cannot be named (any `count` dice). */
  due: string[] | null
  /** How many dice the rules want now (0: none). */
  count: number
  /** Dice that must stay as they are, with the value the record gives them. */
  held: Map<string, HeldDie>
  /** The value each due die shows in the record now (what it replaces), where known. */
  replacing: Map<string, number>
  /** For a duel: the seat each due die belongs to. */
  seats: Map<string, number>
  /** Why no smart die is used now (a computer throws), or null. */
  virtual: string | null
  /** Why a die that is neither due nor held must stay (a duel: who throws which die). */
  idleWhy: string
}

export const EMPTY_PLAN: DicePlan = { due: [], count: 0, held: new Map(), replacing: new Map(), seats: new Map(), virtual: null, idleWhy: 'is not due' }

export interface PlanInput {
  game: Game | null
  /** Keys of the smart dice in the game, in die order. */
  dice: string[]
  /** The value of the throw in play each die holds, as far as known (from counted throws). */
  table: ReadonlyMap<string, number>
  /** The face each die shows now, where known (used when `table` does not know a die). */
  faces: ReadonlyMap<string, number | null>
  /** Seats played by the computer. */
  computers: number[]
  /** Die of each duellist, kept for the whole duel (updated in place). */
  duelDice: Map<number, string>
  /** Die names ("A (red)") by key, for the plan's words. */
  names: ReadonlyMap<string, string>
}

export function planDice(input: PlanInput): DicePlan {
  const { game, dice } = input
  if (!game) return EMPTY_PLAN
  const offer = offerOf(game)
  if (offer.finished) {
    input.duelDice.clear()
    return EMPTY_PLAN
  }
  const actors = offer.toPlay !== null ? [offer.toPlay] : offer.throwers
  if (actors.length > 0 && actors.every((seat) => input.computers.includes(seat))) {
    const name = game.header.players[actors[0]]
    return { ...EMPTY_PLAN, held: new Map(), virtual: `${name} (computer) throws virtual dice: the smart dice are not used` }
  }
  const held = moduleOf(game).heldDice(game.state)
  if (held === 'duel') return duelPlan(input, offer.throwers, game.header.players)
  input.duelDice.clear()

  const chosen = new Map<string, HeldDie>()
  const free = new Set(dice)
  const take = (v: number): string | undefined => {
    for (const key of dice) if (free.has(key) && input.table.get(key) === v) return key
    for (const key of dice) if (free.has(key) && !input.table.has(key) && input.faces.get(key) === v) return key
    return undefined
  }
  for (const v of held.values) {
    const key = take(v)
    if (key === undefined) continue
    free.delete(key)
    chosen.set(key, { value: v, why: held.why(v) })
  }
  const rest = dice.filter((key) => free.has(key))
  const count = offer.diceDue
  const replacing = new Map<string, number>()
  for (const key of rest) {
    const v = input.table.get(key)
    if (v !== undefined) replacing.set(key, v)
  }
  // Named only when exactly the dice left over are due (a hub with spare dice in the game, or a
  // table the record cannot place, leaves them unnamed: any `count` dice).
  const named = count === 0 ? [] : chosen.size === held.values.length && rest.length === count ? rest : null
  return { due: named, count, held: chosen, replacing, seats: new Map(), virtual: null, idleWhy: 'is not due' }
}

function duelPlan(input: PlanInput, throwers: number[], players: readonly string[]): DicePlan {
  const { dice, duelDice } = input
  // Dice are given out once, at the duel's first throw; a duellist who goes on keeps theirs.
  if (![...throwers].every((seat) => duelDice.has(seat))) {
    duelDice.clear()
    throwers.forEach((seat, i) => {
      if (i < dice.length) duelDice.set(seat, dice[i])
    })
  }
  const due = throwers.map((seat) => duelDice.get(seat))
  const seats = new Map<string, number>()
  throwers.forEach((seat) => seats.set(duelDice.get(seat)!, seat))
  const named = due.every((key): key is string => key !== undefined) ? due : null
  const who = throwers.map((seat) => `${players[seat]} throws ${input.names.get(duelDice.get(seat) ?? '') ?? 'a die'}`)
  return { due: named, count: throwers.length, held: new Map(), replacing: new Map(), seats, virtual: null, idleWhy: `is no duellist's die (${listNames(who)})` }
}


/** The game's dice count, for screens that show "any 2 dice". */
export function gameDiceCount(game: Game): number {
  return moduleOf(game).diceCount
}
