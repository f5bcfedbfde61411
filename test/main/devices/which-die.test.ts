// Which physical die moved (issue 11), over a REAL pseudo-terminal with the simulated hub, for each
// game: a wrong die in a re-roll, a held die nudged, a set-aside die thrown, too many dice thrown, a
// duel die thrown by the wrong duellist. Each is refused, nothing is recorded, the message says
// which die and what to do; then the right dice complete the throw, and `referee replay` of the
// record gives the state the table shows. A LAN viewer (and the TV) sees the same disagreement.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { summaryOf } from '@shared/game'
import type { SmartDiceView } from '@shared/devices'
import type { Move } from '@shared/games/types'
import { hubLinesRead, rig, waitFor, type Rig } from './harness'
import { ROOT } from '@test/kit/root'

const SIX = [
  { id: 'A', colour: 'red', label: 'Red' },
  { id: 'B', colour: 'blue', label: 'Blue' },
  { id: 'C', colour: 'white', label: 'Ivory' },
  { id: 'D', colour: 'green', label: 'Green' },
  { id: 'E', colour: 'black', label: 'Black' },
  { id: 'F', colour: 'yellow', label: 'Yellow' }
]

const rigs: Rig[] = []
const stops: (() => void)[] = []
async function open(...args: Parameters<typeof rig>): Promise<Rig> {
  const r = await rig(...args)
  rigs.push(r)
  return r
}
afterEach(async () => {
  while (stops.length) stops.pop()!()
  while (rigs.length) await rigs.pop()!.close()
})

const moves = (r: Rig): number => r.session.currentGame?.moves.length ?? 0
const lines = (r: Rig): Move[] =>
  readFileSync(join(r.dir, 'data', 'current.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => {
      const { at: _at, ...move } = JSON.parse(l) as Move & { at: number }
      return move as Move
    })
const message = (r: Rig): string => r.session.snapshot(true).message?.text ?? ''
/** What a LAN-paired screen (and the TV) is shown: no device details, the smart dice view. */
const lan = (r: Rig): SmartDiceView => r.session.snapshot(false, false).smartDice!
const role = (r: Rig, die: string): string => lan(r).dice.find((d) => d.die === die)!.role
const blinks = (r: Rig): string[] => r.hub.commands.flatMap((c) => (c.type === 'blink' && c.seconds > 0 ? [c.die] : []))

/** A refusal: the message names the die and the value, nothing is recorded, every screen shows it. */
async function refused(r: Rig, pattern: RegExp, what: string): Promise<void> {
  const before = moves(r)
  await waitFor(() => pattern.test(message(r)), `${what} refused (message: ${message(r)})`)
  await hubLinesRead(r)
  expect(moves(r)).toBe(before)
  expect(r.session.snapshot(true).message?.level).toBe('warning')
  expect(lan(r).disagreements.some((d) => pattern.test(d))).toBe(true)
  expect(lan(r).dice.some((d) => !d.agrees)).toBe(true)
}

/** `referee replay` of the saved record gives the state the session shows. */
function replaysTheSame(r: Rig): void {
  const result = spawnSync('npm', ['run', '-s', 'referee', '--', 'replay', join(r.dir, 'data', 'current.jsonl')], { cwd: ROOT, encoding: 'utf8' })
  expect(result.stderr).toBe('')
  expect(result.status).toBe(0)
  expect(JSON.parse(result.stdout)).toEqual(JSON.parse(JSON.stringify(summaryOf(r.session.currentGame!))))
}

describe('the referee knows which physical die moved', () => {
  it('Foursies: a scored 4 thrown again, a held die nudged, too many dice, a die that is no duellist’s', async () => {
    const r = await open({ speed: 0.03 })
    r.session.newGame({ game: 'foursies', players: ['Ann', 'Bob', 'Cy'] })
    expect(lan(r).toThrow).toBe('Throw A (Red), B (Blue), C (Ivory) and D (Green)')
    // The throw: A=4 B=2 C=6 D=3, and 6-2 is a false four.
    await r.hub.throw({ A: 4, B: 2, C: 6, D: 3 })
    await waitFor(() => moves(r) === 1, 'the opening throw')
    expect(lan(r).dice.map((d) => [d.die, d.role, d.record, d.face])).toEqual([
      ['A', 'hold', 4, 4],
      ['B', 'hold', 2, 2],
      ['C', 'hold', 6, 6],
      ['D', 'hold', 3, 3]
    ])

    // A held die nudged while the decision is due.
    r.hub.nudge('D', 5)
    await refused(r, /Die D \(Green\) holds the 3 of the throw in play: put it back on 3/, 'the nudged D')
    r.hub.nudge('D', 3)
    await waitFor(() => lan(r).disagreements.length === 0, 'D put back')

    const blinked = blinks(r).length
    for (const key of ['2', '6', 'Enter'] as const) r.session.keypad(key)
    expect(moves(r)).toBe(2)
    expect(lan(r).toThrow).toBe('Throw B (Blue) and C (Ivory)')
    expect(role(r, 'A')).toBe('hold')
    await waitFor(() => blinks(r).length === blinked + 2, 'B and C lit up')
    expect(blinks(r).slice(blinked).sort()).toEqual(['B', 'C'])

    // The wrong die in the re-roll: A, the 4 that scored, is thrown and settles on 5.
    await r.hub.throw({ A: 5 })
    await refused(r, /Die A \(Red\) holds the 4 that scored: put it back on 4/, 'A thrown')
    // B (due) settles on 4: the throw waits, as A is astray.
    await r.hub.throw({ B: 4 })
    await hubLinesRead(r)
    expect(moves(r)).toBe(2)
    // Too many dice: D (holding 3) is thrown too.
    await r.hub.throw({ D: 1 })
    await refused(r, /Die D \(Green\) holds the 3 that stays: put it back on 3/, 'D thrown')
    expect(message(r)).toMatch(/The throw waits for B \(Blue\) and C \(Ivory\)/)
    r.hub.nudge('A', 4)
    r.hub.nudge('D', 3)
    await waitFor(() => lan(r).disagreements.length === 0, 'A and D put back')
    await r.hub.throw({ C: 2 })
    await waitFor(() => moves(r) === 3, 'the re-roll of B and C')
    expect(lines(r).slice(0, 3)).toEqual([{ roll: [4, 2, 6, 3] }, { reroll: [2, 6] }, { roll: [4, 2] }])

    // Ann ended on 2. Bob and Cy play to a three-way duel? Ann is on 2: play the rest of the round
    // with 4 4 4 4 for Bob and Cy, then Ann's score stays 2: a duel needs two on 4, so Bob and Cy duel.
    await r.hub.throw({ A: 4, B: 4, C: 4, D: 4 })
    await waitFor(() => moves(r) === 4, 'Bob 4 4 4 4')
    await r.hub.throw({ A: 4, B: 4, C: 4, D: 4 })
    await waitFor(() => moves(r) === 5, 'Cy 4 4 4 4')
    expect(r.session.currentGame!.state).toMatchObject({ phase: 'duel' })
    expect(lan(r).toThrow).toBe('Bob throws A (Red) and Cy throws B (Blue)')
    // C is no duellist's die.
    await r.hub.throw({ C: 6 })
    await refused(r, /Die C \(Ivory\) is no duellist's die \(Bob throws A \(Red\) and Cy throws B \(Blue\)\): put it back on 4/, 'C in the duel')
    r.hub.nudge('C', 4)
    await waitFor(() => lan(r).disagreements.length === 0, 'C put back')
    await r.hub.throw({ A: 2, B: 3 }) // no 4: both throw again
    await waitFor(() => moves(r) === 6, 'the first duel throw')
    await r.hub.throw({ A: 4, B: 1 })
    await waitFor(() => moves(r) === 7, 'the deciding duel throw')
    expect(summaryOf(r.session.currentGame!)).toMatchObject({ finished: true, winners: ['Bob'] })
    expect(lines(r).slice(5)).toEqual([{ roll: [2, 3] }, { roll: [4, 1] }])
    replaysTheSame(r)
  })

  it('Foursies: a die thrown by a duellist who is out of the duel is refused', async () => {
    const r = await open({ speed: 0.03 })
    r.session.newGame({ game: 'foursies', players: ['Ann', 'Bob', 'Cy'] })
    for (let i = 1; i <= 3; i++) {
      await r.hub.throw({ A: 4, B: 4, C: 4, D: 4 })
      await waitFor(() => moves(r) === i, `4 4 4 4 number ${i}`)
    }
    expect(lan(r).toThrow).toBe('Ann throws A (Red), Bob throws B (Blue) and Cy throws C (Ivory)')
    await r.hub.throw({ A: 4, B: 4, C: 1 }) // Ann and Bob go on; Cy is out
    await waitFor(() => moves(r) === 4, 'the first duel throw')
    expect(lan(r).toThrow).toBe('Ann throws A (Red) and Bob throws B (Blue)')
    await r.hub.throw({ C: 4 }) // Cy throws her die again
    await refused(r, /Die C \(Ivory\) is no duellist's die \(Ann throws A \(Red\) and Bob throws B \(Blue\)\): put it back on 1/, 'Cy’s die')
    r.hub.nudge('C', 1)
    await r.hub.throw({ A: 4, B: 6 })
    await waitFor(() => moves(r) === 5, 'the deciding throw')
    expect(summaryOf(r.session.currentGame!).winners).toEqual(['Ann'])
    replaysTheSame(r)
  })

  for (const game of ['farkle', 'fouche'] as const) {
    it(`${game}: a set-aside die thrown, a held die nudged, too many dice; then the right dice complete the throw`, async () => {
      const r = await open({ speed: 0.03, dice: SIX })
      r.session.newGame({ game, players: ['Ann', 'Bob'] })
      await r.hub.throw({ A: 1, B: 5, C: 2, D: 3, E: 4, F: 6 })
      await waitFor(() => moves(r) === 1, 'the opening throw')
      // A die of the throw in play nudged while the keep is due.
      r.hub.nudge('E', 2)
      await refused(r, /Die E \(Black\) holds the 4 of the throw in play: put it back on 4/, 'E nudged')
      r.hub.nudge('E', 4)
      await waitFor(() => lan(r).disagreements.length === 0, 'E put back')

      expect(r.session.submit({ keep: [1] })).toEqual({ ok: true })
      expect(lan(r).toThrow).toBe('Throw B (Blue), C (Ivory), D (Green), E (Black) and F (Yellow)')
      expect(lan(r).dice.find((d) => d.die === 'A')).toMatchObject({ role: 'hold', record: 1 })
      // The set-aside 1 is thrown with the others (too many dice).
      await r.hub.throw({ A: 3, B: 5, C: 5, D: 5, E: 2, F: 3 })
      await refused(r, /Die A \(Red\) is set aside on 1: put it back on 1/, 'the set-aside A')
      r.hub.nudge('A', 1)
      await waitFor(() => moves(r) === 3, 'the five dice, once A is back')
      expect(lines(r)[2]).toEqual({ roll: [5, 5, 5, 2, 3] })

      expect(r.session.submit({ keep: [5, 5, 5] })).toEqual({ ok: true })
      expect(lan(r).toThrow).toBe('Throw E (Black) and F (Yellow)')
      // A set-aside die nudged, then the wrong die in the throw of two.
      r.hub.nudge('B', 6)
      await refused(r, /Die B \(Blue\) is set aside on 5: put it back on 5/, 'B nudged')
      r.hub.nudge('B', 5)
      await r.hub.throw({ C: 1 })
      await refused(r, /Die C \(Ivory\) is set aside on 5: put it back on 5/, 'C thrown')
      r.hub.nudge('C', 5)
      await r.hub.throw({ E: 1, F: 5 })
      await waitFor(() => moves(r) === 5, 'E and F')
      expect(lines(r).slice(3)).toEqual([{ keep: [5, 5, 5] }, { roll: [1, 5] }])
      replaysTheSame(r)
    })
  }

  it('dice that cannot be named: a hub of 4 under a game of 6 says to type the throw; spare dice say how many of them', async () => {
    const r = await open({ speed: 0.03 })
    r.session.newGame({ game: 'farkle', players: ['Ann', 'Bob'] })
    await waitFor(() => lan(r)?.toThrow !== undefined, 'the smart dice view')
    expect(lan(r).toThrow).toBe('Throw 6 dice and type the throw on the keypad: only 4 smart dice are in the game')
    const six = await open({ speed: 0.03, dice: SIX })
    six.session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    await waitFor(() => lan(six)?.toThrow !== undefined, 'the smart dice view')
    expect(lan(six).toThrow).toBe('Throw any 4 of the 6 smart dice')
  })

  it('4-PLU$: every throw takes all four; the keypad says which dice it replaces; a computer seat never uses the smart dice', async () => {
    const r = await open({ speed: 0.03 }, {}, true, { computer: { delayMs: 400, random: () => 0.5 } })
    r.session.newGame({ game: 'four-plus', players: ['Ann', 'Robo'], computers: [1] })
    expect(lan(r).toThrow).toBe('Throw A (Red), B (Blue), C (Ivory) and D (Green)')
    // The keypad is the override: it says which dice its values stand for.
    for (const key of ['2', '3', '5', '6', 'Enter'] as const) r.session.keypad(key)
    await waitFor(() => /Entered by hand: 2 3 5 6 in place of A \(Red\), B \(Blue\), C \(Ivory\) and D \(Green\)/.test(message(r)), 'the keypad note')
    // Ann throws until it is the computer's turn; a smart-dice throw then is not the computer's.
    while (summaryOf(r.session.currentGame!).toPlay === 'Ann') {
      const before = moves(r)
      await r.hub.throw({ A: 2, B: 3, C: 5, D: 6 })
      await waitFor(() => moves(r) === before + 1, 'Ann’s throw')
    }
    expect(lan(r).note).toMatch(/Robo \(computer\) throws virtual dice: the smart dice are not used/)
    expect(lan(r).toThrow).toBe('')
    const atRobo = moves(r)
    await r.hub.throw({ A: 6, B: 6, C: 6, D: 6 })
    await waitFor(() => moves(r) > atRobo, 'the computer’s own virtual throw')
    const robo = lines(r).slice(atRobo)
    expect(robo.some((m) => JSON.stringify(m) === JSON.stringify({ roll: [6, 6, 6, 6] }))).toBe(false)
    replaysTheSame(r)
  })
})
