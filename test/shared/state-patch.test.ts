import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { applyStatePatch, diffState, type JsonObject } from '@shared/state-patch'
import { openTable } from '../kit/table'
import type { GameSetup } from '@shared/api-methods'

/** What a screen ends up with: the patch travels as JSON. */
function roundTrip(before: JsonObject, after: JsonObject): JsonObject {
  const patch = JSON.parse(JSON.stringify(diffState(before, after))) as ReturnType<typeof diffState>
  return applyStatePatch(before, patch)
}

describe('state patches', () => {
  it('give back the later state exactly, nulls and removed members included', () => {
    const before: JsonObject = {
      version: 1,
      a: { b: 1, c: [1, 2], gone: 'x', nested: { keep: true, drop: 1 } },
      toObject: 3,
      toArray: { x: 1 },
      toNull: { y: 2 },
      fromNull: null,
      same: { deep: [{ z: 1 }] }
    }
    const after: JsonObject = {
      version: 2,
      a: { b: null, c: [1, 2, 3], nested: { keep: true }, added: { n: null } },
      toObject: { now: { an: 'object', with: null } },
      toArray: [1, { x: 1 }],
      toNull: null,
      fromNull: { v: 0 },
      same: { deep: [{ z: 1 }] },
      newMember: false
    }
    const copy = structuredClone(before)
    expect(roundTrip(before, after)).toEqual(after)
    expect(before).toEqual(copy)
    expect(roundTrip(after, before)).toEqual(before)
  })

  it('keep every member the patch does not touch as the same object', () => {
    const before: JsonObject = { version: 1, untouched: { list: [1] }, touched: { a: 1, inner: { b: 2 } }, trimmed: { c: 1, d: 2 } }
    const after: JsonObject = { version: 2, untouched: { list: [1] }, touched: { a: 2, inner: { b: 2 } }, trimmed: { c: 1 } }
    const patch = diffState(before, after)
    expect(patch.merge).toEqual({ version: 2, touched: { a: 2 } })
    expect(patch.removed).toEqual([['trimmed', 'd']])
    const result = applyStatePatch(before, patch)
    expect(result.untouched).toBe(before.untouched)
    expect((result.touched as JsonObject).inner).toBe((before.touched as JsonObject).inner)
    expect(result.trimmed).not.toBe(before.trimmed)
    expect(before.trimmed).toEqual({ c: 1, d: 2 })
  })

  it('is empty between equal states, and takes a key named __proto__ as a member', () => {
    expect(diffState({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual({ merge: {} })
    const after = JSON.parse('{"names":{"__proto__":"Ann"}}') as JsonObject
    const result = roundTrip({ names: {} }, after)
    expect(Object.keys(result.names as JsonObject)).toEqual(['__proto__'])
    expect(Object.getPrototypeOf(result.names)).toBe(Object.prototype)
  })

  it('rebuild every state of played games, for the TV and the table screen', () => {
    const setups: GameSetup[] = [
      { game: 'foursies', players: ['Ann', 'Bob', 'Cy'], rules: { match: 'tour-de-fours' } },
      { game: 'farkle', players: ['Ann', 'Bob'] },
      { game: 'fouche', players: ['Ann', 'Bob', 'Cy', 'Di'] },
      { game: 'four-plus', players: ['Ann', 'Bob'] }
    ]
    let checked = 0
    for (const setup of setups) {
      const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-patch-'))
      const session = openTable({ dataDir })
      const views = [() => session.snapshot(true, true, 'scoreboard'), () => session.snapshot(true), () => session.snapshot(false, false)]
      let shown = views.map((view) => JSON.parse(JSON.stringify(view())) as JsonObject)
      expect(session.newGame(setup)).toEqual({ ok: true })
      for (let step = 0; step < 150; step++) {
        const offer = session.snapshot(true).current?.offer
        if (!offer || offer.finished) break
        if (offer.diceDue > 0) session.rollVirtual()
        else session.submit(offer.decisions[step % offer.decisions.length].move)
        if (step % 17 === 5) session.undo()
        const next = views.map((view) => JSON.parse(JSON.stringify(view())) as JsonObject)
        next.forEach((state, index) => expect(roundTrip(shown[index], state)).toEqual(state))
        shown = next
        checked++
      }
    }
    expect(checked).toBeGreaterThan(200)
  })
})
