import { afterEach, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { WinTables } from '@main/core/computer/win-tables'
import { dataFolder, openTable, type TestTable } from '@test/kit/table'
import { seededRandom } from '@shared/random-play'
import { fixedWinTables, type WinTableSource } from '@shared/games/six-dice/win-play'
import { solveWinTable, type WinSpec } from '@shared/games/six-dice/win-solver'

const tables: TestTable[] = []
afterEach(async () => {
  while (tables.length) await tables.pop()!.stop()
})

/** The computer's pause before each of its actions. */
const COMPUTER_PAUSE_MS = 1

function table(dice: number[] = [], winTables: WinTableSource | 'none' = 'none', dataDir = dataFolder('computer')): { session: TestTable } {
  const random = seededRandom(7)
  const queue = [...dice]
  const session = openTable({ dataDir, rollDie: () => queue.shift() ?? 1 + Math.floor(random() * 6), computer: { delayMs: COMPUTER_PAUSE_MS, random }, winTables })
  tables.push(session)
  return { session }
}

/** Waits until `check` holds of the table, looking again at each change of what the screens show. */
async function settle(session: TestTable, check: () => boolean): Promise<void> {
  await session.shown(() => (check() ? true : null))
}

/**
 * Resolves after the moment the computer would have acted on what the test just did: a timer of
 * its pause set now fires after any the computer set before it (Node runs timers of one length in
 * the order they were set), so a test can tell that it did not act.
 */
function pastTheComputersPause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, COMPUTER_PAUSE_MS))
}

describe('the computer player', () => {
  it('plays its whole Fouche turn as the first seat, then waits for the person', async () => {
    const { session } = table()
    session.newGame({ game: 'fouche', players: ['Computer', 'Ann'], computers: [0] })
    const current = () => session.snapshot(true).current!
    expect(current().computers).toEqual([0])
    expect(current().thinking?.text).toBe('Computer is thinking…')
    await settle(session, () => current().summary.toPlay === 'Ann')
    expect(current().moveCount).toBeGreaterThan(0)
    expect(current().thinking).toBeNull()
    const lastTurn = current().log.filter((entry) => entry.seat === 0)
    expect(lastTurn.length).toBeGreaterThan(0)
  })

  it('says why it chose', async () => {
    const { session } = table([1, 1, 1, 5, 2, 3])
    session.newGame({ game: 'farkle', players: ['Computer', 'Ann'], computers: [0], rules: { entry: 0 } })
    await settle(session, () => session.snapshot(true).current!.log.some((entry) => entry.kind === 'computer'))
    const why = session.snapshot(true).current!.log.find((entry) => entry.kind === 'computer')!
    expect(why.text).toMatch(/^Computer /)
  })

  it('waits after an undo that lands on its turn, so undo can go back further', async () => {
    const { session } = table()
    session.newGame({ game: 'four-plus', players: ['Ann', 'Computer'], computers: [1], rules: { rounds: 1 } })
    session.submit({ roll: [2, 3, 4, 6] })
    session.submit({ roll: [2, 3, 4, 6] })
    session.submit({ roll: [2, 3, 4, 6] })
    await settle(session, () => session.snapshot(true).current!.summary.finished)
    session.undo()
    await pastTheComputersPause()
    const current = session.snapshot(true).current!
    expect(current.summary.finished).toBe(false)
    expect(current.thinking?.text).toContain('waits after the undo')
    while (session.snapshot(true).current!.moveCount > 3) {
      session.undo()
      await pastTheComputersPause()
    }
    expect(session.snapshot(true).current!.summary.toPlay).toBe('Computer')
    expect(session.snapshot(true).current!.moveCount).toBe(3)
    session.undo()
    await pastTheComputersPause()
    expect(session.snapshot(true).current!.summary.toPlay).toBe('Ann')
    expect(session.snapshot(true).current!.moveCount).toBe(2)
    // Ann plays on: the computer takes its turn again by itself.
    session.submit({ roll: [2, 3, 4, 6] })
    await settle(session, () => session.snapshot(true).current!.summary.finished)
  })

  it('plays its own turn: people’s throws, decisions and virtual dice are refused meanwhile, with a word, and the TV says the same', async () => {
    const { session } = table([1, 1, 1, 5, 2, 3])
    session.newGame({ game: 'farkle', players: ['Robo', 'Cara'], computers: [0], rules: { entry: 0 } })
    const refusal = { ok: false, error: 'It is Robo’s turn: the computer plays it' }
    expect(session.submit({ roll: [2, 2, 3, 3, 4, 6] })).toEqual(refusal)
    expect(session.rollVirtual()).toEqual(refusal)
    for (const key of ['2', '2', '3', '3', '4', '6', 'Enter'] as const) session.keypad(key)
    expect(session.snapshot(true).message).toMatchObject({ text: refusal.error, level: 'error' })
    expect(session.currentGame!.moves).toHaveLength(0)
    // The TV and the table say one thing: Robo acts.
    expect(session.snapshot(true, true, 'scoreboard').current!.thinking).toMatchObject({ seat: 0 })
    await settle(session, () => session.snapshot(true).current!.summary.toPlay === 'Cara')
    expect(session.snapshot(true, true, 'scoreboard').current!.thinking).toBeNull()
    expect(session.snapshot(true).current!.thinking).toBeNull()
  })

  it('after an undo it waits on its turn until the table lets it play on', async () => {
    const { session } = table()
    session.newGame({ game: 'farkle', players: ['Ann', 'Robo'], computers: [1], rules: { entry: 0 } })
    expect(session.screen.letComputerPlay()).toEqual({ ok: false, error: 'No computer player is to play now' })
    // Ann farkles: Robo's turn.
    session.submit({ roll: [2, 2, 3, 3, 4, 6] })
    await settle(session, () => session.currentGame!.moves.length >= 2 && session.snapshot(true).current!.summary.toPlay === 'Ann')
    // Robo's last line taken back: its turn again, and it waits.
    expect(session.undo()).toEqual({ ok: true })
    const undoneTo = session.currentGame!.moves.length
    expect(session.snapshot(true).current!.thinking).toEqual({ seat: 1, text: 'Robo waits after the undo: undo further, or let Robo play', waiting: true })
    expect(session.submit({ roll: [2, 2, 3, 3, 4, 6] })).toMatchObject({ ok: false, error: 'It is Robo’s turn: the computer plays it' })
    expect(session.currentGame!.moves).toHaveLength(undoneTo)
    expect(session.screen.letComputerPlay()).toEqual({ ok: true })
    expect(session.snapshot(true).current!.thinking).toEqual({ seat: 1, text: 'Robo is thinking…' })
    await settle(session, () => session.currentGame!.moves.length > undoneTo)
  })

  it('refuses a computer seat that does not exist', () => {
    const { session } = table()
    expect(session.newGame({ game: 'farkle', players: ['Ann'], computers: [3] })).toEqual({ ok: false, error: 'A computer player must sit in one of the seats' })
  })

  it('shows exact odds on the table only when asked', async () => {
    const { session } = table()
    session.newGame({ game: 'farkle', players: ['Ann', 'Bob'] })
    expect(session.snapshot(true).current!.odds).toBeNull()
    session.setShowOdds(true)
    expect(session.snapshot(true).showOdds).toBe(true)
    expect(await session.oddsShown()).toMatchObject({ game: 'farkle' })
  })

  it('plays Farkle to win once the table for its rules is solved, and says the chance in the log', async () => {
    const { session } = table([1, 5, 2, 2, 3, 6], fixedWinTables([solveWinTable({ game: 'farkle', target: 500, entry: 0 }, { leadCap: 1500 })]))
    session.newGame({ game: 'farkle', players: ['Computer', 'Ann'], computers: [0], rules: { entry: 0, target: 500 } })
    await settle(session, () => session.snapshot(true).current!.log.some((entry) => entry.kind === 'computer'))
    const why = session.snapshot(true).current!.log.find((entry) => entry.kind === 'computer')!
    expect(why.text).toMatch(/^Computer keeps .*: \d dice? left, \d+% to win/)
    // The odds panel gets the same chances.
    session.setShowOdds(true)
    expect(await session.oddsShown()).toMatchObject({ game: 'farkle', win: { exact: true } })
  })

  it("plays a fresh install's first Farkle game to win from its first decision: the default rules' table ships with the app", async () => {
    // As the app and the host set it up, with a worker that cannot start: nothing is solved here.
    const dataDir = dataFolder('computer')
    const tables = new WinTables({ dir: join(dataDir, 'win-tables'), worker: { path: join(dataDir, 'no-such-worker.js') } })
    const { session } = table([], tables, dataDir)
    session.newGame({ game: 'farkle', players: ['Computer', 'Ann'], computers: [0] })
    expect(session.snapshot(true).current!.thinking?.text).toBe('Computer is thinking…')
    await settle(session, () => session.snapshot(true).current!.summary.toPlay === 'Ann')
    const reasons = session.snapshot(true).current!.log.filter((entry) => entry.kind === 'computer')
    expect(reasons.length).toBeGreaterThan(0)
    for (const why of reasons) expect(why.text).toMatch(/^Computer (keeps|banks) .*\d+% to win/)
    expect(tables.status({ game: 'farkle', target: 10_000, entry: 500 })).toBe('the table for these rules is ready')
  })

  it('starts solving the table at the start of the game, and plays for points meanwhile, saying so', async () => {
    const asked: WinSpec[] = []
    const solving: WinTableSource = {
      table: (spec) => {
        asked.push(spec)
        return null
      },
      status: () => 'the table for these rules is 45% solved'
    }
    const { session } = table([1, 5, 2, 2, 3, 6], solving)
    session.newGame({ game: 'fouche', players: ['Computer', 'Ann'], computers: [0] })
    expect(asked[0]).toEqual({ game: 'fouche', target: 10_000, entry: 0 })
    expect(session.snapshot(true).current!.thinking?.text).toBe(
      'Computer is thinking… (playing for points until the chance to win is known: the table for these rules is 45% solved)'
    )
    await settle(session, () => session.snapshot(true).current!.log.some((entry) => entry.kind === 'computer'))
    const why = session.snapshot(true).current!.log.find((entry) => entry.kind === 'computer')!
    expect(why.text).toMatch(/worth [\d,]+ on average.*; playing for points until the chance to win is known: the table for these rules is 45% solved$/)
  })
})
