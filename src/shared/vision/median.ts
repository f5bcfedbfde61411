// The middle value of a few numbers, as the reader takes it everywhere (the upper middle of an even
// count; NaN for none). A byte image's median over a window is OpenCV's (cv.medianBlur).

export function median(values: ArrayLike<number>): number {
  if (values.length === 0) return NaN
  const sorted = Array.from(values).sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}
