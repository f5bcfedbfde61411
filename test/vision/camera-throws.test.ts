// The camera end-to-end test's scenes (test/fixtures/camera-throws, made by
// scripts/dice-photos/camera-scenes.ts) read in Node with the calibrated tray, and what the table
// makes of each reading at a game of Farkle (judgeCameraReading): the e2e test relies on these.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { decodeImage } from '@main/devices/image-file'
import { judgeCameraReading } from '@shared/camera'
import { parseManifest, type PhotoManifestLine } from '@shared/vision/manifest'
import { readDiceFrame } from '@shared/vision/reader'
import type { FrameReading } from '@shared/vision/types'
import { openCvForTests } from './opencv-node'
import { repoPath } from '@test/kit/root'

const SCENES = repoPath('test', 'fixtures', 'camera-throws')
const readings = new Map<string, FrameReading>()

beforeAll(async () => {
  const { cv } = await openCvForTests()
  const manifest = parseManifest(readFileSync(join(SCENES, 'manifest.jsonl'), 'utf8'))
  if (!manifest.ok) throw new Error(manifest.error)
  for (const line of manifest.lines as PhotoManifestLine[]) {
    const frame = decodeImage(readFileSync(join(SCENES, line.file)))
    readings.set(line.condition!, readDiceFrame(cv, frame, { tray: { polygon: line.tray!, width: frame.width, height: frame.height } }))
  }
}, 180_000)

const FIRST_THROW = { due: 6, throwers: ['Ann'] }
const AFTER_THE_KEEP = { due: 3, throwers: ['Ann'] }
const sorted = (values: readonly number[]): number[] => [...values].sort()

describe('the camera test’s scenes', () => {
  it('the empty tray holds no die', () => {
    expect(readings.get('empty')!.dice).toEqual([])
  })

  it('six dice: taken as the first throw', () => {
    const verdict = judgeCameraReading(readings.get('six')!.dice, FIRST_THROW)
    expect(verdict.kind === 'take' && sorted(verdict.values)).toEqual([1, 1, 1, 2, 3, 5])
  })

  it('the three kept left in the tray beside three thrown: six dice where three are due, refused', () => {
    expect(judgeCameraReading(readings.get('six-kept-in-tray')!.dice, AFTER_THE_KEEP)).toMatchObject({ kind: 'refuse', text: expect.stringContaining('sees 6 dice in the tray and 3 dice are due') })
  })

  it('a 4 tilted 35°: read as cocked, refused', () => {
    expect(readings.get('three-one-tilted')!.dice.filter((die) => die.unreadable === 'cocked')).toHaveLength(1)
    expect(judgeCameraReading(readings.get('three-one-tilted')!.dice, AFTER_THE_KEEP)).toEqual({ kind: 'refuse', text: 'A die is tilted: straighten it or type the throw' })
  })

  it('a 5 leaning 25°: read as a 5, not surely, so it is asked about with 5 5 3 filled in', () => {
    const verdict = judgeCameraReading(readings.get('three-one-leaning')!.dice, AFTER_THE_KEEP)
    expect(verdict).toMatchObject({ kind: 'ask', text: expect.stringContaining('not sure of the 5') })
    expect(verdict.kind === 'ask' && verdict.values).toEqual([5, 5, 3])
  })

  it('two dice flush against each other and one apart: all three read surely', () => {
    const verdict = judgeCameraReading(readings.get('three-touching')!.dice, AFTER_THE_KEEP)
    expect(verdict.kind === 'take' && sorted(verdict.values)).toEqual([2, 5, 5])
  })
})
