// The league as the host's screens set it (the screen API's joinLeague and hostLeague): one table's
// computer hosts the club's league, another table joins it with its name and the password, its
// finished games go there, and both choices are taken up again after a restart.
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { dispatch } from '@main/core/screens/dispatch'
import { playRandomGame, seededRandom } from '@shared/random-play'
import { dataFolder, serveTable, type TestTable } from '@test/kit/table'
import { waitUntil } from '@test/kit/wait'

const tables: TestTable[] = []
afterEach(async () => {
  while (tables.length) await tables.pop()!.stop()
})

/** A port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

async function open(dataDir: string): Promise<TestTable> {
  const rendererDir = join(dataDir, 'renderer')
  mkdirSync(rendererDir, { recursive: true })
  writeFileSync(join(rendererDir, 'league.html'), '<!doctype html>')
  const table = await serveTable(rendererDir, { dataDir, clockFrom: 1_700_000_000_000 })
  tables.push(table)
  return table
}

/** The ids of the league's game documents, read over CouchDB's own API. */
async function gamesInLeague(port: number): Promise<string[]> {
  const answer = (await (await fetch(`http://127.0.0.1:${port}/league/_all_docs`)).json()) as { rows: { id: string }[] }
  return answer.rows.map((row) => row.id).filter((id) => id.startsWith('game:'))
}

describe('the league from the Table screen', () => {
  it('hosts the league on this computer, joins it from another table, sends its finished games, and keeps both after a restart', async () => {
    const port = await freePort()
    const hostDir = dataFolder('league-host')
    const tableDir = dataFolder('league-table')
    let host = await open(hostDir)
    expect(await dispatch(host.table, host.screen, 'hostLeague', [{ port, password: 'pw' }])).toMatchObject({ ok: false, error: expect.stringContaining('at least 4') })
    expect(await dispatch(host.table, host.screen, 'hostLeague', [{ port, password: 'club-night' }])).toEqual({ ok: true })
    expect(host.snapshot(true).league).toMatchObject({ hosting: { port }, joined: null })

    let table = await open(tableDir)
    expect(await dispatch(table.table, table.screen, 'joinLeague', ['not an address'])).toMatchObject({ ok: false })
    expect(await dispatch(table.table, table.screen, 'joinLeague', [`http://t1:club-night@127.0.0.1:${port}/league`])).toEqual({ ok: true })
    expect(table.snapshot(true).league?.joined).toMatchObject({ table: 't1', league: `http://t1@127.0.0.1:${port}/league` })
    // A viewer on the LAN is not told about the league.
    expect(table.snapshot(false).league).toBeNull()

    // A finished game on the table goes to the league.
    const played = playRandomGame({ game: 'four-plus', players: ['Ann', 'Bob'] }, seededRandom(3)).game
    table.newGame({ game: 'four-plus', players: ['Ann', 'Bob'] })
    for (const recorded of played.moves) expect(table.submit(recorded.move)).toEqual({ ok: true })
    table.abandon()
    await waitUntil(async () => expect(await gamesInLeague(port)).toHaveLength(1))
    await waitUntil(() => expect(table.snapshot(true).league?.joined).toMatchObject({ connected: true, pending: 0 }))

    // Both restart: the league is hosted and joined again, and the game is not sent twice.
    await table.stop()
    await host.stop()
    host = await open(hostDir)
    table = await open(tableDir)
    expect(host.snapshot(true).league?.hosting).toEqual({ port })
    expect(table.snapshot(true).league?.joined).toMatchObject({ table: 't1' })
    await waitUntil(() => expect(table.snapshot(true).league?.joined).toMatchObject({ connected: true, pending: 0 }))
    expect(await gamesInLeague(port)).toHaveLength(1)

    // Leaving and stopping are remembered too.
    expect(await dispatch(table.table, table.screen, 'joinLeague', [null])).toEqual({ ok: true })
    expect(await dispatch(host.table, host.screen, 'hostLeague', [null])).toEqual({ ok: true })
    expect(table.snapshot(true).league).toEqual({ joined: null, hosting: null })
    await table.stop()
    expect((await open(tableDir)).snapshot(true).league).toEqual({ joined: null, hosting: null })
  }, 120_000)
})
