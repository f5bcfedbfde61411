// A die by the tray's far wall, seen at a slant, shows its top face beyond the edge of the tray's
// floor in the picture. The reader paints the picture outside the calibrated tray the floor's
// colour to model the floor; it once painted the picture itself (this OpenCV build's Mat.clone()
// shares the pixels), cutting such a die's top face: this render's 2 by the far wall read as an
// unsure 4. (The 3 by the left wall is still read as a 3 and a 1: a phantom die the
// table refuses as one die too many.) The render: scripts/dice-photos/generate.ts, `--conditions tilted`, seed 77006.
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { decodeImage } from '@main/devices/image-file'
import { readDiceFrame } from '@shared/vision/reader'
import { CONFIDENT } from '@shared/vision/types'
import { openCvForTests } from './opencv-node'
import { repoPath } from '@test/kit/root'

const TRAY: [number, number][] = [
  [429.5, 193.7],
  [935, 261.7],
  [952, 606.5],
  [274.7, 481.8]
]

it(
  'reads a die by the far wall whose top face shows beyond the tray floor’s edge',
  async () => {
    const { cv } = await openCvForTests()
    const frame = decodeImage(readFileSync(repoPath('test', 'fixtures', 'dice-far-wall', 'tilted-77006.jpg')))
    const reading = readDiceFrame(cv, frame, { tray: { polygon: TRAY, width: frame.width, height: frame.height } })
    // The 2 stands at 488,196 (34×43) in the picture.
    const two = reading.dice.filter((die) => Math.abs(die.box[0] + die.box[2] / 2 - 505) < 20 && Math.abs(die.box[1] + die.box[3] / 2 - 217) < 20)
    expect(two.map((die) => [die.value, die.confidence >= CONFIDENT])).toEqual([[2, true]])
  },
  120_000
)
