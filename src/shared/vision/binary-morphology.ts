// The mask's clean-up (reader.ts): an opening with OpenCV's 3×3 disc, then a closing with its 5×5
// disc, on a mask of 0 and 255, giving cv.morphologyEx's pixels exactly (its borders too: nothing
// outside the picture for a dilation, everything for an erosion).
//
// Hand-written for speed: OpenCV's WebAssembly build has no SIMD and runs a kernel that is not a
// rectangle point by point (the 5×5 disc's close took ~7 ms of CPU on a 1000×700 mask here, six
// masks a throw). Packed 32 pixels to a word, a dilation by a small disc is a few shifts and ORs
// per word; an erosion is the dilation of the complement (the discs are symmetric), complemented.
// test/vision/binary-morphology.test.ts checks it against cv.morphologyEx.

/** A mask packed a bit a pixel, each row in whole 32-bit words (bits past the width kept 0). */
interface Packed {
  words: Uint32Array
  perRow: number
  width: number
  height: number
}

function pack(mask: Uint8Array, width: number, height: number): Packed {
  const perRow = Math.ceil(width / 32)
  const words = new Uint32Array(perRow * height)
  for (let y = 0; y < height; y++) {
    const row = y * width
    for (let x = 0; x < width; x++) if (mask[row + x]) words[y * perRow + (x >>> 5)] |= 1 << (x & 31)
  }
  return { words, perRow, width, height }
}

function unpack(packed: Packed, mask: Uint8Array): void {
  const { words, perRow, width, height } = packed
  for (let y = 0; y < height; y++) {
    const row = y * width
    for (let x = 0; x < width; x++) mask[row + x] = words[y * perRow + (x >>> 5)] & (1 << (x & 31)) ? 255 : 0
  }
}

/** Clears the bits past the width in each row's last word. */
function clearTail(packed: Packed): void {
  const tail = packed.width & 31
  if (tail === 0) return
  const keep = (1 << tail) - 1
  for (let y = 0; y < packed.height; y++) packed.words[y * packed.perRow + packed.perRow - 1] &= keep
}

function complement(packed: Packed): Packed {
  const words = packed.words.map((word) => ~word >>> 0)
  const result = { ...packed, words }
  clearTail(result)
  return result
}

/**
 * Dilation (nothing outside the picture) by a symmetric kernel given as its half-widths per row
 * offset: reach[dy + r] = how far the kernel reaches sideways on the row dy away (-1: not at all).
 */
function dilate(source: Packed, reach: number[]): Packed {
  const { words, perRow, height } = source
  const out = new Uint32Array(words.length)
  const r = (reach.length - 1) / 2
  for (let dy = -r; dy <= r; dy++) {
    const across = reach[dy + r]
    if (across < 0) continue
    for (let y = Math.max(0, -dy); y < Math.min(height, height - dy); y++) {
      const from = (y + dy) * perRow
      const to = y * perRow
      for (let k = 0; k < perRow; k++) {
        const word = words[from + k]
        const before = k > 0 ? words[from + k - 1] : 0
        const after = k < perRow - 1 ? words[from + k + 1] : 0
        let value = word
        for (let dx = 1; dx <= across; dx++) {
          // The pixel dx to the right (x + dx) and dx to the left (x - dx) of each bit's pixel.
          value |= (word >>> dx) | (after << (32 - dx))
          value |= (word << dx) | (before >>> (32 - dx))
        }
        out[to + k] |= value
      }
    }
  }
  const result = { ...source, words: out }
  clearTail(result)
  return result
}

const erode = (source: Packed, reach: number[]): Packed => complement(dilate(complement(source), reach))

/** OpenCV's MORPH_ELLIPSE 3×3 (a cross) and 5×5 (a 5×3 block and a 1×5 column), as reaches per row. */
const DISC_3 = [0, 1, 0]
const DISC_5 = [0, 2, 2, 2, 0]

/** In place on a 0/255 mask of width × height: open with the 3×3 disc, then close with the 5×5 disc. */
export function openThenCloseWithDiscs(mask: Uint8Array, width: number, height: number): void {
  let packed = pack(mask, width, height)
  packed = dilate(erode(packed, DISC_3), DISC_3)
  packed = erode(dilate(packed, DISC_5), DISC_5)
  unpack(packed, mask)
}
