// A screen is pushed a state only when what it shows changed: the odds that follow a throw change
// the table screen's state but not the TV's, and the TV must not draw the same thing twice while
// the next throw may be on its way. A screen that takes patches gets what changed instead of the
// whole state whenever that is shorter (`src/shared/state-patch.ts` says why that matters).
import type { WirePush } from '@shared/api-methods'
import { diffState, type JsonObject } from '@shared/state-patch'

const VERSION_FIRST = /^(\{"state":)?\{"version":-?\d+,/

/** The state as JSON without its version (the version is the state's first field). */
function withoutVersion(json: string): string {
  const match = VERSION_FIRST.exec(json)
  return match ? json.slice(match[0].length) : json
}

/**
 * A session listener that pushes the TVs at once and the other screens right after the code that
 * changed the state has run (a move's line is flushed to the disk meanwhile) and before that code's
 * request is answered: on two cores a table screen drawing beside the TV delays the TV. Changes
 * made in the same moment are pushed to the other screens once.
 */
export function tvFirst(pushTvs: () => void, pushOthers: () => void): () => void {
  let othersDue = false
  return () => {
    pushTvs()
    if (othersDue) return
    othersDue = true
    queueMicrotask(() => {
      othersDue = false
      pushOthers()
    })
  }
}

/** What one screen was last pushed. */
export class ShownState {
  private last: string | null = null
  /** The state last pushed, as the screen has it (parsed from what was sent). */
  private lastState: JsonObject | null = null

  /** Whether `json` (a state, or a push of one) shows anything new; remembers it if so. */
  changes(json: string): boolean {
    const body = withoutVersion(json)
    if (body === this.last) return false
    this.last = body
    return true
  }

  /**
   * The push that brings the screen to `stateJson` (a TableState's JSON): null when it shows
   * nothing new; else the whole state, or, for a screen that takes patches, the patch from the
   * state it was last pushed when that is shorter.
   */
  pushFor(stateJson: string, takesPatches: boolean): string | null {
    if (!this.changes(stateJson)) return null
    const whole = `{"state":${stateJson}}`
    if (!takesPatches) return whole
    const previous = this.lastState
    const next = JSON.parse(stateJson) as JsonObject
    this.lastState = next
    if (previous === null) return whole
    const patch = JSON.stringify({ patch: diffState(previous, next), from: previous.version as number } satisfies WirePush)
    return patch.length < whole.length ? patch : whole
  }
}
