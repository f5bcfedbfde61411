// Rendered test photos of dice: scene specs drawn from a seed (render.ts decides everything random),
// drawn by three.js in headless Chromium (scene.js), written as JPEG files with a manifest.jsonl in
// the format `referee dice-photo --eval` reads ({"file", "values"} plus what the scene was).
// Used by generate.ts (the command), the vision tests (bigger sets on demand) and the bench.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser } from 'playwright-core'
import type { PhotoManifestLine } from '@shared/vision/manifest'

export const CONDITIONS = ['top-down', 'tilted', 'touching', 'blur', 'surfaces', 'colours', 'cocked-outside'] as const
export type Condition = (typeof CONDITIONS)[number]

interface DieSpec {
  x: number
  z: number
  base: number
  yaw: number
  value: number
  cocked: number
  outside: boolean
  colour: string
  pipColour: string
  pipStyle: 'round' | 'square'
  pipSize: number
  redOne: boolean
  bigOne: boolean
}

export interface SceneSpec {
  seed: number
  condition: Condition
  width: number
  height: number
  quality: number
  blur: number
  surface: { kind: 'felt' | 'wood' | 'cloth'; colour: string; repeat: number; check: boolean }
  table: { colour: string }
  tray: { width: number; depth: number; wall: number; rimHeight: number; floor: number; rimColour: string }
  light: { elevation: number; azimuth: number; intensity: number; ambient: number }
  camera: { fov: number; tilt: number; azimuth: number; roll: number; distance: number; target: [number, number] }
  dice: DieSpec[]
}

const DIE = 1.6
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const STANDARD_DICE: Array<[string, string]> = [
  ['#f4f1ea', '#151515'],
  ['#fbfbf8', '#1a1a1a'],
  ['#b5121b', '#f5f5f5'],
  ['#151515', '#f2f2f2'],
  ['#1c3f94', '#f5f5f5'],
  ['#1f7a3a', '#f5f5f5']
]
const COLOURFUL_DICE: Array<[string, string]> = [
  ['#f2c200', '#111111'],
  ['#f7f7f2', '#c0182a'],
  ['#f7f7f2', '#1c3f94'],
  ['#e86a10', '#111111'],
  ['#5b2a86', '#f5f5f5'],
  ['#0f8a8a', '#ffffff'],
  ['#f3e5c0', '#7a1010'],
  ['#d9d9d9', '#0a5a20']
]
const SAME_HUE = [
  ['#1c3f94', '#1d3f73', '#243a6e', '#0f8a8a', '#5b2a86'],
  ['#1f7a3a', '#1f6b3a', '#3d4a3d', '#0f8a8a'],
  ['#b5121b', '#7a1c22', '#5a2230', '#e86a10'],
  ['#151515', '#3c3c3c'],
  ['#f3e5c0', '#c8b89a', '#c49a6c', '#f2c200']
]
const FELTS = ['#1f6b3a', '#1d3f73', '#7a1c22', '#3c3c3c']
const WOODS = ['#9a6a3c', '#6b4423', '#c49a6c']
const CLOTHS = ['#243a6e', '#5a2230', '#3d4a3d', '#c8b89a', '#8a8f96']

export function sceneSpec(condition: Condition, seed: number): SceneSpec {
  const rand = seeded(seed * 7919 + CONDITIONS.indexOf(condition))
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]
  const between = (a: number, b: number): number => a + rand() * (b - a)
  const deg = Math.PI / 180

  const standardSurface = (): SceneSpec['surface'] => {
    const kind = pick(['felt', 'felt', 'wood', 'cloth'] as const)
    const colour = kind === 'felt' ? pick(FELTS.slice(0, 3)) : kind === 'wood' ? pick(WOODS.slice(0, 2)) : pick(CLOTHS.slice(0, 3))
    return { kind, colour, repeat: between(1.5, 3), check: false }
  }
  const surface: SceneSpec['surface'] =
    condition === 'surfaces'
      ? (() => {
          const kind = pick(['felt', 'wood', 'cloth', 'cloth'] as const)
          const colour = kind === 'felt' ? pick(FELTS) : kind === 'wood' ? pick(WOODS) : pick(CLOTHS)
          return { kind, colour, repeat: between(1, 4), check: kind === 'cloth' && rand() < 0.6 }
        })()
      : standardSurface()
  const tilt = condition === 'tilted' ? between(15, 40) * deg : condition === 'blur' || condition === 'cocked-outside' ? between(0, 20) * deg : between(0, 4) * deg
  const azimuth = tilt > 0.1 ? between(-25, 25) * deg : between(-8, 8) * deg
  const tray = { width: 30, depth: 20, wall: 2, rimHeight: 2, floor: 1, rimColour: pick(['#3b2614', '#202020', '#5a3a1e', '#6e6e6e']) }
  const palette = condition === 'colours' ? COLOURFUL_DICE : STANDARD_DICE
  // A die the colour of the cloth is left out: no club plays blue dice on blue felt.
  const clash = (colour: string): boolean => SAME_HUE.some((family) => family.includes(colour) && family.includes(surface.colour))
  const style = (): Pick<DieSpec, 'colour' | 'pipColour' | 'pipStyle' | 'pipSize' | 'redOne' | 'bigOne'> => {
    let [colour, pipColour] = pick(palette)
    while (clash(colour)) [colour, pipColour] = pick(palette)
    const fancy = condition === 'colours'
    return {
      colour,
      pipColour,
      pipStyle: fancy && rand() < 0.5 ? 'square' : 'round',
      pipSize: between(0.075, fancy ? 0.11 : 0.1),
      redOne: fancy && rand() < 0.3,
      bigOne: fancy && rand() < 0.3
    }
  }
  const count = 2 + Math.floor(rand() * 4)
  const dice: DieSpec[] = []
  const margin = 1.6
  // The walls that face the camera hide the floor behind them: dice stay out of that strip (a die
  // there is partly hidden, and these photos label only cocked and outside dice unreadable).
  const hidden = (nx: number, nz: number): number => {
    const facing = nx * Math.sin(azimuth) + nz * Math.cos(azimuth)
    return facing > 0.2 && tilt > 0.1 ? tray.rimHeight * Math.tan(tilt + 15 * deg) * facing + 0.5 : 0
  }
  const bounds = {
    left: -tray.width / 2 + margin + hidden(-1, 0),
    right: tray.width / 2 - margin - hidden(1, 0),
    back: -tray.depth / 2 + margin + hidden(0, -1),
    front: tray.depth / 2 - margin - hidden(0, 1)
  }
  const free = (x: number, z: number, except = -1): boolean => dice.every((d, i) => i === except || Math.hypot(d.x - x, d.z - z) > DIE * 1.75)
  const inBounds = (x: number, z: number): boolean => x >= bounds.left && x <= bounds.right && z >= bounds.back && z <= bounds.front
  const place = (): [number, number] => {
    for (let tries = 0; tries < 400; tries++) {
      const x = between(bounds.left, bounds.right)
      const z = between(bounds.back, bounds.front)
      if (free(x, z)) return [x, z]
    }
    throw new Error('no room for another die')
  }
  const flatDie = (x: number, z: number, yaw = between(0, Math.PI * 2)): DieSpec => ({
    x,
    z,
    base: 0,
    yaw,
    value: 1 + Math.floor(rand() * 6),
    cocked: 0,
    outside: false,
    ...style()
  })
  if (condition === 'touching') {
    // Groups of two or three dice side by side (faces flush, or a little turned and touching).
    const groups = 1 + Math.floor(rand() * 2)
    for (let g = 0; g < groups; g++) {
      const size = 2 + Math.floor(rand() * 2)
      for (let tries = 0; tries < 200; tries++) {
        const [x, z] = [between(bounds.left + 2, bounds.right - 2), between(bounds.back + 2, bounds.front - 2)]
        const yaw = between(0, Math.PI * 2)
        const turned = rand() < 0.4 ? between(5, 20) * deg : 0
        const members: Array<[number, number, number]> = [[x, z, yaw]]
        const along = rand() < 0.5 ? yaw : yaw + Math.PI / 2
        const gap = DIE * (turned ? 1.12 : 1.0) + 0.02
        members.push([x + Math.cos(along) * gap, z - Math.sin(along) * gap, yaw + turned])
        if (size === 3) {
          const side = rand() < 0.5 ? along : along + Math.PI / 2
          members.push([x - Math.cos(side) * gap, z + Math.sin(side) * gap, yaw])
        }
        const inside = members.every(([mx, mz]) => inBounds(mx, mz))
        if (!inside || !members.every(([mx, mz]) => free(mx, mz))) continue
        for (const [mx, mz, myaw] of members) dice.push(flatDie(mx, mz, myaw))
        break
      }
    }
    for (let i = dice.length; i < count; i++) dice.push(flatDie(...place()))
  } else {
    for (let i = 0; i < count; i++) dice.push(flatDie(...place()))
  }
  if (condition === 'cocked-outside') {
    const which = rand()
    if (which < 0.65) {
      const die = flatDie(...place())
      die.cocked = between(18, 35) * deg * (rand() < 0.5 ? -1 : 1)
      dice.push(die)
    }
    if (which >= 0.35) {
      const side = rand() < 0.5 ? -1 : 1
      const die = flatDie(side * (tray.width / 2 + tray.wall + between(2.5, 4.5)), between(-tray.depth / 3, tray.depth / 3))
      die.outside = true
      die.base = -tray.floor
      dice.push(die)
    }
  }
  const fov = 50
  const fit = (tray.depth + 2 * tray.wall) / 2 / Math.tan((fov / 2) * deg) / 0.93
  return {
    seed,
    condition,
    width: 1280,
    height: 720,
    quality: 0.86,
    blur: condition === 'blur' ? between(1, 2.5) : 0,
    surface,
    table: { colour: pick(['#8c8577', '#4a3b2c', '#b8b2a6', '#2e2e33']) },
    tray,
    light: { elevation: between(50, 85) * deg, azimuth: between(0, 360) * deg, intensity: between(1.6, 3), ambient: between(0.7, 1.3) },
    camera: {
      fov,
      tilt,
      azimuth,
      roll: 0,
      distance: fit * (1 + 0.7 * Math.sin(tilt)),
      target: [0, 0]
    },
    dice
  }
}

/** The true values of a scene, in its dice order: null for a die that is cocked or outside the tray. */
export function trueValues(spec: SceneSpec): Array<number | null> {
  return spec.dice.map((die) => (die.cocked || die.outside ? null : die.value))
}

const HERE = dirname(fileURLToPath(import.meta.url))
const requireHere = createRequire(import.meta.url)
const THREE_DIR = dirname(dirname(requireHere.resolve('three')))

const PAGE = `<!doctype html><html><head><script type="importmap">
{"imports": {"three": "/three/build/three.module.js", "three/addons/": "/three/examples/jsm/"}}
</script><script type="module" src="/scene.js"></script></head><body></body></html>`

/** A Chromium page that renders scenes; close() ends it. */
export async function openRenderer(): Promise<{ render(spec: SceneSpec): Promise<{ jpeg: Buffer; boxes: number[][]; tray: number[][] }>; close(): Promise<void> }> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is needed at ${CHROMIUM} (apt-get install chromium), or set CHROMIUM_PATH`)
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    // Headless WebGL runs on SwiftShader (the CPU).
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-background-networking', '--no-first-run']
  })
  const page = await browser.newPage()
  await page.route('http://dice.test/**', async (route) => {
    const path = new URL(route.request().url()).pathname
    if (path === '/' || path === '/index.html') return route.fulfill({ contentType: 'text/html', body: PAGE })
    if (path === '/scene.js') return route.fulfill({ contentType: 'text/javascript', body: readFileSync(join(HERE, 'scene.js')) })
    if (path.startsWith('/three/') && !path.includes('..')) {
      const file = join(THREE_DIR, path.slice('/three/'.length))
      if (existsSync(file)) return route.fulfill({ contentType: 'text/javascript', body: readFileSync(file) })
    }
    return route.fulfill({ status: 404, body: 'not found' })
  })
  await page.goto('http://dice.test/index.html')
  await page.waitForFunction(() => (window as unknown as { sceneReady?: boolean }).sceneReady === true)
  return {
    async render(spec) {
      const result = await page.evaluate(
        (s) => (window as unknown as { renderScene(s: unknown): Promise<{ jpeg: string; boxes: number[][]; tray: number[][] }> }).renderScene(s),
        spec as unknown
      )
      return { jpeg: Buffer.from(result.jpeg.replace(/^data:image\/jpeg;base64,/, ''), 'base64'), boxes: result.boxes, tray: result.tray }
    },
    close: () => browser.close()
  }
}

/** Renders `perCondition` photos of each condition into `folder` with its manifest.jsonl; returns the manifest lines. */
export async function renderPhotoSet(folder: string, conditions: readonly Condition[], perCondition: number, seed = 1, onPhoto?: (line: PhotoManifestLine) => void): Promise<PhotoManifestLine[]> {
  mkdirSync(folder, { recursive: true })
  const renderer = await openRenderer()
  const lines: PhotoManifestLine[] = []
  try {
    for (const condition of conditions) {
      for (let i = 0; i < perCondition; i++) {
        const spec = sceneSpec(condition, seed + i)
        const rendered = await renderer.render(spec)
        const file = `${condition}-${String(seed + i).padStart(4, '0')}.jpg`
        writeFileSync(join(folder, file), rendered.jpeg)
        const line: PhotoManifestLine = {
          file,
          values: trueValues(spec),
          condition,
          tray: rendered.tray as Array<[number, number]>,
          boxes: rendered.boxes as Array<[number, number, number, number]>
        }
        lines.push(line)
        onPhoto?.(line)
      }
    }
  } finally {
    await renderer.close()
  }
  writeFileSync(join(folder, 'manifest.jsonl'), lines.map((line) => JSON.stringify(line)).join('\n') + '\n')
  return lines
}
