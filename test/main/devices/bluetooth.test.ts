// Bluetooth dice (issue 15) through the device manager: reports as the screen holding the Web
// Bluetooth connections sends them. Two Pixels and two GoDice make one Foursies throw through the
// same throw assembly as a hub's dice; a malformed notification is refused and counted; a die
// that drops out is shown gone and its roll while away is never invented; identities survive a
// restart (die assignments by Pixel Id / GoDice name).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Devices } from '@main/devices/devices'
import { openTable, type TestTable } from '@test/kit/table'
import type { BluetoothReport } from '@main/devices/bluetooth-link'
import { offerOf } from '@shared/game'

const dirs: string[] = []
const tables: TestTable[] = []
afterEach(async () => {
  while (tables.length) await tables.pop()!.stop()
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true })
})

function table(dir = mkdtempSync(join(tmpdir(), 'dice-bt-'))): { dir: string; session: TestTable; manager: Devices } {
  if (!dirs.includes(dir)) dirs.push(dir)
  const session = openTable({ dataDir: join(dir, 'data'), devices: { refreshMs: 1, listPorts: async () => [] } })
  tables.push(session)
  return { dir, session, manager: session.table.devices }
}

const hex = (...bytes: number[]): string => bytes.map((b) => (b < 0 ? b + 256 : b).toString(16).padStart(2, '0')).join('')
const text = (s: string, ...n: number[]): string => hex(...[...s].map((c) => c.charCodeAt(0)), ...n)
function legacyIAmADie(pixelId: number, face: number, dieType = 2): string {
  const bytes = new Array(22).fill(0)
  bytes[0] = 2
  bytes[1] = 6
  bytes[3] = dieType
  bytes.splice(8, 4, pixelId & 0xff, (pixelId >> 8) & 0xff, (pixelId >> 16) & 0xff, (pixelId >>> 24) & 0xff)
  bytes[18] = 1
  bytes[19] = face - 1
  bytes[20] = 90
  bytes[21] = 1
  return hex(...bytes)
}
const GODICE_FACE: Record<number, number[]> = { 1: [-64, 0, 0], 2: [0, 0, 64], 3: [0, 64, 0], 4: [0, -64, 0], 5: [0, 0, -64], 6: [64, 0, 0] }

const P1 = { link: 'L1', kind: 'pixels', name: 'Pixel Red' } as const
const P2 = { link: 'L2', kind: 'pixels', name: 'Pixel Blue' } as const
const G1 = { link: 'L3', kind: 'godice', name: 'GoDice_00A1_K_v04' } as const
const G2 = { link: 'L4', kind: 'godice', name: 'GoDice_00B2_K_v04' } as const

function send(m: Devices, die: Omit<BluetoothReport, 'event'>, event: BluetoothReport['event'], data?: string): void {
  const outcome = m.bluetooth({ ...die, event, ...(data === undefined ? {} : { data }) })
  expect(outcome).toEqual({ ok: true })
}

function connectFour(m: Devices): void {
  send(m, P1, 'connected')
  send(m, P1, 'data', legacyIAmADie(0x1111, 2))
  send(m, P2, 'connected')
  send(m, P2, 'data', legacyIAmADie(0x2222, 3))
  send(m, G1, 'connected')
  send(m, G1, 'data', text('Col', 1))
  send(m, G2, 'connected')
}

function roll(m: Devices, die: typeof P1 | typeof P2 | typeof G1 | typeof G2, face: number): void {
  if (die.kind === 'pixels') {
    send(m, die, 'data', hex(3, 3, 0))
    send(m, die, 'data', hex(3, 1, face - 1))
  } else {
    send(m, die, 'data', text('R'))
    send(m, die, 'data', text('S', ...GODICE_FACE[face]))
  }
}

const bluetoothDevice = (m: Devices) => m.view().devices.find((d) => d.id === 'bluetooth')!
const rolls = (s: TestTable): number[][] => s.currentGame!.moves.flatMap((l) => ('roll' in l.move ? [l.move.roll] : []))

describe('Bluetooth dice in the one throw assembly', () => {
  it('two Pixels and two GoDice: identified, greeted, and one Foursies throw recorded in die order', () => {
    const { session, manager } = table()
    connectFour(manager)
    const device = bluetoothDevice(manager)
    expect(device.dice.map((d) => d.id)).toEqual(['P00003DD', 'P00006QQ', 'G00A1', 'G00B2'])
    expect(device.dice[0]).toMatchObject({ face: 2, battery: { percent: 90 }, inGame: true })
    expect(device.dice[2].colour).toBe('red')
    // Greetings written: WhoAreYou + battery to Pixels, colour + battery to GoDice.
    const out = manager.view().bluetooth!.out
    expect(out.filter((o) => o.link === 'L1').map((o) => o.hex)).toEqual(['01', '21'])
    expect(out.filter((o) => o.link === 'L3').map((o) => o.hex)).toEqual(['17', '03'])
    session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    expect(offerOf(session.currentGame!).diceDue).toBe(4)
    roll(manager, G2, 6)
    roll(manager, P1, 1)
    roll(manager, G1, 4)
    expect(rolls(session)).toEqual([])
    roll(manager, P2, 5)
    expect(rolls(session)).toEqual([[1, 5, 4, 6]])
    expect(manager.view().lastThrow).toMatchObject({ values: [1, 5, 4, 6], sent: true })
  })

  it('a malformed or truncated notification is refused, counted and logged; nothing else changes', () => {
    const { manager } = table()
    connectFour(manager)
    send(manager, P1, 'data', hex(3))
    send(manager, G1, 'data', text('S', 64))
    send(manager, G1, 'data', 'zz')
    const device = bluetoothDevice(manager)
    expect(device.dropped.malformed).toBe(3)
    expect(device.raw.filter((r) => r.verdict.startsWith('malformed'))).toHaveLength(3)
    expect(device.dice.every((d) => d.status !== 'rolling')).toBe(true)
  })

  it('a die that drops out mid-throw is gone, its roll while away is not invented, and the keypad completes the throw', () => {
    const { session, manager } = table()
    connectFour(manager)
    session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    roll(manager, P1, 2)
    roll(manager, P2, 3)
    roll(manager, G1, 4)
    send(manager, G2, 'data', text('R'))
    send(manager, G2, 'gone')
    expect(bluetoothDevice(manager).dice[3].status).toBe('offline')
    expect(session.snapshot(true).message?.text).toMatch(/dropped out during the throw: type the throw on the keypad/)
    // Back, lying on 5: a die moved, not a throw that settled.
    send(manager, G2, 'connected')
    send(manager, G2, 'data', text('S', ...GODICE_FACE[5]))
    expect(bluetoothDevice(manager).dice[3].status).not.toBe('offline')
    expect(rolls(session)).toEqual([])
    // G2's value while it was away is unknown: the table types the throw, the record takes it.
    expect(session.submit({ roll: [2, 3, 4, 1] })).toMatchObject({ ok: true })
    expect(rolls(session)).toEqual([[2, 3, 4, 1]])
    expect(manager.view().assembling).toBeNull()
  })

  it('identify and the dice due blink through the screen (Pixels Blink, GoDice LED pulses)', () => {
    const { manager } = table()
    connectFour(manager)
    expect(manager.identify('bluetooth', 'P00006QQ')).toEqual({ ok: true })
    expect(manager.identify('bluetooth', 'G00A1')).toEqual({ ok: true })
    const out = manager.view().bluetooth!.out.slice(-2)
    expect(out[0]).toMatchObject({ link: 'L2' })
    expect(out[0].hex.startsWith('1d')).toBe(true) // Blink, message 29
    expect(out[1]).toMatchObject({ link: 'L3' })
    expect(out[1].hex.startsWith('10')).toBe(true) // LED pulses, 16
    expect(out[1].seq).toBeGreaterThan(out[0].seq)
  })

  it('a die taken out of the game stays out after a restart (remembered by its Pixel Id / GoDice name)', async () => {
    const first = table()
    connectFour(first.manager)
    expect(first.manager.assignDie('bluetooth', 'G00A1', false)).toEqual({ ok: true })
    await first.session.stop()
    tables.splice(tables.indexOf(first.session), 1)
    const again = table(first.dir)
    connectFour(again.manager)
    expect(bluetoothDevice(again.manager).dice.find((d) => d.id === 'G00A1')!.inGame).toBe(false)
    expect(again.manager.gameDice().map((d) => d.die)).toEqual(['P00003DD', 'P00006QQ', 'G00B2'])
  })
})

describe('the screen API for Bluetooth dice', () => {
  it('checks every report before main sees it, and only a screen on the host computer may send one', async () => {
    const { checkArgs } = await import('@shared/api-methods')
    const { dispatch } = await import('@main/core/screens/dispatch')
    const good = { link: 'L1', kind: 'godice', name: 'GoDice_00A1_K_v04', event: 'data', data: '52' }
    expect(checkArgs('reportBluetoothDie', [good])).toMatchObject({ ok: true })
    expect(checkArgs('reportBluetoothDie', [{ ...good, data: '5' }])).toMatchObject({ ok: false, error: expect.stringContaining('data must be hex') })
    expect(checkArgs('reportBluetoothDie', [{ ...good, kind: 'dicey' }])).toMatchObject({ ok: false })
    expect(checkArgs('reportBluetoothDie', [{ ...good, extra: 1 }])).toMatchObject({ ok: false })
    expect(checkArgs('reportBluetoothDie', [{ ...good, data: 'ab'.repeat(600) }])).toMatchObject({ ok: false })
    const { session, manager } = table()
    const lan = await dispatch(session.table, session.screenFor(true, false), 'reportBluetoothDie', [good])
    expect(lan).toMatchObject({ ok: false, error: expect.stringContaining('host computer') })
    const host = await dispatch(session.table, session.screenFor(true, true), 'reportBluetoothDie', [{ ...good, event: 'connected' }])
    expect(host).toEqual({ ok: true })
    expect(bluetoothDevice(manager).dice.map((d) => d.id)).toEqual(['G00A1'])
    expect(await dispatch(session.table, session.screenFor(true, true), 'chooseBluetoothDevice', ['x'])).toMatchObject({ ok: false })
  })
})

describe('a Bluetooth die back after a loss', () => {
  it('is shown connected again, and what it shows is learnt, not counted', () => {
    const { session, manager } = table()
    connectFour(manager)
    session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    send(manager, G2, 'gone')
    expect(bluetoothDevice(manager).dice[3].status).toBe('offline')
    send(manager, G2, 'connected')
    expect(bluetoothDevice(manager).dice[3].status).toBe('unknown')
    send(manager, G2, 'data', text('S', ...GODICE_FACE[6]))
    expect(bluetoothDevice(manager).dice[3]).toMatchObject({ status: 'settled', face: 6 })
    expect(manager.view().assembling).toBeNull()
    expect(rolls(session)).toEqual([])
  })
})

describe('test mode with Bluetooth dice', () => {
  it('shows a throw of any Bluetooth dice, never sends it to the game', () => {
    const { session, manager } = table()
    connectFour(manager)
    session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    expect(manager.setTestMode(true)).toEqual({ ok: true })
    // Thrown together: both roll, then both settle (any number of dice makes a test throw).
    send(manager, P2, 'data', hex(3, 3, 0))
    send(manager, G1, 'data', text('R'))
    send(manager, P2, 'data', hex(3, 1, 5))
    send(manager, G1, 'data', text('S', ...GODICE_FACE[3]))
    expect(manager.view().lastThrow).toMatchObject({ values: [6, 3], sent: false })
    expect(rolls(session)).toEqual([])
  })
})

describe('which Bluetooth die moved', () => {
  it('names the dice to throw, refuses a held Pixel thrown instead, and counts the right GoDice and Pixel', () => {
    const { session, manager } = table()
    connectFour(manager)
    session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    roll(manager, P1, 4)
    roll(manager, P2, 2)
    roll(manager, G1, 6)
    roll(manager, G2, 3)
    expect(rolls(session)).toEqual([[4, 2, 6, 3]])
    const pick = offerOf(session.currentGame!).decisions.find((d) => 'reroll' in d.move && d.move.reroll.join(' ') === '2 6')
    expect(pick).toBeDefined()
    expect(session.submit(pick!.move)).toMatchObject({ ok: true })
    expect(session.snapshot(true).smartDice?.toThrow).toBe('Throw P00006QQ (Pixel Blue) and G00A1 (GoDice_00A1_K_v04)')
    // The Pixels and GoDice due were lit: Blink (29) for the Pixel, LED pulses (16) for the GoDice.
    const lit = manager.view().bluetooth!.out.filter((o) => o.hex.startsWith('1d') || o.hex.startsWith('10'))
    expect(lit.map((o) => o.link).sort()).toEqual(['L2', 'L3'])
    roll(manager, P1, 5)
    expect(session.snapshot(true).smartDice?.disagreements.join(' ')).toContain('P00003DD (Pixel Red) holds the 4 that scored: put it back on 4')
    send(manager, P1, 'data', hex(3, 5, 3)) // put back on 4 by hand
    roll(manager, P2, 1)
    roll(manager, G1, 5)
    expect(rolls(session)).toEqual([[4, 2, 6, 3], [1, 5]])
  })
})

describe('a Pixel of another kind', () => {
  it('a d20 Pixel is named with the reason and never in the game', () => {
    const { session, manager } = table()
    const d20 = { link: 'L9', kind: 'pixels', name: 'Pixel D20' } as const
    send(manager, d20, 'connected')
    send(manager, d20, 'data', legacyIAmADie(0x9999, 17, 7))
    expect(bluetoothDevice(manager).dice[0]).toMatchObject({ sides: 20, inGame: false, refused: expect.stringContaining('d20') })
    expect(manager.gameDice()).toEqual([])
    expect(session.snapshot(true).message?.text).toMatch(/is a d20: the games use six-sided dice/)
  })
})
