// `referee replay` gives the same output, and the screens the same offers, views and words, for
// hundreds of random records of every game as when the golden file was written (see ./replay-golden).
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { GAME_IDS } from '@shared/games'
import { goldenLines, RECORDS_PER_GAME, type GoldenLine } from './replay-golden'
import { repoPath } from '@test/kit/root'

const GOLDEN = repoPath('test', 'fixtures', 'replay-golden.jsonl')

describe('replay golden file', () => {
  const now = goldenLines()
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(GOLDEN)) {
    writeFileSync(GOLDEN, now.map((line) => JSON.stringify(line)).join('\n') + '\n')
  }
  const golden = readFileSync(GOLDEN, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as GoldenLine)

  it('covers every game, finished games and refused lines', () => {
    expect(golden).toHaveLength(GAME_IDS.length * RECORDS_PER_GAME)
    for (const game of GAME_IDS) {
      const lines = golden.filter((line) => line.game === game)
      expect(lines.filter((line) => line.output.startsWith('line ')).length).toBeGreaterThan(RECORDS_PER_GAME / 5)
      expect(lines.filter((line) => line.output.includes('"finished":true')).length).toBeGreaterThan(RECORDS_PER_GAME / 3)
    }
  })

  it.each(GAME_IDS)('%s: the same records give the same output and the same trace', (game) => {
    const mine = now.filter((line) => line.game === game)
    const theirs = golden.filter((line) => line.game === game)
    expect(mine.map((line) => line.record)).toEqual(theirs.map((line) => line.record))
    expect(mine.map((line) => line.output)).toEqual(theirs.map((line) => line.output))
    expect(mine.map((line) => line.trace)).toEqual(theirs.map((line) => line.trace))
  })
})
