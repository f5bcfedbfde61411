import { describe, expect, it } from 'vitest'
import {
  checkPlayerList,
  filterHistory,
  gameColours,
  mergePeople,
  personResolver,
  renamePerson,
  setColour,
  statisticsCsv,
  withPeople,
  type PlayerList
} from '@shared/stats'

const list: PlayerList = withPeople([], ['Ann', 'Bob', 'Cy'])

describe('the player list', () => {
  it('gives each new person a distinct colour and keeps known names as they are', () => {
    expect(list.map((p) => p.name)).toEqual(['Ann', 'Bob', 'Cy'])
    expect(new Set(list.map((p) => p.colour)).size).toBe(3)
    expect(withPeople(list, ['Bob', 'Dee']).map((p) => p.name)).toEqual(['Ann', 'Bob', 'Cy', 'Dee'])
  })

  it('a rename keeps the old name as an alias, so old records still mean the person', () => {
    const renamed = renamePerson(list, 'Bob', 'Robert')
    if (!renamed.ok) throw new Error(renamed.error)
    expect(renamed.list[1]).toMatchObject({ name: 'Robert', aliases: ['Bob'] })
    const personOf = personResolver(renamed.list)
    expect([personOf('Bob'), personOf('Robert'), personOf('Zed')]).toEqual(['Robert', 'Robert', 'Zed'])
    // renaming back to an alias of one's own is allowed; to someone else's name is not
    const back = renamePerson(renamed.list, 'Robert', 'Bob')
    expect(back.ok && back.list[1]).toMatchObject({ name: 'Bob', aliases: ['Robert'] })
    expect(renamePerson(list, 'Bob', 'Ann')).toEqual({ ok: false, error: 'Ann is already on the list: merge them instead' })
    expect(renamePerson(list, 'Bob', '  ')).toEqual({ ok: false, error: 'a name cannot be empty' })
  })

  it('a merge gives one person both histories; colours are checked', () => {
    const merged = mergePeople(list, 'Cy', 'Ann')
    if (!merged.ok) throw new Error(merged.error)
    expect(merged.list.map((p) => p.name)).toEqual(['Ann', 'Bob'])
    expect(personResolver(merged.list)('Cy')).toBe('Ann')
    expect(mergePeople(list, 'Ann', 'Ann').ok).toBe(false)
    expect(setColour(list, 'Ann', '#00ff00').ok).toBe(true)
    expect(setColour(list, 'Ann', 'green')).toEqual({ ok: false, error: '"green" is not a colour (#rrggbb)' })
  })

  it('a game gives each seat a colour of its own: a colour an earlier seat has goes to the first one free in the game', () => {
    expect(gameColours(['#e6194b', '#3cb44b', '#E6194B', '#123456', '#3cb44b'])).toEqual(['#e6194b', '#3cb44b', '#4363d8', '#123456', '#f58231'])
    const sixteen = gameColours(Array.from({ length: 16 }, () => '#e6194b'))
    expect(new Set(sixteen).size).toBe(16)
  })

  it('a stored list that was edited by hand keeps only well-formed people, each name once', () => {
    expect(
      checkPlayerList([{ name: 'Ann', colour: '#112233', aliases: ['A', 7] }, { name: 'A' }, 'x', { name: 'Bob', colour: 'blue' }])
    ).toEqual([
      { name: 'Ann', colour: '#112233', aliases: ['A'] },
      { name: 'Bob', colour: expect.stringMatching(/^#[0-9a-f]{6}$/), aliases: [] }
    ])
    expect(checkPlayerList({ not: 'a list' })).toEqual([])
  })
})

describe('the history filter', () => {
  const day = (d: number) => new Date(2026, 0, d, 20).getTime()
  const entries = [
    { id: '1', game: 'farkle' as const, players: ['Ann', 'Bob'], startedAt: day(1) },
    { id: '2', game: 'foursies' as const, players: ['Bobby', 'Cy'], startedAt: day(5) },
    { id: '3', game: 'farkle' as const, players: ['Cy'], startedAt: day(9) }
  ]
  it('keeps games of a person under any of their names, of a game, between two days', () => {
    const personOf = (name: string) => (name === 'Bobby' ? 'Bob' : name)
    expect(filterHistory(entries, { person: 'Bob' }, personOf).map((e) => e.id)).toEqual(['1', '2'])
    expect(filterHistory(entries, { game: 'farkle' }).map((e) => e.id)).toEqual(['1', '3'])
    expect(filterHistory(entries, { from: '2026-01-05', to: '2026-01-05' }).map((e) => e.id)).toEqual(['2'])
    expect(filterHistory(entries, {}).map((e) => e.id)).toEqual(['1', '2', '3'])
  })
})

describe('statistics as CSV', () => {
  it('quotes what needs quoting and writes a name that looks like a formula as text', () => {
    const csv = statisticsCsv([
      { name: 'Ann, "the Ace"', games: 2, wins: 1, winRate: 0.5, byGame: { 'four-plus': { games: 2, wins: 1, winRate: 0.5, roundsSurvived: 5, deathsByOnes: 1, extraThrows: 3 } } },
      { name: '=1+1', games: 0, wins: 0, winRate: null, byGame: {} }
    ])
    const rows = csv.split('\r\n')
    expect(rows[1]).toBe('"Ann, ""the Ace""",all,2,1,0.5' + ','.repeat(22))
    expect(rows[2].startsWith('"Ann, ""the Ace""",four-plus,2,1,0.5,')).toBe(true)
    expect(rows[2].endsWith(',5,1,3')).toBe(true)
    expect(rows[3]).toBe("'=1+1,all,0,0," + ','.repeat(22))
  })

  it.each([
    ['a leading space', ' =1+1', "' =1+1"],
    ['a no-break space', '\u00a0=1+1', "'\u00a0=1+1"],
    ['a zero-width space and a byte-order mark', '\u200b\ufeff+A1', "'\u200b\ufeff+A1"],
    ['a direction mark', '\u202e-2+3', "'\u202e-2+3"],
    ['a full-width equals sign', '\uff1d1+1', "'\uff1d1+1"],
    ['a full-width plus, minus and at', '\uff0bA1', "'\uff0bA1"],
    ['a small equals sign', '\ufe661+1', "'\ufe661+1"],
    ['a tab', '\t=1', "'\t=1"],
    ['a line end first', '\n=1+1', '"\'\n=1+1"'],
    ['a carriage return first', '\rAnn', '"\'\rAnn"'],
    ['spaces, then @', '   @SUM(A1)', "'   @SUM(A1)"]
  ])('writes a name with %s before a formula as text', (_, name, written) => {
    const rows = statisticsCsv([{ name, games: 0, wins: 0, winRate: null, byGame: {} }]).split('\r\n')
    expect(rows.slice(1, -1).join('\r\n').startsWith(`${written},all,`)).toBe(true)
  })

  it('leaves ordinary names as they are', () => {
    for (const name of ['Ann', 'Anne-Marie', 'Bob @ home', ' Cy', 'Dee=Eve', '\u00e9lodie']) {
      expect(statisticsCsv([{ name, games: 0, wins: 0, winRate: null, byGame: {} }]).split('\r\n')[1].startsWith(`${name},`)).toBe(true)
    }
  })
})
