import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { API_METHODS, type Access, type MethodName } from '@shared/api-methods'
import type { TableServer } from '@main/core/screens/table-server'
import { serveTable, type TestTable } from '@test/kit/table'
import { apiAddress, ScreenClient } from '@test/kit/screen-client'
import { waitUntil } from '@test/kit/wait'

const tables: TestTable[] = []
afterEach(async () => {
  while (tables.length) await tables.pop()!.stop()
})

async function startServer(lanAddresses: string[] = []): Promise<TableServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-host-'))
  const rendererDir = join(dataDir, 'renderer')
  mkdirSync(join(rendererDir, 'assets'), { recursive: true })
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Dice Referee</title>')
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)')
  const session = await serveTable(rendererDir, { dataDir, lanAddresses: () => lanAddresses })
  tables.push(session)
  return session.table.server!
}

describe('the headless host', () => {
  it('serves the app at every screen’s address (the TV view at /scoreboard), and nothing outside the renderer', async () => {
    const server = await startServer()
    for (const path of ['/', '/scoreboard', '/setup', '/table', '/devices', '/history', '/players', '/players/Ann%20Lee', '/players/AC%2FDC', '/table/']) {
      const response = await fetch(`${server.url}${path.slice(1)}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-security-policy')).toContain("default-src 'self'")
      expect(await response.text()).toContain('Dice Referee')
    }
    expect((await fetch(`${server.url}assets/app.js`)).status).toBe(200)
    expect((await fetch(`${server.url}..%2F..%2Fetc%2Fpasswd`)).status).toBe(404)
    for (const path of ['/no-such-screen', '/players/Ann/extra', '/players/..%2F..%2Fetc%2Fpasswd/x', '/assets/missing.js']) {
      expect((await fetch(`${server.url}${path.slice(1)}`)).status, path).toBe(404)
    }
  })

  it('implements the table API over WebSocket and pushes every new state to every screen', async () => {
    const server = await startServer()
    const table = await ScreenClient.open(apiAddress(server.url))
    const scoreboard = await ScreenClient.open(apiAddress(server.url))
    expect(await table.call('newGame', { game: 'four-plus', players: ['Ann', 'Bob'] })).toMatchObject({ ok: true })
    expect(await table.call('submit', { roll: [3, 3, 3, 2] })).toMatchObject({ ok: true })
    const seen = await scoreboard.waitFor((state) => state.current?.moveCount === 1)
    expect(seen.current?.summary.players[0].score).toBe(3)
    expect(seen.canControl).toBe(true)
    table.close()
    scoreboard.close()
  })

  it('pushes the TV only what changes on it, first, with the log of the last lines only', async () => {
    const server = await startServer()
    const table = await ScreenClient.open(apiAddress(server.url))
    const tv = await ScreenClient.open(apiAddress(server.url, '?screen=scoreboard'))
    expect(await table.call('setShowOdds', true)).toMatchObject({ ok: true })
    expect(await table.call('newGame', { game: 'foursies', players: ['Ann', 'Bob', 'Cy'] })).toMatchObject({ ok: true })
    await table.waitFor((state) => state.current?.odds != null)
    let order: string[] = []
    table.onArrival(() => order.push('table'))
    tv.onArrival(() => order.push('tv'))
    for (let i = 0; i < 12; i++) {
      const offer = table.state.current!.offer
      // Random dice can end a game early (four 1s).
      if (offer.finished) break
      const tvBefore = tv.states.length
      const tableBefore = table.states.length
      order = []
      // The same throws every run (virtual dice would make each run's game, and so its bytes, differ).
      if (offer.diceDue > 0) expect(await table.call('submit', { roll: Array.from({ length: offer.diceDue }, (_, k) => ((i * 5 + k * 3) % 6) + 1) })).toMatchObject({ ok: true })
      else expect(await table.call('submit', offer.decisions[0].move)).toMatchObject({ ok: true })
      // The table screen is pushed the move, then its odds; the TV only the move, and before the table.
      await table.waitFor((state) => state.current?.moveCount === i + 1 && state.current.odds != null)
      // Nothing more comes: a reply to each screen follows anything the host pushed it before.
      await Promise.all([table.getState(), tv.getState()])
      expect(table.states.length - tableBefore).toBe(2)
      expect(tv.states.length - tvBefore).toBe(1)
      expect(order[0]).toBe('tv')
      const shown = tv.states.at(-1)!.current!
      expect(shown.moveCount).toBe(i + 1)
      expect(shown.odds).toBeNull()
      expect(new Set(shown.log.map((entry) => entry.line)).size).toBeLessThanOrEqual(3)
      expect(shown.log.at(-1)).toEqual(table.states.at(-1)!.current!.log.at(-1))
    }
    table.close()
    tv.close()
  })

  it('pushes a screen that asks for patches what changed, which rebuilds the very state others are pushed whole', async () => {
    const server = await startServer()
    const table = await ScreenClient.open(apiAddress(server.url))
    const patchedTable = await ScreenClient.open(apiAddress(server.url, '?patches=1'))
    const tv = await ScreenClient.open(apiAddress(server.url, '?screen=scoreboard'))
    const patchedTv = await ScreenClient.open(apiAddress(server.url, '?screen=scoreboard&patches=1'))
    const screens = [table, patchedTable, tv, patchedTv]
    expect(await table.call('setShowOdds', true)).toMatchObject({ ok: true })
    expect(await table.call('newGame', { game: 'foursies', players: ['Ann', 'Bob', 'Cy'] })).toMatchObject({ ok: true })
    for (let i = 0; i < 40; i++) {
      const offer = (await table.waitFor((state) => state.current?.moveCount === i && state.current.odds != null)).current!.offer
      if (offer.finished) break
      // The same throws every run (virtual dice would make each run's game, and so its bytes, differ).
      if (offer.diceDue > 0) expect(await table.call('submit', { roll: Array.from({ length: offer.diceDue }, (_, k) => ((i * 5 + k * 3) % 6) + 1) })).toMatchObject({ ok: true })
      else expect(await table.call('submit', offer.decisions[0].move)).toMatchObject({ ok: true })
    }
    await table.waitFor((state) => (state.current?.moveCount ?? 0) >= 1 && state.current?.odds != null && state === table.state)
    // On a busy machine a screen that lags is pushed fewer, later states (pushes coalesce), so the pairs are compared
    // version by version, and a patch by the bytes the very state it rebuilt would have taken whole.
    for (const [whole, patched] of [
      [table, patchedTable],
      [tv, patchedTv]
    ]) {
      await waitUntil(() => expect(patched.states.at(-1)?.version).toBe(whole.states.at(-1)?.version))
      expect(patched.states.at(-1)).toEqual(whole.states.at(-1))
      const byVersion = new Map(whole.states.map((state) => [state.version, state]))
      for (const state of patched.states) if (byVersion.has(state.version)) expect(state).toEqual(byVersion.get(state.version))
      expect(whole.pushes.every((push) => push.kind === 'state')).toBe(true)
      expect(patched.pushes[0].kind).toBe('state')
      const patches = patched.pushes.flatMap((push, i) => (push.kind === 'patch' ? [{ length: push.length, state: patched.states[i] }] : []))
      expect(patches.length).toBeGreaterThan(patched.pushes.length / 2)
      const patchBytes = patches.reduce((sum, patch) => sum + patch.length, 0)
      const wholeBytes = patches.reduce((sum, patch) => sum + JSON.stringify({ state: patch.state }).length, 0)
      // This game's patches take 0.34 (table) and 0.46 (TV) of the bytes of the states they
      // rebuild; a push coalesced on a busy machine carries several moves' changes in one patch,
      // so the bound leaves room, and a patch as large as the state it rebuilds still fails it.
      expect(patchBytes).toBeLessThan(wholeBytes * 0.75)
    }
    for (const screen of screens) screen.close()
  })

  it('pushes a screen the state its own request made before it answers the request, after the TV', async () => {
    const server = await startServer()
    const table = await ScreenClient.open(apiAddress(server.url, '?patches=1'))
    const tv = await ScreenClient.open(apiAddress(server.url, '?screen=scoreboard'))
    let order: string[] = []
    table.onArrival(() => order.push('table'))
    tv.onArrival(() => order.push('tv'))
    expect(await table.call('newGame', { game: 'four-plus', players: ['Ann', 'Bob'] })).toMatchObject({ ok: true })
    await tv.waitFor((state) => state.current?.moveCount === 0)
    order = []
    expect(await table.call('submit', { roll: [3, 3, 3, 2] })).toMatchObject({ ok: true })
    expect(table.arrivals.slice(table.arrivals.indexOf('reply newGame'))).toEqual(['reply newGame', 'state 1', 'reply submit'])
    await tv.waitFor((state) => state.current?.moveCount === 1)
    expect(order).toEqual(['tv', 'table', 'table'])
    table.close()
    tv.close()
  })

  it('checks every request: a malformed payload is refused and changes nothing', async () => {
    const server = await startServer()
    const table = await ScreenClient.open(apiAddress(server.url))
    await table.call('newGame', { game: 'four-plus', players: ['Ann', 'Bob'] })
    expect(await table.send('submit', { roll: [3, 3, 3, 'x'] })).toMatchObject({ ok: false })
    expect(await table.send('keypad', 'F5')).toMatchObject({ ok: false, error: 'keypad: key must be a keypad key (0 1 2 3 4 5 6 7 8 9 Enter Backspace + - * / .)' })
    expect(await table.send('newGame', { game: 'chess', players: [] })).toMatchObject({ ok: false })
    expect(await table.send('dropTables')).toMatchObject({ ok: false, error: 'unknown method dropTables' })
    expect((await table.getState()).current?.moveCount).toBe(0)
    table.close()
  })

  it('lets LAN screens watch only, unless they bring the pairing code', async () => {
    const server = await startServer(['127.0.0.2'])
    const table = await ScreenClient.open(apiAddress(server.url))
    await table.call('newGame', { game: 'four-plus', players: ['Ann', 'Bob'] })
    await expect(fetch(`http://127.0.0.2:${server.port}/scoreboard`)).rejects.toThrow()
    expect(await table.call('setSharing', true)).toMatchObject({ ok: true })
    const shared = await table.waitFor((state) => state.sharing?.enabled === true)
    expect(shared.sharing?.urls).toEqual([`http://127.0.0.2:${server.port}/scoreboard`])
    expect(shared.sharing?.qrSvg).toContain('<svg')
    const code = shared.sharing?.pairingCode
    expect(code).toMatch(/^\d{8}$/)

    const viewer = await ScreenClient.open(`ws://127.0.0.2:${server.port}/api`)
    const viewerState = await viewer.waitFor(() => true)
    expect(viewerState.canControl).toBe(false)
    expect(viewerState.sharing?.pairingCode).toBeNull()
    expect(await viewer.call('submit', { roll: [3, 3, 3, 2] })).toMatchObject({ ok: false, error: 'this screen can only watch' })

    const paired = await ScreenClient.paired(`ws://127.0.0.2:${server.port}/api`, code!)
    expect(await paired.call('submit', { roll: [3, 3, 3, 2] })).toMatchObject({ ok: true })
    const pairedState = await paired.waitFor(() => true)
    expect(pairedState.canControl).toBe(true)
    expect(pairedState.devices).toBeNull()
    expect(pairedState.sharing?.pairingCode).toBeNull()
    expect(await paired.call('setSharing', false)).toMatchObject({ ok: false, error: 'only a screen on the host computer can do that' })
    await viewer.waitFor((state) => state.current?.moveCount === 1)
    for (const client of [table, viewer, paired]) client.close()
  })

  it('refuses a request whose argument does not fit its schema, naming the field, and changes nothing', async () => {
    const server = await startServer()
    const table = await ScreenClient.open(apiAddress(server.url))
    expect(await table.call('newGame', { game: 'farkle', players: ['Ann', 'Bob'] })).toMatchObject({ ok: true })
    const before = await table.getState()
    const pushes = table.states.length
    const refusals: [string, unknown[], string][] = [
      ['newGame', [{ game: 'farkle', players: ['Ann', 'Bob', 'x'.repeat(41)] }], 'newGame: players[2] must be a string of at most 40 characters'],
      ['newGame', [{ game: 'farkle', players: Array.from({ length: 17 }, (_, seat) => `P${seat}`) }], 'newGame: players must list at most 16 players'],
      ['newGame', [{ game: 'chess', players: ['Ann'] }], 'newGame: game must be one of the games (foursies, farkle, fouche, four-plus)'],
      ['newGame', [{ players: ['Ann'] }], 'newGame: game is missing'],
      ['newGame', [{ game: 'farkle', players: ['Ann'], computers: [0.5] }], 'newGame: computers[0] must be a seat number'],
      ['newGame', [['farkle']], 'newGame: setup must be a game setup (game, players, rules, computers)'],
      ['submit', [{ roll: [1, 2, 3, 4, 5, 6], at: 5 }], 'submit: move must not carry a time ("at"): main writes it'],
      ['importRecord', [42], 'importRecord: record must be text'],
      ['openHistory', ['../etc/passwd'], 'openHistory: id must be a history id'],
      ['setShowOdds', ['yes'], 'setShowOdds: on must be true or false'],
      ['connectDevice', ['ttyACM0'], 'connectDevice: path must be a port path (such as /dev/ttyACM0 or COM3)'],
      ['assignDie', ['DRH-1', 'A'], 'assignDie takes 3 arguments (deviceId, dieId, inGame), not 2']
    ]
    for (const [method, args, error] of refusals) {
      expect(await table.send(method, ...args), method).toEqual({ ok: false, error })
    }
    const after = await table.getState()
    expect(after).toEqual(before)
    expect(table.states).toHaveLength(pushes)
    table.close()
  })

  it('holds each method to its access level: LAN viewers watch, paired LAN devices control, the host does all', async () => {
    // The access levels the screen API has always had.
    const watch = ['getState', 'listHistory', 'openHistory', 'historyStep', 'listDisplays', 'pair']
    // players, statistics and charts (issue 14): anyone watching may read them
    watch.push('listPeople', 'playerStatistics', 'statisticsCsv', 'playerPage', 'headToHead', 'gameChart', 'listTrash')
    const host = ['setSharing', 'revokeScreen', 'newPairingCode', 'joinLeague', 'hostLeague', 'listPorts', 'connectDevice', 'disconnectDevice', 'identifyDie', 'assignDie', 'setDeviceTestMode', 'showScoreboard', 'reportBluetoothDie', 'chooseBluetoothDevice']
    // the camera (issue 26): capture mode writes photos on the host, so the host turns it on
    host.push('setCameraCapture')
    const methods = Object.keys(API_METHODS) as MethodName[]
    const levels = (level: Access) => methods.filter((method) => API_METHODS[method].access === level).sort()
    expect(levels('watch')).toEqual([...watch].sort())
    expect(levels('host')).toEqual([...host].sort())
    expect(levels('control')).toContain('submit')

    const server = await startServer(['127.0.0.2'])
    const local = await ScreenClient.open(apiAddress(server.url))
    expect(await local.call('setSharing', true)).toMatchObject({ ok: true })
    const code = (await local.waitFor((state) => state.sharing?.enabled === true)).sharing?.pairingCode
    const viewer = await ScreenClient.open(`ws://127.0.0.2:${server.port}/api`)
    const paired = await ScreenClient.paired(`ws://127.0.0.2:${server.port}/api`, code!)
    const mayCall: [ScreenClient, Access[]][] = [
      [viewer, ['watch']],
      [paired, ['watch', 'control']],
      [local, ['watch', 'control', 'host']]
    ]
    for (const [client, allowed] of mayCall) {
      for (const method of methods) {
        // One argument too many: a caller that may call the method is refused for that, and nothing runs.
        const args = Array.from({ length: API_METHODS[method].args.length + 1 }, () => null)
        const reply = (await client.send(method, ...args)) as { ok: false; error: string }
        const access = API_METHODS[method].access
        if (allowed.includes(access)) expect(reply.error, method).toMatch(new RegExp(`^${method} takes `))
        else if (client === viewer) expect(reply.error, method).toBe('this screen can only watch')
        else expect(reply.error, method).toBe('only a screen on the host computer can do that')
      }
    }
    expect(await viewer.call('listHistory')).toMatchObject({ ok: true, games: [] })
    expect(await paired.call('newGame', { game: 'four-plus', players: ['Ann', 'Bob'] })).toMatchObject({ ok: true })
    expect(await paired.call('listPorts')).toMatchObject({ ok: false, error: 'only a screen on the host computer can do that' })
    expect(await local.call('listPorts')).toMatchObject({ ok: true, ports: [] })
    for (const client of [local, viewer, paired]) client.close()
  })
})
