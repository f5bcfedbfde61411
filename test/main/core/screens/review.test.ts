// Security and robustness review of the main-process core: each test is a problem found, fixed.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { TableState } from '@shared/api'
import type { TableServer } from '@main/core/screens/table-server'
import { openTable, serveTable, type TestTable } from '@test/kit/table'
import { ScreenClient, ScreenRefused } from '@test/kit/screen-client'

let dataDir: string
const tables: TestTable[] = []

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-review-'))
})
afterEach(async () => {
  while (tables.length) await tables.pop()!.stop()
})

function openSession(): TestTable {
  let clock = 1_700_000_000_000
  return openTable({ dataDir, now: () => ++clock })
}

async function startServer(lanAddresses: string[] = []): Promise<{ server: TableServer; session: TestTable }> {
  const rendererDir = join(dataDir, 'renderer')
  mkdirSync(join(rendererDir, 'assets'), { recursive: true })
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Dice Referee</title>')
  let clock = 1_700_000_000_000
  const session = await serveTable(rendererDir, { dataDir, now: () => ++clock, lanAddresses: () => lanAddresses })
  tables.push(session)
  return { server: session.table.server!, session }
}

/** Sends raw bytes and returns the first line the server answers (its status line), or '' when it hangs up. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text))
    let received = ''
    socket.on('data', (chunk) => {
      received += chunk.toString()
      if (received.includes('\r\n')) {
        socket.destroy()
        resolve(received.split('\r\n')[0])
      }
    })
    socket.on('close', () => resolve(received.split('\r\n')[0]))
    socket.on('error', reject)
  })
}

/** Opens a screen with these handshake headers; resolves with the first state pushed, or the HTTP status it was refused with. */
async function openSocket(url: string, headers: Record<string, string> = {}): Promise<{ state: TableState; screen: ScreenClient } | { refused: number }> {
  try {
    const screen = await ScreenClient.open(url, { headers })
    return { state: screen.state, screen }
  } catch (error) {
    if (error instanceof ScreenRefused) return { refused: error.status }
    throw error
  }
}

describe('the table server', () => {
  it('answers a malformed address with 400 instead of crashing the host', async () => {
    const { server } = await startServer()
    expect((await fetch(`${server.url}%E0%A4%A`)).status).toBe(400)
    expect(await rawRequest(server.port, 'GET http://[ HTTP/1.1\r\nHost: x\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/)
    const upgrade = 'GET http://[/api HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n'
    expect(await rawRequest(server.port, upgrade)).not.toMatch(/^HTTP\/1\.1 101/)
    // Still up.
    expect((await fetch(server.url)).status).toBe(200)
  })

  it('refuses WebSockets opened by pages of other sites (cross-site WebSocket hijacking, DNS rebinding)', async () => {
    const { server } = await startServer()
    const api = `ws://127.0.0.1:${server.port}/api`
    expect(await openSocket(api, { origin: 'https://evil.example' })).toEqual({ refused: 403 })
    expect(await openSocket(api, { origin: `http://evil.example:${server.port}`, host: `evil.example:${server.port}` })).toEqual({ refused: 403 })
    expect(await openSocket(api, { origin: 'null' })).toEqual({ refused: 403 })
    // The app's own pages (and clients that are not browsers) are let in.
    const allowed: Record<string, string>[] = [
      { origin: `http://127.0.0.1:${server.port}` },
      { origin: `http://localhost:${server.port}`, host: `localhost:${server.port}` },
      {}
    ]
    for (const headers of allowed) {
      const opened = await openSocket(api, headers)
      expect(opened).toHaveProperty('state')
      if ('screen' in opened) opened.screen.close()
    }
  })

  it('makes guessing the pairing code useless without locking out the table’s own phone; a paired phone stays paired over a restart until withdrawn', async () => {
    let clock = 1_700_000_000_000
    const rendererDir = join(dataDir, 'renderer')
    mkdirSync(rendererDir, { recursive: true })
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>')
    const open = () => serveTable(rendererDir, { dataDir, now: () => ++clock, lanAddresses: () => ['127.0.0.2'] })
    let session = await open()
    tables.push(session)
    await session.table.setSharing(true)
    const code = session.table.pairing.pairingCode
    expect(code).toMatch(/^\d{8}$/)
    const lan = () => `ws://127.0.0.2:${session.table.server!.port}/api`
    /** A screen on the LAN at its own address. */
    const screenAt = (address: string, query = ''): Promise<ScreenClient> => ScreenClient.open(`${lan()}${query}`, { localAddress: address })
    const wrong = String((Number(code) + 1) % 10 ** 8).padStart(8, '0')
    const guesser = await screenAt('127.0.0.9')
    // Each wrong code is told, with how many tries are left at once.
    for (let left = 4; left >= 0; left--) {
      const answer = await guesser.call('pair', wrong, 'Guesser')
      if (answer.ok) throw new Error('a wrong code paired')
      expect(answer.error).toMatch(/^Wrong code/)
      if (left > 0) expect(answer.error).toContain(`${left} more ${left === 1 ? 'try' : 'tries'} at once`)
    }
    // The guesser's next try waits; the table's own phone is not locked out by it.
    const waiting = guesser.call('pair', wrong, 'Guesser')
    const phone = await screenAt('127.0.0.7')
    expect(phone.state).toMatchObject({ canControl: false, trust: 'viewer' })
    const paired = await phone.call('pair', code, 'Phone (Android)')
    expect(paired).toMatchObject({ ok: true, token: expect.any(String) })
    if (!paired.ok) throw new Error(paired.error)
    phone.close()
    guesser.close()
    // The guesser's try was still waiting when it left.
    await expect(waiting).rejects.toThrow()
    const host = session.snapshot(true)
    expect(host.sharing?.paired).toMatchObject([{ name: 'Phone (Android)' }])

    // The host restarts: the phone, back with its token, still enters dice, and counts as no guess.
    await session.stop()
    session = await open()
    tables.push(session)
    await session.table.setSharing(true)
    const back = await screenAt('127.0.0.7', `?token=${paired.token}`)
    expect(back.state).toMatchObject({ canControl: true, trust: 'paired' })
    expect(await back.call('newGame', { game: 'four-plus', players: ['Ann', 'Bob'] })).toEqual({ ok: true })
    expect(session.snapshot(true).sharing?.paired).toMatchObject([{ name: 'Phone (Android)', connected: true }])

    // Withdrawn by the host: its connection closes, and with its old token it can only watch.
    const id = session.snapshot(true).sharing!.paired[0].id
    expect(session.table.pairing.withdraw(id)).toEqual({ ok: true })
    await back.closed
    const again = await screenAt('127.0.0.7', `?token=${paired.token}`)
    expect(again.state).toMatchObject({ canControl: false, trust: 'withdrawn' })
    again.close()
  })

  it('refuses pages of other sites on the LAN listener too (DNS rebinding: a foreign name pointed at the LAN address)', async () => {
    const { server } = await startServer(['127.0.0.2'])
    await server.setSharing(true)
    const lan = `ws://127.0.0.2:${server.port}/api`
    const rebound = { origin: `http://evil.example:${server.port}`, host: `evil.example:${server.port}` }
    expect(await openSocket(lan, rebound)).toEqual({ refused: 403 })
    expect(await openSocket(lan, { origin: `http://evil.example:${server.port}` })).toEqual({ refused: 403 })
    const own = await openSocket(lan, { origin: `http://127.0.0.2:${server.port}` })
    expect(own).toHaveProperty('state')
    if ('screen' in own) own.screen.close()
    // Pages asked for by another name are refused as well (421), on the LAN and on loopback.
    const misdirected = (host: string, address: string): Promise<string> =>
      new Promise((resolve, reject) => {
        const socket = connect(server.port, address, () => socket.write(`GET /scoreboard HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`))
        let received = ''
        socket.on('data', (chunk) => (received += chunk.toString()))
        socket.on('close', () => resolve(received.split('\r\n')[0]))
        socket.on('error', reject)
      })
    expect(await misdirected(`evil.example:${server.port}`, '127.0.0.2')).toMatch(/^HTTP\/1\.1 421/)
    expect(await misdirected(`evil.example:${server.port}`, '127.0.0.1')).toMatch(/^HTTP\/1\.1 421/)
    expect(await misdirected(`127.0.0.2:${server.port}`, '127.0.0.2')).toMatch(/^HTTP\/1\.1 200/)
  })

  it('keeps other sites from framing the app (clickjacking)', async () => {
    const { server } = await startServer()
    expect((await fetch(server.url)).headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
  })
})

describe('the table session', () => {
  it('can always leave, export and archive an imported game whatever its start time says', async () => {
    const session = openSession()
    for (const startedAt of [1e20, -1e20, 3e14]) {
      const record = `${JSON.stringify({ game: 'four-plus', players: ['Ann', 'Bob'], meta: { startedAt } })}\n{"roll":[3,3,3,2]}\n`
      expect(await session.importRecord(record)).toEqual({ ok: true })
      expect(await session.exportRecord()).toMatchObject({ ok: true })
      expect(session.abandon()).toEqual({ ok: true })
    }
    const ids = session.listHistory().map((entry) => entry.id)
    expect(ids).toHaveLength(3)
    for (const id of ids) expect(await session.openHistory(id)).toMatchObject({ ok: true, game: { stepCount: 1 } })
  })

  it('does not bring an abandoned game back after a restart, even one without a move', () => {
    const session = openSession()
    expect(session.newGame({ game: 'four-plus', players: ['Ann', 'Bob'] })).toEqual({ ok: true })
    expect(session.abandon()).toEqual({ ok: true })
    expect(openSession().snapshot(true).current).toBeNull()
  })

  it('lists a game archived just before a crash, when the history index did not get its line', () => {
    const session = openSession()
    for (const name of ['Cal', 'Dee']) {
      session.newGame({ game: 'four-plus', players: ['Ann', name] })
      session.submit({ roll: [3, 3, 3, 2] })
      session.abandon()
    }
    expect(session.listHistory()).toHaveLength(2)
    // The app stopped between moving the record into the history and writing the index line.
    const index = join(dataDir, 'history', 'index.jsonl')
    writeFileSync(index, readFileSync(index, 'utf8').split('\n')[0] + '\n')
    const listed = openSession().listHistory()
    expect(listed.map((entry) => entry.players[1]).sort()).toEqual(['Cal', 'Dee'])
    expect(readFileSync(index, 'utf8').trimEnd().split('\n')).toHaveLength(2)
  })
})
