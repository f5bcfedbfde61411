// `npx tsx scripts/dice-photos/generate.ts --out DIR [--per-condition N] [--seed S] [--conditions a,b]`:
// renders dice photos (three.js in headless Chromium) with their manifest.jsonl, for
// `npm run -s referee -- dice-photo --eval DIR`. The committed fixtures in test/fixtures/dice-photos
// were made with `--per-condition 6 --seed 1`, and touching-0063 and touching-0065 (touching dice
// only: a group of three beside a lone die, and every die in a group) with
// `--per-condition 8 --seed 60 --conditions touching`.
import { exitWithUsageError, parseCommandLine } from '@cli/command-line'
import { CONDITIONS, renderPhotoSet, type Condition } from './render'

const USAGE = `usage: npx tsx scripts/dice-photos/generate.ts --out DIR [options]
  --out DIR            the folder to write the photos and manifest.jsonl into
  --per-condition N    photos of each condition (default 10)
  --seed S             the first scene's seed (default 1); the same seed draws the same photos
  --conditions LIST    comma-separated, of ${CONDITIONS.join(', ')} (default all)`

const { values } = parseCommandLine('generate', USAGE, process.argv.slice(2), {
  out: { type: 'string' },
  'per-condition': { type: 'string' },
  seed: { type: 'string' },
  conditions: { type: 'string' }
})
if (!values.out) exitWithUsageError('generate', '--out DIR is needed')
const perCondition = Number(values['per-condition'] ?? 10)
const seed = Number(values.seed ?? 1)
if (!Number.isInteger(perCondition) || perCondition < 1) exitWithUsageError('generate', '--per-condition must be a whole number of at least 1')
if (!Number.isInteger(seed) || seed < 0) exitWithUsageError('generate', '--seed must be a whole number')
const conditions = (values.conditions ?? CONDITIONS.join(',')).split(',') as Condition[]
const unknown = conditions.filter((c) => !CONDITIONS.includes(c))
if (unknown.length > 0) exitWithUsageError('generate', `unknown condition ${unknown.join(', ')}; they are ${CONDITIONS.join(', ')}`)

async function main(out: string): Promise<void> {
  const started = Date.now()
  const lines = await renderPhotoSet(out, conditions, perCondition, seed, (line) => process.stdout.write(`${line.file}\n`))
  console.log(`${lines.length} photos in ${out} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
}

void main(values.out)
