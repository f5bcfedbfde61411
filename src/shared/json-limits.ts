// Limits checked on JSON text before it is parsed, and words for a value that never walk it:
// a record line or a screen's request may be nested thousands deep, and everything that
// recurses over such a value (JSON.stringify, a recursive check) overflows the call stack.

/**
 * How deeply arrays and objects nest in JSON text, counted with a loop (no recursion) and
 * stopping as soon as `limit` is passed. Brackets inside strings do not count. Returns the depth
 * found, or `limit + 1` when the text goes deeper than `limit`.
 */
export function jsonNesting(text: string, limit: number): number {
  const structure = /["[\]{}]/g
  let depth = 0
  let deepest = 0
  for (let found = structure.exec(text); found !== null; found = structure.exec(text)) {
    const char = found[0]
    if (char === '"') {
      const end = closingQuote(text, structure.lastIndex)
      if (end < 0) break
      structure.lastIndex = end + 1
    } else if (char === '[' || char === '{') {
      depth++
      if (depth > deepest) {
        deepest = depth
        if (deepest > limit) return limit + 1
      }
    } else {
      depth--
    }
  }
  return deepest
}

/** Where the string that starts at `from` (after its opening quote) ends: a quote not escaped by a backslash; -1 if none. */
function closingQuote(text: string, from: number): number {
  for (let at = text.indexOf('"', from); at >= 0; at = text.indexOf('"', at + 1)) {
    let backslashes = 0
    while (text.charCodeAt(at - 1 - backslashes) === 92 /* \ */) backslashes++
    if (backslashes % 2 === 0) return at
  }
  return -1
}

/** A value in a few words, looking only at its top level (never recursing into it). */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : `a list of ${value.length}`
  switch (typeof value) {
    case 'object':
      return 'an object'
    case 'string':
      return value.length <= 20 ? JSON.stringify(value) : `${JSON.stringify(value.slice(0, 20)).slice(0, -1)}..."`
    case 'number':
    case 'boolean':
      return String(value)
    default:
      return typeof value
  }
}
