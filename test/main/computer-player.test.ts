import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ComputerPlayer } from '../../src/main/core/computer-player'
import { RecordStore } from '../../src/main/core/record-store'
import { SettingsStore } from '../../src/main/core/settings'
import { TableSession } from '../../src/main/core/table-session'
import { seededRandom } from '../../src/shared/random-play'
import { fixedWinTables, type WinTableSource } from '../../src/shared/games/six-dice/win-play'
import { solveWinTable, type WinSpec } from '../../src/shared/games/six-dice/win-solver'

const players: ComputerPlayer[] = []
afterEach(() => {
  while (players.length) players.pop()!.stop()
})

function table(dice: number[] = []): { session: TableSession; computer: ComputerPlayer } {
  const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-computer-'))
  const random = seededRandom(7)
  const queue = [...dice]
  const session = new TableSession({
    store: new RecordStore(dataDir),
    settings: new SettingsStore(dataDir),
    rollDie: () => queue.shift() ?? 1 + Math.floor(random() * 6)
  })
  const computer = new ComputerPlayer(session, { delayMs: 1, random })
  players.push(computer)
  return { session, computer }
}

async function settle(session: TableSession, check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 2))
  expect(check()).toBe(true)
  void session
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
    await new Promise((resolve) => setTimeout(resolve, 30))
    const current = session.snapshot(true).current!
    expect(current.summary.finished).toBe(false)
    expect(current.thinking?.text).toContain('waits after the undo')
    while (session.snapshot(true).current!.moveCount > 3) {
      session.undo()
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    expect(session.snapshot(true).current!.summary.toPlay).toBe('Computer')
    expect(session.snapshot(true).current!.moveCount).toBe(3)
    session.undo()
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(session.snapshot(true).current!.summary.toPlay).toBe('Ann')
    expect(session.snapshot(true).current!.moveCount).toBe(2)
    // Ann plays on: the computer takes its turn again by itself.
    session.submit({ roll: [2, 3, 4, 6] })
    await settle(session, () => session.snapshot(true).current!.summary.finished)
  })

  it('refuses a computer seat that does not exist', () => {
    const { session } = table()
    expect(session.newGame({ game: 'farkle', players: ['Ann'], computers: [3] })).toEqual({ ok: false, error: 'A computer player must sit in one of the seats' })
  })

  it('shows exact odds on the table only when asked', () => {
    const { session } = table()
    session.newGame({ game: 'farkle', players: ['Ann', 'Bob'] })
    expect(session.snapshot(true).current!.odds).toBeNull()
    session.setShowOdds(true)
    expect(session.snapshot(true).showOdds).toBe(true)
    expect(session.snapshot(true).current!.odds).toMatchObject({ game: 'farkle' })
  })

  it('plays Farkle to win once the table for its rules is solved, and says the chance in the log', async () => {
    const { session } = table([1, 5, 2, 2, 3, 6])
    session.winTables = fixedWinTables([solveWinTable({ game: 'farkle', target: 500, entry: 0 }, { leadCap: 1500 })])
    session.newGame({ game: 'farkle', players: ['Computer', 'Ann'], computers: [0], rules: { entry: 0, target: 500 } })
    await settle(session, () => session.snapshot(true).current!.log.some((entry) => entry.kind === 'computer'))
    const why = session.snapshot(true).current!.log.find((entry) => entry.kind === 'computer')!
    expect(why.text).toMatch(/^Computer keeps .*: \d dice? left, \d+% to win/)
    // The odds panel gets the same chances.
    session.setShowOdds(true)
    expect(session.snapshot(true).current!.odds).toMatchObject({ game: 'farkle', win: { exact: true } })
  })

  it('starts solving the table at the start of the game, and plays for points meanwhile, saying so', async () => {
    const { session } = table([1, 5, 2, 2, 3, 6])
    const asked: WinSpec[] = []
    const solving: WinTableSource = {
      table: (spec) => {
        asked.push(spec)
        return null
      },
      status: () => 'the table for these rules is 45% solved'
    }
    session.winTables = solving
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
