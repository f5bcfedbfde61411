// The game in progress as the app finds it at start (crash recovery): the journal's record folded
// again. A line cut off by a crash is dropped; from a line that cannot be read on, the lines are
// kept in a file next to the record and the game resumes before it.
import type { LogEntry } from '@shared/api'
import { replayText, type Game } from '@shared/game'
import { movesText } from '@shared/record'
import { diskTrouble, FolderNotWritableError } from '../files/durable-files'
import type { News } from './move-source'
import { LogCollector } from './play-log'
import type { RecordJournal } from './record-journal'

export interface SavedGame {
  game: Game | null
  /** The log of its latest lines. */
  entries: LogEntry[]
  /** What to tell the screens about it; null when there was no saved game. */
  news: News | null
}

/**
 * Resumes the saved game. A line cut off by a crash is dropped; from a line that cannot be read
 * on, the lines are kept in a file next to the record and the game resumes before it. The host
 * starts in any case, even on a read-only disk (then moves are refused until it can be written).
 */
export function resumeSavedGame(journal: RecordJournal): SavedGame {
  const bytes = journal.readCurrentBytes()
  if (bytes === null) return { game: null, entries: [], news: null }
  const text = bytes.toString('utf8')
  const log = new LogCollector()
  const replayed = replayText(text, { tolerateTruncatedTail: true, onMove: log.onMove })
  const readOnly = journal.writeProblem()
  // A folder opened read-only is told at start on its own (with what to do).
  const unsavable = readOnly && !(readOnly instanceof FolderNotWritableError) ? ` ${diskTrouble(readOnly).what}: moves cannot be saved until it can be written.` : ''
  if (replayed.ok) {
    const game = { game: replayed.game, entries: log.entries(replayed.game) }
    if (replayed.truncatedTail) {
      journal.keepOnly(bytes.lastIndexOf(0x0a) + 1)
      return {
        ...game,
        news: {
          text: `The last line of the saved game was cut off (the app stopped while writing it). The game resumes after line ${replayed.game.moves.length + 1}.${unsavable}`,
          level: 'warning'
        }
      }
    }
    return { ...game, news: { text: `Resumed the game in progress (${movesText(replayed.game.moves.length)})${unsavable ? `.${unsavable}` : ''}`, level: readOnly ? 'warning' : 'info' } }
  }
  const reason = `line ${replayed.line}: ${replayed.error}`
  const from = replayed.line > 1 ? startOfLine(bytes, replayed.line) : 0
  const before = from > 0 ? new LogCollector() : null
  const resumed = before ? replayText(bytes.subarray(0, from).toString('utf8'), { onMove: before.onMove }) : null
  if (!before || !resumed?.ok) {
    const aside = journal.setAsideFrom(0, reason)
    return {
      game: null,
      entries: [],
      news: {
        text: aside
          ? `The saved game could not be read (${reason}). It was kept as ${aside}.`
          : `The saved game could not be read (${reason}). It stays in ${journal.currentPath} and is moved aside before a new game is saved.${unsavable}`,
        level: 'error'
      }
    }
  }
  const aside = journal.setAsideFrom(from, reason)
  const kept = aside ? `were kept in ${aside}` : `stay at the end of ${journal.currentPath} until they can be kept aside.${unsavable}`
  return {
    game: resumed.game,
    entries: before.entries(resumed.game),
    news: {
      text: `Line ${replayed.line} of the saved game could not be read (${replayed.error}). The game resumes before it, after ${movesText(resumed.game.moves.length)}; that line and the ones after it ${kept}`,
      level: 'warning'
    }
  }
}

/** The byte where line `line` (1-based) of a record starts. */
function startOfLine(bytes: Buffer, line: number): number {
  let at = 0
  for (let seen = 1; seen < line; seen++) at = bytes.indexOf(0x0a, at) + 1
  return at
}
