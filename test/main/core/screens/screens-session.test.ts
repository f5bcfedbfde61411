// What main tells each screen (issue 12): standings, the last throw and who threw it, the TV's
// state without reasons or odds, keypad refusals, record line numbers, import checks, resuming an
// abandoned game from the history, rematch.
import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { dispatch } from '@main/core/screens/dispatch'
import { openTable, serveTable, type TestTable } from '@test/kit/table'
import { waitUntil } from '@test/kit/wait'
import { apiAddress, ScreenClient } from '@test/kit/screen-client'
import type { TableState } from '@shared/api'
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { repoPath } from '@test/kit/root'

let dataDir: string
let clock: number

function openSession(): TestTable {
  return openTable({ dataDir, now: () => ++clock, fallbackDie: 3 })
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-screens-'))
  clock = 1_700_000_000_000
})

const QUIET = { roll: [3, 5, 6, 6] }
const FOUR_FOURS = { roll: [4, 4, 4, 4] }

describe('what main shows the screens', () => {
  it('a Foursies duel: the keypad says whose digit is whose, the throw is captioned with both names, and labelled once play moves on', () => {
    const session = openSession()
    session.newGame({ game: 'foursies', players: ['Ann', 'Bob', 'Cy'] })
    // Ann and Cy both end on 4 (four 4s score 4), Bob scores nothing: a duel between Ann and Cy.
    session.submit(FOUR_FOURS)
    session.submit(QUIET)
    session.submit(FOUR_FOURS)
    let state = session.snapshot(true)
    expect(state.current?.table.phase).toBe('Duel for the round')
    expect(state.keypad.hint).toBe('Type one die each, in this order: 1st Ann, 2nd Cy; then Enter')
    expect(state.current?.lastThrow).toMatchObject({ throwers: ['Cy'], current: false, caption: 'Cy’s last throw' })
    session.submit({ roll: [2, 3] })
    state = session.snapshot(true)
    expect(state.current?.lastThrow).toMatchObject({ throwers: ['Ann', 'Cy'], current: true, caption: 'Duel throw: Ann 2 · Cy 3' })
    expect(state.current?.log.at(-1)).toMatchObject({ dice: 'Ann 2 · Cy 3', line: 5 })
    session.submit({ roll: [3, 4] })
    state = session.snapshot(true)
    expect(state.current?.summary.finished).toBe(true)
    expect(state.current?.lastThrow).toMatchObject({ current: false, caption: 'Last duel throw: Ann 3 · Cy 4' })
    expect(state.current?.standings.map((standing) => [standing.name, standing.place, standing.why])).toEqual([
      ['Cy', 1, 'won the duel'],
      ['Ann', 2, undefined],
      ['Bob', 3, undefined]
    ])
  })

  it('a last throw shows the dice as it left them: a Foursies re-roll beside the dice kept, also after an undo', () => {
    const session = openSession()
    session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    session.submit({ roll: [2, 2, 5, 6] })
    session.submit({ reroll: [2, 2] })
    session.submit({ roll: [3, 3] })
    const values = () => session.snapshot(true).current?.lastThrow?.dice.map((die) => `${die.value}${die.fresh ? '*' : ''}`)
    expect(session.snapshot(true).current?.lastThrow).toMatchObject({ caption: 'Ann’s last throw', values: [3, 3] })
    expect(values()).toEqual(['5', '6', '3*', '3*'])
    session.submit({ roll: [5, 5, 5, 3] })
    session.submit({ roll: [3] })
    expect(values()).toEqual(['5', '5', '5', '3*'])
    session.undo()
    session.undo()
    expect(values()).toEqual(['5', '6', '3*', '3*'])
    // Farkle: the dice set aside this turn are apart from the throw, as they were shown.
    session.newGame({ game: 'farkle', players: ['Ann', 'Bob'] })
    session.submit({ roll: [1, 2, 3, 4, 6, 6] })
    session.submit({ keep: [1] })
    session.submit({ roll: [2, 3, 3, 4, 6] })
    expect(session.snapshot(true).current?.lastThrow?.dice.filter((die) => !die.setAside).map((die) => die.value)).toEqual([2, 3, 3, 4, 6])
  })

  it('the log lines about a throw carry its dice, in the order the throw is worded; the line saying who plays next does not', async () => {
    const session = openSession()
    session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    session.submit({ roll: [4, 2, 3, 3] })
    const log = session.snapshot(true).current!.log
    expect(log.map((entry) => [entry.line, entry.text, entry.dice])).toEqual([
      [2, 'Ann throws 2 3 3 4', '2 3 3 4'],
      [2, 'Ann scores a 4 and has 1', '2 3 3 4'],
      [2, 'Ann ends the turn on 1', '2 3 3 4'],
      [2, 'Bob to throw', undefined]
    ])
    // A record whose move line is wrong is reported at the same number by referee replay.
    const record = await session.exportRecord()
    if (!record.ok) throw new Error(record.error)
    const broken = `${record.record}{"roll":[9,9,9,9]}\n`
    const file = join(dataDir, 'broken.jsonl')
    writeFileSync(file, broken)
    let stderr = ''
    try {
      execFileSync(process.execPath, ['--import', 'tsx', repoPath('src', 'cli', 'referee.ts'), 'replay', file], { stdio: 'pipe' })
    } catch (error) {
      stderr = String((error as { stderr: Buffer }).stderr)
    }
    expect(stderr).toMatch(/^line 3: /)
    session.submit({ roll: [9, 9, 9, 9] })
    session.submit({ roll: [6, 4, 5, 6] })
    expect(session.snapshot(true).current!.log.find((entry) => entry.line === 3)).toMatchObject({ text: 'Bob throws 4 5 6 6', dice: '4 5 6 6' })
    // Farkle alone: a farkle ends the turn and the same player throws next; that line is about the next throw.
    session.newGame({ game: 'farkle', players: ['Ann'] })
    session.submit({ roll: [6, 2, 3, 4, 6, 2] })
    const farkle = session.snapshot(true).current!.log
    expect(farkle.at(-1)).toMatchObject({ kind: 'nextTurn', seat: 0 })
    expect(farkle.at(-1)!.dice).toBeUndefined()
    expect(farkle.filter((entry) => entry.dice !== undefined).map((entry) => entry.dice)).toEqual(farkle.slice(0, -1).map(() => '2 2 3 4 6 6'))
    // The log folded again from the record (a resume after a restart) says the same.
    await session.stop()
    expect(openSession().snapshot(true).current!.log).toEqual(farkle)
  })

  it('the TV gets the move but never the computer’s reasons or the odds', async () => {
    const session = openSession()
    session.setShowOdds(true)
    session.newGame({ game: 'farkle', players: ['Ann', 'Cy'], computers: [1] })
    session.table.game.submit({ roll: [1, 1, 1, 5, 2, 3] }, { kind: 'computer', seat: 1 }, { text: 'Cy keeps 1 1 1: 62% to win', seat: 1 })
    // The odds are worked out once the throw has been pushed (here: the state a screen is sent).
    await session.oddsShown()
    const control = session.snapshot(true).current!
    const tv = session.snapshot(true, true, 'scoreboard').current!
    expect(control.log.some((entry) => entry.kind === 'computer')).toBe(true)
    expect(control.odds).not.toBeNull()
    expect(tv.log.some((entry) => entry.kind === 'computer' || entry.text.includes('%'))).toBe(false)
    expect(tv.log.length).toBeGreaterThan(0)
    expect(tv.odds).toBeNull()
  })

  it('the TV’s log is the moves of the last three record lines that have any, in order', () => {
    const session = openSession()
    session.newGame({ game: 'farkle', players: ['Ann', 'Cy'], computers: [1] })
    for (let move = 0; move < 12; move++) {
      const offer = session.snapshot(true).current!.offer
      if (offer.diceDue > 0) session.rollVirtual()
      else session.table.game.submit(offer.decisions[0].move, { kind: 'computer', seat: 1 }, { text: `reason ${move}`, seat: 1 })
    }
    const control = session.snapshot(true).current!.log
    const moves = control.filter((entry) => entry.kind !== 'computer')
    const lines = [...new Set(moves.map((entry) => entry.line))].slice(-3)
    expect(control.some((entry) => entry.kind === 'computer' && lines.includes(entry.line))).toBe(true)
    expect(session.snapshot(true, true, 'scoreboard').current!.log).toEqual(moves.filter((entry) => lines.includes(entry.line)))
  })

  it('a refused keypad entry clears what was typed; * below the entry minimum says how far the turn is', () => {
    const session = openSession()
    session.newGame({ game: 'farkle', players: ['Ann', 'Bob'] })
    session.submit({ roll: [1, 2, 3, 4, 6, 6] })
    for (const key of ['5', '5'] as const) session.keypad(key)
    expect(session.keypad('Enter').ok).toBe(false)
    expect(session.snapshot(true).keypad.buffer).toBe('')
    session.keypad('1')
    expect(session.keypad('Enter').ok).toBe(true)
    const star = session.keypad('*')
    expect(star).toEqual({ ok: false, error: 'Bank 100 is not allowed: Ann needs 500 in one turn to get on the board; this turn has 100, 400 short' })
    expect(session.snapshot(true).keypad.legend.find((entry) => entry.key === '+')?.does).toBe('keep the most')
  })

  it('an announcement ends with the next line', () => {
    const session = openSession()
    session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    session.submit({ roll: [2, 2, 2, 2] })
    expect(session.snapshot(true).current?.announcement).toMatchObject({ text: 'Four of a kind!' })
    expect(session.submit({ end: true })).toEqual({ ok: true })
    expect(session.snapshot(true).current?.announcement).toBeNull()
  })

  it('importing a game already in the history is refused; an abandoned game resumes from the history', async () => {
    const session = openSession()
    session.newGame({ game: 'farkle', players: ['Ann', 'Bob'] })
    session.submit({ roll: [1, 1, 1, 5, 2, 3] })
    const exported = await session.exportRecord()
    if (!exported.ok) throw new Error(exported.error)
    expect(await session.importRecord(exported.record)).toEqual({ ok: false, error: 'Import refused: this game is already on the table' })
    expect(session.abandon().ok).toBe(true)
    const [entry] = session.listHistory()
    expect(entry).toMatchObject({ finished: false, standings: [{ name: 'Ann' }, { name: 'Bob' }] })
    expect(await session.importRecord(exported.record)).toEqual({
      ok: false,
      error: 'Import refused: this game is already in the history (Farkle, Ann, Bob): resume it from there'
    })
    const opened = await session.openHistory(entry.id)
    if (!opened.ok) throw new Error(opened.error)
    expect(opened.game.stepCount).toBe(1)
    expect(session.historyStep(opened.game.replay, 0)).toMatchObject({ ok: true, step: { line: 2 } })
    expect(session.resumeHistory(entry.id)).toEqual({ ok: true })
    expect(session.snapshot(true).message?.text).toMatch(/^Resumed Farkle with Ann, Bob \(1 move\)\. /)
    expect(session.listHistory()).toEqual([])
    expect(session.snapshot(true).current).toMatchObject({ moveCount: 1, lastThrow: { caption: 'Ann’s throw', current: true } })
    // Reopened after a restart: the same game, nothing lost.
    expect(openSession().snapshot(true).current?.moveCount).toBe(1)
  })

  it('rematch: same players and options; Foursies passes the tab on, the others rotate the seats', () => {
    const session = openSession()
    expect(session.rematch().ok).toBe(false)
    session.newGame({ game: 'foursies', players: ['Ann', 'Bob', 'Cy'], computers: [2] })
    session.play(FOUR_FOURS)
    session.play(QUIET)
    session.play(QUIET)
    expect(session.snapshot(true).current?.summary.finished).toBe(true)
    expect(session.rematch()).toEqual({ ok: true })
    let current = session.snapshot(true).current!
    expect(current).toMatchObject({ players: ['Ann', 'Bob', 'Cy'], computers: [2], summary: { toPlay: 'Bob', tab: 'Bob' } })
    expect(session.listHistory()).toHaveLength(1)

    session.newGame({ game: 'four-plus', players: ['Ann', 'Bob'], rules: { rounds: 1 }, computers: [0] })
    for (let i = 0; i < 6; i++) session.play({ roll: [2, 3, 5, 6] })
    expect(session.snapshot(true).current?.summary.finished).toBe(true)
    session.rematch()
    current = session.snapshot(true).current!
    expect(current).toMatchObject({ players: ['Bob', 'Ann'], computers: [1], rules: { rounds: 1 } })
  })

  it('the screen API checks the new requests and answers the TV with its own state', async () => {
    const session = openSession()
    session.setShowOdds(true)
    session.newGame({ game: 'farkle', players: ['Ann', 'Cy'], computers: [1] })
    session.table.game.submit({ roll: [1, 1, 1, 5, 2, 3] }, { kind: 'computer', seat: 1 }, { text: 'Cy keeps 1 1 1: 62% to win', seat: 1 })
    const caller = session.screen
    expect(await dispatch(session.table, caller, 'resumeHistory', [42])).toEqual({ ok: false, error: 'resumeHistory: id must be a history id' })
    expect(await dispatch(session.table, caller, 'resumeHistory', ['../x'])).toEqual({ ok: false, error: 'resumeHistory: id must be a history id' })
    expect(await dispatch(session.table, caller, 'rematch', [1])).toMatchObject({ ok: false, error: expect.stringMatching(/^rematch takes 0 arguments/) })
    expect(await dispatch(session.table, session.screenFor(false, false), 'rematch', [])).toEqual({ ok: false, error: 'this screen can only watch' })
    expect(await dispatch(session.table, caller, 'rematch', [])).toEqual({ ok: false, error: 'A rematch starts once the game is over' })
    const tv = (await dispatch(session.table, session.screenFor(true, true, 'scoreboard'), 'getState', [])) as { ok: true; state: TableState }
    expect(tv.state.current?.odds).toBeNull()
    expect(tv.state.current?.log.some((entry) => entry.kind === 'computer')).toBe(false)
  })
})

describe('the TV over the host’s WebSocket', () => {
  it('a socket opened with ?screen=scoreboard gets no computer reasons and no odds, pushes included', async () => {
    const rendererDir = join(dataDir, 'renderer')
    mkdirSync(rendererDir, { recursive: true })
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>')
    const session = await serveTable(rendererDir, { dataDir, now: () => ++clock, fallbackDie: 3 })
    session.setShowOdds(true)
    try {
      const tv = await ScreenClient.open(apiAddress(session.url, '?screen=scoreboard'))
      const control = await ScreenClient.open(session.url)
      session.newGame({ game: 'farkle', players: ['Ann', 'Cy'], computers: [1] })
      session.table.game.submit({ roll: [1, 1, 1, 5, 2, 3] }, { kind: 'computer', seat: 1 }, { text: 'Cy keeps 1 1 1: 62% to win', seat: 1 })
      await waitUntil(() => expect(tv.states.at(-1)?.current?.moveCount).toBe(1))
      await waitUntil(() => expect(control.states.at(-1)?.current?.moveCount).toBe(1))
      // The odds follow the throw's push in one more, to the table screen only: nothing on the TV changed.
      await waitUntil(() => expect(control.states.at(-1)?.current?.odds).not.toBeNull())
      // A request answered on the TV's socket comes after anything pushed to it before.
      await tv.call('listDisplays')
      expect(tv.states.at(-1)!.version).toBe(control.states.at(-1)!.version - 1)
      expect(tv.states.at(-1)!.current?.moveCount).toBe(1)
      expect(tv.states.every((state) => state.current?.odds == null)).toBe(true)
      expect(tv.states.at(-1)?.current?.log.map((entry) => entry.kind)).not.toContain('computer')
      expect(control.states.at(-1)?.current?.log.map((entry) => entry.kind)).toContain('computer')
      tv.close()
      control.close()
    } finally {
      await session.stop()
    }
  })
})
