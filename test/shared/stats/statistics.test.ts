// Every statistic equals a recount from the records themselves (test/shared/stats/recount.ts, a separate
// simple walk over the record lines), over a few hundred random games of each kind.
import { describe, expect, it } from 'vitest'
import { GAME_IDS, GAMES, type GameId } from '@shared/games'
import { play, recordText, startGame, summaryOf } from '@shared/game'
import { playRandomGame, seededRandom } from '@shared/random-play'
import type { Header } from '@shared/record'
import { chartLineOf, factsOfRecordText, headToHead, playerStatistics, type GameFacts } from '@shared/stats'
import { recountRecord, type Recount } from './recount'

const POOL = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve']
const GAMES_PER_KIND = 300

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]
}

function randomHeader(game: GameId, random: () => number): Header {
  const min = Math.max(GAMES[game].minPlayers, 1)
  const count = min + Math.floor(random() * (4 - min + 1))
  const players = [...POOL].sort(() => random() - 0.5).slice(0, count)
  const rules: Record<string, unknown> = {}
  if (game === 'foursies') {
    rules.match = pick(random, ['round', 'round', 'tour', 'tour-de-fours'])
    rules.tour = pick(random, ['first-to-four', 'four-rounds'])
    rules.devilsNumber = pick(random, ['none', 'bust', 'reset'])
    rules.tab = Math.floor(random() * count)
  } else if (game === 'four-plus') {
    rules.rounds = 1 + Math.floor(random() * 4)
  } else {
    rules.target = pick(random, [1000, 2000, 3000, 5000])
    rules.entry = pick(random, [0, 300, 500])
  }
  return { game, players, rules }
}

function randomRecords(game: GameId, seed: number): string[] {
  const random = seededRandom(seed)
  const records: string[] = []
  while (records.length < GAMES_PER_KIND) {
    const played = playRandomGame(randomHeader(game, random), random, 20000)
    records.push(recordText(played.game))
  }
  return records
}

function seatFigures(facts: GameFacts, seat: number): Record<string, number | null> {
  const figures = { ...(facts.seats[seat] as unknown as Record<string, number | boolean | null>) }
  if (typeof figures.reachedTarget === 'boolean') figures.reachedTarget = figures.reachedTarget ? 1 : 0
  return figures as Record<string, number | null>
}

/** Per-player sums of a recount, the way the statistics define them, from recounted seats. */
function recountedPlayers(recounts: Recount[]): Map<string, Record<string, Record<string, number | null>>> {
  const players = new Map<string, Record<string, Record<string, number | null>>>()
  for (const recount of recounts) {
    if (!recount.finished) continue
    recount.perSeat.forEach((seat, i) => {
      const name = recount.names[i]
      const byGame = players.get(name) ?? {}
      players.set(name, byGame)
      const sums = (byGame[recount.game] ??= { games: 0, wins: 0 })
      sums.games = (sums.games as number) + 1
      if (recount.winners.includes(name)) sums.wins = (sums.wins as number) + 1
      for (const [key, value] of Object.entries(seat)) {
        if (key === 'bestTurn') sums.bestTurn = Math.max((sums.bestTurn as number | undefined) ?? 0, value as number)
        else if (key === 'turnsToTarget') sums.turnsToTargetSum = ((sums.turnsToTargetSum as number | undefined) ?? 0) + ((value as number | null) ?? 0)
        else sums[key] = ((sums[key] as number | undefined) ?? 0) + (value as number)
      }
    })
  }
  return players
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b)

describe.each(GAME_IDS)('statistics of %s equal a recount from the records', (game) => {
  const records = randomRecords(game, 1000 + game.length)
  const facts = records.map((text) => factsOfRecordText(text) as GameFacts)
  const recounts = records.map(recountRecord)

  it('per seat and game, for every record', () => {
    expect(facts.filter((f) => f.finished).length).toBeGreaterThan(GAMES_PER_KIND * 0.9)
    records.forEach((_, r) => {
      expect(facts[r].finished).toBe(recounts[r].finished)
      expect(facts[r].winners).toEqual(recounts[r].winners)
      recounts[r].perSeat.forEach((seat, i) => expect(seatFigures(facts[r], i)).toEqual(seat))
    })
  })

  it('per player, summed and divided as docs/statistics.md defines', () => {
    const statistics = playerStatistics(facts)
    const recounted = recountedPlayers(recounts)
    expect(statistics.map((p) => p.name).sort()).toEqual([...recounted.keys()].sort())
    for (const player of statistics) {
      const sums = recounted.get(player.name)?.[game] as Record<string, number>
      const figures = player.byGame[game] as unknown as Record<string, number | null>
      expect(player.games).toBe(sums.games)
      expect(player.wins).toBe(sums.wins)
      expect(figures.winRate).toBe(ratio(sums.wins, sums.games))
      if (game === 'foursies') {
        for (const key of ['roundsWon', 'toursWon', 'foursies', 'busts', 'devilsNumbers', 'falseFours', 'tabsHeld', 'throws', 'foursThrown']) {
          expect(figures[key], key).toBe(sums[key])
        }
        expect(figures.averageThrowsToFour).toBe(ratio(sums.throws, sums.foursThrown))
      } else if (game === 'four-plus') {
        for (const key of ['roundsSurvived', 'deathsByOnes', 'extraThrows']) expect(figures[key], key).toBe(sums[key])
      } else {
        expect(figures.averageTurn).toBe(ratio(sums.banked, sums.turns))
        expect(figures.bestTurn).toBe(sums.bestTurn)
        expect(figures.farkleRate).toBe(ratio(sums.farkles, sums.turns))
        expect(figures.hotDice).toBe(sums.hotDice)
        expect(figures.gamesToTarget).toBe(sums.reachedTarget)
        expect(figures.averageTurnsToTarget).toBe(ratio(sums.turnsToTargetSum, sums.reachedTarget))
      }
    }
  })

  it('the random games exercise every figure (none is zero for everyone)', () => {
    const figures: Record<string, string[]> = {
      foursies: ['roundsWon', 'toursWon', 'foursies', 'busts', 'devilsNumbers', 'falseFours', 'tabsHeld', 'foursThrown'],
      farkle: ['turns', 'banked', 'farkles', 'hotDice', 'gamesToTarget', 'bestTurn'],
      fouche: ['turns', 'banked', 'farkles', 'hotDice', 'gamesToTarget', 'bestTurn'],
      'four-plus': ['roundsSurvived', 'deathsByOnes', 'extraThrows']
    }
    const statistics = playerStatistics(facts)
    for (const figure of figures[game]) {
      const total = statistics.reduce((sum, p) => sum + ((p.byGame[game] as unknown as Record<string, number>)[figure] ?? 0), 0)
      expect(total, figure).toBeGreaterThan(0)
    }
    expect(statistics.reduce((sum, p) => sum + p.wins, 0)).toBeGreaterThan(0)
  })

  it('head-to-head counts the finished games two players shared and what each won', () => {
    const [first, second] = ['Ann', 'Bob']
    const shared = recounts.filter((r) => r.finished && r.names.includes(first) && r.names.includes(second))
    const result = headToHead(facts, first, second)
    expect(result.games).toBe(shared.length)
    expect(result.wins).toEqual([shared.filter((r) => r.winners.includes(first)).length, shared.filter((r) => r.winners.includes(second)).length])
  })
})

describe('statistics by person', () => {
  it('a player list that maps two names to one person sums them', () => {
    const records = randomRecords('four-plus', 5).slice(0, 40)
    const facts = records.map((text) => factsOfRecordText(text) as GameFacts)
    const apart = playerStatistics(facts)
    const together = playerStatistics(facts, { personOf: (name) => (name === 'Eve' ? 'Dee' : name) })
    const games = (list: typeof apart, name: string) => list.find((p) => p.name === name)?.games ?? 0
    expect(together.find((p) => p.name === 'Eve')).toBeUndefined()
    expect(games(together, 'Dee')).toBe(games(apart, 'Dee') + games(apart, 'Eve'))
  })

  it('a computer seat counts for nobody: no statistics, no head-to-head', () => {
    const record = (header: Header): string => recordText(playRandomGame(header, seededRandom(header.players.length)).game)
    const solo = factsOfRecordText(record({ game: 'fouche', players: ['Computer', 'Ann'], rules: { target: 1000 }, meta: { computers: [0] } })) as GameFacts
    const duo = factsOfRecordText(record({ game: 'fouche', players: ['Ann', 'Bob', 'Computer'], rules: { target: 1000 }, meta: { computers: [2] } })) as GameFacts
    expect([solo.finished, duo.finished]).toEqual([true, true])
    expect(solo.computers).toEqual([0])
    const statistics = playerStatistics([solo, duo])
    expect(statistics.map((p) => [p.name, p.games])).toEqual([['Ann', 2], ['Bob', 1]])
    expect(headToHead([solo, duo], 'Ann', 'Computer').games).toBe(0)
    expect(headToHead([solo, duo], 'Ann', 'Bob').games).toBe(1)
  })

  it('an unfinished game counts for nobody', () => {
    const facts = factsOfRecordText('{"game":"farkle","players":["Ann","Bob"],"rules":{"entry":0}}\n{"roll":[1,2,3,4,6,6]}\n{"keep":[1]}\n{"bank":true}\n') as GameFacts
    expect(facts.finished).toBe(false)
    expect(facts.seats[0]).toMatchObject({ turns: 1, banked: 100 })
    expect(playerStatistics([facts])).toEqual([])
  })
})

describe("a game's chart", () => {
  /** A Foursies match where `winnerOf(tour, round)` ends each round on 4 and the others throw nothing. */
  function foursiesMatch(rules: Record<string, unknown>, winnerOf: (tour: number, round: number) => number) {
    const started = startGame({ game: 'foursies', players: ['Ann', 'Bob', 'Cy'], rules })
    if (!started.ok) throw new Error(started.error)
    let game = started.value
    while (!summaryOf(game).finished) {
      const state = game.state as { seat: number; round: number; tour: number }
      const played = play(game, { move: { roll: state.seat === winnerOf(state.tour, state.round) ? [4, 4, 4, 4] : [3, 5, 6, 6] } })
      if (!played.ok) throw new Error(played.error)
      game = played.game
    }
    return game
  }

  it('Foursies tours draw the rounds won in the match after each round, and mark who won each tour', () => {
    // Tour 1: Ann, Ann, Bob, Ann; tour 2: Bob, Cy, Bob, Bob... until someone has four tours.
    const game = foursiesMatch({ match: 'tour-de-fours', tour: 'four-rounds' }, (tour, round) => (round === 3 ? (tour + 1) % 3 : tour % 2 === 1 ? 0 : 1))
    const chart = chartLineOf(game)
    if (chart.counts !== 'rounds') throw new Error('a tour match charts rounds')
    expect(chart.line.slice(0, 5)).toEqual([
      [1, 0, 0],
      [2, 0, 0],
      [2, 0, 1],
      [3, 0, 1],
      [3, 1, 1]
    ])
    expect(chart.tourWins.slice(0, 5)).toEqual([[], [], [], [0], []])
    expect(chart.line).toHaveLength(chart.tourWins.length)
    // Whole rounds only, never going down; the last step is the match's last tour.
    expect(chart.line.every((rounds, step) => step === 0 || rounds.every((won, seat) => won >= chart.line[step - 1][seat]))).toBe(true)
    expect(chart.tourWins.flat()).toEqual([0, 1, 0, 1, 0, 1, 0])
    expect(summaryOf(game).winners).toEqual(['Ann'])
  })

  it('a one-round Foursies match and the other games draw the scores after each turn', () => {
    const game = foursiesMatch({}, () => 1)
    expect(chartLineOf(game)).toEqual({ counts: 'points', line: [[0, 0, 0], [0, 4, 0], [0, 4, 0]] })
  })
})
