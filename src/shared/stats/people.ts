// Players as people: the player list maps the seat names written in records to people. Records are
// never rewritten: a rename keeps the old name as an alias of the person, a merge makes one person's
// names aliases of the other. Pure functions over a plain list (main stores it in the data folder).

export interface Person {
  /** The person's name now: what Setup offers and new records hold. */
  name: string
  /** A CSS colour, #rrggbb. */
  colour: string
  /** Earlier names and merged names: seat names in older records that mean this person. */
  aliases: string[]
}

export type PlayerList = Person[]

export type Changed = { ok: true; list: PlayerList } | { ok: false; error: string }

/**
 * Colours offered in turn to new people: distinct on a TV from across a room (Sasha Trubetskoy's
 * "20 distinct colours" less those lost on a dark screen: navy, maroon, black, white). Sixteen,
 * as many as a game has seats, so that each seat of a game can have its own (`gameColours`).
 */
export const PERSON_COLOURS = [
  '#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#bfef45',
  '#fabed4', '#469990', '#dcbeff', '#9a6324', '#ffe119', '#aaffc3', '#a9a9a9', '#808000'
]

const COLOUR = /^#[0-9a-f]{6}$/

/** Who a seat name stands for: the person having it as name or alias, else the name itself. */
export function personResolver(list: PlayerList): (name: string) => string {
  const byName = new Map<string, string>()
  for (const person of list) {
    for (const alias of person.aliases) byName.set(alias, person.name)
    byName.set(person.name, person.name)
  }
  return (name) => byName.get(name) ?? name
}

function owner(list: PlayerList, name: string): Person | undefined {
  return list.find((person) => person.name === name || person.aliases.includes(name))
}

/** Adds people for names not on the list yet (names chosen at Setup), each with the next free colour. */
export function withPeople(list: PlayerList, names: readonly string[]): PlayerList {
  const added = [...list]
  for (const name of names) {
    if (owner(added, name)) continue
    const used = new Set(added.map((person) => person.colour))
    const colour = PERSON_COLOURS.find((c) => !used.has(c)) ?? PERSON_COLOURS[added.length % PERSON_COLOURS.length]
    added.push({ name, colour, aliases: [] })
  }
  return added
}

/**
 * The colours of a game's seats: each seat's person's colour, unless an earlier seat of the game
 * has it already (people past the sixteenth share colours, and a colour can be chosen twice);
 * then the first colour of PERSON_COLOURS no seat of the game has. Up to 16 seats, all differ.
 */
export function gameColours(colours: readonly string[]): string[] {
  const taken = new Set<string>()
  const unique = colours.map((colour) => {
    const mine = colour.toLowerCase()
    if (taken.has(mine)) return null
    taken.add(mine)
    return mine
  })
  return unique.map((colour) => {
    if (colour !== null) return colour
    const free = PERSON_COLOURS.find((candidate) => !taken.has(candidate)) ?? PERSON_COLOURS[taken.size % PERSON_COLOURS.length]
    taken.add(free)
    return free
  })
}

export function setColour(list: PlayerList, name: string, colour: string): Changed {
  if (!COLOUR.test(colour)) return { ok: false, error: `${JSON.stringify(colour)} is not a colour (#rrggbb)` }
  if (!list.some((person) => person.name === name)) return { ok: false, error: `${name} is not on the player list` }
  return { ok: true, list: list.map((person) => (person.name === name ? { ...person, colour } : person)) }
}

/** Renames a person; their games under the old name stay theirs (the old name becomes an alias). */
export function renamePerson(list: PlayerList, from: string, to: string): Changed {
  const name = to.trim()
  if (name === '') return { ok: false, error: 'a name cannot be empty' }
  if (!list.some((person) => person.name === from)) return { ok: false, error: `${from} is not on the player list` }
  if (name === from) return { ok: true, list }
  const taken = owner(list, name)
  if (taken && taken.name !== from) return { ok: false, error: `${name} is already ${taken.name === name ? 'on the list' : `a name of ${taken.name}`}: merge them instead` }
  return {
    ok: true,
    list: list.map((person) =>
      person.name === from ? { ...person, name, aliases: [...person.aliases.filter((alias) => alias !== name), from] } : person
    )
  }
}

/** Makes `from` and all its names part of `into`: one person with both histories. */
export function mergePeople(list: PlayerList, from: string, into: string): Changed {
  if (from === into) return { ok: false, error: 'choose two different people to merge' }
  const source = list.find((person) => person.name === from)
  const target = list.find((person) => person.name === into)
  if (!source) return { ok: false, error: `${from} is not on the player list` }
  if (!target) return { ok: false, error: `${into} is not on the player list` }
  return {
    ok: true,
    list: list
      .filter((person) => person !== source)
      .map((person) => (person === target ? { ...person, aliases: [...person.aliases, source.name, ...source.aliases] } : person))
  }
}

/** The player list of a stored file, keeping only well-formed people (a hand-edited file may say anything). */
export function checkPlayerList(value: unknown): PlayerList {
  if (!Array.isArray(value)) return []
  const list: PlayerList = []
  const seen = new Set<string>()
  for (const item of value) {
    if (item === null || typeof item !== 'object') continue
    const { name, colour, aliases } = item as Record<string, unknown>
    if (typeof name !== 'string' || name === '' || seen.has(name)) continue
    const names = Array.isArray(aliases) ? aliases.filter((a): a is string => typeof a === 'string' && a !== '' && !seen.has(a) && a !== name) : []
    seen.add(name)
    for (const alias of names) seen.add(alias)
    list.push({ name, colour: typeof colour === 'string' && COLOUR.test(colour) ? colour : PERSON_COLOURS[list.length % PERSON_COLOURS.length], aliases: names })
  }
  return list
}
