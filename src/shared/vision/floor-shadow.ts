// The floor in shadow: a die's shadow, or the floor along a wall in the wall's shadow, is the floor
// darker, not a die (reader.ts) and not the tray's edge (tray.ts).

/** How far (weighted a, b units) a pixel's colour may be from the floor's colour dimmed to its lightness and still be the floor in shadow. */
const SHADOW_TOLERANCE = 8
/** The darkest shadow taken for one, as (L* + 16) over the floor's: darker is a die (a black die on a bright floor). */
const SHADOW_DEEPEST = 0.5

/**
 * Whether a pixel darker than the floor is the floor in shadow (OpenCV's 8-bit Lab: L 0..255, a
 * and b centred on 0). Less light on a surface scales its colour (X, Y, Z) down, and Lab's a and b
 * follow the cube root of that scale as L* + 16 does: the floor in shadow has the floor's hue with
 * its chroma shrunk by its lightness's ratio. A die's shadow then leaves its blob (the blob's far
 * end was taken for the top face), and so does a wall's. Only where the floor has colour enough
 * that a grey or black die at that lightness would not pass for its shadow: on a grey floor a
 * black die and a shadow are alike, and both stay to the lightness test.
 */
export function isShadow(l: number, a: number, b: number, floorL: number, floorA: number, floorB: number): boolean {
  const ratio = (l / 2.55 + 16) / (floorL / 2.55 + 16)
  if (ratio < SHADOW_DEEPEST) return false
  const k = ratio * 1.6
  if ((floorA * floorA + floorB * floorB) * k * k < (SHADOW_TOLERANCE * 2) ** 2) return false
  const da = (a - floorA * ratio) * 1.6
  const db = (b - floorB * ratio) * 1.6
  return da * da + db * db < SHADOW_TOLERANCE * SHADOW_TOLERANCE
}
