import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { replayText } from '@shared/game'
import { ROOT } from '@test/kit/root'

function referee(args: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('npm', ['run', '-s', 'referee', '--', ...args], { cwd: ROOT, input, encoding: 'utf8' })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

function file(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'referee-')), 'game.jsonl')
  writeFileSync(path, text)
  return path
}

describe('npm run -s referee -- replay', () => {
  it('prints the state of a record file as one JSON object', () => {
    const path = file('{"game":"four-plus","players":["Ann","Bob"]}\n{"roll":[3,3,3,2]}\n')
    const result = referee(['replay', path])
    expect(result.status).toBe(0)
    expect(result.stderr).toBe('')
    expect(result.stdout.trim().split('\n')).toHaveLength(1)
    const summary = JSON.parse(result.stdout)
    expect(summary).toMatchObject({ game: 'four-plus', finished: false, winners: [], toPlay: 'Ann' })
    expect(summary.players[0]).toMatchObject({ name: 'Ann', score: 3, out: false })
  })

  it('reads standard input for "-"', () => {
    const result = referee(['replay', '-'], '{"game":"farkle","players":["Ann"]}\n')
    expect(result.status).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ game: 'farkle', toPlay: 'Ann' })
  })

  it('stops at the first illegal line: nothing on stdout, exit 1, "line N: " on stderr', () => {
    const path = file('{"game":"four-plus","players":["Ann","Bob"]}\n\n{"roll":[3,3,3,2]}\n{"roll":[3,3,7,2]}\n')
    const result = referee(['replay', path])
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^line 4: /)
  })

  it('calls an empty file an error at line 1', () => {
    const result = referee(['replay', file('')])
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^line 1: /)
  })
})

describe('broken records are refused at the right line', () => {
  const header = (game: string, players = '["Ann","Bob"]', rules = '') => `{"game":"${game}","players":${players}${rules}}`
  it.each([
    ['an invalid header', `{"game":"farkle","players":["Ann"],"rules":{"entry":-1}}`, 1],
    ['an unknown option', `{"game":"foursies","players":["Ann"],"rules":{"speed":2}}`, 1],
    ['a tab that is no seat', `{"game":"foursies","players":["Ann","Bob"],"rules":{"tab":2}}`, 1],
    ['rounds below 1', `{"game":"four-plus","players":["Ann","Bob"],"rules":{"rounds":0}}`, 1],
    ['target below 1', `{"game":"fouche","players":["Ann"],"rules":{"target":0}}`, 1],
    ['4-PLU$ with one player', `{"game":"four-plus","players":["Ann"]}`, 1],
    ['a header key of no meaning', `{"game":"farkle","players":["Ann"],"seed":1}`, 1],
    ['malformed JSON', `${header('farkle')}\n{"roll":[1,2,3,4,5,6]`, 2],
    ['a value outside 1-6', `${header('farkle')}\n{"roll":[1,2,3,4,5,0]}`, 2],
    ['the wrong number of dice', `${header('farkle')}\n{"roll":[1,2,3,4,5]}`, 2],
    ['a keep of dice that do not score', `${header('farkle')}\n{"roll":[1,2,3,4,6,6]}\n{"keep":[2]}`, 3],
    ['a keep of dice not thrown', `${header('farkle')}\n{"roll":[1,2,3,4,6,6]}\n{"keep":[5]}`, 3],
    ['a roll before the keep', `${header('fouche')}\n{"roll":[1,2,3,4,6,6]}\n{"roll":[1,2,3,4,6]}`, 3],
    ['a bank before any keep', `${header('farkle')}\n{"bank":true}`, 2],
    ['a bank below the entry minimum', `${header('farkle')}\n{"roll":[1,2,3,4,6,6]}\n{"keep":[1]}\n{"bank":true}`, 4],
    ['a reroll that is no false four', `${header('foursies')}\n{"roll":[2,3,6,5]}\n{"reroll":[2,3]}`, 3],
    ['a reroll in a game without re-rolls', `${header('farkle')}\n{"reroll":[2,2]}`, 2],
    ['end with no optional re-roll on offer', `${header('foursies')}\n{"end":true}`, 2],
    ['socks with no socks', `${header('foursies')}\n{"roll":[2,3,6,5]}\n{"socks":true}`, 3],
    ['an unknown key', `${header('four-plus')}\n{"throw":[1,2,3,4]}`, 2],
    ['a repeated key', `${header('four-plus')}\n{"roll":[1,2,3,4],"roll":[1,2,3,4]}`, 2],
    ['a second header', `${header('four-plus')}\n${header('four-plus')}`, 2]
  ])('%s', (_name, text, line) => {
    const replayed = replayText(`${text}\n`)
    expect(replayed.ok).toBe(false)
    if (!replayed.ok) {
      expect(replayed.line).toBe(line)
      expect(replayed.error.length).toBeGreaterThan(5)
    }
  })

  it('a roll after the game is over', () => {
    const lines = [header('four-plus', '["Ann","Bob"]', ',"rules":{"rounds":1}')]
    lines.push('{"roll":[1,1,1,1]}', '{"roll":[2,3,4,5]}')
    const replayed = replayText(lines.join('\n') + '\n')
    expect(replayed.ok).toBe(false)
    if (!replayed.ok) expect(replayed.line).toBe(3)
  })
})

describe('npm run -s referee -- stats', () => {
  const farkleWin = '{"game":"farkle","players":["Ann","Bob"],"rules":{"target":100,"entry":0}}\n{"roll":[1,2,3,4,6,6]}\n{"keep":[1]}\n{"bank":true}\n{"roll":[2,2,3,4,6,6]}\n'

  it('prints per-player statistics of record files and folders, with names as in the records', () => {
    const folder = mkdtempSync(join(tmpdir(), 'referee-stats-'))
    writeFileSync(join(folder, 'a.jsonl'), farkleWin)
    writeFileSync(join(folder, 'index.jsonl'), '{"id":"not a record"}\n')
    const single = file('{"game":"four-plus","players":["Bob","Cy"],"rules":{"rounds":1}}\n{"roll":[1,1,1,1]}\n')
    const result = referee(['stats', folder, single])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    const { players } = JSON.parse(result.stdout)
    expect(players.map((p: { name: string }) => p.name)).toEqual(['Ann', 'Bob', 'Cy'])
    expect(players[0]).toMatchObject({ name: 'Ann', games: 1, wins: 1, byGame: { farkle: { games: 1, wins: 1, turns: 1, bestTurn: 100, gamesToTarget: 1 } } })
    expect(players[1]).toMatchObject({ games: 2, wins: 0, byGame: { farkle: { farkles: 1, farkleRate: 1 }, 'four-plus': { deathsByOnes: 1, roundsSurvived: 0 } } })
    expect(players[2]).toMatchObject({ games: 1, wins: 1, byGame: { 'four-plus': { wins: 1 } } })
  })

  it('refuses a record that does not replay, naming the file and line, and prints nothing', () => {
    const bad = file('{"game":"farkle","players":["Ann"]}\n{"keep":[1]}\n')
    const result = referee(['stats', bad])
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(`${bad} line 2: `)
  })

  it('needs at least one path', () => {
    const result = referee(['stats'])
    expect(result.status).toBe(2)
    expect(result.stderr).toBe('referee: stats needs at least one PATH (record files, or folders of them) (referee --help lists the options)\n')
  })
})

describe('referee replay of a record with a bad line', () => {
  const HEADER = '{"game":"foursies","players":["Ann","Bob"]}'

  it('the first bad line is the one reported: a later line that is not UTF-8 does not hide it', () => {
    const input = Buffer.concat([
      Buffer.from(`${HEADER}\n{"roll":[4,4,4,9]}\n{"roll":[4,4,`),
      Buffer.from([0xff]),
      Buffer.from(',4]}\n')
    ])
    const result = spawnSync('npx', ['tsx', 'src/cli/referee.ts', 'replay', '-'], { cwd: ROOT, input, encoding: 'utf8' })
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^line 2: /)
  })
})
