// A long legal record, made from the engine's own offers (random throws and decisions): the
// size of the import the outside test campaign used (13.8 MB), or any other.
import { GAMES } from '@shared/games'
import type { Move } from '@shared/games/types'
import { serializeHeader, serializeMove, type Header } from '@shared/record'
import { seededRandom } from '@shared/random-play'

export function longRecord(bytes: number, seed = 1): { text: string; lines: number } {
  const header: Header = { game: 'farkle', players: ['Ann', 'Bob', 'Cy'], rules: { target: 1_000_000_000 }, meta: { startedAt: 1_700_000_000_000 } }
  const module = GAMES.farkle
  const options = module.parseOptions(header.rules, header.players.length)
  if (!options.ok) throw new Error(options.error)
  let state = module.init(header.players, options.value)
  const random = seededRandom(seed)
  const lines = [serializeHeader(header)]
  let size = lines[0].length + 1
  let at = 1_700_000_000_000
  while (size < bytes) {
    // 2,000 lines of random play, then throws that score nothing (each passes the dice on): the
    // engine checks every line either way, and only offering choices is slow to make.
    const move: Move = lines.length > 2000 ? { roll: [2, 3, 4, 6, 2, 3] } : randomChoice()
    const applied = module.apply(state, move)
    if (!applied.ok) throw new Error(applied.error)
    state = applied.state
    const line = serializeMove({ move, at: (at += 1000) })
    lines.push(line)
    size += line.length + 1
  }
  return { text: `${lines.join('\n')}\n`, lines: lines.length }

  function randomChoice(): Move {
    const offer = module.offer(state)
    const choices: Move[] = offer.decisions.map((decision) => decision.move)
    if (offer.diceDue > 0) choices.push({ roll: Array.from({ length: offer.diceDue }, () => 1 + Math.floor(random() * 6)) })
    return choices[Math.floor(random() * choices.length)]
  }
}
