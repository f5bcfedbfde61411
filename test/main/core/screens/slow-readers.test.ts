// Screens that send without reading what comes back (a real socket that never reads): what the
// host queues for one screen is bounded, such a screen is dropped, and its memory is freed.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { TableServer } from '@main/core/screens/table-server'
import { serveTable, type TestTable } from '@test/kit/table'
import { floodRequests, openUnreadSocket, textFrame } from '@test/faults/raw-socket'
import { ScreenClient } from '@test/kit/screen-client'
import { waitUntil } from '@test/kit/wait'
import { answered, randomMove } from '@test/faults/support'
import { seededRandom } from '@shared/random-play'

setFlagsFromString('--expose-gc')
const collectGarbage = runInNewContext('gc') as () => void

const tables: TestTable[] = []
afterEach(async () => {
  while (tables.length) await tables.pop()!.stop()
})

async function startServer(): Promise<{ server: TableServer; session: TestTable }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-flood-'))
  const rendererDir = join(dataDir, 'renderer')
  mkdirSync(rendererDir, { recursive: true })
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Dice Referee</title>')
  const session = await serveTable(rendererDir, { dataDir, lanAddresses: () => ['127.0.0.2'] })
  tables.push(session)
  // A game well under way: its state (with the log the screens are shown) is some kB, as at a table.
  session.newGame({ game: 'farkle', players: ['Ann', 'Bob', 'Cy', 'Di'], rules: { target: 1_000_000 } })
  const random = seededRandom(1)
  for (let i = 0; i < 200; i++) session.submit(randomMove(session.currentGame!, random)!)
  const server = session.table.server!
  await server.setSharing(true)
  return { server, session }
}

function heapMegabytes(): number {
  collectGarbage()
  collectGarbage()
  return process.memoryUsage().heapUsed / 2 ** 20
}

/** The number of screens the server holds, once it is `count`. */
const clientCount = (server: TableServer, count: number): Promise<void> => waitUntil(() => expect(server.clientCount).toBe(count))

describe('screens that do not read', () => {
  it('an unpaired LAN viewer sending 100,000 requests without reading is dropped, and its memory freed', async () => {
    const { server, session } = await startServer()
    const before = heapMegabytes()
    const socket = await openUnreadSocket('127.0.0.2', server.port)
    await clientCount(server, 1)
    let peak = 0
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed / 2 ** 20)), 5)
    const sent = await floodRequests(socket, 100_000)
    await clientCount(server, 0)
    clearInterval(sampler)
    socket.destroy()
    // Its memory is freed once its connection is closed on both sides: waited for, with the bound it must come under.
    const after = await waitUntil(() => {
      const now = heapMegabytes()
      expect(now - before).toBeLessThan(10)
      return now
    })
    const stateBytes = JSON.stringify(session.snapshot(false, false)).length
    process.stdout.write(
      `flood: ${sent} requests for a ${(stateBytes / 1024).toFixed(1)} kB state sent unread; heap ${before.toFixed(1)} MB before, peak ${peak.toFixed(1)} MB, ${after.toFixed(1)} MB after the drop\n`
    )
    expect(server.clientCount).toBe(0)
    expect(server.dropped.unread + server.dropped.flooding).toBe(1)
    expect(peak - before).toBeLessThan(120)
    // The host still answers the screens that read.
    const reader = await ScreenClient.open(server.url)
    expect(await reader.call('getState')).toMatchObject({ ok: true })
    reader.close()
  }, 60_000)

  it('a screen that stops reading while states are pushed is dropped once too much is queued for it', async () => {
    const { server, session } = await startServer()
    const socket = await openUnreadSocket('127.0.0.1', server.port)
    await clientCount(server, 1)
    // Every push carries the whole state; the screen never reads them.
    for (let i = 0; i < 4000 && server.clientCount > 0; i++) {
      session.table.views.changed()
      if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve))
    }
    // Pushes wait while much is unread, so it is not dropped for pushes alone, and not grown either.
    const unread = (server as unknown as { clients: Set<{ socket: WebSocket }> }).clients
    for (const client of unread) expect(client.socket.bufferedAmount).toBeLessThan(2 * 1024 * 1024)
    // Its own requests, a few at a time and unread, are what drop it: past the bound of what is queued.
    const sent = await floodRequests(socket, 100_000, 4, () => answered(server, socket))
    process.stdout.write(`a screen that never reads was dropped after ${sent} requests\n`)
    await clientCount(server, 0)
    expect(server.dropped).toEqual({ unread: 1, flooding: 0 })
    socket.destroy()
  }, 60_000)

  it('refuses a deeply nested request before parsing it, and a viewer message larger than a request needs', async () => {
    const { server } = await startServer()
    // A request no client sends, on a socket of its own (the screen client sends only requests it made).
    const replies: string[] = []
    const viewer = new WebSocket(`ws://127.0.0.1:${server.port}/api`)
    viewer.on('message', (data) => replies.push(data.toString()))
    await waitUntil(() => expect(replies).toHaveLength(1))
    const deep = '['.repeat(5_000_000) + ']'.repeat(5_000_000)
    const started = Date.now()
    viewer.send(`{"id":7,"method":"submit","args":${deep}}`)
    await waitUntil(() => expect(replies).toHaveLength(2))
    const took = Date.now() - started
    expect(JSON.parse(replies[1])).toEqual({ id: -1, error: 'a request may nest at most 32 levels' })
    process.stdout.write(`a 10 MB request nested 5,000,000 deep was refused in ${took} ms\n`)
    viewer.close()

    const lan = await openUnreadSocket('127.0.0.2', server.port)
    lan.resume()
    const closed = new Promise((resolve) => lan.once('close', resolve))
    lan.write(textFrame(JSON.stringify({ id: 1, method: 'getState', args: ['x'.repeat(100_000)] })))
    await closed
  })
})
