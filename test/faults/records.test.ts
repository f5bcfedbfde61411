// Fault suite: mutated records into `referee replay`. Every record ends in exit 0 with the state,
// or exit 1 with `line N: reason`; never a crash or a stack trace.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runReferee } from '@cli/referee-command'
import { GAME_IDS } from '@shared/games'
import { recordText } from '@shared/game'
import { playRandomGame, SAMPLE_PLAYERS, seededRandom } from '@shared/random-play'
import { ROOT } from '@test/kit/root'

const RECORDS = 2400

function baseRecords(): string[] {
  const records: string[] = []
  for (const game of GAME_IDS) {
    for (let seed = 1; seed <= 3; seed++) {
      const random = seededRandom(seed * 31 + game.length)
      const played = playRandomGame({ game, players: SAMPLE_PLAYERS[game], meta: { startedAt: 1_700_000_000_000 } }, random, 80).game
      const timed = { ...played, moves: played.moves.map((recorded, i) => ({ ...recorded, at: 1_700_000_000_000 + i * 1000 })) }
      records.push(recordText(timed))
    }
  }
  return records
}

const FRAGMENTS = [
  '{', '}', '[', ']', ',', ':', '"', '\\', 'null', 'true', '-0', '1e999', '7', '0', '2.5', '"roll"', '{"roll":[1]}',
  '{"game":"farkle","players":["A"]}', '"at":-1', '\u0000', '\u2028', '\ud800', '\r', '\n', '\n\n', '\ufeff', '[[[[', ']]]]'
]

/** One random mutation of a record (seeded), as bytes: a fuzzer's usual moves plus deep nesting where dice go. */
function mutate(record: string, random: () => number): Buffer {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]
  const lines = record.split('\n')
  const at = (text: string): number => Math.floor(random() * (text.length + 1))
  const line = 1 + Math.floor(random() * Math.max(1, lines.length - 2))
  switch (Math.floor(random() * 14)) {
    case 0: {
      const bytes = Buffer.from(record)
      for (let i = 0, n = 1 + Math.floor(random() * 4); i < n; i++) bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256)
      return bytes
    }
    case 1: {
      const start = at(record)
      return Buffer.from(record.slice(0, start) + record.slice(start + 1 + Math.floor(random() * 40)))
    }
    case 2: {
      const start = at(record)
      return Buffer.from(record.slice(0, start) + pick(FRAGMENTS) + record.slice(start))
    }
    case 3:
      lines.splice(line, 0, lines[line])
      return Buffer.from(lines.join('\n'))
    case 4: {
      const other = 1 + Math.floor(random() * Math.max(1, lines.length - 2))
      ;[lines[line], lines[other]] = [lines[other], lines[line]]
      return Buffer.from(lines.join('\n'))
    }
    case 5:
      lines.splice(line, 1)
      return Buffer.from(lines.join('\n'))
    case 6: {
      // Dice nested about 10,000 deep, where the dice are described when they are refused.
      const depth = 9000 + Math.floor(random() * 2000)
      lines[line] = `{"${pick(['roll', 'reroll', 'keep'])}":[${pick(['', '1,'])}${'['.repeat(depth)}${pick(['', '3', '{}'])}${']'.repeat(depth)}]}`
      return Buffer.from(lines.join('\n'))
    }
    case 7: {
      const depth = Math.floor(random() * 200_000)
      lines[0] = lines[0].replace(/}$/, `,"meta":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}`)
      return Buffer.from(lines.join('\n'))
    }
    case 8:
      lines[line] = lines[line].replace(/\d/, pick(['9', '0', '-1', '1.5', '1e3', '"1"', 'null', '[1]', '{"a":1}', String(2 ** 60)]))
      return Buffer.from(lines.join('\n'))
    case 9:
      return Buffer.from(record.slice(0, at(record)))
    case 10:
      return Buffer.concat([Buffer.from(record.slice(0, at(record))), Buffer.from([pick([0xff, 0xc3, 0xe2, 0x80, 0xf0])]), Buffer.from(record.slice(at(record)))])
    case 11:
      lines[line] = `{"roll":[${Array.from({ length: Math.floor(random() * 200_000) }, () => 1 + Math.floor(random() * 6)).join(',')}]}`
      return Buffer.from(lines.join('\n'))
    case 12:
      lines[line] = lines[line].replace(/^\{("\w+")/, '{$1:1,$1')
      return Buffer.from(lines.join('\r\n'))
    default:
      lines[line] = `{"${pick(['roll', 'keep', 'bank', 'end', 'socks', 'at', 'game', 'x'])}":${pick(FRAGMENTS)}}`
      return Buffer.from(lines.join('\n'))
  }
}

/** What one run of `referee replay` did: fine (state or `line N: reason`), or crashed / malformed. */
function judge(status: number | null, stdout: string, stderr: string): 'replayed' | 'refused' | 'crashed' | 'malformed' {
  if (status === 0) return stderr === '' && stdout.endsWith('\n') && !stdout.slice(0, -1).includes('\n') && JSON.parse(stdout) ? 'replayed' : 'malformed'
  if (status === 1) return stdout === '' && /^line [1-9]\d*: [^\n]+\n$/.test(stderr) && !/\n\s+at /.test(stderr) ? 'refused' : 'malformed'
  return 'crashed'
}

describe('fault suite: mutated records into referee replay', () => {
  it(`replays or refuses ${RECORDS} mutated records with "line N: reason", never crashing`, () => {
    const random = seededRandom(20261130)
    const bases = baseRecords()
    const counts = { replayed: 0, refused: 0, crashed: 0, malformed: 0 }
    const examples: string[] = []
    const started = performance.now()
    for (let i = 0; i < RECORDS; i++) {
      const bytes = mutate(bases[i % bases.length], random)
      let stdout = ''
      let stderr = ''
      let status: number | null
      try {
        status = runReferee(['replay', '-'], { readInput: () => bytes, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) })
      } catch (error) {
        status = null
        stderr = String((error as Error).stack)
      }
      const verdict = judge(status, stdout, stderr)
      counts[verdict]++
      if ((verdict === 'crashed' || verdict === 'malformed') && examples.length < 3) examples.push(`${verdict}: ${stderr.slice(0, 300)}`)
    }
    process.stdout.write(
      `mutated records: ${RECORDS} into referee replay in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
        `${counts.replayed} replayed, ${counts.refused} refused with "line N: reason", ${counts.crashed} crashed, ${counts.malformed} malformed answers\n`
    )
    expect(examples).toEqual([])
    expect(counts.crashed).toBe(0)
    expect(counts.malformed).toBe(0)
    expect(counts.refused).toBeGreaterThan(RECORDS / 2)
  }, 180_000)

  it('the real command (its own process) answers a dice value nested 10,000 deep with exit 1 and "line N: reason"', () => {
    const bundle = join(mkdtempSync(join(tmpdir(), 'referee-bundle-')), 'referee.cjs')
    execFileSync(process.execPath, [
      '-e',
      `require('esbuild').buildSync({ entryPoints: [${JSON.stringify(join(ROOT, 'src', 'cli', 'referee.ts'))}], outfile: ${JSON.stringify(bundle)}, bundle: true, platform: 'node', format: 'cjs', logLevel: 'warning' })`
    ], { cwd: ROOT })
    const random = seededRandom(5)
    const base = baseRecords()[0].split('\n')
    const deep = '['.repeat(10_000) + ']'.repeat(10_000)
    const inputs = [
      [base[0], `{"roll":[1,${deep}]}`, ''].join('\n'),
      [base[0], base[1], `{"keep":[${deep}]}`, ''].join('\n'),
      ...Array.from({ length: 6 }, () => mutate(baseRecords()[1], random).toString('latin1'))
    ]
    const counts = { replayed: 0, refused: 0, crashed: 0, malformed: 0 }
    for (const [i, input] of inputs.entries()) {
      const result = spawnSync(process.execPath, [bundle, 'replay', '-'], { input: i < 2 ? input : Buffer.from(input, 'latin1'), encoding: 'utf8' })
      counts[judge(result.status, result.stdout, result.stderr)]++
      if (i === 0) expect(result.stderr).toBe('line 2: the line nests lists or objects more than 64 levels deep\n')
    }
    process.stdout.write(`mutated records through the real referee process: ${JSON.stringify(counts)}\n`)
    expect(counts.crashed + counts.malformed).toBe(0)
  }, 120_000)
})
