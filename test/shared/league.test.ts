// The league's pure parts: document checks, who is who across tables, nights, standings with
// openskill ratings, and the validate_doc_update function a CouchDB runs (as the league host does).
import { describe, expect, it } from 'vitest'
import { recordText, replayText } from '@shared/game'
import { playRandomGame, seededRandom } from '@shared/random-play'
import {
  checkLeagueDocument,
  gameDocumentId,
  leagueGameOf,
  leagueHeadToHead,
  leaguePersonResolver,
  leagueStandings,
  nightOf,
  parseDocumentId,
  type LeagueGame,
  type LeagueMerge
} from '@shared/league'
import { compileValidation } from '@main/league/design-document'
import { playerStatistics } from '@shared/stats'

/** A stand-in hash for pure tests: any function of the text does (the app uses SHA-256). */
const hashOf = (text: string): string => {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0
  return h.toString(16).padStart(8, '0').repeat(8)
}

function record(seed: number, players: string[], startedAt = Date.UTC(2026, 2, 6, 20, 0, seed)): string {
  return recordText(playRandomGame({ game: 'four-plus', players, meta: { startedAt } }, seededRandom(seed)).game)
}

function leagueGame(table: string, text: string): LeagueGame {
  const replayed = replayText(text)
  if (!replayed.ok) throw new Error(replayed.error)
  const id = gameDocumentId(table, hashOf(text))
  return leagueGameOf(id, id.slice(-32), table, replayed.game)
}

describe('league documents', () => {
  it('takes a finished game whose id carries its table and the hash of its record, and says why it refuses others', () => {
    const text = record(1, ['Ann', 'Bob'])
    const good = { _id: gameDocumentId('t1', hashOf(text)), _rev: '1-x', type: 'game', table: 't1', record: text }
    expect(checkLeagueDocument(good, hashOf).ok).toBe(true)
    const refused = (document: unknown): string => {
      const checked = checkLeagueDocument(document, hashOf)
      return checked.ok ? 'accepted' : checked.error
    }
    expect(refused({ ...good, table: 't2' })).toBe('the game says table t2 but its id says t1')
    expect(refused({ ...good, extra: 1 })).toMatch(/^extra: /)
    expect(refused({ ...good, record: 42 })).toMatch(/^record: /)
    expect(refused({ ...good, record: text.replace('"roll":[', '"roll":[7,') })).toMatch(/^record line \d+: /)
    expect(refused({ ...good, _id: gameDocumentId('t1', '0'.repeat(64)) })).toBe('the id does not carry the hash of the record')
    expect(refused({ ...good, _id: 'game:t1' })).toMatch(/is not the id of a league document/)
    expect(refused([good])).toBe('a league document is a JSON object')
    expect(refused({ _id: 'merge:t1:a', type: 'merge', by: 't1', from: 'Ann', table: null, into: 'Annie', at: 1 })).toBe('accepted')
    expect(refused({ _id: 'people:t1', type: 'people', table: 't1', people: [{ name: 'Ann', colour: '#e6194b', aliases: ['Annie'] }] })).toBe('accepted')
    expect(parseDocumentId('live:t1')).toEqual({ kind: 'live', owner: 't1', key: null })
    expect(parseDocumentId('live:t1:x')).toBeNull()
  })
})

describe('people across tables', () => {
  it('uses each table’s player list, the same name on two tables is one person, and league merges apply oldest first', () => {
    const merges: LeagueMerge[] = [
      { id: 'merge:t1:b', by: 't1', from: 'Annie', table: null, into: 'Ann', at: 2 },
      { id: 'merge:t1:a', by: 't1', from: 'Ann', table: 't3', into: 'Ann B.', at: 1 },
      { id: 'merge:t1:c', by: 't1', from: 'Ann', table: null, into: 'Annie', at: 3 }
    ]
    const personOf = leaguePersonResolver({ lists: new Map([['t2', [{ name: 'Bob', colour: '#e6194b', aliases: ['Bobby'] }]]]), merges })
    expect(personOf('t2', 'Bobby')).toBe('Bob')
    expect(personOf('t1', 'Bob')).toBe('Bob')
    expect(personOf('t3', 'Ann')).toBe('Ann B.')
    // Annie → Ann and Ann → Annie: the cycle stops where it started.
    expect(personOf('t1', 'Annie')).toBe('Ann')
    expect(personOf('t1', 'Ann')).toBe('Annie')
  })
})

describe('nights', () => {
  it('is the date the evening began in the host’s time zone: before 06:00 belongs to the night before', () => {
    expect(nightOf(Date.UTC(2026, 2, 6, 22, 0), 'UTC')).toBe('2026-03-06')
    expect(nightOf(Date.UTC(2026, 2, 7, 1, 30), 'UTC')).toBe('2026-03-06')
    expect(nightOf(Date.UTC(2026, 2, 7, 6, 0), 'UTC')).toBe('2026-03-07')
    expect(nightOf(Date.UTC(2026, 2, 7, 3, 0), 'Asia/Tokyo')).toBe('2026-03-07')
  })
})

describe('standings', () => {
  const games = [
    leagueGame('t1', record(1, ['Ann', 'Bob'], Date.UTC(2026, 2, 6, 20))),
    leagueGame('t1', record(2, ['Ann', 'Bob', 'Cy'], Date.UTC(2026, 2, 6, 21))),
    leagueGame('t2', record(3, ['Ann', 'Cy'], Date.UTC(2026, 2, 13, 20))),
    leagueGame('t2', record(4, ['Bob', 'Cy'], Date.UTC(2026, 2, 14, 2)))
  ]
  const none = { lists: new Map(), merges: [] }

  it('counts games and wins as the statistics do, averages the final scores, and rates with openskill (best first)', () => {
    const [fourPlus] = leagueStandings(games, none, { timeZone: 'UTC' })
    expect(fourPlus.game).toBe('four-plus')
    expect(fourPlus.games).toBe(4)
    const byPerson = Object.fromEntries(fourPlus.rows.map((row) => [row.person, row]))
    expect(byPerson.Ann.games).toBe(3)
    expect(byPerson.Cy.games).toBe(3)
    const statistics = playerStatistics(games.map((game) => game.facts))
    expect(fourPlus.rows.map((row) => [row.person, row.games, row.wins]).sort()).toEqual(
      statistics.map((player) => [player.name, player.byGame['four-plus']!.games, player.byGame['four-plus']!.wins]).sort()
    )
    const annScores = games.flatMap((game) => game.facts.players.flatMap((name, seat) => (name === 'Ann' ? [game.scores[seat]] : [])))
    expect(byPerson.Ann.averagePoints).toBeCloseTo(annScores.reduce((a, b) => a + b, 0) / annScores.length)
    for (const row of fourPlus.rows) {
      expect(row.rating!.games).toBe(row.games)
      expect(row.rating!.ordinal).toBeCloseTo(row.rating!.mu - 3 * row.rating!.sigma)
    }
    const ordinals = fourPlus.rows.map((row) => row.rating!.ordinal)
    expect([...ordinals].sort((a, b) => b - a)).toEqual(ordinals)
  })

  it('filters by night, with the ratings as they stood at the end of it', () => {
    const [first] = leagueStandings(games, none, { night: '2026-03-06', timeZone: 'UTC' })
    expect(first.games).toBe(2)
    const [second] = leagueStandings(games, none, { night: '2026-03-13', timeZone: 'UTC' })
    // The game at 02:00 on the 14th belongs to the night of the 13th.
    expect(second.games).toBe(2)
    expect(second.rows.find((row) => row.person === 'Ann')!.rating!.games).toBe(3)
  })

  it('counts the same record sent by two tables once, and a merge makes one person of two names', () => {
    const text = record(5, ['Ann', 'Bob'])
    const twice = [leagueGame('t1', text), leagueGame('t2', text)]
    expect(leagueStandings(twice, none, { timeZone: 'UTC' })[0].games).toBe(1)
    const renamed = [leagueGame('t1', record(6, ['Ann', 'Bob'])), leagueGame('t2', record(7, ['Annie', 'Bob']))]
    const merged = { lists: new Map(), merges: [{ id: 'merge:t1:m', by: 't1', from: 'Annie', table: 't2', into: 'Ann', at: 1 }] }
    const rows = leagueStandings(renamed, merged, { timeZone: 'UTC' })[0].rows
    expect(rows.map((row) => row.person).sort()).toEqual(['Ann', 'Bob'])
    expect(rows.find((row) => row.person === 'Ann')!.games).toBe(2)
    expect(leagueHeadToHead(renamed, merged, 'Ann', 'Bob', { timeZone: 'UTC' }).games).toBe(2)
  })
})

describe('the validate_doc_update function', () => {
  const validate = compileValidation()
  const table = { name: 't1', roles: ['league-table'] }
  const organiser = { name: 'admin', roles: ['_admin'] }
  const refusal = (newDoc: Record<string, unknown>, oldDoc: Record<string, unknown> | null, user: { name: string; roles: string[] }): string => {
    try {
      validate(newDoc, oldDoc, user)
      return 'allowed'
    } catch (thrown) {
      return (thrown as { forbidden: string }).forbidden
    }
  }
  const game = { _id: 'game:t1:abc', type: 'game', table: 't1', record: '{"game":"four-plus"}' }

  it('lets a table write its own documents once, and nobody change a finished game', () => {
    expect(refusal(game, null, table)).toBe('allowed')
    expect(refusal(game, game, table)).toBe('a finished game never changes once written')
    expect(refusal(game, game, organiser)).toBe('a finished game never changes once written')
    expect(refusal({ ...game, _deleted: true }, game, table)).toBe('a league game is never deleted by a table')
    expect(refusal({ ...game, _deleted: true }, game, organiser)).toBe('allowed')
    expect(refusal({ ...game, _id: 'game:t2:abc', table: 't2' }, null, table)).toBe('table t1 may not write the documents of t2')
    expect(refusal({ _id: 'live:t1', type: 'live', table: 't1', record: null }, { _id: 'live:t1' }, table)).toBe('allowed')
    expect(refusal({ _id: 'live:t1', type: 'live', table: 't1', record: 'x'.repeat(3_000_000) }, null, table)).toMatch(/longer than/)
    expect(refusal({ _id: '_design/league' }, null, table)).toBe('only the league organiser changes design documents')
    expect(refusal({ _id: 'merge:t1:1', type: 'merge', by: 't2' }, null, table)).toBe('a merge names its author as in its id')
    expect(refusal({ _id: 'something' }, null, organiser)).toMatch(/is not the id of a league document/)
    expect(refusal(game, null, { name: 't1', roles: [] })).toBe('table t1 may not write the documents of t1')
  })
})
