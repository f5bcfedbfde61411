// How cost grows with a game's length and the history's size: append (a throw saved and shown),
// undo and snapshot at 100, 1,000 and 10,000 record lines; history listing at 1,000 and 10,000
// saved games. Each figure is the median of several; bytes written say what undo rewrites.
import { openTable } from '@test/kit/table'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { offerOf, play, recordText, startGame, type Game } from '@shared/game'
import { checkHeader } from '@shared/record'
import { seededRandom } from '@shared/random-play'

const LINES = [100, 1000, 10_000]
const HISTORY = [1000, 10_000]
const REPEATS = 15

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const timed = (run: () => unknown): number => {
  const started = performance.now()
  run()
  return performance.now() - started
}

/** A game of Farkle nobody can win (an entry score out of reach), `lines` lines long. */
function longGame(lines: number): Game {
  const header = checkHeader({ game: 'farkle', players: ['Ann', 'Bob', 'Cy'], rules: { entry: 1_000_000_000, target: 2_000_000_000 }, meta: { startedAt: Date.UTC(2026, 0, 1) } })
  if (!header.ok) throw new Error(header.error)
  const started = startGame(header.value)
  if (!started.ok) throw new Error(started.error)
  let game = started.value
  const random = seededRandom(3)
  while (game.moves.length < lines) {
    const offer = offerOf(game)
    const move = offer.diceDue > 0 ? { roll: Array.from({ length: offer.diceDue }, () => 1 + Math.floor(random() * 6)) } : offer.decisions[0].move
    const played = play(game, { move, at: Date.UTC(2026, 0, 1) + game.moves.length * 1000 })
    if (!played.ok) throw new Error(played.error)
    game = played.game
  }
  return game
}

function recordLines(): void {
  console.log(`Cost by record length (median of ${REPEATS}; load average ${loadavg()[0].toFixed(1)}):`)
  for (const lines of LINES) {
    const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-growth-'))
    writeFileSync(join(dataDir, 'current.jsonl'), recordText(longGame(lines)))
    const session = openTable({ dataDir })
    const store = session.journal
    let written = 0
    const replace = store.replaceCurrent.bind(store)
    store.replaceCurrent = (text: string): void => {
      written += Buffer.byteLength(text)
      replace(text)
    }
    session.subscribe(() => session.snapshot(true))
    const snapshot = median(Array.from({ length: REPEATS }, () => timed(() => session.snapshot(true))))
    const appends: number[] = []
    const undos: number[] = []
    for (let i = 0; i < REPEATS; i++) {
      const offer = offerOf(session.currentGame!)
      const move = offer.diceDue > 0 ? { roll: Array.from({ length: offer.diceDue }, () => 2) } : offer.decisions[0].move
      appends.push(timed(() => session.submit(move)))
    }
    written = 0
    for (let i = 0; i < REPEATS; i++) undos.push(timed(() => session.undo()))
    console.log(
      `  ${lines.toLocaleString('en').padStart(6)} lines: append ${median(appends).toFixed(2)} ms, undo ${median(undos).toFixed(2)} ms ` +
        `(${Math.round(written / REPEATS).toLocaleString('en')} bytes rewritten per undo), snapshot ${snapshot.toFixed(3)} ms`
    )
    store.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

function historyListing(): void {
  const record = recordText(longGame(60))
  console.log(`History listing (median of 21; load average ${loadavg()[0].toFixed(1)}):`)
  for (const games of HISTORY) {
    const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-growth-'))
    const historyDir = join(dataDir, 'history')
    mkdirSync(historyDir, { recursive: true })
    for (let i = 0; i < games; i++) {
      const id = `20260101T${String(i).padStart(6, '0')}Z-farkle-${(0x100000 + i).toString(16)}`
      writeFileSync(join(historyDir, `${id}.jsonl`), record)
    }
    const session = openTable({ dataDir })
    // Without an index, the first listing replays every saved game (after an upgrade, or a lost index).
    const rebuild = timed(() => session.listHistory())
    const listing = median(Array.from({ length: 21 }, () => timed(() => session.listHistory())))
    console.log(`  ${games.toLocaleString('en').padStart(6)} games: listing ${listing.toFixed(1)} ms (first listing without an index, every game replayed: ${rebuild.toFixed(0)} ms)`)
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export function benchGrowth(): void {
  recordLines()
  historyListing()
}

if (require.main === module) benchGrowth()
