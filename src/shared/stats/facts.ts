// What one game record says about each seat, for statistics: a fold of the record with the rules
// engine, reading the events it reports. Plain JSON, so it can be cached in the history index and
// summed over thousands of games without replaying them. Definitions: docs/statistics.md.
import { GAMES } from '../engine'
import type { GameEvent, GameId } from '../engine/types'
import { computerSeats, replayText, type Game } from '../game'

export interface FoursiesSeatFacts {
  roundsWon: number
  toursWon: number
  foursies: number
  busts: number
  devilsNumbers: number
  /** Re-roll decisions (each re-roll of one or several disjoint false fours). */
  falseFours: number
  /** Rounds the seat started holding the tab. */
  tabsHeld: number
  /** Throws in the seat's own turns (duel throws not included). */
  throws: number
  /** Fresh 4s among those throws. */
  foursThrown: number
}

export interface SixDiceSeatFacts {
  turns: number
  /** Points banked over all turns (a farkled turn banks nothing). */
  banked: number
  bestTurn: number
  farkles: number
  hotDice: number
  /** The seat's banked total reached the game's target. */
  reachedTarget: boolean
  /** The seat's own turns until its banked total first reached the target; null if it never did. */
  turnsToTarget: number | null
}

export interface FourPlusSeatFacts {
  /** Turns of the regular rounds that did not put the seat out. */
  roundsSurvived: number
  /** Outs by four 1s in a turn or two or more 1s in a flash round. */
  deathsByOnes: number
  extraThrows: number
}

export type SeatFacts = FoursiesSeatFacts | SixDiceSeatFacts | FourPlusSeatFacts

export interface GameFacts {
  game: GameId
  /** Seat names as the record holds them. */
  players: string[]
  /** Seats the computer played (the header's `meta.computers`): no person, so no player's statistics. */
  computers: number[]
  finished: boolean
  winners: string[]
  /** One entry per seat, in seat order; its shape depends on `game`. */
  seats: SeatFacts[]
}

/** Whether a person played this seat (not the computer). */
export function isPersonSeat(facts: GameFacts, seat: number): boolean {
  return !facts.computers.includes(seat)
}

/** The names of the seats people played. */
export function personSeatNames(facts: GameFacts): string[] {
  return facts.players.filter((_, seat) => isPersonSeat(facts, seat))
}

/** Every seat's score after each completed turn (Farkle/Fouche: banked totals; Foursies: round scores; 4-PLU$: totals). */
export type ScoreLine = number[][]

/**
 * What a game's chart draws: every seat's score after each turn, or for Foursies tours (where
 * round scores go back to 0 every round) every seat's rounds won in the match after each decided
 * round, with the seats that won a tour at each of those steps.
 */
export type ChartLine = { counts: 'points'; line: ScoreLine } | { counts: 'rounds'; line: ScoreLine; tourWins: number[][] }

/** Facts of a record given as text; null when the record does not replay. */
export function factsOfRecordText(text: string): GameFacts | null {
  const replayed = replayText(text, { tolerateTruncatedTail: true })
  return replayed.ok ? factsOfGame(replayed.game) : null
}

/** Folds the game's moves again from the start, collecting each seat's facts from the engine's events. */
export function factsOfGame(game: Game): GameFacts {
  return foldFacts(game).facts
}

/** The scores after each turn of a game, for a chart. */
export function scoreLineOf(game: Game): ScoreLine {
  return foldFacts(game).scoreLine
}

/** What a game's chart draws: rounds and tours won for Foursies tours, else the scores after each turn. */
export function chartLineOf(game: Game): ChartLine {
  const { scoreLine, rounds } = foldFacts(game)
  const tours = game.header.game === 'foursies' && (game.options as { match: string }).match !== 'round'
  return tours && rounds ? { counts: 'rounds', line: rounds.line, tourWins: rounds.tourWins } : { counts: 'points', line: scoreLine }
}

function foldFacts(game: Game): { facts: GameFacts; scoreLine: ScoreLine; rounds?: Collector['rounds'] } {
  const module = GAMES[game.header.game]
  const players = game.header.players
  const collector = collectorFor(game)
  let state = module.init(players, game.options)
  for (const recorded of game.moves) {
    const applied = module.apply(state, recorded.move)
    if (!applied.ok) throw new Error(`a recorded move no longer applies: ${applied.error}`)
    collector.move(recorded.move, applied.events)
    state = applied.state
  }
  const summary = module.summary(state)
  const facts: GameFacts = {
    game: game.header.game,
    players: players.slice(),
    computers: computerSeats(game),
    finished: summary.finished,
    winners: summary.winners.slice(),
    seats: collector.seats
  }
  return { facts, scoreLine: collector.scoreLine, rounds: collector.rounds }
}

interface Collector {
  seats: SeatFacts[]
  scoreLine: number[][]
  /** Foursies: every seat's rounds won in the match after each decided round, and who won a tour there. */
  rounds?: { line: number[][]; tourWins: number[][] }
  move(move: object, events: GameEvent[]): void
}

function collectorFor(game: Game): Collector {
  switch (game.header.game) {
    case 'foursies':
      return foursiesCollector(game)
    case 'farkle':
    case 'fouche':
      return sixDiceCollector(game)
    case 'four-plus':
      return fourPlusCollector(game)
  }
}

function foursiesCollector(game: Game): Collector {
  const n = game.header.players.length
  const seats: FoursiesSeatFacts[] = Array.from({ length: n }, () => ({
    roundsWon: 0, toursWon: 0, foursies: 0, busts: 0, devilsNumbers: 0, falseFours: 0, tabsHeld: 0, throws: 0, foursThrown: 0
  }))
  const firstTab = (game.options as { tab: number }).tab
  seats[firstTab].tabsHeld++
  let seat = firstTab
  let duel = false
  const scores = new Array<number>(n).fill(0)
  const scoreLine: number[][] = []
  const roundsWon = new Array<number>(n).fill(0)
  const rounds = { line: [] as number[][], tourWins: [] as number[][] }
  return {
    seats,
    scoreLine,
    rounds,
    move(move, events) {
      const decided = events.filter((event) => event.kind === 'roundWon' || event.kind === 'tourWon')
      for (const event of decided) if (event.kind === 'roundWon') roundsWon[event.seat as number]++
      if (decided.length > 0) {
        rounds.line.push(roundsWon.slice())
        rounds.tourWins.push(decided.filter((event) => event.kind === 'tourWon').map((event) => event.seat as number))
      }
      if ('roll' in move && !duel) {
        seats[seat].throws++
        for (const value of (move as { roll: number[] }).roll) if (value === 4) seats[seat].foursThrown++
      }
      if ('reroll' in move) seats[seat].falseFours++
      for (const event of events) {
        const at = event.seat as number
        switch (event.kind) {
          case 'foursies':
            seats[at].foursies++
            scoreLine.push(scores.slice())
            break
          case 'bust':
            seats[at].busts++
            scores[at] = event.score as number
            scoreLine.push(scores.slice())
            break
          case 'devilsNumber':
            seats[at].devilsNumbers++
            if (event.effect === 'reset') {
              scores[at] = 0
              scoreLine.push(scores.slice())
            }
            break
          case 'score':
          case 'fourOfAKind':
            scores[at] = event.score as number
            break
          case 'turnEnd':
            scores[at] = event.score as number
            scoreLine.push(scores.slice())
            break
          case 'roundWon': seats[at].roundsWon++; duel = false; break
          case 'tourWon': seats[at].toursWon++; duel = false; break
          case 'duel': duel = true; break
          case 'turn': seat = at; break
          case 'roundStart':
            seat = at
            seats[at].tabsHeld++
            scores.fill(0)
            break
        }
      }
    }
  }
}

function sixDiceCollector(game: Game): Collector {
  const n = game.header.players.length
  const target = (game.options as { target: number }).target
  const seats: SixDiceSeatFacts[] = Array.from({ length: n }, () => ({
    turns: 0, banked: 0, bestTurn: 0, farkles: 0, hotDice: 0, reachedTarget: false, turnsToTarget: null
  }))
  const totals = new Array<number>(n).fill(0)
  const scoreLine: number[][] = []
  function turnDone(seat: number): void {
    const facts = seats[seat]
    facts.turns++
    if (!facts.reachedTarget && totals[seat] >= target) {
      facts.reachedTarget = true
      facts.turnsToTarget = facts.turns
    }
    scoreLine.push(totals.slice())
  }
  return {
    seats,
    scoreLine,
    move(_move, events) {
      for (const event of events) {
        const seat = event.seat as number
        if (event.kind === 'hotDice') seats[seat].hotDice++
        else if (event.kind === 'farkle') {
          seats[seat].farkles++
          turnDone(seat)
        } else if (event.kind === 'bank') {
          const points = event.points as number
          seats[seat].banked += points
          if (points > seats[seat].bestTurn) seats[seat].bestTurn = points
          totals[seat] = event.total as number
          turnDone(seat)
        }
      }
    }
  }
}

function fourPlusCollector(game: Game): Collector {
  const n = game.header.players.length
  const seats: FourPlusSeatFacts[] = Array.from({ length: n }, () => ({ roundsSurvived: 0, deathsByOnes: 0, extraThrows: 0 }))
  const totals = new Array<number>(n).fill(0)
  const scoreLine: number[][] = []
  // The first turn starts with the game (seat 0), without a turn event.
  let inTurn: number | null = 0
  function closeTurn(survived: boolean): void {
    if (inTurn === null) return
    if (survived) seats[inTurn].roundsSurvived++
    scoreLine.push(totals.slice())
    inTurn = null
  }
  return {
    seats,
    scoreLine,
    move(_move, events) {
      for (const event of events) {
        const seat = event.seat as number
        switch (event.kind) {
          case 'turn':
            closeTurn(true)
            inTurn = seat
            break
          case 'score':
            totals[seat] = event.total as number
            break
          case 'extra':
            seats[seat].extraThrows++
            break
          case 'out':
            if (event.cause === 'fourOnes' || event.cause === 'ones') seats[seat].deathsByOnes++
            if (inTurn === seat) closeTurn(false)
            break
          case 'flashStart':
          case 'win':
          case 'noWinner':
            closeTurn(true)
            break
        }
      }
    }
  }
}
