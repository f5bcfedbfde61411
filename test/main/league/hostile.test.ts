// Damaged and hostile documents: refused by the league host with CouchDB's answers (403 with the
// reason, 400 for what cannot be parsed), and, from a league that checks nothing (a CouchDB
// without the league's design document stands in), refused by a table with a message on its
// screens, while it plays on. Real processes on loopback; waits on what can be observed.
import { createServer, type Server } from 'node:http'
import expressPouchDb from 'express-pouchdb'
import PouchDB from 'pouchdb-node'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { recordText, startGame } from '@shared/game'
import { gameDocumentId, type LeagueView } from '@shared/league'
import { playRandomGame, seededRandom } from '@shared/random-play'
import { recordHash } from '@main/league/league-sync'
import { basic, leagueDocumentIds, PASSWORD, playGame, startLeague, startTable, temporaryFolder } from './support'
import { ScreenClient } from '@test/kit/screen-client'

const running: { stop: (signal?: NodeJS.Signals) => Promise<void> }[] = []
afterAll(async () => {
  for (const process of running.reverse()) await process.stop('SIGKILL')
})

function finishedGame(seed: number, players = ['Ann', 'Bob']): string {
  const header = { game: 'four-plus' as const, players, meta: { startedAt: Date.UTC(2026, 2, 6, 20, 0, seed) } }
  return recordText(playRandomGame(header, seededRandom(seed)).game)
}

function gameDocument(table: string, record: string): Record<string, unknown> {
  return { _id: gameDocumentId(table, recordHash(record)), type: 'game', table, record }
}

/** A record whose third line the rules do not allow (a throw of seven dice). */
function illegalRecord(): string {
  const lines = finishedGame(7).split('\n')
  lines[2] = '{"roll":[1,2,3,4,5,6,6]}'
  return lines.join('\n')
}

describe('the league host refuses what a table may not write', () => {
  it('answers each hostile document with the reason and keeps none of them', async () => {
    const host = await startLeague(temporaryFolder('hostile'))
    running.push(host)
    const db = `${host.url}league`
    const asT1 = { authorization: basic('t1', PASSWORD), 'content-type': 'application/json' }
    const put = (document: Record<string, unknown>, headers: Record<string, string> = asT1): Promise<Response> =>
      fetch(`${db}/${encodeURIComponent(String(document._id))}`, { method: 'PUT', headers, body: JSON.stringify(document) })
    const refusal = async (answer: Response): Promise<string> => `${answer.status} ${((await answer.json()) as { reason: string }).reason}`

    const good = gameDocument('t1', finishedGame(1))
    const written = await put(good)
    expect(written.status).toBe(201)
    const { rev } = (await written.json()) as { rev: string }

    expect(await refusal(await put(gameDocument('t2', finishedGame(2))))).toBe('403 table t1 may not write the documents of t2')
    expect(await refusal(await put({ ...gameDocument('t1', illegalRecord()) }))).toMatch(/^403 record line 3: /)
    expect(await refusal(await put({ ...gameDocument('t1', finishedGame(3)), _id: gameDocumentId('t1', 'f'.repeat(64)) }))).toBe('403 the id does not carry the hash of the record')
    const started = startGame({ game: 'four-plus', players: ['Ann', 'Bob'], meta: { startedAt: 5 } })
    if (!started.ok) throw new Error(started.error)
    const unfinished = recordText(started.value)
    expect(await refusal(await put(gameDocument('t1', unfinished)))).toMatch(/^403 the game is not finished/)
    expect(await refusal(await put({ ...good, _rev: rev, record: finishedGame(4) }))).toBe('403 a finished game never changes once written')
    expect((await fetch(`${db}/${encodeURIComponent(String(good._id))}?rev=${rev}`, { method: 'DELETE', headers: asT1 })).status).toBe(403)
    expect(await refusal(await put({ ...good, _id: 'live:t1', type: 'live', extra: { nested: true } }))).toMatch(/^403 /)
    expect(await refusal(await put({ _id: 'anything', type: 'game' }))).toMatch(/^403 anything is not the id of a league document/)
    const huge = `${finishedGame(5)}${' '.repeat(2_200_000)}`
    expect(await refusal(await put(gameDocument('t1', huge)))).toMatch(/^403 .*longer than/)
    const deep = `{"_id":"live:t1","type":"live","table":"t1","record":null,"updatedAt":1,"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`
    expect((await fetch(`${db}/live:t1`, { method: 'PUT', headers: asT1, body: deep })).status).toBe(400)
    expect((await fetch(`${db}/live:t1`, { method: 'PUT', headers: asT1, body: '{"_id": "live:t1", ' })).status).toBe(400)
    expect((await fetch(`${db}/_design/league`, { method: 'PUT', headers: asT1, body: JSON.stringify({ validate_doc_update: 'function () {}' }) })).status).toBe(403)
    expect((await fetch(db, { method: 'DELETE', headers: asT1 })).status).toBe(403)
    // Replication's own write (new_edits: false): each document answered on its own.
    const bulk = await fetch(`${db}/_bulk_docs`, {
      method: 'POST',
      headers: asT1,
      body: JSON.stringify({ new_edits: false, docs: [{ ...gameDocument('t2', finishedGame(6)), _rev: '1-abc' }, { ...gameDocument('t1', finishedGame(8)), _rev: '1-def' }] })
    })
    const results = (await bulk.json()) as { id: string; error?: string; ok?: boolean }[]
    expect(results.map((result) => result.error ?? 'ok')).toEqual(['forbidden', 'ok'])

    const ids = (await leagueDocumentIds(host)).filter((id) => !id.startsWith('_design/'))
    expect(ids.sort()).toEqual([String(good._id), gameDocumentId('t1', recordHash(finishedGame(8)))].sort())
    // Still answering, and its page counts the two good games only.
    await vi.waitFor(async () => expect(((await (await fetch(`${host.url}_league/view`)).json()) as LeagueView).gameCount).toBe(2), { timeout: 30_000, interval: 100 })
  }, 120_000)
})

describe('a table reading a league that checks nothing', () => {
  let server: Server
  afterAll(async () => {
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve))
  })

  it('refuses damaged, hostile and huge documents with a message, counts the good ones and plays on', async () => {
    const folder = temporaryFolder('unchecked')
    const Server = PouchDB.defaults({ prefix: `${folder}/` })
    const app = expressPouchDb(Server, { mode: 'minimumForPouchDB' })
    const db = new Server('league')
    const good = gameDocument('other', finishedGame(11))
    await db.bulkDocs([
      good as never,
      gameDocument('other', illegalRecord()) as never,
      { ...gameDocument('other', finishedGame(12)), table: 'someone-else' } as never,
      { _id: 'live:other', type: 'live', table: 'other', record: 'not a record', updatedAt: 1 },
      { _id: 'people:other', type: 'people', table: 'other', people: 'everyone' },
      { _id: 'merge:other:x', type: 'merge', by: 'other', from: 'Ann', table: null, into: 'Ann', at: 1 },
      { ...gameDocument('other', finishedGame(13)), record: `${finishedGame(13)}${' '.repeat(7_000_000)}` } as never
    ])
    server = createServer(app)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as { port: number }).port
    // Nested deeper than any league document (PouchDB itself writes no deeper than a few hundred levels).
    await db.put({ _id: 'live:deep', type: 'live', table: 'deep', record: null, updatedAt: 1, x: JSON.parse(`${'['.repeat(200)}${']'.repeat(200)}`) })

    const victim = await startTable(temporaryFolder('victim'), `http://victim:anything@127.0.0.1:${port}/league`)
    running.push(victim)
    const view = await vi.waitFor(
      async () => {
        const seen = (await (await fetch(`${victim.url}_league/view`)).json()) as LeagueView
        expect(seen.refused.length).toBe(7)
        return seen
      },
      { timeout: 60_000, interval: 200 }
    )
    expect(view.gameCount).toBe(1)
    const reasons = Object.fromEntries(view.refused.map((item) => [item.id, item.reason]))
    expect(reasons['live:deep']).toMatch(/nests deeper than/)
    expect(reasons['live:other']).toMatch(/^record line 1: /)
    expect(reasons['people:other']).toMatch(/^people: /)
    expect(reasons['merge:other:x']).toBe('a merge needs two different names')
    expect(Object.values(reasons).some((reason) => /larger than|longer than/.test(reason))).toBe(true)
    expect(Object.values(reasons).some((reason) => /^record line 3: /.test(reason))).toBe(true)
    // The table's screens are told, and it plays on.
    const api = await ScreenClient.open(victim.url)
    await vi.waitFor(async () => expect((await api.getState()).message?.text ?? '').toMatch(/The league sent a document this table refused/), { timeout: 30_000, interval: 100 })
    await playGame(api, 'four-plus', ['Ann', 'Bob'], seededRandom(9))
    expect((await api.getState()).current?.summary.finished).toBe(true)
    api.close()
  }, 120_000)
})
