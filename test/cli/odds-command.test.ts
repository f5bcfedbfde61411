// `referee odds`: the command line's odds of the position a record ends in (its own process).
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { ROOT } from '@test/kit/root'

describe('npm run -s referee -- odds', () => {
  const referee = (args: string[], input?: string) => spawnSync('npm', ['run', '-s', 'referee', '--', ...args], { cwd: ROOT, input, encoding: 'utf8' })

  it('prints the odds of the position a record ends in as one JSON object', () => {
    const r = referee(['odds', '-'], '{"game":"foursies","players":["Ann","Bob"]}\n{"roll":[2,2,1,3]}\n')
    expect(r.status).toBe(0)
    expect(r.stderr).toBe('')
    expect(r.stdout.trim().split('\n')).toHaveLength(1)
    const odds = JSON.parse(r.stdout)
    expect(odds).toMatchObject({ game: 'foursies', player: 'Ann', phase: 'turn' })
    expect(odds.options.map((o: { label: string }) => o.label)).toContain('Re-roll 2+2')
  })

  it('gives the chances to win of a Farkle game with the default rules from its shipped table; other rules get none before the end', () => {
    const start = '{"game":"farkle","players":["Ann","Bob"]}\n{"roll":[1,5,2,2,3,6]}\n'
    const shipped = JSON.parse(referee(['odds', '-'], start).stdout)
    expect(shipped).toMatchObject({ game: 'farkle', win: { exact: true } })
    expect(shipped.keeps.filter((k: { bestToWin?: boolean }) => k.bestToWin)).toHaveLength(1)
    const other = JSON.parse(referee(['odds', '-'], start.replace('"players"', '"rules":{"target":7500},"players"')).stdout)
    expect(other).toMatchObject({ game: 'farkle', winStatus: 'Chance to win: not known yet, no table ships for these rules (the referee command solves none)' })
    expect(other.win).toBeUndefined()
  })

  it('refuses a bad record like replay: line N on stderr, exit 1, nothing on stdout', () => {
    const r = referee(['odds', '-'], '{"game":"farkle","players":["Ann"]}\n{"roll":[1,2,3]}\n')
    expect(r.status).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/^line 2: /)
  })
})
