// What every computer player does at the end: take the best-valued item, an exact tie broken at random.

/** The item of highest value; `random` breaks exact ties (within 1e-9) between equally good ones. */
export function pickBest<T>(items: T[], value: (t: T) => number, random: () => number): T {
  let best: T[] = []
  let top = -Infinity
  for (const it of items) {
    const v = value(it)
    if (v > top + 1e-9) {
      top = v
      best = [it]
    } else if (Math.abs(v - top) <= 1e-9) best.push(it)
  }
  return best[Math.min(best.length - 1, Math.floor(random() * best.length))]
}
