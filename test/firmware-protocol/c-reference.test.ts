// Compiles the C reference implementation with the system compiler and runs its vector test,
// so `vitest run` covers the C code too. Skipped (visibly) only when no `cc` is installed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { canonicalFields, parseCommand, parseLine } from '@shared/protocol'
import { escape, loadVectors, VECTOR_DIR } from '../shared/protocol/vectorFile'
import { fuzzLine } from '../shared/protocol/random'
import { repoPath } from '@test/kit/root'
import { seededRandom } from '@shared/random-play'

const C_DIR = `${repoPath('firmware-protocol', 'c')}/`
const CC = process.env.CC ?? 'cc'
const hasCc = spawnSync(CC, ['--version'], { stdio: 'ignore' }).status === 0
const FLAGS = ['-std=c99', '-Wall', '-Wextra', '-Werror', '-pedantic']

describe.skipIf(!hasCc)(`C reference (${CC} ${FLAGS.join(' ')})`, () => {
  let dir = ''
  let bin = ''
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dr-protocol-'))
    bin = join(dir, 'test_vectors')
    execFileSync(CC, [...FLAGS, join(C_DIR, 'dr_protocol.c'), join(C_DIR, 'test_vectors.c'), '-o', bin], {
      stdio: 'pipe'
    })
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('compiles warning-free and passes every vector', () => {
    const run = spawnSync(bin, [VECTOR_DIR], { encoding: 'utf8' })
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    const valid = loadVectors('valid.tsv').length
    const invalid = loadVectors('invalid.tsv').length
    expect(run.stdout).toMatch(
      new RegExp(`^checked ${valid + invalid} vectors \\(${valid} valid, ${invalid} invalid\\), ${valid} round trips, \\d+ framed lines\\n$`)
    )
  })

  it('agrees with the TypeScript parser on 20,000 fuzz lines, both directions', () => {
    const rnd = seededRandom(99)
    const rows: string[] = []
    const want: string[] = []
    for (let i = 0; i < 10_000; i++) {
      const line = fuzzLine(rnd)
      for (const dir of ['d', 'h'] as const) {
        rows.push(`${dir}\t${escape(line)}`)
        const r = dir === 'd' ? parseLine(line) : parseCommand(line)
        want.push(r.ok ? ['ok', ...canonicalFields(r.message).map(escapeValue)].join('\t') : r.code)
      }
    }
    const run = spawnSync(bin, ['--parse'], { input: rows.join('\n') + '\n', encoding: 'latin1', maxBuffer: 64 << 20 })
    expect(run.status).toBe(0)
    const got = run.stdout.split('\n').slice(0, -1)
    expect(got.length).toBe(want.length)
    const diffs = got.flatMap((g, i) => (g === want[i] ? [] : [`${rows[i]}\n  C:  ${g}\n  TS: ${want[i]}`]))
    expect(diffs.slice(0, 5)).toEqual([])
  })
})

function escapeValue(kv: string): string {
  const eq = kv.indexOf('=')
  return kv.slice(0, eq + 1) + escape(kv.slice(eq + 1))
}
