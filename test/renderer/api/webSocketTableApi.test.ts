// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openWebSocketTableApi, type SocketLike, type WebSocketTableApi } from '@renderer/api/webSocketTableApi'
import { apiUrlFor } from '@renderer/api'
import type { TableState } from '@shared/api'
import type { WireRequest } from '@shared/api-methods'
import { emptyState } from '../fixtures'

class FakeSocket implements SocketLike {
  static all: FakeSocket[] = []
  readyState = 0
  sent: WireRequest[] = []
  onopen: ((event: unknown) => void) | null = null
  onclose: ((event: unknown) => void) | null = null
  onerror: ((event: unknown) => void) | null = null
  onmessage: ((event: { data: unknown }) => void) | null = null

  constructor(readonly url: string) {
    FakeSocket.all.push(this)
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data) as WireRequest)
  }
  close(): void {
    this.drop()
  }
  open(): void {
    this.readyState = 1
    this.onopen?.({})
  }
  drop(): void {
    this.readyState = 3
    this.onclose?.({})
  }
  receive(message: unknown): void {
    this.onmessage?.({ data: JSON.stringify(message) })
  }
  /** Answers the request for `method` that is still unanswered. */
  reply(method: string, result: unknown): void {
    const request = [...this.sent].reverse().find((candidate) => candidate.method === method)
    if (!request) throw new Error(`no ${method} request`)
    this.receive({ id: request.id, result })
  }
}

function latestSocket(): FakeSocket {
  return FakeSocket.all[FakeSocket.all.length - 1]
}

describe('WebSocketTableApi', () => {
  let api: WebSocketTableApi

  beforeEach(() => {
    vi.useFakeTimers()
    FakeSocket.all = []
    api = openWebSocketTableApi({ url: 'ws://host/api', createSocket: (url) => new FakeSocket(url), initialDelayMs: 100, maxDelayMs: 400 })
  })
  afterEach(() => {
    api.close()
    vi.useRealTimers()
  })

  it('queues requests until the socket opens, then matches each reply to its request by id', async () => {
    const socket = latestSocket()
    expect(socket.url).toBe('ws://host/api')
    const keypad = api.keypad('4')
    const history = api.listHistory()
    expect(socket.sent).toEqual([])
    socket.open()
    const keypadRequest = socket.sent.find((request) => request.method === 'keypad')!
    const historyRequest = socket.sent.find((request) => request.method === 'listHistory')!
    expect(keypadRequest.args).toEqual(['4'])
    expect(keypadRequest.id).not.toBe(historyRequest.id)

    socket.receive({ id: historyRequest.id, result: { ok: true, games: [] } })
    socket.receive({ id: keypadRequest.id, result: { ok: false, error: '7 is not a die face' } })
    await expect(history).resolves.toEqual({ ok: true, games: [] })
    await expect(keypad).resolves.toEqual({ ok: false, error: '7 is not a die face' })
  })

  it('sends the arguments of each method', async () => {
    const socket = latestSocket()
    socket.open()
    const ignore = () => undefined
    api.submit({ keep: [1, 5] }).catch(ignore)
    api.newGame({ game: 'farkle', players: ['Ann'] }).catch(ignore)
    api.setSharing(true).catch(ignore)
    expect(socket.sent.slice(-3).map(({ method, args }) => ({ method, args }))).toEqual([
      { method: 'submit', args: [{ keep: [1, 5] }] },
      { method: 'newGame', args: [{ game: 'farkle', players: ['Ann'] }] },
      { method: 'setSharing', args: [true] }
    ])
  })

  it('sends the device methods with their arguments and resolves their replies', async () => {
    const socket = latestSocket()
    socket.open()
    const ports = api.listPorts()
    const connect = api.connectDevice('/dev/ttyACM0')
    const disconnect = api.disconnectDevice('HUB-0042')
    const identify = api.identifyDie('HUB-0042', 'B')
    const testMode = api.setDeviceTestMode(true)
    const assign = api.assignDie('HUB-0042', 'C', false)
    expect(socket.sent.slice(-6).map(({ method, args }) => ({ method, args }))).toEqual([
      { method: 'listPorts', args: [] },
      { method: 'connectDevice', args: ['/dev/ttyACM0'] },
      { method: 'disconnectDevice', args: ['HUB-0042'] },
      { method: 'identifyDie', args: ['HUB-0042', 'B'] },
      { method: 'setDeviceTestMode', args: [true] },
      { method: 'assignDie', args: ['HUB-0042', 'C', false] }
    ])
    const port = { path: 'COM3', manufacturer: 'FTDI', serialNumber: null, vendorId: '0403', productId: '6001', device: null }
    socket.reply('listPorts', { ok: true, ports: [port] })
    socket.reply('connectDevice', { ok: false, error: 'COM3 is busy' })
    socket.reply('disconnectDevice', { ok: true })
    socket.reply('identifyDie', { ok: true })
    socket.reply('setDeviceTestMode', { ok: true })
    socket.reply('assignDie', { ok: false, error: 'HUB-0042 has no die C' })
    await expect(ports).resolves.toEqual({ ok: true, ports: [port] })
    await expect(connect).resolves.toEqual({ ok: false, error: 'COM3 is busy' })
    await expect(disconnect).resolves.toEqual({ ok: true })
    await expect(identify).resolves.toEqual({ ok: true })
    await expect(testMode).resolves.toEqual({ ok: true })
    await expect(assign).resolves.toEqual({ ok: false, error: 'HUB-0042 has no die C' })
  })

  it('queues a device request made while connecting and fails it when the connection drops', async () => {
    const socket = latestSocket()
    const connect = api.connectDevice('/tmp/dice-sim')
    expect(socket.sent).toEqual([])
    socket.open()
    expect(socket.sent.find((request) => request.method === 'connectDevice')?.args).toEqual(['/tmp/dice-sim'])
    socket.drop()
    await expect(connect).rejects.toThrow(/reconnecting/)
    await expect(api.listPorts()).rejects.toThrow(/reconnecting/)
  })

  it('rejects a request the host answers with an error', async () => {
    const socket = latestSocket()
    socket.open()
    const undo = api.undo()
    const request = socket.sent.find((candidate) => candidate.method === 'undo')!
    socket.receive({ id: request.id, error: 'unknown method' })
    await expect(undo).rejects.toThrow('unknown method')
  })

  it('hands pushed states to every listener until it stops listening', () => {
    const socket = latestSocket()
    socket.open()
    const seen: TableState[] = []
    const stop = api.onState((state) => seen.push(state))
    socket.receive({ state: emptyState({ version: 7 }) })
    stop()
    socket.receive({ state: emptyState({ version: 8 }) })
    expect(seen.map((state) => state.version)).toEqual([7])
  })

  it('fetches the state as soon as it connects', async () => {
    const socket = latestSocket()
    const seen: number[] = []
    api.onState((state) => seen.push(state.version))
    socket.open()
    socket.reply('getState', { ok: true, state: emptyState({ version: 3 }) })
    await vi.waitFor(() => expect(seen).toEqual([3]))
  })

  it('reconnects with a growing delay, reports the connection and fails what was in flight', async () => {
    const statuses: string[] = []
    api.onConnection((status) => statuses.push(status))
    const first = latestSocket()
    first.open()
    const pending = api.rollVirtual()
    first.drop()
    await expect(pending).rejects.toThrow(/reconnecting/)
    expect(api.connectionStatus).toBe('reconnecting')
    await expect(api.undo()).rejects.toThrow()

    vi.advanceTimersByTime(99)
    expect(FakeSocket.all).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(FakeSocket.all).toHaveLength(2)
    latestSocket().drop()
    vi.advanceTimersByTime(199)
    expect(FakeSocket.all).toHaveLength(2)
    vi.advanceTimersByTime(1)
    expect(FakeSocket.all).toHaveLength(3)
    latestSocket().drop()
    vi.advanceTimersByTime(400)
    expect(FakeSocket.all).toHaveLength(4)
    latestSocket().drop()
    vi.advanceTimersByTime(400)
    expect(FakeSocket.all).toHaveLength(5)

    latestSocket().open()
    expect(statuses).toEqual(['open', 'reconnecting', 'open'])
    // After a successful connection the delay starts small again.
    latestSocket().drop()
    vi.advanceTimersByTime(100)
    expect(FakeSocket.all).toHaveLength(6)
  })

  it('stays closed when the connection is lost if told not to reconnect (the tests’ screens), failing what was in flight', async () => {
    api.close()
    api = openWebSocketTableApi({ url: 'ws://host/api', createSocket: (url) => new FakeSocket(url), initialDelayMs: 100, reconnect: false })
    const socket = latestSocket()
    socket.open()
    const pending = api.rollVirtual()
    socket.drop()
    await expect(pending).rejects.toThrow()
    await expect(api.undo()).rejects.toThrow()
    vi.advanceTimersByTime(10_000)
    expect(latestSocket()).toBe(socket)
  })

  it('applies a pushed patch to the state pushed before it, and starts afresh when it does not fit', () => {
    const socket = latestSocket()
    socket.open()
    const seen: TableState[] = []
    api.onState((state) => seen.push(state))
    const first = emptyState({ version: 7, recentPlayers: ['Ann'] })
    socket.receive({ state: first })
    socket.receive({ patch: { merge: { version: 8, recentPlayers: ['Ann', 'Bob'], message: { text: 'Hi', level: 'info', id: 1 } } }, from: 7 })
    expect(seen[1]).toEqual({ ...first, version: 8, recentPlayers: ['Ann', 'Bob'], message: { text: 'Hi', level: 'info', id: 1 } })
    expect(seen[1].keypad).toBe(seen[0].keypad)
    expect(seen[0].version).toBe(7)
    socket.receive({ patch: { merge: { version: 9, message: null } }, from: 8 })
    expect(seen[2].message).toBeNull()

    // A patch of a state this screen was never pushed: nothing is shown, and it reconnects for the whole state.
    socket.receive({ patch: { merge: { version: 11 } }, from: 10 })
    expect(seen).toHaveLength(3)
    expect(api.connectionStatus).toBe('reconnecting')
    vi.advanceTimersByTime(100)
    const again = latestSocket()
    expect(again).not.toBe(socket)
    again.open()
    again.receive({ patch: { merge: { version: 12 } }, from: 9 })
    expect(seen).toHaveLength(3)
  })

  it('ignores malformed messages and replies to nobody', () => {
    const socket = latestSocket()
    socket.open()
    socket.onmessage?.({ data: 'not json' })
    socket.receive({ id: 999, result: 1 })
    socket.receive(42)
    expect(api.connectionStatus).toBe('open')
  })
})

describe('apiUrlFor', () => {
  it('uses the page host and passes a paired screen’s token on (never a pairing code from the address)', () => {
    expect(apiUrlFor({ protocol: 'http:', host: '192.168.1.5:8080', search: '' })).toBe('ws://192.168.1.5:8080/api?patches=1')
    expect(apiUrlFor({ protocol: 'https:', host: 'table.local', search: '?pair=12345678' }, 'a-b_c')).toBe('wss://table.local/api?token=a-b_c&patches=1')
    expect(apiUrlFor({ protocol: 'http:', host: 'h', search: '', pathname: '/scoreboard' })).toBe('ws://h/api?screen=scoreboard&patches=1')
  })
})
