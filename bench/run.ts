// `npm run bench`: every figure the project measures. Benchmarks print; they never fail on speed.
import { benchAi, benchWin } from './ai'
import { benchDevices } from './devices'
import { benchEngine } from './engine'
import { benchGrowth } from './growth'
import { benchLeague } from './league'
import { benchOdds } from './odds'
import { benchScreen } from './screen'
import { benchSolver } from './solver'
import { benchStats } from './stats'
import { benchVision } from './vision'

async function main(): Promise<void> {
  const only = process.argv[2]
  const parts: Record<string, () => unknown> = {
    engine: benchEngine,
    screen: benchScreen,
    devices: benchDevices,
    odds: benchOdds,
    growth: benchGrowth,
    solver: benchSolver,
    ai: benchAi,
    win: benchWin,
    stats: benchStats,
    league: benchLeague,
    vision: () => benchVision()
  }
  for (const [name, run] of Object.entries(parts)) {
    if (only && only !== name) continue
    console.log(`\n== ${name} ==`)
    await run()
  }
  process.exit(0)
}

void main()
