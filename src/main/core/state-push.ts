// A screen is pushed a state only when what it shows changed: the odds that follow a throw change
// the table screen's state but not the TV's, and the TV must not draw the same thing twice while
// the next throw may be on its way.

const VERSION_FIRST = /^(\{"state":)?\{"version":-?\d+,/

/** The state as JSON without its version (the version is the state's first field). */
function withoutVersion(json: string): string {
  const match = VERSION_FIRST.exec(json)
  return match ? json.slice(match[0].length) : json
}

/** What one screen was last pushed. */
export class ShownState {
  private last: string | null = null

  /** Whether `json` (a state, or a push of one) shows anything new; remembers it if so. */
  changes(json: string): boolean {
    const body = withoutVersion(json)
    if (body === this.last) return false
    this.last = body
    return true
  }
}
