// What main tells the TV about the computer's turn (issue 24): one truth about whose turn it is.
import { afterEach, describe, expect, it } from 'vitest'
import { openTable, type TestTable } from '@test/kit/table'
import { ScreenViews } from '@main/core/screens/screen-views'

const tables: TestTable[] = []
afterEach(async () => {
  while (tables.length) await tables.pop()!.stop()
})

describe('the computer’s thinking on the screens', () => {
  it('is shown only while its seat acts now, whatever the computer player still says', () => {
    const session = openTable()
    tables.push(session)
    const { game, notices, settings, sharing, pairing, devices, odds } = session.table
    // A computer player that thinks for Robo at every moment: before Robo's turn as much as in it.
    const views = new ScreenViews({
      table: game,
      notices,
      settings,
      sharing,
      pairing,
      pairedConnected: () => new Set(),
      devices,
      odds,
      computer: { subscribe: () => () => undefined, thinking: () => ({ seat: 1, text: 'Robo is thinking…' }) }
    })
    const tv = { kind: 'scoreboard' as const, canControl: false, local: true, trust: 'host' as const, message: null, entry: { typed: '' } }
    const control = { ...tv, kind: 'control' as const, canControl: true }
    session.newGame({ game: 'farkle', players: ['Cara', 'Robo'], computers: [1], rules: { entry: 0 } })
    expect(views.stateFor(tv).current?.summary.toPlay).toBe('Cara')
    expect(views.stateFor(tv).current?.thinking).toBeNull()
    expect(views.stateFor(control).current?.thinking).toBeNull()
    session.submit({ roll: [1, 2, 3, 4, 6, 6] })
    session.submit({ keep: [1] })
    session.submit({ bank: true })
    views.changed()
    expect(views.stateFor(tv).current?.summary.toPlay).toBe('Robo')
    expect(views.stateFor(tv).current?.thinking).toEqual({ seat: 1, text: 'Robo is thinking…' })
  })
})
