// Security and robustness review of the main-process core: each test is a problem found, fixed.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { TableState, WirePush } from '../../src/shared/api'
import type { TableServer } from '../../src/main/core/screens/table-server'
import { openTable, serveTable, type TestTable } from '../kit/table'

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

/** Opens a WebSocket; resolves with the first state pushed, or the HTTP status it was refused with. */
function openSocket(url: string, headers: Record<string, string> = {}): Promise<{ state: TableState; socket: WebSocket } | { refused: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers })
    socket.once('message', (data) => resolve({ state: (JSON.parse(data.toString()) as Extract<WirePush, { state: unknown }>).state, socket }))
    socket.once('unexpected-response', (_request, response) => resolve({ refused: response.statusCode ?? 0 }))
    socket.once('error', reject)
  })
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
      if ('socket' in opened) opened.socket.close()
    }
  })

  it('does not let the pairing code be guessed by trying codes quickly', async () => {
    const { server, session } = await startServer(['127.0.0.2'])
    const host = await openSocket(`ws://127.0.0.1:${server.port}/api`)
    if (!('socket' in host)) throw new Error('host refused')
    await server.setSharing(true)
    const code = session.snapshot(true, true).sharing!.pairingCode!
    const wrong = String(((Number(code) - 100000 + 1) % 900000) + 100000)
    const lan = `ws://127.0.0.2:${server.port}/api`
    for (let i = 0; i < 10; i++) {
      const guess = await openSocket(`${lan}?pair=${wrong}`)
      if ('socket' in guess) {
        expect(guess.state.canControl).toBe(false)
        guess.socket.close()
      }
    }
    // Too many wrong codes from this address: even the right one is refused for a while.
    const late = await openSocket(`${lan}?pair=${code}`)
    expect('socket' in late ? late.state.canControl : late.refused).not.toBe(true)
    if ('socket' in late) late.socket.close()
    // Watching stays possible.
    const viewer = await openSocket(lan)
    expect(viewer).toHaveProperty('state')
    if ('socket' in viewer) viewer.socket.close()
    host.socket.close()
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
