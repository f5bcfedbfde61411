// An independent recount of the statistics, for tests: a flat walk over the record's lines that
// counts from the dice values written in each line. It asks the engine only who acts
// (offer().toPlay), what a keep scores (the scoring table), and rule verdicts it would otherwise
// have to re-implement whole (Foursies busts, round, tour and tab changes; 4-PLU$ flash start).
// It shares no code with src/shared/stats.
import { offerOf, play, startGame, summaryOf, type Game } from '@shared/game'
import type { GameEvent } from '@shared/games/types'
import { parseHeaderLine, type Header } from '@shared/record'

export interface Recount {
  game: string
  names: string[]
  finished: boolean
  winners: string[]
  perSeat: Record<string, number | null>[]
}

const count = (values: number[], v: number): number => values.filter((x) => x === v).length

export function recountRecord(text: string): Recount {
  const lines = text.split('\n').filter((line) => line.trim() !== '')
  const parsedHeader = parseHeaderLine(lines[0])
  if (!parsedHeader.ok) throw new Error(parsedHeader.error)
  const header: Header = parsedHeader.value
  const started = startGame(header)
  if (!started.ok) throw new Error(started.error)
  let game: Game = started.value
  const moves = lines.slice(1).map((line) => JSON.parse(line) as Record<string, unknown>)
  const names = header.players
  const walk: { move: Record<string, unknown>; seat: number | null; events: GameEvent[] }[] = []
  for (const move of moves) {
    const toPlay = offerOf(game).toPlay
    const played = play(game, { move: move as never })
    if (!played.ok) throw new Error(played.error)
    walk.push({ move, seat: toPlay, events: played.events })
    game = played.game
  }
  const summary = summaryOf(game)
  const base = { game: header.game, names, finished: summary.finished, winners: summary.winners }
  switch (header.game) {
    case 'foursies':
      return { ...base, perSeat: recountFoursies(names.length, (game.options as { tab: number }).tab, walk) }
    case 'farkle':
    case 'fouche': {
      const target = typeof header.rules?.target === 'number' ? header.rules.target : 10000
      const result = recountSixDice(names.length, target, walk, summary.finished)
      // Winners recounted too: the highest banked totals of a finished game.
      const top = Math.max(...result.totals)
      const winners = summary.finished ? names.filter((_, i) => result.totals[i] === top) : []
      return { ...base, winners, perSeat: result.perSeat }
    }
    case 'four-plus':
      return { ...base, perSeat: recountFourPlus(names.length, walk) }
  }
}

type Walk = { move: Record<string, unknown>; seat: number | null; events: GameEvent[] }[]

function recountFoursies(n: number, firstTab: number, walk: Walk): Record<string, number>[] {
  const seats = Array.from({ length: n }, () => ({
    roundsWon: 0, toursWon: 0, foursies: 0, busts: 0, devilsNumbers: 0, falseFours: 0, tabsHeld: 0, throws: 0, foursThrown: 0
  }))
  seats[firstTab].tabsHeld += 1
  let table: number[] = []
  let rerolled: number[] | null = null
  for (const { move, seat, events } of walk) {
    if (Array.isArray(move.reroll) && seat !== null) {
      seats[seat].falseFours += 1
      rerolled = move.reroll as number[]
    }
    if (Array.isArray(move.roll) && seat !== null) {
      const roll = move.roll as number[]
      seats[seat].throws += 1
      seats[seat].foursThrown += count(roll, 4)
      if (roll.length === 4) table = roll.slice()
      else {
        // the dice left on the table: those not re-rolled (a false four), or all but the odd man out
        const left = table.slice()
        const gone = rerolled ?? [table.find((v) => count(table, v) === 1) as number]
        for (const v of gone) left.splice(left.indexOf(v), 1)
        table = [...left, ...roll]
      }
      rerolled = null
      if (table.every((v) => v === 1)) seats[seat].foursies += 1
      if (count(table, 6) >= 3) seats[seat].devilsNumbers += 1
    }
    for (const event of events) {
      if (event.kind === 'bust') seats[event.seat as number].busts += 1
      if (event.kind === 'roundWon') seats[event.seat as number].roundsWon += 1
      if (event.kind === 'tourWon') seats[event.seat as number].toursWon += 1
      if (event.kind === 'roundStart') seats[event.seat as number].tabsHeld += 1
    }
  }
  return seats
}

function recountSixDice(n: number, target: number, walk: Walk, finished: boolean): { perSeat: Record<string, number | null>[]; totals: number[] } {
  const seats = Array.from({ length: n }, () => ({
    turns: 0, banked: 0, bestTurn: 0, farkles: 0, hotDice: 0, reachedTarget: 0, turnsToTarget: null as number | null
  }))
  const totals = new Array<number>(n).fill(0)
  let turn = 0
  let turnPoints = 0
  let thrown = 0
  const endTurn = (seat: number): void => {
    seats[seat].turns += 1
    if (seats[seat].reachedTarget === 0 && totals[seat] >= target) {
      seats[seat].reachedTarget = 1
      seats[seat].turnsToTarget = seats[seat].turns
    }
    turn += 1
    turnPoints = 0
  }
  for (let i = 0; i < walk.length; i++) {
    const seat = turn % n
    const { move, events } = walk[i]
    if (Array.isArray(move.roll)) {
      thrown = move.roll.length
      // a throw that is not followed by a keep is a farkle (the record's last line included)
      const last = i + 1 === walk.length
      if (last ? finished : !Array.isArray(walk[i + 1].move.keep)) {
        seats[seat].farkles += 1
        endTurn(seat)
      }
    } else if (Array.isArray(move.keep)) {
      turnPoints += events.find((event) => event.kind === 'keep')?.points as number
      if (move.keep.length === thrown) seats[seat].hotDice += 1
    } else if (move.bank === true) {
      totals[seat] += turnPoints
      seats[seat].banked += turnPoints
      seats[seat].bestTurn = Math.max(seats[seat].bestTurn, turnPoints)
      endTurn(seat)
    }
  }
  return { perSeat: seats, totals }
}

function recountFourPlus(n: number, walk: Walk): Record<string, number>[] {
  const seats = Array.from({ length: n }, () => ({ roundsSurvived: 0, deathsByOnes: 0, extraThrows: 0 }))
  let flash = false
  let turnOf: number | null = null
  let died = false
  let pairUsed = false
  const close = (): void => {
    if (turnOf !== null && !died) seats[turnOf].roundsSurvived += 1
    turnOf = null
  }
  for (const { move, seat, events } of walk) {
    const roll = move.roll as number[]
    const who = seat as number
    if (!flash) {
      if (who !== turnOf) {
        close()
        turnOf = who
        died = false
        pairUsed = false
      }
      const ones = count(roll, 1)
      const most = Math.max(...[2, 3, 4, 5, 6].map((v) => count(roll, v)))
      if (ones === 4) {
        seats[who].deathsByOnes += 1
        died = true
      } else if (ones < 2) {
        if (count(roll, 4) === 4) seats[who].extraThrows += 1
        else if (most === 2 && !pairUsed) {
          pairUsed = true
          seats[who].extraThrows += 1
        }
      }
    } else if (count(roll, 1) >= 2) {
      seats[who].deathsByOnes += 1
    }
    if (events.some((event) => event.kind === 'flashStart')) {
      close()
      flash = true
    }
  }
  close()
  return seats
}
