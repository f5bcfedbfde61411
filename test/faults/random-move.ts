// What the fault suite plays on a host it kills (the host is started by test/kit/host.ts, its
// screens are the kit's test/kit/screen-client.ts).
import type { TableState } from '@shared/api'
import type { Move } from '@shared/games/types'

/** A random move the rules allow in a pushed state (the screens' own view of the offer). */
export function randomMoveIn(state: TableState, random: () => number): Move | null {
  const offer = state.current?.offer
  if (!offer || offer.finished) return null
  const choices: Move[] = offer.decisions.map((decision) => decision.move)
  if (offer.diceDue > 0) choices.push({ roll: Array.from({ length: offer.diceDue }, () => 1 + Math.floor(random() * 6)) })
  return choices.length === 0 ? null : choices[Math.floor(random() * choices.length)]
}
