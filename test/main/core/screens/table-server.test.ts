import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import type { TableState } from '@shared/api'
import type { WirePush, WireReply } from '@shared/api-methods'
import { API_METHODS, type Access, type MethodName } from '@shared/api-methods'
import type { TableServer } from '@main/core/screens/table-server'
import { serveTable, type TestTable } from '@test/kit/table'
import { applyStatePatch, type JsonObject } from '@shared/state-patch'

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

class Client {
  readonly states: TableState[] = []
  /** Each push as it came: whole or a patch, and its length. */
  readonly pushes: { kind: 'state' | 'patch'; length: number }[] = []
  /** Every message in the order it came: `state <moveCount>` or `reply <id>`. */
  readonly arrivals: string[] = []
  private readonly replies = new Map<number, (reply: WireReply) => void>()
  private nextId = 1
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const text = data.toString()
      const message = JSON.parse(text) as WireReply | WirePush
      if ('state' in message) {
        this.states.push(message.state)
        this.pushes.push({ kind: 'state', length: text.length })
      } else if ('patch' in message) {
        const base = this.states.at(-1)
        if (base?.version !== message.from) throw new Error(`a patch of version ${message.from} came after version ${base?.version}`)
        this.states.push(applyStatePatch(base as unknown as JsonObject, message.patch) as unknown as TableState)
        this.pushes.push({ kind: 'patch', length: text.length })
      } else {
        this.arrivals.push(`reply ${message.id}`)
        this.replies.get(message.id)?.(message)
        return
      }
      this.arrivals.push(`state ${this.states.at(-1)!.current?.moveCount ?? '-'}`)
    })
  }

  static open(url: string): Promise<Client> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url)
      const client = new Client(socket)
      socket.once('open', () => resolve(client))
      socket.once('error', reject)
    })
  }

  call(method: string, ...args: unknown[]): Promise<WireReply> {
    const id = this.nextId++
    return new Promise((resolve) => {
      this.replies.set(id, resolve)
      this.socket.send(JSON.stringify({ id, method, args }))
    })
  }

  /** Pairs a LAN screen with the code, as a phone does: it connects again with the token it got. */
  static async paired(lanUrl: string, code: string): Promise<Client> {
    const viewer = await Client.open(lanUrl)
    const reply = (await viewer.call('pair', code, 'Phone (test)')) as { result: { ok: boolean; token?: string; error?: string } }
    viewer.socket.close()
    if (!reply.result.token) throw new Error(`not paired: ${reply.result.error}`)
    return Client.open(`${lanUrl}?token=${reply.result.token}`)
  }

  async waitFor(check: (state: TableState) => boolean): Promise<TableState> {
    for (let i = 0; i < 200; i++) {
      const found = this.states.find(check)
      if (found) return found
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    throw new Error('no such state arrived')
  }
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
    const table = await Client.open(`ws://127.0.0.1:${server.port}/api`)
    const scoreboard = await Client.open(`ws://127.0.0.1:${server.port}/api`)
    expect(await table.call('newGame', { game: 'four-plus', players: ['Ann', 'Bob'] })).toMatchObject({ result: { ok: true } })
    expect(await table.call('submit', { roll: [3, 3, 3, 2] })).toMatchObject({ result: { ok: true } })
    const seen = await scoreboard.waitFor((state) => state.current?.moveCount === 1)
    expect(seen.current?.summary.players[0].score).toBe(3)
    expect(seen.canControl).toBe(true)
    table.socket.close()
    scoreboard.socket.close()
  })

  it('pushes the TV only what changes on it, first, with the log of the last lines only', async () => {
    const server = await startServer()
    const table = await Client.open(`ws://127.0.0.1:${server.port}/api`)
    const tv = await Client.open(`ws://127.0.0.1:${server.port}/api?screen=scoreboard`)
    await tv.waitFor(() => true)
    expect(await table.call('setShowOdds', true)).toMatchObject({ result: { ok: true } })
    expect(await table.call('newGame', { game: 'foursies', players: ['Ann', 'Bob', 'Cy'] })).toMatchObject({ result: { ok: true } })
    await table.waitFor((state) => state.current?.odds != null)
    let order: string[] = []
    table.socket.on('message', () => order.push('table'))
    tv.socket.on('message', () => order.push('tv'))
    for (let i = 0; i < 12; i++) {
      const offer = (await table.waitFor((state) => state.version === Math.max(...table.states.map((s) => s.version)))).current!.offer
      // Random dice can end a game early (four 1s).
      if (offer.finished) break
      const tvBefore = tv.states.length
      const tableBefore = table.states.length
      order = []
      if (offer.diceDue > 0) expect(await table.call('rollVirtual')).toMatchObject({ result: { ok: true } })
      else expect(await table.call('submit', offer.decisions[0].move)).toMatchObject({ result: { ok: true } })
      // The table screen is pushed the move, then its odds; the TV only the move, and before the table.
      await table.waitFor((state) => state.current?.moveCount === i + 1 && state.current.odds != null)
      await new Promise((resolve) => setTimeout(resolve, 30))
      expect(table.states.length - tableBefore).toBe(2)
      expect(tv.states.length - tvBefore).toBe(1)
      expect(order[0]).toBe('tv')
      const shown = tv.states.at(-1)!.current!
      expect(shown.moveCount).toBe(i + 1)
      expect(shown.odds).toBeNull()
      expect(new Set(shown.log.map((entry) => entry.line)).size).toBeLessThanOrEqual(3)
      expect(shown.log.at(-1)).toEqual(table.states.at(-1)!.current!.log.at(-1))
    }
    table.socket.close()
    tv.socket.close()
  })

  it('pushes a screen that asks for patches what changed, which rebuilds the very state others are pushed whole', async () => {
    const server = await startServer()
    const table = await Client.open(`ws://127.0.0.1:${server.port}/api`)
    const patchedTable = await Client.open(`ws://127.0.0.1:${server.port}/api?patches=1`)
    const tv = await Client.open(`ws://127.0.0.1:${server.port}/api?screen=scoreboard`)
    const patchedTv = await Client.open(`ws://127.0.0.1:${server.port}/api?screen=scoreboard&patches=1`)
    const screens = [table, patchedTable, tv, patchedTv]
    for (const screen of screens) await screen.waitFor(() => true)
    expect(await table.call('setShowOdds', true)).toMatchObject({ result: { ok: true } })
    expect(await table.call('newGame', { game: 'foursies', players: ['Ann', 'Bob', 'Cy'] })).toMatchObject({ result: { ok: true } })
    for (let i = 0; i < 40; i++) {
      const offer = (await table.waitFor((state) => state.current?.moveCount === i && state.current.odds != null)).current!.offer
      if (offer.finished) break
      if (offer.diceDue > 0) expect(await table.call('rollVirtual')).toMatchObject({ result: { ok: true } })
      else expect(await table.call('submit', offer.decisions[0].move)).toMatchObject({ result: { ok: true } })
    }
    await table.waitFor((state) => (state.current?.moveCount ?? 0) >= 1 && state.current?.odds != null && state.version === Math.max(...table.states.map((s) => s.version)))
    // On a busy machine a screen that lags is pushed fewer, later states (pushes coalesce), so the pairs are compared
    // version by version, and a patch by the bytes the very state it rebuilt would have taken whole.
    for (const [whole, patched] of [
      [table, patchedTable],
      [tv, patchedTv]
    ]) {
      await vi.waitFor(() => expect(patched.states.at(-1)?.version).toBe(whole.states.at(-1)?.version), { timeout: 15_000, interval: 5 })
      expect(patched.states.at(-1)).toEqual(whole.states.at(-1))
      const byVersion = new Map(whole.states.map((state) => [state.version, state]))
      for (const state of patched.states) if (byVersion.has(state.version)) expect(state).toEqual(byVersion.get(state.version))
      expect(whole.pushes.every((push) => push.kind === 'state')).toBe(true)
      expect(patched.pushes[0].kind).toBe('state')
      const patches = patched.pushes.flatMap((push, i) => (push.kind === 'patch' ? [{ length: push.length, state: patched.states[i] }] : []))
      expect(patches.length).toBeGreaterThan(patched.pushes.length / 2)
      const patchBytes = patches.reduce((sum, patch) => sum + patch.length, 0)
      const wholeBytes = patches.reduce((sum, patch) => sum + JSON.stringify({ state: patch.state }).length, 0)
      expect(patchBytes).toBeLessThan(wholeBytes / 2)
    }
    for (const screen of screens) screen.socket.close()
  })

  it('pushes a screen the state its own request made before it answers the request, after the TV', async () => {
    const server = await startServer()
    const table = await Client.open(`ws://127.0.0.1:${server.port}/api?patches=1`)
    const tv = await Client.open(`ws://127.0.0.1:${server.port}/api?screen=scoreboard`)
    await tv.waitFor(() => true)
    let order: string[] = []
    table.socket.on('message', () => order.push('table'))
    tv.socket.on('message', () => order.push('tv'))
    expect(await table.call('newGame', { game: 'four-plus', players: ['Ann', 'Bob'] })).toMatchObject({ result: { ok: true } })
    await tv.waitFor((state) => state.current?.moveCount === 0)
    order = []
    expect(await table.call('submit', { roll: [3, 3, 3, 2] })).toMatchObject({ result: { ok: true } })
    expect(table.arrivals.slice(table.arrivals.indexOf('reply 1'))).toEqual(['reply 1', 'state 1', 'reply 2'])
    await tv.waitFor((state) => state.current?.moveCount === 1)
    expect(order).toEqual(['tv', 'table', 'table'])
    table.socket.close()
    tv.socket.close()
  })

  it('checks every request: a malformed payload is refused and changes nothing', async () => {
    const server = await startServer()
    const table = await Client.open(`ws://127.0.0.1:${server.port}/api`)
    await table.call('newGame', { game: 'four-plus', players: ['Ann', 'Bob'] })
    expect(await table.call('submit', { roll: [3, 3, 3, 'x'] })).toMatchObject({ result: { ok: false } })
    expect(await table.call('keypad', 'F5')).toMatchObject({ result: { ok: false, error: 'keypad: key must be a keypad key (0 1 2 3 4 5 6 7 8 9 Enter Backspace + - * / .)' } })
    expect(await table.call('newGame', { game: 'chess', players: [] })).toMatchObject({ result: { ok: false } })
    expect(await table.call('dropTables')).toMatchObject({ result: { ok: false, error: 'unknown method dropTables' } })
    const state = (await table.call('getState')) as { result: { state: TableState } }
    expect(state.result.state.current?.moveCount).toBe(0)
    table.socket.close()
  })

  it('lets LAN screens watch only, unless they bring the pairing code', async () => {
    const server = await startServer(['127.0.0.2'])
    const table = await Client.open(`ws://127.0.0.1:${server.port}/api`)
    await table.call('newGame', { game: 'four-plus', players: ['Ann', 'Bob'] })
    await expect(fetch(`http://127.0.0.2:${server.port}/scoreboard`)).rejects.toThrow()
    expect(await table.call('setSharing', true)).toMatchObject({ result: { ok: true } })
    const shared = await table.waitFor((state) => state.sharing?.enabled === true)
    expect(shared.sharing?.urls).toEqual([`http://127.0.0.2:${server.port}/scoreboard`])
    expect(shared.sharing?.qrSvg).toContain('<svg')
    const code = shared.sharing?.pairingCode
    expect(code).toMatch(/^\d{8}$/)

    const viewer = await Client.open(`ws://127.0.0.2:${server.port}/api`)
    const viewerState = await viewer.waitFor(() => true)
    expect(viewerState.canControl).toBe(false)
    expect(viewerState.sharing?.pairingCode).toBeNull()
    expect(await viewer.call('submit', { roll: [3, 3, 3, 2] })).toMatchObject({ result: { ok: false, error: 'this screen can only watch' } })

    const paired = await Client.paired(`ws://127.0.0.2:${server.port}/api`, code!)
    expect(await paired.call('submit', { roll: [3, 3, 3, 2] })).toMatchObject({ result: { ok: true } })
    const pairedState = await paired.waitFor(() => true)
    expect(pairedState.canControl).toBe(true)
    expect(pairedState.devices).toBeNull()
    expect(pairedState.sharing?.pairingCode).toBeNull()
    expect(await paired.call('setSharing', false)).toMatchObject({ result: { ok: false, error: 'only a screen on the host computer can do that' } })
    await viewer.waitFor((state) => state.current?.moveCount === 1)
    for (const client of [table, viewer, paired]) client.socket.close()
  })

  it('refuses a request whose argument does not fit its schema, naming the field, and changes nothing', async () => {
    const server = await startServer()
    const table = await Client.open(`ws://127.0.0.1:${server.port}/api`)
    expect(await table.call('newGame', { game: 'farkle', players: ['Ann', 'Bob'] })).toMatchObject({ result: { ok: true } })
    const before = ((await table.call('getState')) as { result: { state: TableState } }).result.state
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
      expect(await table.call(method, ...args), method).toEqual({ id: expect.any(Number), result: { ok: false, error } })
    }
    const after = ((await table.call('getState')) as { result: { state: TableState } }).result.state
    expect(after).toEqual(before)
    expect(table.states).toHaveLength(pushes)
    table.socket.close()
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
    const local = await Client.open(`ws://127.0.0.1:${server.port}/api`)
    expect(await local.call('setSharing', true)).toMatchObject({ result: { ok: true } })
    const code = (await local.waitFor((state) => state.sharing?.enabled === true)).sharing?.pairingCode
    const viewer = await Client.open(`ws://127.0.0.2:${server.port}/api`)
    const paired = await Client.paired(`ws://127.0.0.2:${server.port}/api`, code!)
    const mayCall: [Client, Access[]][] = [
      [viewer, ['watch']],
      [paired, ['watch', 'control']],
      [local, ['watch', 'control', 'host']]
    ]
    for (const [client, allowed] of mayCall) {
      for (const method of methods) {
        // One argument too many: a caller that may call the method is refused for that, and nothing runs.
        const args = Array.from({ length: API_METHODS[method].args.length + 1 }, () => null)
        const reply = (await client.call(method, ...args)) as { result: { ok: false; error: string } }
        const access = API_METHODS[method].access
        if (allowed.includes(access)) expect(reply.result.error, method).toMatch(new RegExp(`^${method} takes `))
        else if (client === viewer) expect(reply.result.error, method).toBe('this screen can only watch')
        else expect(reply.result.error, method).toBe('only a screen on the host computer can do that')
      }
    }
    expect(await viewer.call('listHistory')).toMatchObject({ result: { ok: true, games: [] } })
    expect(await paired.call('newGame', { game: 'four-plus', players: ['Ann', 'Bob'] })).toMatchObject({ result: { ok: true } })
    expect(await paired.call('listPorts')).toMatchObject({ result: { ok: false, error: 'only a screen on the host computer can do that' } })
    expect(await local.call('listPorts')).toMatchObject({ result: { ok: true, ports: [] } })
    for (const client of [local, viewer, paired]) client.socket.close()
  })
})
