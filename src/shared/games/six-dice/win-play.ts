// The chance to win of each decision of a Farkle or Fouche position: from a solved table
// (./win-solver) before the end of the game, from the final-turn dynamic programming after it.
// Pure: the tables come from a WinTableSource (solved in a worker in the app, in memory in tests).
import type { SixDiceState } from './rules'
import { reachValues, type TurnValues } from './turn-odds'
import { playedTop, scoringTableOf, solvable, WIN_STEP, WinTurn, type WinSpec, type WinTable } from './win-solver'

/** Where solved tables come from. */
export interface WinTableSource {
  /** The solved table for these options, or null (being solved, or never: `status` says which). */
  table(spec: WinSpec): WinTable | null
  /** Why there is no table, in words ("the table for these rules is 45% solved"). */
  status(spec: WinSpec): string
}

/** A source holding tables solved beforehand (tests, benchmarks). */
export function fixedWinTables(tables: WinTable[]): WinTableSource {
  const same = (t: WinTable, spec: WinSpec): boolean =>
    t.spec.game === spec.game && t.spec.target === spec.target && t.spec.entry === spec.entry
  return {
    table: (spec) => tables.find((t) => same(t, spec)) ?? null,
    status: () => 'no table was solved for these rules'
  }
}

export function specOf(s: SixDiceState): WinSpec {
  return { game: s.game, target: s.options.target, entry: s.options.entry }
}

/** Whether the player to move plays a final turn (someone else reached the target). */
export function inFinalTurn(s: SixDiceState): boolean {
  return s.turnsLeft !== null && s.reachedBy !== null && s.reachedBy !== s.seat
}

export interface WinChances {
  /** True when the chances are the game's own (two players); false for a model of it. */
  exact: boolean
  /** What the chances assume, in words. */
  basis: string
  /** Chance to win when the dice due are thrown now (turn start, or throwing on). */
  roll(): number
  /** Chance to win by banking now, or null when banking is not allowed. */
  bank(): number | null
  /** Chance to win after setting aside dice worth `points`, leaving `diceLeft` to throw (6 after hot dice). */
  keep(points: number, diceLeft: number): number
}

const turnCache: { table: WinTable; key: string; turn: WinTurn }[] = []

function cachedTurn(table: WinTable, role: number, a: number, b: number, level: number): WinTurn {
  const key = `${role}|${a}|${b}|${playedTop(table, role, a, b, level)}`
  const hit = turnCache.find((c) => c.table === table && c.key === key)
  if (hit) return hit.turn
  const turn = new WinTurn(table, role, a, b, level)
  turnCache.unshift({ table, key, turn })
  if (turnCache.length > 8) turnCache.pop()
  return turn
}

/**
 * The chances of the position `s` (null when not known: one player, the game over, or no table
 * for the part of the game before the end). With more than two players the leading opponent
 * stands for all of them (see README); the chances are then a model's, not the game's.
 */
export function winChances(s: SixDiceState, source: WinTableSource | null): WinChances | null {
  const n = s.players.length
  if (n < 2 || s.step === 'over') return null
  const mine = s.scores[s.seat]
  let leader = 0
  for (let i = 0; i < n; i++) if (i !== s.seat && s.scores[i] > leader) leader = s.scores[i]
  const t = s.turnPoints
  const d = s.step === 'throw' ? 6 : s.diceDue
  if (inFinalTurn(s)) {
    // The game ends after the final turns: pass the leader (a tie shares the win: 1/2).
    const gap = leader - mine
    const entryNeeded = mine === 0 ? s.options.entry : 0
    const v: TurnValues = gap >= 0 ? reachValues(scoringTableOf(s.game), gap + 50, entryNeeded, gap, 0.5) : reachValues(scoringTableOf(s.game), 50, entryNeeded)
    const bank = v.bankValue(t)
    return {
      exact: n === 2 || s.turnsLeft === 1,
      basis: n === 2 || s.turnsLeft === 1 ? 'the final turn: pass the leader (a tie shares the win)' : 'passing the leader in this final turn, the final turns after it left out',
      roll: () => v.rollValue(d, t),
      bank: () => (s.step === 'choose' && bank > -Infinity ? bank : null),
      keep: (points, left) => v.value(left, t + points)
    }
  }
  const spec = specOf(s)
  const table = source && solvable(spec) ? source.table(spec) : null
  if (!table) return null
  // Fouche: the last seat reaching the target ends the game at once (role 1); any other seat
  // gives the seats after it their final turns (role 0). Farkle has one role.
  const role = table.roles === 2 && s.seat === n - 1 ? 1 : 0
  const a = Math.floor(mine / WIN_STEP)
  const b = Math.floor(leader / WIN_STEP)
  if (a >= table.belowTarget || b >= table.belowTarget) return null
  const level = a + Math.floor(t / WIN_STEP)
  const turn = cachedTurn(table, role, a, b, level)
  return {
    exact: n === 2,
    basis: n === 2 ? 'both players playing to win from here (solved exactly)' : 'playing to win against the leading opponent alone (a model: more players are not solved)',
    roll: () => turn.roll(d, level),
    bank: () => (s.step === 'choose' ? turn.bank(level) : null),
    keep: (points, left) => turn.value(left, level + Math.floor(points / WIN_STEP))
  }
}
