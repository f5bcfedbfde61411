// `npx tsx scripts/dice-photos/camera-scenes.ts [--out DIR]`: the throws of the camera's end-to-end
// test (test/e2e/camera.test.ts) as one camera over one tray would see them at a game of Farkle:
// the empty tray, six dice thrown, the three kept left in the tray with three more, three dice
// with one tilted (cocked), three with one leaning (read, not surely), two of three touching. Rendered
// like the other test photos (render.ts), all from one scene so that only the dice change; written
// with a manifest.jsonl (values, tray) to test/fixtures/camera-throws by default.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseCommandLine } from '@cli/command-line'
import { repoPath } from '@test/kit/root'
import type { PhotoManifestLine } from '@shared/vision/manifest'
import { openRenderer, sceneSpec, trueValues, type SceneSpec } from './render'

type Die = SceneSpec['dice'][number]

const USAGE = `usage: npx tsx scripts/dice-photos/camera-scenes.ts [--out DIR]
  --out DIR   the folder to write the photos and manifest.jsonl into (default test/fixtures/camera-throws)`
const { values } = parseCommandLine('camera-scenes', USAGE, process.argv.slice(2), { out: { type: 'string' } })
const out = values.out ?? repoPath('test', 'fixtures', 'camera-throws')

/** A white die with black pips lying flat at (x, z) on the tray's floor (cm from its centre), turned by `yaw` degrees. */
function die(value: number, x: number, z: number, yaw = 0, cocked = 0, pipColour = '#151515', pipSize = 0.09): Die {
  return {
    x,
    z,
    base: 0,
    yaw: (yaw * Math.PI) / 180,
    value,
    cocked: (cocked * Math.PI) / 180,
    outside: false,
    colour: '#f4f1ea',
    pipColour,
    pipStyle: 'round',
    pipSize,
    redOne: false,
    bigOne: false
  }
}

/** The one setup: a green felt tray straight under the camera, a soft light from above. */
function scene(dice: Die[]): SceneSpec {
  const base = sceneSpec('top-down', 26)
  return {
    ...base,
    seed: 26,
    blur: 0,
    surface: { kind: 'felt', colour: '#1f6b3a', repeat: 2, check: false },
    table: { colour: '#8c8577' },
    light: { elevation: (70 * Math.PI) / 180, azimuth: (40 * Math.PI) / 180, intensity: 2.2, ambient: 1.1 },
    camera: { ...base.camera, tilt: 0, azimuth: 0, roll: 0 },
    tray: { ...base.tray, rimColour: '#3b2614' },
    dice
  }
}

const FLUSH = 1.62
const SCENES: Array<{ name: string; dice: Die[] }> = [
  { name: 'empty', dice: [] },
  { name: 'six', dice: [die(1, -9, -4, 10), die(1, -3, 3, 35), die(1, 4, -5, 70), die(5, 10, 2, 20), die(2, -8, 5, 55), die(3, 2, 5, 80)] },
  // The three 1s kept, left in the tray, and three dice thrown beside them.
  { name: 'six-kept-in-tray', dice: [die(1, -11, -6, 15), die(1, -7, -6, 40), die(1, -3, -6, 65), die(4, 3, 4, 25), die(6, 9, -1, 50), die(2, 11, 6, 5)] },
  // A 4 leaning 35° on an edge: the reader sees its face squashed (cocked).
  { name: 'three-one-tilted', dice: [die(5, -7, -2, 30), die(4, 1, 0, 0, 35), die(3, 8, -3, 60)] },
  // A 5 leaning 25°: read as a 5, not surely.
  { name: 'three-one-leaning', dice: [die(5, -7, -2, 30), die(5, 1, 2, 40, 25), die(3, 8, -3, 60)] },
  // Two dice flush against each other and one apart.
  { name: 'three-touching', dice: [die(5, -4, 0, 0), die(5, -4 + FLUSH, 0, 0), die(2, 7, 3, 30)] }
]

async function main(): Promise<void> {
  mkdirSync(out, { recursive: true })
  const renderer = await openRenderer()
  const lines: PhotoManifestLine[] = []
  try {
    for (const { name, dice } of SCENES) {
      const spec = scene(dice)
      const rendered = await renderer.render(spec)
      const file = `${name}.jpg`
      writeFileSync(join(out, file), rendered.jpeg)
      lines.push({ file, values: trueValues(spec), condition: name, tray: rendered.tray as PhotoManifestLine['tray'], boxes: rendered.boxes as PhotoManifestLine['boxes'] })
      console.log(file)
    }
  } finally {
    await renderer.close()
  }
  writeFileSync(join(out, 'manifest.jsonl'), lines.map((line) => JSON.stringify(line)).join('\n') + '\n')
}

void main()
