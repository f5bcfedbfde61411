// A worker thread that works out the odds of positions (src/shared/odds), so that no odds are ever
// worked out on the thread that takes the next throw. It keeps the game on the table as main last
// sent it (new lines are sent, not the whole record each time) and the chance-to-win tables main
// handed it.
import { parentPort, threadId } from 'node:worker_threads'
import type { WinTableSource } from '@shared/games/six-dice/win-play'
import type { WinSpec, WinTable } from '@shared/games/six-dice/win-solver'
import { play, startGame, type Game } from '@shared/game'
import { oddsFor, type Odds } from '@shared/odds'
import type { Header, RecordedMove } from '@shared/record'

export type OddsRequest =
  /** Another game: its header and lines. */
  | { kind: 'reset'; header: Header; moves: RecordedMove[] }
  /** The same game, lines played since. */
  | { kind: 'append'; moves: RecordedMove[] }
  /** The same game, cut back to its first `count` lines (an undo). */
  | { kind: 'truncate'; count: number }
  /** A chance-to-win table main has (solved, or shipped). */
  | { kind: 'table'; table: WinTable }
  /** The odds of the game as it stands; `statuses` says why each chance-to-win table missing is (by game|target|entry). */
  | { kind: 'compute'; id: number; statuses: Record<string, string> }

export type OddsAnswer = { kind: 'odds'; id: number; odds: Odds; threadId: number } | { kind: 'failed'; id: number; error: string }

const keyOf = (spec: WinSpec): string => `${spec.game}|${spec.target}|${spec.entry}`

const port = parentPort
if (port) {
  let game: Game | null = null
  const tables = new Map<string, WinTable>()
  let statuses: Record<string, string> = {}
  const source: WinTableSource = { table: (spec) => tables.get(keyOf(spec)) ?? null, status: (spec) => statuses[keyOf(spec)] ?? 'the table for these rules is not ready' }

  const replay = (header: Header, moves: readonly RecordedMove[]): Game => {
    const started = startGame(header)
    if (!started.ok) throw new Error(started.error)
    let folded = started.value
    for (const move of moves) folded = playOrThrow(folded, move)
    return folded
  }

  port.on('message', (request: OddsRequest) => {
    try {
      switch (request.kind) {
        case 'reset':
          game = replay(request.header, request.moves)
          return
        case 'append':
          if (!game) throw new Error('no game to add lines to')
          for (const move of request.moves) game = playOrThrow(game, move)
          return
        case 'truncate':
          if (!game) throw new Error('no game to cut back')
          game = replay(game.header, game.moves.slice(0, request.count))
          return
        case 'table':
          tables.set(keyOf(request.table.spec), request.table)
          return
        case 'compute':
          if (!game) throw new Error('no game to work out')
          statuses = request.statuses
          port.postMessage({ kind: 'odds', id: request.id, odds: oddsFor(game, source), threadId } satisfies OddsAnswer)
          return
      }
    } catch (error) {
      if (request.kind === 'compute') port.postMessage({ kind: 'failed', id: request.id, error: (error as Error).message } satisfies OddsAnswer)
      else game = null
    }
  })
}

function playOrThrow(game: Game, move: RecordedMove): Game {
  const played = play(game, move)
  if (!played.ok) throw new Error(played.error)
  return played.game
}
