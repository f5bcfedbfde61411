// Players across games: the player list (players.json in the data folder), statistics from the
// statistics cache, a player's page, head-to-head, charts' data, and the history's trash.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { personNames, type Game } from '../../../shared/game'
import {
  checkPlayerList,
  personSeatNames,
  headToHead,
  mergePeople,
  PERSON_COLOURS,
  personResolver,
  playerStatistics,
  renamePerson,
  chartLineOf,
  gameColours,
  setColour,
  statisticsCsv,
  withPeople,
  type Changed,
  type GameFacts,
  type FormGame,
  type GameChart,
  type PlayerPage,
  type HeadToHead,
  type PlayerList,
  type PlayerStatistics
} from '../../../shared/stats'
import type { Outcome } from '../../../shared/api'
import { writeDurably } from '../files/durable-files'
import type { HistoryArchive } from '../history/history-archive'
import { StatisticsCache, type Progress } from './statistics-cache'

/** How many of a player's latest games their form shows. */
export const FORM_GAMES = 20

export class PlayerRecords {
  readonly cache: StatisticsCache
  private readonly listPath: string
  private list: PlayerList
  /** The cache version whose names have joined the list. */
  private namesChecked = -1
  /** The statistics last worked out, for the facts and the player list they were worked out from. */
  private kept: { version: number; list: PlayerList; statistics: PlayerStatistics[] } | null = null

  constructor(
    private readonly archive: HistoryArchive,
    private readonly progress: Progress = () => {}
  ) {
    this.cache = new StatisticsCache(archive)
    this.listPath = join(archive.dataDir, 'players.json')
    this.list = this.readList()
  }

  people(): PlayerList {
    return this.list
  }

  /** The player list once every name in the history is on it (games saved before the list existed). */
  async everyone(): Promise<PlayerList> {
    await this.facts()
    return this.list
  }

  /** The facts of every history game; names of people in them that no person has yet join the list. */
  private async facts(): Promise<Map<string, GameFacts>> {
    const facts = await this.cache.all(this.progress)
    // Worked out once per change of the facts, not on every request (10,000 games: tens of milliseconds).
    if (this.namesChecked !== this.cache.version) {
      const names = new Set<string>()
      for (const one of facts.values()) for (const name of personSeatNames(one)) names.add(name)
      this.remember([...names].sort())
      this.namesChecked = this.cache.version
    }
    return facts
  }

  /** Reads the statistics cache ahead of the first screen that asks (at start, while nobody waits). */
  async warm(): Promise<void> {
    await this.facts()
  }

  /** Names chosen at Setup join the list (a colour each) so that Setup offers them again. */
  remember(names: readonly string[]): void {
    const list = withPeople(this.list, names)
    if (list.length !== this.list.length) this.save(list)
  }

  rename(from: string, to: string): Outcome {
    return this.change(renamePerson(this.list, from, to))
  }

  merge(from: string, into: string): Outcome {
    return this.change(mergePeople(this.list, from, into))
  }

  colour(name: string, colour: string): Outcome {
    return this.change(setColour(this.list, name, colour))
  }

  /** A record has just moved to the history. */
  archived(id: string, game: Game): void {
    this.cache.add(id, game)
    this.remember(personNames(game))
  }

  async statistics(): Promise<PlayerStatistics[]> {
    const facts = await this.facts()
    const kept = this.kept
    if (kept && kept.version === this.cache.version && kept.list === this.list) return kept.statistics
    const statistics = playerStatistics(facts.values(), { personOf: personResolver(this.list) })
    this.kept = { version: this.cache.version, list: this.list, statistics }
    return statistics
  }

  async csv(): Promise<string> {
    return statisticsCsv(await this.statistics())
  }

  async headToHead(first: string, second: string): Promise<HeadToHead> {
    const facts = await this.facts()
    return headToHead(facts.values(), first, second, { personOf: personResolver(this.list) })
  }

  async page(name: string): Promise<Outcome<{ page: PlayerPage }>> {
    const facts = await this.facts()
    const personOf = personResolver(this.list)
    const person = this.list.find((p) => p.name === name) ?? { name, colour: '#888888', aliases: [] }
    const entries = this.archive.entries()
    const theirs = entries
      .filter((entry) => entry.finished && entry.players.some((seat) => personOf(seat) === person.name) && facts.has(entry.id))
      .sort((a, b) => a.startedAt - b.startedAt)
    if (theirs.length === 0 && !this.list.some((p) => p.name === name)) return { ok: false, error: `No games of ${name}` }
    const statistics = playerStatistics(facts.values(), { personOf }).find((p) => p.name === person.name) ?? null
    const form = theirs.slice(-FORM_GAMES).map((entry): FormGame => {
      const won = entry.winners.some((w) => personOf(w) === person.name)
      return { id: entry.id, game: entry.game, startedAt: entry.startedAt, won, seats: entry.players.length }
    })
    const others = new Set<string>()
    for (const one of facts.values()) {
      const people = personSeatNames(one).map(personOf)
      if (one.finished && people.includes(person.name)) for (const other of people) if (other !== person.name) others.add(other)
    }
    const opponents = [...others].sort().map((other) => headToHead(facts.values(), person.name, other, { personOf }))
    return { ok: true, page: { person, statistics, form, opponents } }
  }

  /** The scores after every turn of a history game ('current': the game on the table), for a chart. */
  scoreLine(id: string, current: Game | null): Outcome<GameChart> {
    let game: Game | null = null
    if (id === 'current') game = current
    else game = this.archive.readGame(id)
    if (!game) return { ok: false, error: `No game ${id} to chart` }
    const personOf = personResolver(this.list)
    const colours = gameColours(
      game.header.players.map((name, seat) => this.list.find((p) => p.name === personOf(name))?.colour ?? PERSON_COLOURS[seat % PERSON_COLOURS.length])
    )
    return { ok: true, players: game.header.players, colours, ...chartLineOf(game) }
  }

  /** Moves a history game to the trash (restorable); its facts leave the statistics. */
  trash(id: string): Outcome {
    const outcome = this.archive.trash(id)
    if (outcome.ok) this.cache.remove(id)
    return outcome
  }

  private change(changed: Changed): Outcome {
    if (!changed.ok) return changed
    this.save(changed.list)
    return { ok: true }
  }

  private save(list: PlayerList): void {
    writeDurably(this.listPath, `${JSON.stringify(list, null, 2)}\n`)
    this.list = list
  }

  private readList(): PlayerList {
    if (!existsSync(this.listPath)) return []
    try {
      return checkPlayerList(JSON.parse(readFileSync(this.listPath, 'utf8')))
    } catch {
      return []
    }
  }
}
