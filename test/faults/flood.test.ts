// Fault suite: screens that send requests and never read the answers (real sockets that never
// read), again and again, while a normal screen plays on. Counts floods not dropped, screens left
// behind, moves lost, and the host's memory after.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { serveTable } from '../kit/table'
import { randomMoveIn } from './random-move'
import { ScreenClient } from '@test/kit/screen-client'
import { floodRequests, openUnreadSocket } from './raw-socket'
import { answered, movesOnDisk } from './support'
import { seededRandom } from '@shared/random-play'
import { waitUntil } from '@test/kit/wait'

setFlagsFromString('--expose-gc')
const collectGarbage = runInNewContext('gc') as () => void
const FLOODS = 12

function heapMegabytes(): number {
  collectGarbage()
  collectGarbage()
  return process.memoryUsage().heapUsed / 2 ** 20
}

/** Whether the server comes to hold `count` screens (a limit far above what a busy machine needs). */
function holdsScreens(server: { clientCount: number }, count: number): Promise<boolean> {
  return waitUntil(() => expect(server.clientCount).toBe(count), 20_000).then(
    () => true,
    () => false
  )
}

describe('fault suite: unread-reply floods', () => {
  it(`drops ${FLOODS} screens that never read, frees them, and the table plays on`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-floods-'))
    const rendererDir = join(dataDir, 'renderer')
    mkdirSync(rendererDir)
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>')
    const session = await serveTable(rendererDir, { dataDir, lanAddresses: () => ['127.0.0.2'] })
    const server = session.table.server!
    await server.setSharing(true)
    const player = await ScreenClient.open(server.url)
    await player.call('newGame', { game: 'farkle', players: ['Ann', 'Bob', 'Cy'], rules: { target: 1_000_000 } })
    const random = seededRandom(77)
    const acknowledged: string[] = []
    const play = async (count: number): Promise<void> => {
      for (let i = 0; i < count; i++) {
        const move = randomMoveIn(player.state!, random)!
        if ((await player.call('submit', move)).ok) acknowledged.push(JSON.stringify(move))
      }
    }
    await play(100)
    const before = heapMegabytes()
    const counts = { floods: 0, requestsSent: 0, dropped: 0, notDropped: 0, leftBehind: 0, lost: 0, crashed: 0 }
    const started = performance.now()
    for (let flood = 0; flood < FLOODS; flood++) {
      const lan = flood % 2 === 0
      const socket = await openUnreadSocket(lan ? '127.0.0.2' : '127.0.0.1', server.port)
      // Fast floods (thousands of requests at once) and paced ones (a few at a time, never read).
      const paced = flood % 3 === 2
      const sending = paced ? floodRequests(socket, 100_000, 4, () => answered(server, socket)) : floodRequests(socket, 100_000, 1000)
      // The table plays on meanwhile, and state pushes go to the flooding screen too.
      await play(10)
      counts.requestsSent += await sending
      counts.floods++
      const droppedNow = await holdsScreens(server, 1)
      if (droppedNow) counts.dropped++
      else counts.notDropped++
      socket.destroy()
      try {
        await player.call('getState')
      } catch {
        counts.crashed++
      }
    }
    await holdsScreens(server, 1)
    counts.leftBehind = server.clientCount - 1
    const expected = movesOnDisk(join(dataDir, 'current.jsonl'))
    counts.lost = acknowledged.filter((move, i) => expected[i] !== move).length + Math.max(0, acknowledged.length - expected.length)
    const after = heapMegabytes()
    process.stdout.write(
      `floods: ${counts.floods} screens sent ${counts.requestsSent} requests without reading in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
        `${counts.dropped} dropped (${server.dropped.unread} for unread answers, ${server.dropped.flooding} for too many at once), ` +
        `${counts.notDropped} not dropped, ${counts.leftBehind} left behind; ${acknowledged.length} moves played meanwhile, lost ${counts.lost}; ` +
        `crashed ${counts.crashed}; heap ${before.toFixed(1)} MB before, ${after.toFixed(1)} MB after\n`
    )
    player.close()
    await session.stop()
    expect(counts).toMatchObject({ floods: FLOODS, dropped: FLOODS, notDropped: 0, leftBehind: 0, lost: 0, crashed: 0 })
    // Both bounds were reached: the paced floods by what they left unread, the fast ones by too many at once.
    expect(server.dropped.unread).toBeGreaterThan(0)
    expect(server.dropped.flooding).toBeGreaterThan(0)
    expect(after - before).toBeLessThan(20)
  }, 300_000)
})
