// Dice in and out of the game, over a real pty: a hub carrying more dice than Foursies uses.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { dispatch } from '@main/core/screens/dispatch'
import { SettingsStore } from '@main/core/files/settings'
import type { Devices } from '@main/devices/devices'
import { openTable, type TestTable } from '@test/kit/table'
import { DEFAULT_DICE } from '@scripts/simulated-hub'
import { rig, waitFor, type Rig } from './harness'

const FIVE = [...DEFAULT_DICE, { id: 'E', colour: 'yellow', label: 'Yellow' }]

const rigs: Rig[] = []
const extra: TestTable[] = []
async function open(...args: Parameters<typeof rig>): Promise<Rig> {
  const r = await rig(...args)
  rigs.push(r)
  return r
}
afterEach(async () => {
  while (extra.length) await extra.pop()!.stop()
  while (rigs.length) await rigs.pop()!.close()
})

const lines = (r: Rig): Record<string, unknown>[] =>
  readFileSync(join(r.dir, 'data', 'current.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
const rolls = (r: Rig): number[][] => lines(r).slice(1).filter((m) => 'roll' in m).map((m) => m.roll as number[])
const moves = (r: Rig): number => r.session.currentGame?.moves.length ?? 0
const message = (r: Rig) => r.session.snapshot(true).message
const inGame = (m: Devices): Record<string, boolean> => Object.fromEntries(m.view().devices[0].dice.map((d) => [d.id, d.inGame]))

describe('dice in and out of the game', () => {
  it('a 5-die hub plays Foursies with E out of the game: throwing E disturbs nothing', async () => {
    const r = await open({ dice: FIVE, speed: 0.05 })
    expect(inGame(r.manager)).toEqual({ A: true, B: true, C: true, D: true, E: true }) // a new device: every die in
    expect(r.manager.assignDie('DRH-SIM001', 'E', false)).toEqual({ ok: true })
    expect(inGame(r.manager).E).toBe(false)
    expect(message(r)?.text).toMatch(/E \(Yellow\) is out of the game/)

    r.session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    expect(lines(r)[0].meta).toMatchObject({
      dice: [
        { device: 'DRH-SIM001', die: 'A', label: 'Red' },
        { device: 'DRH-SIM001', die: 'B', label: 'Blue' },
        { device: 'DRH-SIM001', die: 'C', label: 'Ivory' },
        { device: 'DRH-SIM001', die: 'D', label: 'Green' }
      ]
    })

    // E alone: a gentle note, no throw, no warning.
    await r.hub.throw({ E: 4 })
    await waitFor(() => r.manager.view().devices[0].dice.find((d) => d.id === 'E')?.face === 4, 'E settled in the view')
    expect(message(r)).toMatchObject({ level: 'info', text: expect.stringMatching(/E \(Yellow\) is not in the game: its throw does not count/) })
    expect(r.manager.view().assembling).toBeNull()

    // E thrown with the four, and again while they settle: the four make the throw.
    // (E's first roll never ends: its second throw takes over, so the first throw's promise is left.)
    void r.hub.throw({ A: 6, E: 1, B: 5, C: 6, D: 3 })
    await waitFor(() => r.manager.view().assembling !== null, 'the throw under way')
    await r.hub.throw({ E: 'cocked' })
    await waitFor(() => moves(r) === 1, `the throw (${message(r)?.text})`)
    expect(rolls(r)).toEqual([[6, 5, 6, 3]])
    expect(r.manager.view().lastThrow?.dice).toEqual(['A (Red)', 'B (Blue)', 'C (Ivory)', 'D (Green)'])
    expect(message(r)?.level).not.toBe('warning')

    // Bob's throw: E rolls too, then A-D; never "5 dice were thrown".
    await r.hub.throw({ E: 2, A: 1, B: 2, C: 3, D: 4 })
    await waitFor(() => moves(r) === 2, `the second throw (${message(r)?.text})`)
    expect(rolls(r)).toEqual([
      [6, 5, 6, 3],
      [1, 2, 3, 4]
    ])
  })

  it('taking a die out of the open throw lets the rest count', async () => {
    const r = await open({ dice: FIVE, speed: 0.05 })
    r.session.newGame({ game: 'foursies', players: ['Ann'] })
    expect(lines(r)[0].meta).toMatchObject({ dice: FIVE.map((d) => ({ device: 'DRH-SIM001', die: d.id, label: d.label })) })
    await r.hub.throw({ A: 2, B: 3, C: 5, D: 6, E: 1 })
    await waitFor(() => /5 dice were thrown but 4 dice are due/.test(message(r)?.text ?? ''), 'too many')
    expect(moves(r)).toBe(0)
    expect(r.manager.assignDie('DRH-SIM001', 'E', false)).toEqual({ ok: true })
    await waitFor(() => moves(r) === 1, 'the four that are in the game')
    expect(rolls(r)).toEqual([[2, 3, 5, 6]])
  })

  it('is remembered across an unplug and a restart of the app', async () => {
    const r = await open({ dice: FIVE, speed: 0.05 })
    r.manager.assignDie('DRH-SIM001', 'E', false)
    r.manager.assignDie('DRH-SIM001', 'C', false)
    r.manager.assignDie('DRH-SIM001', 'C', true)
    const file = JSON.parse(readFileSync(join(r.dir, 'data', 'settings.json'), 'utf8'))
    expect(file.dieAssignments).toEqual({ 'DRH-SIM001/E': false })

    // Unplugged; E thrown while away (the snapshot after the reconnect shows its new throw number).
    r.session.newGame({ game: 'foursies', players: ['Ann'] })
    await r.hub.unplug()
    await waitFor(() => r.manager.view().devices[0].state === 'reconnecting', 'reconnecting')
    await r.hub.throw({ E: 5 })
    await r.hub.plug(r.link('tty-back'))
    await waitFor(() => r.manager.view().devices[0].state === 'connected', 'back')
    await waitFor(() => r.manager.view().devices[0].dice.find((d) => d.id === 'E')?.face === 5, 'the snapshot')
    expect(inGame(r.manager)).toEqual({ A: true, B: true, C: true, D: true, E: false })
    expect(r.manager.view().assembling).toBeNull()

    // The app restarts: a new settings store, session and manager on the same data folder.
    await r.session.stop()
    const session = openTable({ dataDir: join(r.dir, 'data'), devices: { listPorts: async () => [], pollMs: 50, helloRetryMs: 150, refreshMs: 10 } })
    const manager = session.table.devices
    manager.start()
    extra.push(session)
    expect((await manager.connect(r.hub.path)).ok).toBe(true)
    await waitFor(() => manager.view().devices[0]?.dice.length === 5, 'the hub after the restart')
    expect(inGame(manager)).toEqual({ A: true, B: true, C: true, D: true, E: false })
    expect(session.table.devices.gameDice().map((d) => d.die)).toEqual(['A', 'B', 'C', 'D'])
    await r.hub.throw({ A: 6, B: 5, C: 6, D: 3, E: 4 })
    await waitFor(() => (session.currentGame?.moves.length ?? 0) === 1, 'the throw after the restart')
    expect(rolls(r)).toEqual([[6, 5, 6, 3]])
    // The waits end as soon as each state is reached; their limits allow for a machine busy with the whole suite.
  }, 90_000)

  it('checks every assignDie request', async () => {
    const r = await open({ dice: FIVE })
    const refused = (error: string) => ({ ok: false, error })
    expect(await dispatch(r.session.table, r.session.screen, 'assignDie', ['DRH-SIM001', 'E'])).toEqual(refused('assignDie takes 3 arguments (deviceId, dieId, inGame), not 2'))
    expect(await dispatch(r.session.table, r.session.screen, 'assignDie', ['DRH-SIM001', 'E', 'no'])).toEqual(refused('assignDie: inGame must be true or false'))
    expect(await dispatch(r.session.table, r.session.screen, 'assignDie', ['DRH-SIM001', 'E/F', false])).toEqual(refused('assignDie: dieId must be a die id (1 to 8 letters or digits)'))
    const notADevice = refused('assignDie: deviceId must be a device id (a serial number, or port:PATH)')
    expect(await dispatch(r.session.table, r.session.screen, 'assignDie', ['DRH SIM', 'E', false])).toEqual(notADevice)
    expect(await dispatch(r.session.table, r.session.screen, 'assignDie', ['port:relative', 'E', false])).toEqual(notADevice)
    expect(await dispatch(r.session.table, r.session.screen, 'assignDie', [{}, 'E', false])).toEqual(refused('assignDie: deviceId must be a device id'))
    expect(await dispatch(r.session.table, r.session.screenFor(true, false), 'assignDie', ['DRH-SIM001', 'E', false])).toEqual(refused('only a screen on the host computer can do that'))
    expect(await dispatch(r.session.table, r.session.screenFor(false, false), 'assignDie', ['DRH-SIM001', 'E', false])).toEqual(refused('this screen can only watch'))
    expect(inGame(r.manager).E).toBe(true)
    expect(await dispatch(r.session.table, r.session.screen, 'assignDie', ['DRH-SIM001', 'Z', false])).toMatchObject({ ok: false, error: expect.stringMatching(/has no die Z/) })
    expect(await dispatch(r.session.table, r.session.screen, 'assignDie', ['DRH-OTHER', 'A', false])).toMatchObject({ ok: false, error: 'No device DRH-OTHER' })
    expect(await dispatch(r.session.table, r.session.screen, 'assignDie', ['DRH-SIM001', 'E', false])).toEqual({ ok: true })
    expect(inGame(r.manager).E).toBe(false)
  })
})

describe('die assignments in the settings file', () => {
  it('keeps only well-formed entries', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const dir = mkdtempSync(join(tmpdir(), 'dice-settings-'))
    try {
      writeFileSync(
        join(dir, 'settings.json'),
        JSON.stringify({ dieAssignments: { 'HUB-1/A': false, 'HUB-1/B': true, 'HUB-1/C': 'no', 'bad key': false, 'HUB-1/': false, '../x/A': 1 } })
      )
      expect(new SettingsStore(dir).get().dieAssignments).toEqual({ 'HUB-1/A': false, 'HUB-1/B': true })
      writeFileSync(join(dir, 'settings.json'), JSON.stringify({ dieAssignments: ['HUB-1/A'] }))
      expect(new SettingsStore(dir).get().dieAssignments).toEqual({})
      writeFileSync(join(dir, 'settings.json'), JSON.stringify({ showOdds: true }))
      expect(new SettingsStore(dir).get()).toMatchObject({ showOdds: true, dieAssignments: {} })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
