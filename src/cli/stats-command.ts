// `referee stats PATH…`: statistics of the records given as files or folders of them, as one JSON
// object {"players":[{"name","games","wins","byGame":{GAME:{…}}}…]} with names as in the records.
// A record that does not replay stops it with "FILE line N: …" (figures missing a game silently
// would mislead); only finished games count.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { replayText } from '@shared/game'
import { decodeRecordBytes } from '@shared/record'
import { factsOfGame, playerStatistics, type GameFacts } from '@shared/stats'

/** Record files under `path`: the file itself, or every .jsonl file in the folder and its sub-folders except history indexes. */
function recordFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path]
  const files: string[] = []
  for (const entry of readdirSync(path, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const inner = join(path, entry.name)
    if (entry.isDirectory()) files.push(...recordFiles(inner))
    else if (entry.name.endsWith('.jsonl') && entry.name !== 'index.jsonl') files.push(inner)
  }
  return files
}

export function statsCommand(paths: string[], out: (text: string) => void, err: (text: string) => void): number {
  if (paths.length === 0) {
    err('usage: referee stats PATH…   (record files, or folders of them)\n')
    return 2
  }
  const allFacts: GameFacts[] = []
  for (const path of paths) {
    let files: string[]
    try {
      files = recordFiles(path)
    } catch (error) {
      err(`cannot read ${path}: ${(error as Error).message}\n`)
      return 2
    }
    for (const file of files) {
      let bytes: Buffer
      try {
        bytes = readFileSync(file)
      } catch (error) {
        err(`cannot read ${file}: ${(error as Error).message}\n`)
        return 2
      }
      const decoded = decodeRecordBytes(bytes)
      if (!decoded.ok) {
        err(`${file} line ${decoded.line}: ${decoded.error}\n`)
        return 1
      }
      const replayed = replayText(decoded.text)
      if (!replayed.ok) {
        err(`${file} line ${replayed.line}: ${replayed.error}\n`)
        return 1
      }
      allFacts.push(factsOfGame(replayed.game))
    }
  }
  out(`${JSON.stringify({ players: playerStatistics(allFacts) })}\n`)
  return 0
}
