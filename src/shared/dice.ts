// Dice helpers shared by the rules engines, the odds and the record parser: die checks, counts,
// taking values away, and the words a table hears for dice and names. Pure functions.

/** A whole number from 1 to 6: what a die can show. */
export function isDieValue(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 6
}

/** The words for a value that is no die: "a die shows 1 to 6, not 7". */
export function notADie(value: unknown): string {
  return `a die shows 1 to 6, not ${JSON.stringify(value)}`
}

/** How many dice show each face: counts[v] for v = 1..6 (counts[0] is unused). */
export function faceCounts(values: readonly number[]): number[] {
  const counts = [0, 0, 0, 0, 0, 0, 0]
  for (let i = 0; i < values.length; i++) counts[values[i]]++
  return counts
}

/** A sorted copy of the values, lowest first. */
export function sortedDice(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b)
}

/** The values of `dice` left after taking away `take` (each taken value must be present), sorted. */
export function removeValues(dice: readonly number[], take: readonly number[]): number[] {
  const left = dice.slice()
  for (const v of take) {
    const i = left.indexOf(v)
    if (i < 0) throw new Error(`no ${v} among ${dice.join(' ')}`)
    left.splice(i, 1)
  }
  return left.sort((a, b) => a - b)
}

/** a + b as one sorted list (both sorted). */
export function mergeSorted(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] <= b[j])) out.push(a[i++])
    else out.push(b[j++])
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Words

/** Counts of dice in words: NUMBER_WORDS[2] is "two"; 0 is "no". */
export const NUMBER_WORDS: readonly string[] = ['no', 'one', 'two', 'three', 'four', 'five', 'six']

/** A count in words ("two"), or its figures past six. */
export function numberWord(count: number): string {
  return NUMBER_WORDS[count] ?? String(count)
}

/** "one 3", "two 3s", "no 3s". */
export function countedValues(count: number, value: number): string {
  return `${numberWord(count)} ${value}${count === 1 ? '' : 's'}`
}

/** Dice as a table reads them: sorted, space-separated ("1 1 5"). */
export function diceText(values: readonly number[]): string {
  return sortedDice(values).join(' ')
}

/** "Ann", "Ann and Bob", "Ann, Bob and Cy" ("" for nobody). */
export function listNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join('')
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
}

/** 1234567 -> "1,234,567" (no locale dependence). */
export function formatPoints(n: number): string {
  const s = String(Math.abs(n))
  let out = ''
  for (let i = 0; i < s.length; i++) {
    if (i > 0 && (s.length - i) % 3 === 0) out += ','
    out += s[i]
  }
  return n < 0 ? '-' + out : out
}
