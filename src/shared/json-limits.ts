// Limits checked on JSON text before it is parsed, and words for a value that never walk it:
// a record line or a screen's request may be nested thousands deep, and everything that
// recurses over such a value (JSON.stringify, a recursive check) overflows the call stack.

/**
 * How deeply arrays and objects nest in JSON text, counted with a loop (no recursion) and
 * stopping as soon as `limit` is passed. Brackets inside strings do not count. Returns the depth
 * found, or `limit + 1` when the text goes deeper than `limit`.
 */
export function jsonNesting(text: string, limit: number): number {
  let depth = 0
  let deepest = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 34 /* " */) {
      for (i++; i < text.length; i++) {
        const inner = text.charCodeAt(i)
        if (inner === 92 /* \ */) i++
        else if (inner === 34) break
      }
    } else if (code === 91 /* [ */ || code === 123 /* { */) {
      depth++
      if (depth > deepest) {
        deepest = depth
        if (deepest > limit) return limit + 1
      }
    } else if (code === 93 /* ] */ || code === 125 /* } */) {
      depth--
    }
  }
  return deepest
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
