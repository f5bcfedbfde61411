// The chance-to-win solver as it was before the turn families (commit 9d8764a), kept only as a
// reference: `npm run bench win` times it beside today's solver ("before"), and
// test/shared/games/six-dice/win-solver.test.ts checks that both give the same chances. Each state's whole turn is
// evaluated at every Newton step (evaluateTurn: every keep of every group, top level down).
import {
  evaluateTurn,
  finalTurnChanceWithEntry,
  finalTurnChances,
  LEAD_CAP,
  scoringTableOf,
  throwGroups,
  turnArrays,
  WIN_STEP,
  WIN_TABLE_VERSION,
  type SolveOptions,
  type ThrowGroups,
  type TurnArrays,
  type WinSpec,
  type WinTable
} from '@shared/games/six-dice/win-solver'

const STRIDE = 8

class Model {
  readonly g: ThrowGroups
  readonly n: number
  readonly twoRoles: boolean
  readonly entryLevels: number
  private readonly finalWithEntry = new Map<number, number>()

  constructor(
    spec: WinSpec,
    readonly leadCapLevels: number,
    readonly values: Float64Array,
    readonly final: Float64Array
  ) {
    this.g = throwGroups(scoringTableOf(spec.game))
    this.n = Math.ceil(spec.target / WIN_STEP)
    this.entryLevels = Math.ceil(spec.entry / WIN_STEP)
    this.twoRoles = spec.game === 'fouche'
  }

  get maxTop(): number {
    return Math.max(this.n, this.entryLevels, this.n - 1 + this.leadCapLevels)
  }

  index(role: number, a: number, b: number): number {
    return (role * this.n + a) * this.n + b
  }

  opponent(role: number): number {
    return this.twoRoles ? 1 - role : 0
  }

  finalChance(gap: number, banked: number): number {
    if (banked === 0 && this.entryLevels > gap) {
      let hit = this.finalWithEntry.get(gap)
      if (hit === undefined) this.finalWithEntry.set(gap, (hit = finalTurnChanceWithEntry(this.g, gap, this.entryLevels)))
      return hit
    }
    return gap < this.final.length ? this.final[gap] : 0
  }

  bankValue(role: number, b: number, s: number): number {
    if (s < this.n) return 1 - this.values[this.index(this.opponent(role), b, s)]
    if (this.twoRoles && role === 1) return 1
    return 1 - this.finalChance(s - b, b)
  }

  bankFrom(a: number): number {
    return a + Math.max(1, a === 0 ? this.entryLevels : 0)
  }

  topOf(role: number, a: number, b: number): number {
    const lead = this.twoRoles && role === 1 ? 0 : b + this.leadCapLevels
    return Math.max(this.n, a === 0 ? this.entryLevels : 0, lead)
  }

  evaluate(arrays: TurnArrays, role: number, a: number, b: number, farkleValue: number): void {
    const top = this.topOf(role, a, b)
    for (let s = a + 1; s <= top + this.g.maxLevels; s++) arrays.bank[s] = this.bankValue(role, b, s)
    evaluateTurn(this.g, arrays, a, top, this.bankFrom(a), farkleValue)
  }
}

export function solveWinTableV1(spec: WinSpec, options: SolveOptions = {}): WinTable {
  const leadCapLevels = Math.ceil((options.leadCap ?? LEAD_CAP) / WIN_STEP)
  const n = Math.ceil(spec.target / WIN_STEP)
  const g = throwGroups(scoringTableOf(spec.game))
  const roles: 1 | 2 = spec.game === 'fouche' ? 2 : 1
  const values = new Float64Array(roles * n * n).fill(NaN)
  const probe = new Model(spec, leadCapLevels, values, new Float64Array(0))
  const final = finalTurnChances(g, probe.maxTop + g.maxLevels + 1)
  const model = new Model(spec, leadCapLevels, values, final)
  const size = model.maxTop + g.maxLevels + 1
  const x = turnArrays(size)
  const y = turnArrays(size)
  const fromSum = options.fromSum ?? 0
  const guess = (role: number, a: number, b: number): number => {
    const at = (i: number, j: number): number => values[model.index(role, i, j)]
    if (a + 1 < n && b + 1 < n) return Math.min(1, Math.max(0, at(a + 1, b) + at(a, b + 1) - at(a + 1, b + 1)))
    if (a + 1 < n) return at(a + 1, b)
    if (b + 1 < n) return at(a, b + 1)
    return 0.5
  }
  const start = (arrays: TurnArrays, a: number): number => arrays.roll[a * STRIDE + 6]
  const startSlope = (arrays: TurnArrays, a: number): number => arrays.slope[a * STRIDE + 6]
  for (let sum = 2 * (n - 1); sum >= fromSum; sum--) {
    for (let a = Math.max(0, sum - (n - 1)); a <= Math.min(sum, n - 1); a++) {
      const b = sum - a
      for (let role = 0; role < roles; role++) {
        const ix = model.index(role, a, b)
        if (!Number.isNaN(values[ix])) continue
        const partner = model.opponent(role)
        const iy = model.index(partner, b, a)
        let gx = guess(role, a, b)
        if (ix === iy) {
          for (let iteration = 0; ; iteration++) {
            model.evaluate(x, role, a, b, 1 - gx)
            const vx = start(x, a)
            if (Math.abs(vx - gx) < 1e-13 || iteration > 60) {
              gx = vx
              break
            }
            gx = (vx + startSlope(x, a) * gx) / (1 + startSlope(x, a))
          }
          values[ix] = gx
        } else {
          let gy = guess(partner, b, a)
          for (let iteration = 0; ; iteration++) {
            model.evaluate(x, role, a, b, 1 - gy)
            model.evaluate(y, partner, b, a, 1 - gx)
            const vx = start(x, a)
            const vy = start(y, b)
            if ((Math.abs(vx - gx) < 1e-13 && Math.abs(vy - gy) < 1e-13) || iteration > 60) {
              gx = vx
              gy = vy
              break
            }
            const dx = startSlope(x, a)
            const dy = startSlope(y, b)
            const nx = (vx - dx * (vy - gy) - dx * dy * gx) / (1 - dx * dy)
            gy = vy - dy * (nx - gx)
            gx = nx
          }
          values[ix] = gx
          values[iy] = gy
        }
      }
    }
  }
  return { spec: { ...spec }, version: WIN_TABLE_VERSION, belowTarget: n, leadCapLevels, roles, values, final, fingerprint: g.fingerprint }
}
