import { describe, expect, it } from 'vitest'
import { ThrowAssembler } from '@shared/devices'
import { keypadKeyOf, keysOfTyped } from '@shared/keypad-keys'
import { explainOpenError } from '@main/devices/serial-port'

const HUB = 'H1'

function assembler(due: number | null = 4): ThrowAssembler {
  const a = new ThrowAssembler()
  ;['A', 'B', 'C', 'D'].forEach((id, i) => a.register(HUB, id, i, id))
  a.setRules({ due })
  return a
}

/** Throws 0 to count - 1 of all four dice, each settled on 2 and counted. */
function countThrows(a: ThrowAssembler, count: number): void {
  for (let n = 0; n < count; n++) {
    for (const id of ['A', 'B', 'C', 'D']) a.rolling(HUB, id, n)
    for (const id of ['A', 'B', 'C', 'D']) a.settled(HUB, id, n, 2)
    a.counted()
  }
}

function baseline(a: ThrowAssembler, faces: Record<string, number>): void {
  for (const [id, face] of Object.entries(faces)) a.snapshot(HUB, id, 'settled', null, face, true)
}

describe('the throw assembler', () => {
  it('completes when the due dice have rolled and settled, values in die order', () => {
    const a = assembler(4)
    for (const id of ['C', 'A', 'D', 'B']) a.rolling(HUB, id, 7)
    a.settled(HUB, 'D', 7, 6)
    a.settled(HUB, 'A', 7, 2)
    a.settled(HUB, 'C', 7, 4)
    expect(a.verdict()).toEqual({ kind: 'waiting', text: '3 of 4 dice settled' })
    a.settled(HUB, 'B', 7, 1)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [2, 1, 4, 6], names: ['A', 'B', 'C', 'D'], flags: [] })
    a.counted()
    expect(a.verdict()).toEqual({ kind: 'idle' })
  })

  it('a re-roll of 2 dice is the 2 values that settled; the others keep theirs', () => {
    const a = assembler(2)
    baseline(a, { A: 2, B: 2, C: 5, D: 3 })
    a.rolling(HUB, 'A', 8)
    a.rolling(HUB, 'B', 8)
    a.settled(HUB, 'B', 8, 6)
    expect(a.verdict().kind).toBe('waiting')
    a.settled(HUB, 'A', 8, 4)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [4, 6] })
  })

  it('dice thrown one after the other (different hub throws) make one throw', () => {
    const a = assembler(2)
    a.rolling(HUB, 'A', 1)
    a.settled(HUB, 'A', 1, 3)
    expect(a.verdict().kind).toBe('waiting')
    a.rolling(HUB, 'B', 2)
    a.settled(HUB, 'B', 2, 5)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [3, 5] })
  })

  it('a die knocked while its throw is open tumbles again: the face it comes to rest on counts', () => {
    const a = assembler(4)
    for (const id of ['A', 'B', 'C', 'D']) a.rolling(HUB, id, 0)
    a.settled(HUB, 'A', 0, 5)
    a.settled(HUB, 'C', 0, 1)
    a.settled(HUB, 'D', 0, 1)
    a.rolling(HUB, 'A', 0) // knocked by B, still in the hub's open throw
    a.settled(HUB, 'B', 0, 3)
    expect(a.verdict()).toEqual({ kind: 'waiting', text: '3 of 4 dice settled' })
    a.settled(HUB, 'A', 0, 2)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [2, 3, 1, 1] })
  })

  it('a die knocked after its throw was counted is as if turned by hand: the table is told to put it back', () => {
    const a = assembler(4)
    for (const id of ['A', 'B', 'C', 'D']) a.rolling(HUB, id, 0)
    for (const [id, face] of [['A', 5], ['B', 3], ['C', 1], ['D', 1]] as const) a.settled(HUB, id, 0, face)
    a.counted()
    a.setRules({ due: 0 })
    a.rolling(HUB, 'A', 0)
    a.settled(HUB, 'A', 0, 2)
    expect(a.takeNotes()).toEqual(['A was turned from 5 to 2 after its throw was counted as 5: put it back on 5'])
    expect(a.verdict()).toEqual({ kind: 'idle' })
  })

  it('a settled die thrown again with a cocked one keeps its face: it is put back on it before the throw counts', () => {
    const a = assembler(4)
    for (const id of ['A', 'B', 'C', 'D']) a.rolling(HUB, id, 4)
    a.settled(HUB, 'A', 4, 5)
    a.settled(HUB, 'B', 4, 5)
    a.cocked(HUB, 'C', 4)
    a.settled(HUB, 'D', 4, 5)
    a.rolling(HUB, 'C', 5) // the cocked die thrown again, as it should be...
    a.rolling(HUB, 'A', 5) // ...and A with it, which it should not
    a.settled(HUB, 'C', 5, 4)
    a.settled(HUB, 'A', 5, 1)
    expect(a.verdict()).toMatchObject({ kind: 'problem', problem: 'wrong-die', text: expect.stringContaining('Die A was thrown again after it settled on 5 in this throw: put it back on 5') })
    a.moved(HUB, 'A', 5)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [5, 5, 4, 5] })
    // The same when A is picked up first, while C still lies cocked.
    const b = assembler(4)
    for (const id of ['A', 'B', 'C', 'D']) b.rolling(HUB, id, 4)
    for (const id of ['A', 'B', 'D']) b.settled(HUB, id, 4, 5)
    b.cocked(HUB, 'C', 4)
    b.rolling(HUB, 'A', 5)
    b.rolling(HUB, 'C', 5)
    b.settled(HUB, 'A', 5, 1)
    b.settled(HUB, 'C', 5, 4)
    expect(b.verdict()).toMatchObject({ kind: 'problem', problem: 'wrong-die' })
  })

  it('without a cocked die, a settled die knocked by a die thrown after it counts with its new face', () => {
    const a = assembler(2)
    a.rolling(HUB, 'A', 10)
    a.settled(HUB, 'A', 10, 3)
    a.rolling(HUB, 'B', 11) // thrown after A, in the hub's next throw...
    a.rolling(HUB, 'A', 11) // ...and knocks A over
    a.settled(HUB, 'A', 11, 6)
    a.settled(HUB, 'B', 11, 2)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [6, 2] })
  })

  it('a snapshot saying dice of the open throw made no throw since boot takes them out of the throw, and the table is told', () => {
    const a = assembler(4)
    countThrows(a, 3)
    a.rolling(HUB, 'A', 3)
    a.rolling(HUB, 'B', 3)
    a.settled(HUB, 'A', 3, 6)
    for (const id of ['A', 'B', 'C', 'D']) a.snapshot(HUB, id, 'settled', null, 2, false)
    expect(a.isThrown('H1/A') || a.isThrown('H1/B')).toBe(false)
    expect(a.takeNotes()).toEqual(['The hub says A and B made no throw since it started (did it restart?): throw them again, or type the throw'])
    for (const id of ['A', 'B', 'C', 'D']) a.rolling(HUB, id, 0)
    for (const id of ['A', 'B', 'C', 'D']) a.settled(HUB, id, 0, 4)
    expect(a.takeDoubt()).toBe(false)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [4, 4, 4, 4] })
  })

  it('a device that restarted leaves the open throw: its dice are thrown again, numbered from 0', () => {
    const a = assembler(4)
    a.register('H2', 'E', 10, 'E')
    countThrows(a, 6)
    a.setRules({ due: 3 })
    a.rolling(HUB, 'A', 6)
    a.settled(HUB, 'B', 6, 4)
    a.rolling('H2', 'E', 40)
    expect(a.restarted(HUB)).toEqual(['A', 'B'])
    expect(a.isThrown('H2/E')).toBe(true)
    for (const id of ['A', 'B']) a.rolling(HUB, id, 0) // the new boot's first throw: new, not late
    a.settled(HUB, 'A', 0, 6)
    a.settled(HUB, 'B', 0, 1)
    a.settled('H2', 'E', 40, 3)
    expect(a.takeDoubt()).toBe(false)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [6, 1, 3] })
  })

  it('a snapshot saying a die made no throw since boot, while the host knows one, is a restart: its next throws count from 0', () => {
    const a = assembler(4)
    countThrows(a, 3)
    for (const id of ['A', 'B', 'C', 'D']) a.snapshot(HUB, id, 'settled', null, 2, false)
    for (const id of ['A', 'B', 'C', 'D']) a.rolling(HUB, id, 0)
    for (const id of ['A', 'B', 'C', 'D']) a.settled(HUB, id, 0, 5)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [5, 5, 5, 5] })
  })

  it('a cocked die holds the throw until it is thrown again or nudged flat', () => {
    const a = assembler(2)
    a.rolling(HUB, 'A', 3)
    a.rolling(HUB, 'B', 3)
    a.settled(HUB, 'A', 3, 5)
    a.cocked(HUB, 'B', 3)
    expect(a.verdict()).toMatchObject({ kind: 'problem', problem: 'cocked', text: expect.stringContaining('B is cocked') })
    a.moved(HUB, 'B', null)
    expect(a.verdict()).toMatchObject({ kind: 'problem', problem: 'cocked' })
    a.moved(HUB, 'B', 3)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [5, 3] })
    a.counted()

    a.rolling(HUB, 'A', 4)
    a.rolling(HUB, 'B', 4)
    a.cocked(HUB, 'A', 4)
    a.settled(HUB, 'B', 4, 1)
    a.rolling(HUB, 'A', 5) // thrown again
    expect(a.verdict().kind).toBe('waiting')
    a.settled(HUB, 'A', 5, 6)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [6, 1] })
  })

  it('a die turned after it settled keeps its settled face and is flagged', () => {
    const a = assembler(2)
    a.rolling(HUB, 'A', 3)
    a.rolling(HUB, 'B', 3)
    a.settled(HUB, 'A', 3, 2)
    a.moved(HUB, 'A', 4)
    a.settled(HUB, 'B', 3, 6)
    const v = a.verdict()
    expect(v).toMatchObject({ kind: 'complete', values: [2, 6] })
    expect(v.kind === 'complete' && v.flags[0]).toMatch(/A was turned to 4 after it settled on 2: 2 counts/)
    a.counted()
    a.moved(HUB, 'B', 5)
    expect(a.takeNotes()[0]).toMatch(/B was turned from 6 to 5 after its throw was counted as 6/)
    expect(a.verdict()).toEqual({ kind: 'idle' })
  })

  it('more dice than due: nothing until the extra die is put back (or the throw typed)', () => {
    const a = assembler(2)
    baseline(a, { A: 2, B: 2, C: 5, D: 3 })
    for (const id of ['A', 'B', 'C']) a.rolling(HUB, id, 9)
    a.settled(HUB, 'A', 9, 1)
    a.settled(HUB, 'B', 9, 4)
    a.settled(HUB, 'C', 9, 6)
    expect(a.verdict()).toMatchObject({ kind: 'problem', problem: 'too-many', text: expect.stringContaining('C was 5') })
    a.moved(HUB, 'C', 1) // not its old face: still ambiguous
    expect(a.verdict()).toMatchObject({ kind: 'problem', problem: 'too-many' })
    a.moved(HUB, 'C', 5) // put back
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [1, 4] })
    a.counted()
    for (const id of ['A', 'B', 'C']) a.rolling(HUB, id, 10)
    a.clear() // the table typed the throw instead
    expect(a.verdict()).toEqual({ kind: 'idle' })
  })

  it('dice thrown when no throw is due are called out, and count once the decision makes them due', () => {
    const a = assembler(0)
    a.rolling(HUB, 'A', 1)
    a.rolling(HUB, 'B', 1)
    a.settled(HUB, 'A', 1, 3)
    a.settled(HUB, 'B', 1, 3)
    expect(a.verdict()).toMatchObject({ kind: 'problem', problem: 'not-due', text: expect.stringContaining('A and B were thrown') })
    a.setRules({ due: 0, blocked: 'Start a game first' })
    expect(a.verdict()).toMatchObject({ text: expect.stringMatching(/^Start a game first/) })
    a.setRules({ due: 2 })
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [3, 3] })
  })

  it('test mode (any number of dice) completes when every rolled die settled', () => {
    const a = assembler(null)
    a.rolling(HUB, 'D', 1)
    a.rolling(HUB, 'B', 1)
    a.settled(HUB, 'D', 1, 2)
    expect(a.verdict().kind).toBe('waiting')
    a.settled(HUB, 'B', 1, 5)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [5, 2] })
  })

  it('snapshots: a baseline teaches, a missed throw counts, a counted throw never counts twice', () => {
    const a = assembler(2)
    a.snapshot(HUB, 'A', 'settled', 4, 3, true)
    a.snapshot(HUB, 'B', 'settled', 4, 5, true)
    expect(a.verdict()).toEqual({ kind: 'idle' })
    // lines lost while unplugged: the snapshot shows A and B thrown again (throw 5)
    a.snapshot(HUB, 'A', 'settled', 5, 6, false)
    a.snapshot(HUB, 'B', 'rolling', 5, null, false)
    expect(a.verdict().kind).toBe('waiting')
    a.settled(HUB, 'B', 5, 2)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [6, 2] })
    a.counted()
    a.snapshot(HUB, 'A', 'settled', 5, 6, false)
    a.snapshot(HUB, 'B', 'settled', 5, 2, false)
    a.settled(HUB, 'B', 5, 2) // a late copy of a counted throw's line
    a.snapshot(HUB, 'A', 'settled', 4, 3, false) // older throw
    expect(a.verdict()).toEqual({ kind: 'idle' })
  })

  it('ignores a settled line of an older throw of the same die', () => {
    const a = assembler(1)
    a.rolling(HUB, 'A', 11)
    a.settled(HUB, 'A', 10, 4)
    expect(a.verdict().kind).toBe('waiting')
    a.settled(HUB, 'A', 11, 2)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [2] })
  })

  it('throw numbers wrap: 0 follows 65535', () => {
    const a = assembler(1)
    a.rolling(HUB, 'A', 65535)
    a.settled(HUB, 'A', 65535, 3)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [3] })
    a.counted()
    a.rolling(HUB, 'A', 0)
    a.settled(HUB, 'A', 0, 5)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [5] })
  })

  it('a number far from the die’s latest is a new throw: noise that moved the number hides none of the next throws', () => {
    for (const jump of [20000, 32000, 40000, 65000]) {
      const a = assembler(2)
      a.rolling(HUB, 'A', 3)
      a.rolling(HUB, 'B', 3)
      a.settled(HUB, 'A', 3, 1)
      a.settled(HUB, 'B', 3, 2)
      a.counted()
      a.settled(HUB, 'A', (3 + jump) % 65536, 6) // a line of noise that passed every check
      for (let n = 4; n < 8; n++) {
        a.rolling(HUB, 'A', n)
        a.rolling(HUB, 'B', n)
        a.settled(HUB, 'A', n, n - 3)
        a.settled(HUB, 'B', n, 2)
        expect(a.verdict(), `jump ${jump}, throw ${n}`).toMatchObject({ kind: 'complete', values: [n - 3, 2] })
        a.counted()
      }
    }
  })

  it('a throw number just ahead of the hub’s (noise) hides its next throw until the hub’s snapshot shows it', () => {
    const a = assembler(2)
    baseline(a, { A: 1, B: 2 })
    a.snapshot(HUB, 'A', 'settled', 3, 1, true)
    a.snapshot(HUB, 'B', 'settled', 3, 2, true)
    a.settled(HUB, 'A', 6, 6) // noise: three throws ahead
    expect(a.takeDoubt()).toBe(false)
    a.counted()
    a.rolling(HUB, 'A', 4) // the hub's next throw looks like a late line...
    expect(a.takeDoubt()).toBe(true) // ...of a throw never seen: ask the hub
    expect(a.takeDoubt()).toBe(false)
    a.rolling(HUB, 'B', 4)
    a.settled(HUB, 'A', 4, 5)
    a.settled(HUB, 'B', 4, 3)
    expect(a.verdict().kind).not.toBe('complete')
    a.snapshot(HUB, 'A', 'settled', 4, 5, false) // the hub's own account
    a.snapshot(HUB, 'B', 'settled', 4, 3, false)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [5, 3] })
  })

  it('a throw re-sent 40 throws later is still known and not counted', () => {
    const a = assembler(1)
    for (let n = 1; n <= 41; n++) {
      a.rolling(HUB, 'A', n)
      a.settled(HUB, 'A', n, 1 + (n % 6))
      a.counted()
    }
    a.rolling(HUB, 'A', 1)
    a.settled(HUB, 'A', 1, 2)
    expect(a.verdict()).toEqual({ kind: 'idle' })
    expect(a.takeDoubt()).toBe(false)
  })

  it('a whole throw re-sent after later throws is not counted again', () => {
    const a = assembler(1)
    for (let n = 1; n <= 5; n++) {
      a.rolling(HUB, 'A', n)
      a.settled(HUB, 'A', n, n)
      expect(a.verdict()).toMatchObject({ kind: 'complete', values: [n] })
      a.counted()
    }
    a.rolling(HUB, 'A', 2)
    a.settled(HUB, 'A', 2, 2)
    expect(a.verdict()).toEqual({ kind: 'idle' })
  })

  it('a duel: values in die order, so the first die in order belongs to the first duellist in seat order', () => {
    const a = assembler(3)
    a.rolling(HUB, 'C', 1)
    a.rolling(HUB, 'A', 1)
    a.rolling(HUB, 'B', 1)
    a.settled(HUB, 'C', 1, 4)
    a.settled(HUB, 'A', 1, 1)
    a.settled(HUB, 'B', 1, 6)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [1, 6, 4], names: ['A', 'B', 'C'] })
  })
})

describe('dice out of the game', () => {
  /** Five dice on the hub, E out of the game. */
  function five(due: number): ThrowAssembler {
    const a = new ThrowAssembler()
    ;['A', 'B', 'C', 'D', 'E'].forEach((id, i) => a.register(HUB, id, i, id))
    a.setInGame(HUB, 'E', false)
    a.setRules({ due })
    return a
  }

  it('never join or complete a throw, whatever they do', () => {
    const a = five(4)
    expect(a.isInGame(HUB, 'E')).toBe(false)
    expect(a.isInGame(HUB, 'A')).toBe(true)
    a.rolling(HUB, 'E', 1)
    a.cocked(HUB, 'E', 1)
    a.moved(HUB, 'E', 3)
    a.settled(HUB, 'E', 2, 6)
    a.snapshot(HUB, 'E', 'settled', 3, 5, false)
    expect(a.verdict()).toEqual({ kind: 'idle' })
    expect(a.view()).toBeNull()
    expect(a.takeNotes()).toEqual([])

    for (const id of ['A', 'B', 'C', 'E']) a.rolling(HUB, id, 4)
    for (const [id, face] of [['A', 1], ['B', 2], ['C', 3], ['E', 6]] as const) a.settled(HUB, id, 4, face)
    expect(a.verdict()).toEqual({ kind: 'waiting', text: '3 of 4 dice settled' }) // E is no fourth die
    expect(a.view()?.dice.map((d) => d.die)).toEqual(['A', 'B', 'C'])
    a.rolling(HUB, 'D', 5)
    a.cocked(HUB, 'E', 5) // a cocked die out of the game holds nothing
    a.settled(HUB, 'D', 5, 4)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [1, 2, 3, 4], names: ['A', 'B', 'C', 'D'] })
  })

  it('are never "too many" and never thrown when no throw is due', () => {
    const a = five(2)
    for (const id of ['A', 'E', 'B']) a.rolling(HUB, id, 7)
    for (const id of ['A', 'E', 'B']) a.settled(HUB, id, 7, 5)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [5, 5] })
    a.counted()
    a.setRules({ due: 0 })
    a.rolling(HUB, 'E', 8)
    a.settled(HUB, 'E', 8, 2)
    expect(a.verdict()).toEqual({ kind: 'idle' })
  })

  it('taken out while in the open throw: the rest may be complete', () => {
    const a = assembler(2)
    baseline(a, { A: 2, B: 2, C: 5, D: 3 })
    for (const id of ['A', 'B', 'C']) a.rolling(HUB, id, 9)
    a.settled(HUB, 'A', 9, 1)
    a.settled(HUB, 'B', 9, 4)
    a.settled(HUB, 'C', 9, 6)
    expect(a.verdict()).toMatchObject({ kind: 'problem', problem: 'too-many' })
    a.setInGame(HUB, 'C', false)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [1, 4] })
  })

  it('put back in the game: their throws count again, an earlier throw of theirs does not', () => {
    const a = five(1)
    a.rolling(HUB, 'E', 3)
    a.setInGame(HUB, 'E', true)
    a.settled(HUB, 'E', 3, 6) // the throw it started out of the game
    expect(a.verdict()).toEqual({ kind: 'idle' })
    a.rolling(HUB, 'E', 4)
    a.settled(HUB, 'E', 4, 2)
    expect(a.verdict()).toMatchObject({ kind: 'complete', values: [2], names: ['E'] })
  })
})

describe('serial keypads', () => {
  it('maps keypad keys onto the keypad grammar', () => {
    expect(['5', '#', 'enter', 'A', 'back', 'clear', 'D', '*', 'x', 'F1'].map(keypadKeyOf)).toEqual(['5', 'Enter', 'Enter', 'Enter', 'Backspace', '.', '/', '*', null, null])
    expect(keysOfTyped('3446')).toEqual(['.', '3', '4', '4', '6', 'Enter'])
    expect(keysOfTyped('*')).toEqual(['*'])
    expect(keysOfTyped('12ab')).toBeNull()
  })
})

describe('port errors', () => {
  it('says what to do about permissions and busy ports', () => {
    const eacces = Object.assign(new Error('Error: Permission denied, cannot open /dev/ttyACM0'), { code: 'EACCES' })
    expect(explainOpenError(eacces, '/dev/ttyACM0', 'linux')).toMatch(/dialout group .*log out and in again/)
    expect(explainOpenError(new Error('Opening COM3: Access denied'), 'COM3', 'win32')).toMatch(/in use by another program/)
    expect(explainOpenError(new Error('Error: No such file or directory, cannot open /dev/x'), '/dev/x', 'linux')).toMatch(/plugged in/)
  })
})
