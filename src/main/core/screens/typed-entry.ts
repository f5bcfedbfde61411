// Digits typed on one keypad (a screen's, or a dice tray's), until Enter enters them: the keypad
// grammar (src/shared/keypad.ts) applied to what this keypad typed, and the move it makes sent to
// the game table under this keypad's source.
import type { KeypadKey, Outcome } from '@shared/api'
import { offerOf } from '@shared/game'
import { pressKey } from '@shared/keypad'
import type { GameTable } from '../game/game-table'
import type { MoveSource } from '../game/move-source'

export class TypedEntry {
  private buffer = ''

  constructor(
    private readonly table: GameTable,
    private readonly source: MoveSource
  ) {}

  get typed(): string {
    return this.buffer
  }

  clear(): void {
    this.buffer = ''
  }

  press(key: KeypadKey): Outcome {
    const game = this.table.current
    if (!game) return { ok: false, error: 'Start a game first' }
    const action = pressKey(this.buffer, key, offerOf(game))
    switch (action.type) {
      case 'refused':
        // A refused entry clears what was typed, so the next digits start afresh (a wrong digit alone keeps the rest).
        if (key === 'Enter') this.buffer = ''
        return { ok: false, error: action.error }
      case 'buffer':
        this.buffer = action.buffer
        return { ok: true }
      case 'undo':
        this.buffer = ''
        return this.table.undo(this.source)
      case 'move':
        // A move the rules refuse clears what was typed as well.
        this.buffer = ''
        return this.table.submit(action.move, this.source)
    }
  }
}
