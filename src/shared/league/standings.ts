// League standings across tables and nights (docs/league.md, "Standings"): per game, each
// person's games, wins, average points and a skill rating. Pure: the league host and a table
// that joined a league compute them from the documents they accepted (documents.ts).
//
// Games and wins come from the statistics' own fold (src/shared/stats), so the league page and
// `referee stats` over the league's records count the same games and wins. The rating is
// openskill's Weng–Lin Plackett–Luce model, made for free-for-all games of any number of players.
import { ordinal, rate, rating } from 'openskill'
import { GAMES } from '../games'
import { GAME_IDS, type GameId } from '../games'
import { moduleOf, summaryOf, type Game } from '../game'
import { factsOfGame, headToHead, isPersonSeat, personResolver, playerStatistics, type GameFacts, type HeadToHead, type PlayerList } from '../stats'
import type { LeagueMerge } from './documents'

/** A finished game of the league, with what the standings need of it (worked out once: a game never changes). */
export interface LeagueGame {
  /** Its document id, `game:TABLE:HASH`. */
  id: string
  /** The record's hash part of the id: the same record sent by two tables is one game. */
  key: string
  table: string
  /** When it started (the header's `meta.startedAt`, else its first move), milliseconds; null if the record says neither. */
  startedAt: number | null
  facts: GameFacts
  /** Each seat's final score, as the game's standings show it. */
  scores: number[]
  /** Each seat's place in the game's standings (1 is best; tied seats share a place). */
  places: number[]
}

/** A league game from an accepted record. */
export function leagueGameOf(id: string, key: string, table: string, game: Game): LeagueGame {
  const summary = summaryOf(game)
  const standings = moduleOf(game).standings(game.state)
  const placeOf = new Map(standings.map((standing) => [standing.name, standing.place]))
  return {
    id,
    key,
    table,
    startedAt: startOf(game),
    facts: factsOfGame(game),
    scores: summary.players.map((player) => player.score),
    places: game.header.players.map((name) => placeOf.get(name) ?? game.header.players.length)
  }
}

function startOf(game: Game): number | null {
  const started = game.header.meta?.startedAt
  if (typeof started === 'number' && Number.isFinite(started)) return started
  return game.moves.find((move) => typeof move.at === 'number')?.at ?? null
}

/**
 * A night of play: the date on which the evening began, in the league host's time zone. A game
 * started before 06:00 belongs to the night before (a club night runs past midnight).
 */
export const NIGHT_STARTS_AT_HOUR = 6

/** The night a game started in (YYYY-MM-DD), in `timeZone` (an IANA name such as Europe/Paris). */
export function nightOf(startedAt: number, timeZone: string): string {
  const shifted = new Date(startedAt - NIGHT_STARTS_AT_HOUR * 3_600_000)
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(shifted)
  const part = (type: string): string => parts.find((p) => p.type === type)?.value ?? '??'
  return `${part('year')}-${part('month')}-${part('day')}`
}

/** Who is who across the league: each table's player list, then the league's merges. */
export interface LeaguePeople {
  /** Each table's player list (its renames and merges), by table name. */
  lists: ReadonlyMap<string, PlayerList>
  merges: readonly LeagueMerge[]
}

/**
 * The league's person for a seat name on a table: the table's player list makes the seat name its
 * person's name (as the table's own statistics do); the same name on two tables is the same
 * person; then the league's merges apply, oldest first (a merge for one table before one for all).
 */
export function leaguePersonResolver(people: LeaguePeople): (table: string, name: string) => string {
  const resolvers = new Map<string, (name: string) => string>()
  for (const [table, list] of people.lists) resolvers.set(table, personResolver(list))
  const merges = [...people.merges].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1))
  const forTable = new Map<string, string>()
  const forAll = new Map<string, string>()
  for (const merge of merges) (merge.table === null ? forAll : forTable).set(merge.table === null ? merge.from : `${merge.table}\n${merge.from}`, merge.into)
  return (table, seatName) => {
    let name = resolvers.get(table)?.(seatName) ?? seatName
    const onTable = forTable.get(`${table}\n${name}`)
    if (onTable !== undefined) name = onTable
    // A chain of merges (Annie into Ann, Ann into Ann B.) is followed; a cycle stops where it started.
    const seen = new Set<string>([name])
    for (let next = forAll.get(name); next !== undefined && !seen.has(next); next = forAll.get(name)) {
      name = next
      seen.add(name)
    }
    return name
  }
}

export interface SkillRating {
  /** openskill's mean and uncertainty. */
  mu: number
  sigma: number
  /** mu − 3σ: the rating shown and sorted by (it rises as the uncertainty shrinks). */
  ordinal: number
  /** Games rated (2–8 people). */
  games: number
}

export interface StandingRow {
  person: string
  games: number
  wins: number
  winRate: number | null
  /** Mean final score over the games counted; null with none. */
  averagePoints: number | null
  rating: SkillRating | null
}

export interface GameStandings {
  game: GameId
  title: string
  /** Finished games of this game counted. */
  games: number
  /** Best first: by rating, then wins, then name. */
  rows: StandingRow[]
}

export interface StandingsFilter {
  /** Only the games of this night (YYYY-MM-DD); ratings are then as they stood at the end of it. */
  night?: string | null
  /** The league host's time zone, which nights are dates in. */
  timeZone: string
}

/** Games rated: free-for-all games of 2 to 8 people (a computer seat is no person and is left out). */
export const RATED_PEOPLE = { min: 2, max: 8 }

/**
 * The league's games as each seat's person sees them: the same record from two tables counted
 * once, and each seat's name made its league person's.
 */
export function leagueFacts(games: Iterable<LeagueGame>, personOf: (table: string, name: string) => string): { game: LeagueGame; facts: GameFacts }[] {
  const byKey = new Map<string, LeagueGame>()
  for (const game of games) {
    const kept = byKey.get(game.key)
    if (kept === undefined || game.table < kept.table) byKey.set(game.key, game)
  }
  return [...byKey.values()]
    .sort((a, b) => (a.startedAt ?? 0) - (b.startedAt ?? 0) || (a.id < b.id ? -1 : 1))
    .map((game) => {
      const seats = game.facts.players.map((name) => personOf(game.table, name))
      const winners = game.facts.winners.map((name) => seats[game.facts.players.indexOf(name)] ?? personOf(game.table, name))
      return { game, facts: { ...game.facts, players: seats, winners } }
    })
}

/** The nights the league's games were played, newest first. */
export function leagueNights(games: Iterable<LeagueGame>, timeZone: string): string[] {
  const nights = new Set<string>()
  for (const game of games) if (game.startedAt !== null) nights.add(nightOf(game.startedAt, timeZone))
  return [...nights].sort().reverse()
}

/** The standings of every game played in the league (or on one night). */
export function leagueStandings(games: Iterable<LeagueGame>, people: LeaguePeople, filter: StandingsFilter): GameStandings[] {
  const all = leagueFacts(games, leaguePersonResolver(people))
  const night = (game: LeagueGame): string | null => (game.startedAt === null ? null : nightOf(game.startedAt, filter.timeZone))
  const counted = filter.night ? all.filter(({ game }) => night(game) === filter.night) : all
  const ratedUpTo = filter.night ? all.filter(({ game }) => (night(game) ?? '') <= filter.night!) : all
  const statistics = playerStatistics(counted.map(({ facts }) => facts))
  const ratings = skillRatings(ratedUpTo)
  const points = averagePoints(counted)
  const result: GameStandings[] = []
  for (const game of GAME_IDS) {
    const rows: StandingRow[] = []
    for (const player of statistics) {
      const own = player.byGame[game]
      if (!own) continue
      rows.push({
        person: player.name,
        games: own.games,
        wins: own.wins,
        winRate: own.winRate,
        averagePoints: points.get(`${game}\n${player.name}`) ?? null,
        rating: ratings.get(`${game}\n${player.name}`) ?? null
      })
    }
    if (rows.length === 0) continue
    rows.sort((a, b) => (b.rating?.ordinal ?? -Infinity) - (a.rating?.ordinal ?? -Infinity) || b.wins - a.wins || (a.person < b.person ? -1 : 1))
    result.push({ game, title: GAMES[game].title, games: counted.filter(({ facts }) => facts.game === game && facts.finished).length, rows })
  }
  return result
}

/** How two people fared in the league's finished games they both played (on one night, or all). */
export function leagueHeadToHead(games: Iterable<LeagueGame>, people: LeaguePeople, first: string, second: string, filter: StandingsFilter): HeadToHead {
  const all = leagueFacts(games, leaguePersonResolver(people))
  const counted = filter.night ? all.filter(({ game }) => game.startedAt !== null && nightOf(game.startedAt, filter.timeZone) === filter.night) : all
  return headToHead(
    counted.map(({ facts }) => facts),
    first,
    second
  )
}

/** Everyone who played a finished league game, by name. */
export function leaguePeopleNames(games: Iterable<LeagueGame>, people: LeaguePeople): string[] {
  const names = new Set<string>()
  for (const { facts } of leagueFacts(games, leaguePersonResolver(people))) {
    facts.players.forEach((name, seat) => {
      if (isPersonSeat(facts, seat)) names.add(name)
    })
  }
  return [...names].sort()
}

/** Each person's rating per game after the games given, in the order given (oldest first). */
function skillRatings(games: { game: LeagueGame; facts: GameFacts }[]): Map<string, SkillRating> {
  const ratings = new Map<string, SkillRating>()
  for (const { game, facts } of games) {
    if (!facts.finished) continue
    const seats = facts.players.map((_, seat) => seat).filter((seat) => isPersonSeat(facts, seat))
    const people = seats.map((seat) => facts.players[seat])
    // A person sitting twice (two merged names at one game) is not rated on that game.
    if (people.length < RATED_PEOPLE.min || people.length > RATED_PEOPLE.max || new Set(people).size !== people.length) continue
    const keys = people.map((person) => `${facts.game}\n${person}`)
    const before = keys.map((key) => ratings.get(key))
    const after = rate(
      before.map((known) => [known ? rating({ mu: known.mu, sigma: known.sigma }) : rating()]),
      { rank: seats.map((seat) => game.places[seat]) }
    )
    keys.forEach((key, index) => {
      const { mu, sigma } = after[index][0]
      ratings.set(key, { mu, sigma, ordinal: ordinal({ mu, sigma }), games: (before[index]?.games ?? 0) + 1 })
    })
  }
  return ratings
}

function averagePoints(games: { game: LeagueGame; facts: GameFacts }[]): Map<string, number> {
  const sums = new Map<string, { total: number; count: number }>()
  for (const { game, facts } of games) {
    if (!facts.finished) continue
    facts.players.forEach((person, seat) => {
      if (!isPersonSeat(facts, seat)) return
      const key = `${facts.game}\n${person}`
      const sum = sums.get(key) ?? { total: 0, count: 0 }
      sum.total += game.scores[seat] ?? 0
      sum.count++
      sums.set(key, sum)
    })
  }
  return new Map([...sums].map(([key, { total, count }]) => [key, total / count]))
}
