// The data folder against what may be found in it or asked of it: ids that are not games' ids,
// damaged files the app owns (the player list, the statistics cache, the settings), drafts left by
// a crash, and imported records beyond a game's limits. Through a real table on a temporary data
// folder and the screen API's dispatcher, as a screen would ask.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { HistoryArchive, isGameId } from '../../src/main/core/history/history-archive'
import { dispatch } from '../../src/main/core/screens/dispatch'
import type { MethodArgs, MethodName, MethodResult } from '../../src/shared/api-methods'
import { recordText } from '../../src/shared/game'
import { playRandomGame, seededRandom } from '../../src/shared/random-play'
import { dataFolder, openTable, type TestTable } from '../kit/table'

/** A request from the host's control screen through the screen API's checks and dispatcher. */
function call<M extends MethodName>(session: TestTable, method: M, args: MethodArgs<M>): Promise<MethodResult<M>> {
  return dispatch(session.table, session.screen, method, args as unknown[]) as Promise<MethodResult<M>>
}

/** Finished (and, with `abandoned`, unfinished) records written into the history folder, as games archived earlier. */
function seedHistory(dataDir: string, count: number, abandoned = false): string[] {
  const random = seededRandom(11)
  mkdirSync(join(dataDir, 'history'), { recursive: true })
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const header = { game: 'farkle' as const, players: ['Ann', 'Bob'], rules: { target: 1000 }, meta: { startedAt: 1_600_000_000_000 + i * 60_000 } }
    const game = playRandomGame(header, random, abandoned ? 6 : undefined).game
    const id = `g${i}`
    writeFileSync(join(dataDir, 'history', `${id}.jsonl`), recordText(game))
    ids.push(id)
  }
  return ids
}

/** Every file under the data folder with its bytes, to tell that nothing changed. */
function folderContents(dir: string): Record<string, string> {
  const contents: Record<string, string> = {}
  const walk = (at: string, prefix: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name)
      if (entry.isDirectory()) walk(path, `${prefix}${entry.name}/`)
      else contents[`${prefix}${entry.name}`] = readFileSync(path, 'base64')
    }
  }
  walk(dir, '')
  return contents
}

describe('ids name games, never the app’s own files', () => {
  it('a control screen cannot trash, restore, resume, open or chart the index or any path', async () => {
    const dataDir = dataFolder('ids')
    seedHistory(dataDir, 2, true)
    const session = openTable({ dataDir, clockFrom: 1_700_000_000_000 })
    expect(session.listHistory().map((entry) => entry.id).sort()).toEqual(['g0', 'g1'])
    const before = folderContents(dataDir)
    for (const id of ['index', 'INDEX', 'Index', 'current', 'statistics.cache', '.index', 'index.jsonl', '..', '-x']) {
      expect(await call(session, 'trashGame', [id]), id).toMatchObject({ ok: false })
      expect(await call(session, 'restoreGame', [id]), id).toMatchObject({ ok: false })
      expect(await call(session, 'resumeHistory', [id]), id).toMatchObject({ ok: false })
      if (id !== 'current') {
        expect(await call(session, 'openHistory', [id]), id).toMatchObject({ ok: false })
        expect(await call(session, 'gameChart', [id]), id).toMatchObject({ ok: false })
      }
    }
    expect(folderContents(dataDir)).toEqual(before)
    expect(existsSync(join(dataDir, 'trash'))).toBe(false)
    expect(await call(session, 'listTrash', [])).toEqual({ ok: true, games: [] })
    // A game's id still does all of it.
    expect(await call(session, 'trashGame', ['g0'])).toEqual({ ok: true })
    expect(await call(session, 'restoreGame', ['g0'])).toEqual({ ok: true })
    expect(await call(session, 'resumeHistory', ['g1'])).toEqual({ ok: true })
  })

  it('one place turns an id into a path, and it refuses whatever is not a game’s id', () => {
    const archive = new HistoryArchive(dataFolder('ids'))
    expect(archive.pathOf('20260101T120000Z-four-plus-1a2b3c')).toBe(join(archive.historyDir, '20260101T120000Z-four-plus-1a2b3c.jsonl'))
    for (const id of ['index', 'INDEX', 'current', '../x', 'a/b', 'a\\b', '.hidden', '', 'x'.repeat(81), 'a\u0000b']) {
      expect(isGameId(id), id).toBe(false)
      expect(() => archive.pathOf(id), id).toThrow(/is not the id of a game/)
    }
    // The index itself is no game of the history, whatever the folder holds.
    writeFileSync(join(archive.historyDir, 'index.jsonl'), '')
    writeFileSync(join(archive.historyDir, 'Current.jsonl'), '')
    expect(archive.ids()).toEqual([])
  })
})
