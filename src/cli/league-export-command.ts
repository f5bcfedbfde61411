// `referee league-export URL DIR`: the finished games of a league database (the league host's or
// a real CouchDB's) as game records, one JSONL file each in DIR/TABLE/, so that `referee stats DIR`
// (and anyone's tools) can check the league page's figures from the records themselves. Every
// document is checked as the league page checks it; one that is refused is named on standard error
// and left out. The same record sent by two tables is written once, as the standings count it.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { checkLeagueDocument, GAME_HASH_LENGTH } from '@shared/league'
import { readLeagueDocuments } from '@main/league/league-feed'
import { recordHash } from '@main/league/league-sync'
import { parseLeagueUrl, readLeague } from '@main/league/league-url'

const IDS_PER_PAGE = 1000
const DOCUMENTS_PER_REQUEST = 25

export async function leagueExportCommand(args: string[], out: (text: string) => void, err: (text: string) => void): Promise<number> {
  const [url, dir] = args
  const parsed = parseLeagueUrl(url, { needsCredentials: false })
  if (!parsed.ok) {
    err(`referee: ${parsed.error}\n`)
    return 2
  }
  const { database, credentials, shown } = parsed.address
  const ids: string[] = []
  try {
    for (let after: string | null = null; ; ) {
      const range: string = after === null ? `startkey=${encodeURIComponent('"game:"')}` : `startkey=${encodeURIComponent(JSON.stringify(after))}&skip=1`
      const text = await readLeague(credentials, undefined, `${database}/_all_docs?${range}&endkey=${encodeURIComponent('"game:\ufff0"')}&limit=${IDS_PER_PAGE}`, 64 * 1024 * 1024)
      if (text === null) throw new Error(`there is no database ${parsed.address.name} at ${shown}`)
      const rows = (JSON.parse(text) as { rows: { id: string }[] }).rows
      ids.push(...rows.map((row) => row.id))
      if (rows.length < IDS_PER_PAGE) break
      after = rows[rows.length - 1].id
    }
  } catch (error) {
    err(`referee: cannot read the league ${shown}: ${(error as Error).message}\n`)
    return 1
  }
  const written = new Set<string>()
  let refused = 0
  for (let start = 0; start < ids.length; start += DOCUMENTS_PER_REQUEST) {
    let documents: Map<string, unknown>
    try {
      documents = await readLeagueDocuments(database, credentials, undefined, ids.slice(start, start + DOCUMENTS_PER_REQUEST))
    } catch (error) {
      err(`referee: cannot read the league ${shown}: ${(error as Error).message}\n`)
      return 1
    }
    for (const [id, document] of documents) {
      if (document === null) continue
      const checked = document instanceof Error ? { ok: false as const, error: document.message } : checkLeagueDocument(document, recordHash)
      if (!checked.ok || checked.accepted.kind !== 'game') {
        refused++
        err(`refused ${id}: ${checked.ok ? 'not a game' : checked.error}\n`)
        continue
      }
      const key = id.slice(-GAME_HASH_LENGTH)
      if (written.has(key)) continue
      written.add(key)
      const folder = join(dir, checked.accepted.table)
      mkdirSync(folder, { recursive: true })
      writeFileSync(join(folder, `${key}.jsonl`), checked.accepted.record)
    }
  }
  out(`${written.size} games of ${shown} written to ${dir}${refused ? ` (${refused} documents refused)` : ''}\n`)
  return refused > 0 ? 1 : 0
}
