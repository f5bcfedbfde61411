// Fault suite: what the app reads and is asked cannot break it. The player list and the statistics
// cache mutated at random (bytes, lines, types: a seeded fuzzer, as records.test.ts does for
// records); ids that are not games' ids sent to every method that takes one; an imported record
// beyond a game's limits over the WebSocket; names that a spreadsheet would run as formulas;
// guessers of the pairing code; pages of other sites on the LAN listener (DNS rebinding). Counts
// what was lost, doubled, crashed, and let through.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dispatch } from '@main/core/screens/dispatch'
import { Pairing } from '@main/core/screens/pairing'
import type { MethodArgs, MethodName, MethodResult } from '@shared/api-methods'
import { recordText } from '@shared/game'
import { playRandomGame, seededRandom } from '@shared/random-play'
import { factsOfRecordText, playerStatistics, type GameFacts } from '@shared/stats'
import { openTable, serveTable, type TestTable } from '../kit/table'
import { ScreenClient } from '@test/kit/screen-client'

function call<M extends MethodName>(session: TestTable, method: M, args: MethodArgs<M>): Promise<MethodResult<M>> {
  return dispatch(session.table, session.screen, method, args as unknown[]) as Promise<MethodResult<M>>
}

const PEOPLE = [
  { name: 'Ann', colour: '#112233', aliases: ['Annie'] },
  { name: 'Bob', colour: '#445566', aliases: ['Bobby', 'Rob'] },
  { name: 'Cy', colour: '#778899', aliases: [] }
]

/** A data folder of finished Farkle games of Annie, Ann, Bobby, Bob and Cy. */
function folderWithHistory(): { dataDir: string; texts: string[] } {
  const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-hostile-'))
  mkdirSync(join(dataDir, 'history'))
  const random = seededRandom(5)
  const texts = [['Annie', 'Bobby'], ['Ann', 'Bob'], ['Annie', 'Cy'], ['Bob', 'Cy'], ['Rob', 'Ann', 'Cy']].map((players, i) => {
    const text = recordText(playRandomGame({ game: 'farkle', players, rules: { target: 500 }, meta: { startedAt: 1_600_000_000_000 + i } }, random).game)
    writeFileSync(join(dataDir, 'history', `p${i}.jsonl`), text)
    return text
  })
  return { dataDir, texts }
}

/** One random mutation of a file's bytes (seeded): bytes changed, cut, inserted; values of the wrong type. */
function mutate(text: string, random: () => number): Buffer {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]
  const at = Math.floor(random() * (text.length + 1))
  switch (Math.floor(random() * 8)) {
    case 0: {
      const bytes = Buffer.from(text)
      for (let i = 0, n = 1 + Math.floor(random() * 4); i < n; i++) bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256)
      return bytes
    }
    case 1:
      return Buffer.from(text.slice(0, at))
    case 2:
      return Buffer.from(text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 40)))
    case 3:
      return Buffer.from(text.slice(0, at) + pick(['{', '}', '[', ']', ',', '"', 'null', '\u0000', '\ufeff', '7', 'true']) + text.slice(at))
    case 4:
      return Buffer.from(text.replace(/"[^"]*"/, pick(['null', '7', '[]', '{}', 'true', '""'])))
    case 5:
      return Buffer.from(pick(['', 'null', '{}', '[]', '[null]', '"x"', '0', '\u0000\u0000']))
    case 6:
      return Buffer.concat([Buffer.from(text), Buffer.from([0xff, 0xfe, 0x00])])
    default:
      return Buffer.from(text.replace(/:\s*("[^"]*"|\[[^\]]*\]|true|false|null|-?\d+)/g, (match) => (random() < 0.2 ? `: ${pick(['null', '1', '"x"', '[]', '{}'])}` : match)))
  }
}

describe('fault suite: files the app owns, mutated at random', () => {
  it('players.json: the app always starts, keeps the damaged file aside, says so, and renames work', async () => {
    const ROUNDS = 120
    const random = seededRandom(2727)
    const good = JSON.stringify(PEOPLE, null, 2)
    const counts = { rounds: 0, readable: 0, keptAside: 0, crashed: 0, notSaid: 0, copyDiffers: 0, lostPeople: 0, renameFailed: 0 }
    const { dataDir: seedDir } = folderWithHistory()
    for (let round = 0; round < ROUNDS; round++) {
      const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-hostile-'))
      mkdirSync(join(dataDir, 'history'))
      for (const name of readdirSync(join(seedDir, 'history'))) writeFileSync(join(dataDir, 'history', name), readFileSync(join(seedDir, 'history', name)))
      const bytes = mutate(good, random)
      writeFileSync(join(dataDir, 'players.json'), bytes)
      counts.rounds++
      try {
        const session = openTable({ dataDir })
        const aside = readdirSync(dataDir).filter((name) => name.startsWith('players.json.damaged-'))
        if (aside.length === 0) counts.readable++
        else {
          counts.keptAside++
          if (!readFileSync(join(dataDir, aside[0])).equals(bytes)) counts.copyDiffers++
          if (!/The player list \(players\.json\) was damaged/.test(session.snapshot().message?.text ?? '')) counts.notSaid++
        }
        const people = await call(session, 'listPeople', [])
        if (!people.ok) throw new Error(people.error)
        // Whoever played is someone on the list (by name or alias), whatever the file held.
        const known = new Set(people.people.flatMap((person) => [person.name, ...person.aliases]))
        counts.lostPeople += ['Annie', 'Ann', 'Bobby', 'Bob', 'Rob', 'Cy'].filter((name) => !known.has(name)).length
        const cy = people.people.find((person) => person.name === 'Cy' || person.aliases.includes('Cy'))!
        if (!(await call(session, 'renamePerson', [cy.name, 'Cyrus'])).ok) counts.renameFailed++
        await session.stop()
      } catch (error) {
        if (counts.crashed++ === 0) process.stdout.write(`first crash: ${(error as Error).stack}\n`)
      }
    }
    process.stdout.write(
      `players.json mutated ${counts.rounds} times: ${counts.readable} still readable, ${counts.keptAside} kept aside ` +
        `(${counts.copyDiffers} copies not the file, ${counts.notSaid} not said on the screens); people lost ${counts.lostPeople}, renames failed ${counts.renameFailed}, crashed ${counts.crashed}\n`
    )
    expect(counts.keptAside).toBeGreaterThan(ROUNDS / 2)
    expect(counts).toMatchObject({ crashed: 0, copyDiffers: 0, notSaid: 0, lostPeople: 0, renameFailed: 0 })
  }, 120_000)

  it('the statistics cache: the statistics are always those of the records, before and after a restart', async () => {
    const ROUNDS = 80
    const random = seededRandom(8181)
    const { dataDir, texts } = folderWithHistory()
    const expected = JSON.stringify(playerStatistics(texts.map((text) => factsOfRecordText(text) as GameFacts)))
    const cache = join(dataDir, 'history', 'statistics.cache')
    const first = openTable({ dataDir })
    await first.players.statistics()
    await first.stop()
    const good = readFileSync(cache, 'utf8')
    const counts = { rounds: 0, wrong: 0, crashed: 0 }
    for (let round = 0; round < ROUNDS; round++) {
      // The file mutated (a line's facts of the wrong shape: null, {}, wrong types; bytes; cut short), or a folder in its place.
      if (round % 20 === 19) {
        rmSync(cache, { recursive: true, force: true })
        mkdirSync(join(cache, 'inside'), { recursive: true })
      } else writeFileSync(cache, mutate(good, random))
      counts.rounds++
      for (let start = 0; start < 2; start++) {
        try {
          const session = openTable({ dataDir })
          const answers = await Promise.all([call(session, 'playerStatistics', []), call(session, 'statisticsCsv', []), call(session, 'playerPage', ['Cy']), call(session, 'headToHead', ['Bob', 'Cy'])])
          if (answers.some((answer) => !answer.ok)) counts.wrong++
          const statistics = answers[0]
          if (statistics.ok && JSON.stringify(statistics.players) !== expected) counts.wrong++
          await session.stop()
        } catch (error) {
          if (counts.crashed++ === 0) process.stdout.write(`first crash: ${(error as Error).stack}\n`)
        }
      }
    }
    process.stdout.write(`statistics cache mutated ${counts.rounds} times, each read twice: statistics not those of the records ${counts.wrong}, crashed ${counts.crashed}\n`)
    expect(counts).toMatchObject({ wrong: 0, crashed: 0 })
  }, 120_000)
})

describe('fault suite: requests the app must refuse', () => {
  it('ids that are not games’ ids change nothing, through every method that takes one', async () => {
    const { dataDir } = folderWithHistory()
    const session = openTable({ dataDir })
    session.newGame({ game: 'four-plus', players: ['Ann', 'Bob'] })
    session.submit({ roll: [2, 3, 5, 6] })
    session.listHistory() // the index is written once, by listing
    const snapshot = (): string =>
      JSON.stringify(
        ['', 'history', 'trash'].flatMap((folder) => {
          try {
            return readdirSync(join(dataDir, folder)).map((name) => `${folder}/${name}:${readFileSync(join(dataDir, folder, name), 'base64').length}`)
          } catch {
            return []
          }
        })
      )
    const before = snapshot()
    const ids = ['index', 'INDEX', 'Index', 'iNdEx', 'current', 'CURRENT', 'statistics.cache', 'statistics', '.', '..', '...', '.index', '-', '_', 'index.', 'index.jsonl', 'players', 'settings', 'trash', 'history', 'p0.jsonl', 'x'.repeat(80)]
    const counts = { requests: 0, taken: 0, crashed: 0 }
    for (const id of ids) {
      for (const method of ['trashGame', 'restoreGame', 'resumeHistory', 'openHistory', 'gameChart'] as const) {
        if (id.toLowerCase() === 'current' && (method === 'openHistory' || method === 'gameChart')) continue // the game on the table, by design
        counts.requests++
        try {
          if ((await call(session, method, [id])).ok) counts.taken++
        } catch {
          counts.crashed++
        }
      }
    }
    const changed = snapshot() !== before
    process.stdout.write(`hostile ids: ${counts.requests} requests with ${ids.length} ids that are no game's: taken ${counts.taken}, crashed ${counts.crashed}, data folder changed ${changed}\n`)
    expect(counts).toMatchObject({ taken: 0, crashed: 0 })
    expect(changed).toBe(false)
    await session.stop()
  })

  it('an imported record of 16 names of 200 kB is refused; the screens stay connected, then and after a restart', async () => {
    const rendererDir = mkdtempSync(join(tmpdir(), 'dice-referee-renderer-'))
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>')
    const { dataDir } = folderWithHistory()
    const counts = { dropped: 0, imported: 0, largestState: 0 }
    for (let start = 0; start < 2; start++) {
      const session = await serveTable(rendererDir, { dataDir })
      const importer = await ScreenClient.open(session.url)
      const players = Array.from({ length: 16 }, (_, i) => `${i}`.padEnd(200_000, 'x'))
      const outcome = await importer.call('importRecord', `${JSON.stringify({ game: 'farkle', players })}\n{"roll":[1,2,3,4,6,6]}\n`)
      if (outcome.ok) counts.imported++
      const page = await ScreenClient.open(session.url)
      counts.largestState = Math.max(counts.largestState, JSON.stringify(page.state).length, JSON.stringify(importer.state).length)
      for (const screen of [importer, page]) {
        try {
          await screen.call('getState')
        } catch {
          counts.dropped++
        }
        screen.close()
      }
      await session.stop()
    }
    process.stdout.write(`huge imported names: imported ${counts.imported}, screens dropped ${counts.dropped}, largest state ${counts.largestState} bytes\n`)
    expect(counts.imported).toBe(0)
    expect(counts.dropped).toBe(0)
    expect(counts.largestState).toBeLessThan(100_000)
  })

  it('names a spreadsheet would run as formulas are written as text in the statistics CSV', async () => {
    const names = [' =1+1', '\u00a0=1+1', '\u3000=1+1', '\u200b=1+1', '\ufeff+1', '\u202e-1', '\uff1d1+1', '\uff0b1', '\uff0d1', '\uff20SUM(A1)', '\ufe661+1', '\n=1+1', '\r=1+1', '\t=1+1', '=1+1', '+1', '-1', '@SUM(A1)']
    const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-csv-'))
    mkdirSync(join(dataDir, 'history'))
    const random = seededRandom(3)
    for (let i = 0; i < names.length; i += 2) {
      const players = names.slice(i, i + 2)
      writeFileSync(join(dataDir, 'history', `csv${i}.jsonl`), recordText(playRandomGame({ game: 'farkle', players, rules: { target: 300 }, meta: { startedAt: i } }, random).game))
    }
    const session = openTable({ dataDir })
    const answer = await call(session, 'statisticsCsv', [])
    if (!answer.ok) throw new Error(answer.error)
    const cells = parseCsv(answer.csv).slice(1).map((row) => row[0])
    const formulaStart = /^[\s\p{Cf}\u00a0\u3000]*[=+\-@\uff1d\uff0b\uff0d\uff20\ufe62\ufe63\ufe66\ufe6b]/u
    const unsafe = cells.filter((cell) => formulaStart.test(cell) || /^[\t\r\n]/.test(cell))
    process.stdout.write(`CSV: ${names.length} names that start like formulas, ${cells.length} rows: ${unsafe.length} written as they are\n`)
    expect(new Set(cells).size).toBe(names.length)
    expect(unsafe).toEqual([])
    await session.stop()
  })

  it('guessers on the Wi-Fi never lock the table’s own phone out of pairing', async () => {
    let clock = 1_000_000
    let longestWait = 0
    const pairing = new Pairing(mkdtempSync(join(tmpdir(), 'dice-referee-pairing-')), () => clock, async (ms) => {
      longestWait = Math.max(longestWait, ms)
      clock += ms
    })
    const random = seededRandom(99)
    const counts = { guesses: 0, guessedRight: 0, phoneTries: 0, phoneRefused: 0, codes: new Set([pairing.pairingCode]) }
    // 20 addresses guessing 8-digit codes, 2,000 guesses in all; now and then a phone of the table
    // (from one of the guessing addresses too) types the code shown on the host.
    for (let i = 0; i < 2000; i++) {
      const address = `192.168.1.${100 + Math.floor(random() * 20)}`
      if (i % 100 === 50) {
        counts.phoneTries++
        if (!(await pairing.tryCode(pairing.pairingCode, address, 'the table’s phone')).ok) counts.phoneRefused++
        continue
      }
      counts.guesses++
      const guess = String(Math.floor(random() * 1e8)).padStart(8, '0')
      if ((await pairing.tryCode(guess, address, 'a guesser')).ok) counts.guessedRight++
      counts.codes.add(pairing.pairingCode)
    }
    process.stdout.write(
      `pairing: ${counts.guesses} wrong guesses from 20 addresses, ${counts.guessedRight} right; the table's phone tried ${counts.phoneTries} times, refused ${counts.phoneRefused}, ` +
        `longest wait ${longestWait / 1000} s; ${counts.codes.size} codes shown in turn\n`
    )
    expect(counts.phoneRefused).toBe(0)
    expect(counts.guessedRight).toBe(0)
    expect(longestWait).toBeLessThanOrEqual(10_000)
    expect(counts.codes.size).toBeGreaterThan(1)
  })

  it('pages of other sites cannot reach the table on the LAN listener (DNS rebinding) nor on loopback', async () => {
    const rendererDir = mkdtempSync(join(tmpdir(), 'dice-referee-renderer-'))
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>')
    const session = await serveTable(rendererDir, { lanAddresses: () => ['127.0.0.2'] })
    await session.table.server!.setSharing(true)
    const port = session.table.server!.port
    const attempts: { address: string; headers: Record<string, string> }[] = []
    for (const address of ['127.0.0.2', '127.0.0.1']) {
      for (const origin of ['http://evil.example', `http://evil.example:${port}`, 'https://evil.example', 'null', `http://127.0.0.2.evil.example:${port}`, `http://localhost.evil.example:${port}`, 'file://']) {
        for (const host of [`${address}:${port}`, `evil.example:${port}`]) attempts.push({ address, headers: { origin, host } })
      }
    }
    let admitted = 0
    for (const attempt of attempts) {
      const outcome = await ScreenClient.open(`ws://${attempt.address}:${port}/api`, { headers: attempt.headers }).then(
        (screen) => {
          screen.close()
          return 'admitted'
        },
        () => 'refused'
      )
      if (outcome === 'admitted') admitted++
    }
    process.stdout.write(`DNS rebinding and other sites' pages: ${attempts.length} attempts on the LAN listener and loopback, admitted ${admitted}\n`)
    expect(admitted).toBe(0)
    await session.stop()
  })
})

/** RFC 4180 rows (quoted cells may hold commas, quotes and line ends). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"'
        i++
      } else if (c === '"') quoted = false
      else cell += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      row.push(cell)
      cell = ''
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell)
      rows.push(row)
      row = []
      cell = ''
      i++
    } else cell += c
  }
  return rows
}
