// Players across games: the player list (players.json in the data folder), statistics from the
// statistics cache, a player's page, head-to-head, charts' data, and the history's trash.
//
// The player list holds what people set (renames, merges, colours): a damaged list is kept aside
// (owned-files.ts), the people that can still be read from it are kept and written back at once,
// and everyone else comes back from the records (the truth) when the statistics are next read.
import { basename, join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import * as v from 'valibot'
import { personNames, type Game } from '@shared/game'
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
} from '@shared/stats'
import type { Outcome } from '@shared/api'
import { diskTrouble } from '../files/durable-files'
import { readOwnedFile, writeOwnedFile } from '../files/owned-files'
import type { HistoryArchive } from '../history/history-archive'
import { StatisticsCache, type Progress } from './statistics-cache'

/** How many of a player's latest games their form shows. */
export const FORM_GAMES = 20
const LIST_FILE = 'players.json'

/** players.json as the app writes it: people as checkPlayerList keeps them, nothing dropped or mended. */
const playerListFile = v.pipe(
  v.array(v.object({ name: v.string(), colour: v.string(), aliases: v.array(v.string()) })),
  v.check((list) => isDeepStrictEqual(checkPlayerList(list), list), 'a person on it is not well-formed (an empty or repeated name, a colour that is no #rrggbb)')
)

export class PlayerRecords {
  readonly cache: StatisticsCache
  private readonly listPath: string
  private list: PlayerList = []
  /** False when a damaged list could not be moved aside: it is never written over. */
  private listMayBeWritten = true
  /** What was wrong with the player list at start, for the screens; null when nothing was. */
  readonly problem: string | null = null
  /** The cache version whose names have joined the list. */
  private namesChecked = -1
  /** The statistics last worked out, for the facts and the player list they were worked out from. */
  private kept: { version: number; list: PlayerList; statistics: PlayerStatistics[] } | null = null

  constructor(
    private readonly archive: HistoryArchive,
    private readonly progress: Progress = () => {},
    /** Tells the screens what was wrong with a file of theirs found later (the statistics cache). */
    tell: (text: string) => void = () => {}
  ) {
    this.cache = new StatisticsCache(archive, tell)
    this.listPath = join(archive.dataDir, LIST_FILE)
    const file = readOwnedFile(this.listPath, playerListFile, Date.now, archive.writable())
    if (file.state === 'read') this.list = file.value
    if (file.state === 'damaged') {
      // Whatever people can still be read from it are kept (a list with one bad entry keeps the rest).
      this.list = checkPlayerList(file.parsed)
      this.listMayBeWritten = file.keptAs !== null
      const kept = this.list.length > 0 ? `${this.list.length} ${this.list.length === 1 ? 'person was' : 'people were'} read from it; everyone else` : 'Everyone'
      const where = file.keptAs ? `it was kept as ${basename(file.keptAs)}` : 'it is left where it is, and not written over'
      this.problem = `The player list (${LIST_FILE}) was damaged (${file.reason}): ${where}. ${kept} comes back from the game records, with a colour of their own; renames and merges in the damaged file are not.`
      if (this.listMayBeWritten && this.list.length > 0) this.saveQuietly(this.list)
    }
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
  private async facts(progress: Progress = this.progress): Promise<Map<string, GameFacts>> {
    const facts = await this.cache.all(progress)
    // Worked out once per change of the facts, not on every request (10,000 games: tens of milliseconds).
    if (this.namesChecked !== this.cache.version) {
      const names = new Set<string>()
      for (const one of facts.values()) for (const name of personSeatNames(one)) names.add(name)
      this.remember([...names].sort())
      this.namesChecked = this.cache.version
    }
    return facts
  }

  /** Reads the statistics cache ahead of the first screen that asks (at start, while nobody waits, so silently: the start's own words stay on the screens). */
  async warm(): Promise<void> {
    await this.facts(() => {})
  }

  /** Names chosen at Setup join the list (a colour each) so that Setup offers them again (kept in memory when the disk refuses them). */
  remember(names: readonly string[]): void {
    const list = withPeople(this.list, names)
    if (list.length !== this.list.length) this.saveQuietly(list)
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
    try {
      this.save(changed.list)
    } catch (error) {
      const trouble = diskTrouble(error)
      return { ok: false, error: `${trouble.what}: the player list was not changed. ${trouble.remedy} try again.` }
    }
    return { ok: true }
  }

  /** Writes the list, then holds it; throws (and holds the list it had) when it may not be written. */
  private save(list: PlayerList): void {
    this.archive.checkWritable()
    if (!this.listMayBeWritten) throw new Error(`${LIST_FILE} is damaged and could not be moved aside, so it is not written over: move it away`)
    writeOwnedFile(this.listPath, list)
    this.list = list
  }

  /** The list is held whether or not the disk takes it (the next save that works writes it). */
  private saveQuietly(list: PlayerList): void {
    this.list = list
    try {
      this.save(list)
    } catch {
      // See above.
    }
  }
}
