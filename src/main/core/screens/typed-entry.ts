// Digits typed on one keypad (a screen's, or a dice tray's), until Enter enters them: the keypad
// grammar (src/shared/keypad.ts) applied to what this keypad typed, and the move it makes sent to
// the game table under this keypad's source. A screen's camera may fill in the throw it read
// (`fillIn`): one Enter takes it as the camera's, digits correct it (then it is the person's).
import type { KeypadKey, Outcome } from '@shared/api'
import { offerOf } from '@shared/game'
import type { Move } from '@shared/games/types'
import { pressKey } from '@shared/keypad'
import type { GameTable } from '../game/game-table'
import type { MoveSource } from '../game/move-source'

/** A camera reading filled into the entry: the throw it came from and the values it read. */
export interface FilledIn {
  throwId: string
  values: readonly number[]
  /** Every die due was read: the first digit typed replaces the reading (as in a selected field); else digits go after it. */
  complete: boolean
}

const DIGITS = new Set<KeypadKey>(['1', '2', '3', '4', '5', '6'])

export class TypedEntry {
  private buffer = ''
  private filled: FilledIn | null = null
  /** The next digit replaces a complete reading filled in (until a digit or Backspace edits it). */
  private replaceOnDigit = false

  constructor(
    private readonly table: GameTable,
    private readonly source: MoveSource
  ) {}

  get typed(): string {
    return this.buffer
  }

  /** The camera's reading filled in, until Enter enters it, the entry is cleared or the table moves on. */
  get filledIn(): FilledIn | null {
    return this.filled
  }

  clear(): void {
    this.buffer = ''
    this.forgetFilledIn()
  }

  /** Puts a camera reading in the entry, in place of what was typed. */
  fillIn(filled: FilledIn): void {
    this.filled = { ...filled, values: [...filled.values] }
    this.buffer = filled.values.join('')
    this.replaceOnDigit = filled.complete
  }

  /** The table moved on: a reading filled in is of a throw that is no longer due (left as typed if edited). */
  dropFilledIn(): void {
    if (!this.filled) return
    if (this.buffer === this.filled.values.join('')) this.buffer = ''
    this.forgetFilledIn()
  }

  press(key: KeypadKey): Outcome {
    const game = this.table.current
    if (!game) return { ok: false, error: 'Start a game first' }
    const typed = this.replaceOnDigit && DIGITS.has(key) ? '' : this.buffer
    const action = pressKey(typed, key, offerOf(game))
    switch (action.type) {
      case 'refused':
        // A refused entry clears what was typed, so the next digits start afresh (a wrong digit alone keeps the rest).
        if (key === 'Enter') this.clear()
        return { ok: false, error: action.error }
      case 'buffer':
        this.buffer = action.buffer
        if (action.buffer === '') this.forgetFilledIn()
        else this.replaceOnDigit = false
        return { ok: true }
      case 'undo':
        this.clear()
        return this.table.undo(this.source)
      case 'move': {
        // A move the rules refuse clears what was typed as well.
        const source = this.sourceOf(action.move)
        this.clear()
        return this.table.submit(action.move, source)
      }
    }
  }

  /** A throw entered over a camera reading is the camera's: as read, or corrected by hand. */
  private sourceOf(move: Move): MoveSource {
    const filled = this.filled
    if (!filled || !('roll' in move) || (this.source.kind !== 'screen' && this.source.kind !== 'keypad')) return this.source
    const screen = this.source.kind === 'screen' ? this.source.screen : this.source.device
    return { kind: 'camera', screen, throwId: filled.throwId, by: sameValues(move.roll, filled.values) ? 'camera' : 'camera-corrected' }
  }

  private forgetFilledIn(): void {
    this.filled = null
    this.replaceOnDigit = false
  }
}

function sameValues(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false
  const x = [...a].sort()
  const y = [...b].sort()
  return x.every((value, index) => value === y[index])
}
