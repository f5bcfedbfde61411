// Whether the picture has stopped changing: the dice have settled and no hand is in the way.
// Each frame is reduced to a coarse grey grid (means over cells); two frames are still when the
// grids differ by less than `threshold` grey levels on average. Coarse on purpose: a webcam's
// noise averages out over a cell, a die still rolling does not.
import type { RgbaFrame } from './types'

const GRID_WIDTH = 64
const GRID_HEIGHT = 36

export function greyGrid(frame: RgbaFrame): Float32Array {
  const grid = new Float32Array(GRID_WIDTH * GRID_HEIGHT)
  const counts = new Uint32Array(GRID_WIDTH * GRID_HEIGHT)
  const { width, height, data } = frame
  // Every other pixel each way is plenty for a cell's mean.
  for (let y = 0; y < height; y += 2) {
    const gy = Math.min(GRID_HEIGHT - 1, Math.floor((y * GRID_HEIGHT) / height))
    for (let x = 0; x < width; x += 2) {
      const gx = Math.min(GRID_WIDTH - 1, Math.floor((x * GRID_WIDTH) / width))
      const i = (y * width + x) * 4
      grid[gy * GRID_WIDTH + gx] += 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2]
      counts[gy * GRID_WIDTH + gx]++
    }
  }
  for (let i = 0; i < grid.length; i++) grid[i] /= Math.max(1, counts[i])
  return grid
}

/** The mean absolute difference of two grids, in grey levels; the largest cell difference too. */
export function gridDifference(a: Float32Array, b: Float32Array): { mean: number; largest: number } {
  let sum = 0
  let largest = 0
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i])
    sum += d
    if (d > largest) largest = d
  }
  return { mean: sum / a.length, largest }
}

/** A frame is still when no cell changed by more than this many grey levels (a die moving changes its cells by far more). */
export const STILL_THRESHOLD = 6
