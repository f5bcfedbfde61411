// One screen connected to the table (a window of the desktop app, a browser page, a paired phone):
// what it may do, what it has typed on its keypad, the refusals its own requests caused, and the
// requests a person makes there (each answered, and refused on this screen only). What one screen
// types or is refused never shows on another.
import type { KeypadKey, MessageLevel, Outcome, ScreenKind, ScreenTrust, TableMessage } from '@shared/api'
import type { GameSetup } from '@shared/api-methods'
import type { CameraReading } from '@shared/camera'
import type { Move } from '@shared/games/types'
import type { GameTable } from '../game/game-table'
import type { MoveSource } from '../game/move-source'
import type { HistoryService } from '../history/history-service'
import { log } from '../files/log'
import type { Notices } from './notices'
import { TypedEntry } from './typed-entry'

export interface ScreenRole {
  kind: ScreenKind
  /** It may enter dice and decisions (LAN viewers may only watch). */
  canControl: boolean
  /** It is on the host computer (only those manage devices and see the pairing code). */
  local: boolean
  /** What it is to the table; by default what `canControl` and `local` say. */
  trust?: ScreenTrust
  /** The paired screen it is (pairing.ts), when it came with a token. */
  pairedId?: string | null
  /** Where it connects from (pairing tries are counted by address). */
  address?: string
}

/** What a screen acts on. */
export interface ScreenTable {
  game: GameTable
  history: HistoryService
  computer: { letPlay(): Outcome } | null
  setShowOdds(on: boolean): Outcome
  /** The camera as a dice source (src/main/devices/camera-dice.ts): a screen's reading, its frames in capture mode. */
  camera: {
    read(screen: Screen, reading: CameraReading): Outcome<{ taken: boolean; text: string }>
    saveCapture(screen: Screen, id: string, frames: string[]): Outcome<{ files: string[] }>
  }
}

export class Screen implements ScreenRole {
  readonly kind: ScreenKind
  readonly canControl: boolean
  readonly local: boolean
  readonly trust: ScreenTrust
  readonly pairedId: string | null
  readonly address: string
  readonly source: MoveSource
  readonly entry: TypedEntry
  private ownMessage: TableMessage | null = null

  constructor(
    readonly id: string,
    role: ScreenRole,
    private readonly table: ScreenTable,
    private readonly notices: Notices,
    private readonly onChange: () => void
  ) {
    this.kind = role.kind
    this.canControl = role.canControl
    this.local = role.local
    this.trust = role.trust ?? (role.local ? 'host' : role.canControl ? 'paired' : 'viewer')
    this.pairedId = role.pairedId ?? null
    this.address = role.address ?? (role.local ? 'this computer' : 'unknown')
    this.source = { kind: 'screen', screen: id }
    this.entry = new TypedEntry(table.game, this.source)
  }

  /** The message this screen shows: its own refusal, or the table's news when that is newer. */
  get message(): TableMessage | null {
    const news = this.notices.latest
    if (!this.ownMessage) return news
    return news && news.id > this.ownMessage.id ? news : this.ownMessage
  }

  /** What came of this screen's request: a refusal shows here (only), a success clears the last one. */
  answered<T extends Outcome<object>>(outcome: T): T {
    const before = this.ownMessage
    const news = this.notices.latest
    // A refusal every screen was just told of (a move the disk failed after it was shown) is shown once.
    const told = !outcome.ok && news?.text === outcome.error && news.level === 'error'
    this.ownMessage = outcome.ok || told ? null : this.notices.make(outcome.error, 'error')
    // A refused key or move is the screen's business: logged with --verbose only.
    if (!outcome.ok) log.debug({ screen: this.id, message: outcome.error }, 'told a screen of an error')
    if (before !== this.ownMessage) this.onChange()
    return outcome
  }

  /** Tells this screen only (a camera reading filled into its keypad says why here). */
  tell(text: string, level: MessageLevel): void {
    this.ownMessage = this.notices.make(text, level)
    this.onChange()
  }

  /** What this screen's camera read once the dice settled. */
  cameraThrow(reading: CameraReading): Outcome<{ taken: boolean; text: string }> {
    const outcome = this.table.camera.read(this, reading)
    // Asked on the keypad: the words are this screen's message already (a success would clear it).
    return outcome.ok && !outcome.taken ? outcome : this.answered(outcome)
  }

  /** The frames of a camera throw the table took, for capture mode. */
  saveCameraCapture(id: string, frames: string[]): Outcome<{ files: string[] }> {
    return this.answered(this.table.camera.saveCapture(this, id, frames))
  }

  /** A key of this screen's keypad (or keyboard). */
  keypad(key: KeypadKey): Outcome {
    const typed = this.entry.typed
    const outcome = this.entry.press(key)
    if (this.entry.typed !== typed && outcome.ok) this.onChange()
    return this.answered(outcome)
  }

  newGame(setup: GameSetup): Outcome {
    return this.answered(this.table.game.newGame(setup))
  }

  /** A throw or decision entered on this screen (its buttons). */
  submit(move: Move): Outcome {
    return this.answered(this.table.game.submit(move, this.source))
  }

  /** Throws the dice that are due with virtual dice. */
  rollVirtual(): Outcome {
    return this.answered(this.table.game.rollVirtual({ kind: 'virtual', screen: this.id }))
  }

  undo(): Outcome {
    return this.answered(this.table.game.undo(this.source))
  }

  redo(): Outcome {
    return this.answered(this.table.game.redo(this.source))
  }

  /** Lets a computer seat that waits after an undo play on. */
  letComputerPlay(): Outcome {
    return this.answered(this.table.computer?.letPlay() ?? { ok: false, error: 'No computer player is to play now' })
  }

  rematch(): Outcome {
    return this.answered(this.table.game.rematch())
  }

  abandon(): Outcome {
    return this.answered(this.table.game.abandon())
  }

  async importRecord(text: string): Promise<Outcome> {
    return this.answered(await this.table.game.importRecord(text))
  }

  resumeHistory(id: string): Outcome {
    return this.answered(this.table.history.resume(id))
  }

  setShowOdds(on: boolean): Outcome {
    return this.answered(this.table.setShowOdds(on))
  }

  /** The table moved on (another game, an undo, a move from anywhere): a refusal about the position before is old. */
  tableMovedOn(replaced: boolean): void {
    this.ownMessage = null
    if (replaced) this.entry.clear()
    else this.entry.dropFilledIn()
  }
}
