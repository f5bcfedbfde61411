// Golden outputs of `referee replay` over random records of every game, so that a change to the
// engines can be shown to change no verdict and no output. The records come from the engines' own
// random legal play (seeded), with random rules; a third of them get one random line swapped in,
// which is mostly illegal and must keep giving the same `line N: reason`.
//
// For each record the golden line holds: what `referee replay` prints (stdout, or the stderr line),
// a digest of the record text, and a digest of everything the screens read along the way (the
// offer, table view, summary and the described events after every line).
//
// Regenerate (only when an output is meant to change): UPDATE_GOLDEN=1 npx vitest run test/shared/games/replay-golden.test.ts
import { createHash } from 'node:crypto'
import { GAME_IDS, GAMES, type GameId } from '@shared/games'
import { describeEvent, play, recordText, replayText, startGame, summaryOf } from '@shared/game'
import { playRandomGame, seededRandom } from '@shared/random-play'
import { decodeRecordBytes, type Header } from '@shared/record'

export const RECORDS_PER_GAME = 240
const NAMES = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve']

export interface GoldenLine {
  game: GameId
  index: number
  record: string
  output: string
  trace: string
}

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]

function randomHeader(game: GameId, random: () => number): Header {
  const count = Math.max(GAMES[game].minPlayers, 1 + Math.floor(random() * NAMES.length))
  const players = NAMES.slice(0, count)
  let rules: Record<string, unknown> | undefined
  switch (game) {
    case 'foursies':
      rules = {
        match: pick(random, ['round', 'round', 'tour', 'tour-de-fours']),
        tour: pick(random, ['first-to-four', 'four-rounds']),
        devilsNumber: pick(random, ['none', 'bust', 'reset']),
        tab: Math.floor(random() * count)
      }
      break
    case 'farkle':
    case 'fouche':
      rules = { entry: pick(random, [0, 300, 500]), target: pick(random, [1000, 2500, 5000, 10000]) }
      break
    case 'four-plus':
      rules = { rounds: 1 + Math.floor(random() * 4) }
      break
  }
  if (random() < 0.15) rules = undefined
  return rules === undefined ? { game, players } : { game, players, rules }
}

/** One random line, often illegal: any move kind, odd dice counts and values, or broken JSON. */
function randomLine(random: () => number): string {
  const r = random()
  if (r < 0.05) return '{"roll":[1,2'
  if (r < 0.08) return '{"roll":[1,2,3,4],"roll":[1,2,3,4]}'
  if (r < 0.1) return '{"players":["Ann"]}'
  const kind = pick(random, ['roll', 'roll', 'reroll', 'keep', 'socks', 'end', 'bank'])
  if (kind === 'socks' || kind === 'end' || kind === 'bank') return JSON.stringify({ [kind]: random() < 0.9 ? true : 1 })
  const length = Math.floor(random() * 8)
  const dice = Array.from({ length }, () => (random() < 0.95 ? 1 + Math.floor(random() * 6) : Math.floor(random() * 9)))
  return JSON.stringify({ [kind]: dice })
}

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 24)
}

/** What `npm run -s referee -- replay FILE` prints for this text: stdout, or its stderr line. */
export function refereeReplayOutput(text: string): string {
  const decoded = decodeRecordBytes(new TextEncoder().encode(text))
  if (!decoded.ok) return `line ${decoded.line}: ${decoded.error}`
  const replayed = replayText(decoded.text)
  if (!replayed.ok) return `line ${replayed.line}: ${replayed.error}`
  return JSON.stringify(summaryOf(replayed.game))
}

/** Everything the screens see after each line of a record, as long as its lines apply. */
function traceOf(text: string): string {
  const lines = text.split('\n').filter((line) => line !== '')
  const started = startGame(JSON.parse(lines[0]) as Header)
  if (!started.ok) return sha(`header: ${started.error}`)
  let game = started.value
  const module = GAMES[game.header.game]
  const parts: string[] = [JSON.stringify([module.offer(game.state), module.table(game.state), module.summary(game.state)])]
  for (const line of lines.slice(1)) {
    let move: unknown
    try {
      move = JSON.parse(line)
    } catch {
      break
    }
    const played = play(game, { move: move as never })
    if (!played.ok) {
      parts.push(`refused: ${played.error}`)
      break
    }
    game = played.game
    parts.push(
      JSON.stringify([
        played.events,
        played.events.map((event) => describeEvent(game, event)),
        module.offer(game.state),
        module.table(game.state),
        module.summary(game.state)
      ])
    )
  }
  return sha(parts.join('\n'))
}

/** The golden records, in order: seeded random games, every third with one random line swapped in. */
export function goldenRecords(): { game: GameId; index: number; text: string }[] {
  const out: { game: GameId; index: number; text: string }[] = []
  GAME_IDS.forEach((game, g) => {
    const random = seededRandom(20261130 + g * 7919)
    for (let index = 0; index < RECORDS_PER_GAME; index++) {
      const header = randomHeader(game, random)
      let text = recordText(playRandomGame(header, random, 600).game)
      if (index % 3 === 2) {
        const lines = text.split('\n').slice(0, -1)
        const at = 1 + Math.floor(random() * lines.length)
        lines.splice(at, at < lines.length && random() < 0.8 ? 1 : 0, randomLine(random))
        text = lines.join('\n') + '\n'
      }
      out.push({ game, index, text })
    }
  })
  return out
}

/** The golden records with the outputs they give today. */
export function goldenLines(): GoldenLine[] {
  return goldenRecords().map(({ game, index, text }) => ({
    game,
    index,
    record: sha(text),
    output: refereeReplayOutput(text),
    trace: traceOf(text)
  }))
}
