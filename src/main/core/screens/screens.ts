// The screens connected to the table, each with its own typed entry and messages (screen.ts).
import type { Notices } from './notices'
import { Screen, type ScreenRole, type ScreenTable } from './screen'

export class Screens {
  private readonly connected = new Set<Screen>()
  private opened = 0

  constructor(
    private readonly table: ScreenTable,
    private readonly notices: Notices,
    private readonly onChange: () => void
  ) {
    table.game.subscribe((event) => {
      if (event.type === 'archived') return
      // Another game, or a line taken back: what was typed was for the position before.
      const replaced = event.type === 'replaced' || event.type === 'undone'
      for (const screen of this.connected) screen.tableMovedOn(replaced)
    })
  }

  /** A screen connects: it gets its own entry and messages until it closes. */
  open(role: ScreenRole, name: string = role.kind): Screen {
    const screen = new Screen(`${name}-${++this.opened}`, role, this.table, this.notices, this.onChange)
    this.connected.add(screen)
    return screen
  }

  close(screen: Screen): void {
    this.connected.delete(screen)
  }

  /** The paired screens (by their pairing's id) connected now. */
  pairedConnected(): ReadonlySet<string> {
    return new Set([...this.connected].flatMap((screen) => (screen.pairedId ? [screen.pairedId] : [])))
  }

  get count(): number {
    return this.connected.size
  }
}
