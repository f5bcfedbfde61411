import { threadId } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import type { TableState } from '@shared/api'
import type { Game } from '@shared/game'
import { oddsFor } from '@shared/odds'
import { seededRandom } from '@shared/random-play'
import { openTable, type TestTable } from '@test/kit/table'
import { waitUntil } from '@test/kit/wait'

const tables: TestTable[] = []
afterEach(async () => {
  while (tables.length) await tables.pop()!.stop()
})

/**
 * A session whose odds are counted, and every push it makes as three kinds of screen see it. Its
 * odds are worked out as the odds worker does, after the push (here on a later turn of this thread).
 */
function table(): { session: TestTable; positions: Game[]; pushes: TableState[][] } {
  const positions: Game[] = []
  const random = seededRandom(11)
  const session = openTable({
    rollDie: () => 1 + Math.floor(random() * 6),
    oddsWork: (game) =>
      new Promise((resolve) =>
        setImmediate(() => {
          positions.push(game)
          resolve(oddsFor(game))
        })
      )
  })
  tables.push(session)
  const pushes: TableState[][] = []
  // As the table server and the app's windows do: the host's screens, a LAN viewer, a paired LAN screen.
  session.subscribe(() => pushes.push([session.snapshot(true), session.snapshot(false), session.snapshot(true, false)]))
  return { session, positions, pushes }
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))
/** Waits until the odds of the game on the table have been pushed. */
const oddsShown = (session: TestTable): Promise<void> => waitUntil(() => expect(session.snapshot(true).current!.odds).not.toBeNull())

/** A throw when one is due, else the first decision on offer. */
function playOn(session: TestTable): void {
  const offer = session.snapshot(true).current!.offer
  if (offer.diceDue > 0) session.rollVirtual()
  else session.submit(offer.decisions[0].move)
}

describe('the odds of a position', () => {
  it('are worked out once for every kind of screen, after the throw is pushed', async () => {
    const { session, positions, pushes } = table()
    session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    session.setShowOdds(true)
    await oddsShown(session)
    expect(positions).toHaveLength(1)
    expect(pushes.at(-1)!.map((state) => state.current!.odds?.game)).toEqual(['foursies', 'foursies', 'foursies'])

    for (let throws = 1; throws <= 6; throws++) {
      pushes.length = 0
      playOn(session)
      // The throw's own push does not wait for the odds...
      expect(pushes).toHaveLength(1)
      expect(pushes[0].map((state) => state.current!.odds)).toEqual([null, null, null])
      expect(positions).toHaveLength(throws)
      // ...which follow in one more push, to every screen, worked out once.
      await waitUntil(() => expect(pushes).toHaveLength(2))
      expect(positions).toHaveLength(throws + 1)
      expect(positions.at(-1)).toBe(session.currentGame)
      expect(pushes).toHaveLength(2)
      const odds = pushes[1].map((state) => state.current!.odds)
      expect(odds[0]).not.toBeNull()
      expect(odds[1]).toBe(odds[0])
      expect(odds[2]).toBe(odds[0])
      expect(session.snapshot(true).current!.odds).toBe(odds[0])
    }
    expect(positions).toHaveLength(7)
  })

  it('are not worked out at all while no screen shows them', async () => {
    const { session, positions, pushes } = table()
    session.newGame({ game: 'farkle', players: ['Ann', 'Bob'] })
    for (let i = 0; i < 20; i++) {
      playOn(session)
      await nextTurn()
    }
    session.undo()
    await nextTurn()
    expect(pushes.length).toBeGreaterThanOrEqual(22)
    expect(pushes.flat().every((state) => state.current!.odds === null)).toBe(true)
    expect(positions).toHaveLength(0)
  })

  it('tell a position reached again after an undo from a different one with as many lines', async () => {
    const { session, positions } = table()
    session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    session.setShowOdds(true)
    await oddsShown(session)
    session.submit({ roll: [1, 2, 3, 5] })
    await oddsShown(session)
    const afterFirst = session.snapshot(true).current!.odds
    expect(positions).toHaveLength(2)

    // Back to the start: that position's odds are known already.
    session.undo()
    await nextTurn()
    expect(positions).toHaveLength(2)
    expect(session.snapshot(true).current!.odds).toMatchObject({ game: 'foursies' })

    // The same number of lines, another throw: another position.
    session.submit({ roll: [6, 6, 6, 6] })
    expect(session.snapshot(true).current!.odds).toBeNull()
    await oddsShown(session)
    expect(positions).toHaveLength(3)
    expect(session.snapshot(true).current!.odds).not.toEqual(afterFirst)
  })

  it('are never worked out on the thread that takes the throws: every position is worked out in the odds worker', async () => {
    const random = seededRandom(5)
    const session = openTable({ rollDie: () => 1 + Math.floor(random() * 6) })
    tables.push(session)
    for (const game of ['foursies', 'farkle', 'four-plus'] as const) {
      session.newGame({ game, players: ['Ann', 'Bob'] })
      session.setShowOdds(true)
      for (let move = 0; move < 6 && !session.snapshot(true).current!.summary.finished; move++) {
        await oddsShown(session)
        expect(session.snapshot(true).current!.odds).toMatchObject({ game })
        playOn(session)
      }
    }
    const computed = session.table.oddsThread!.computed
    expect(computed.length).toBeGreaterThanOrEqual(15)
    expect(computed.every((position) => position.threadId !== threadId)).toBe(true)
  })
})
