// Who made a move (or asked for one): every request to the game table says where it comes from,
// so that each part can tell its own moves from the others' without watching itself.
import type { MessageLevel } from '@shared/api'
import type { EnteredBy } from '@shared/camera'

export type MoveSource =
  /** A person at a screen: its buttons, its keyboard or its on-screen keypad. */
  | { kind: 'screen'; screen: string }
  /** Virtual dice a person rolled from a screen. */
  | { kind: 'virtual'; screen: string }
  /** The smart dice (a hub's or Bluetooth dice), thrown by the players. */
  | { kind: 'smart-dice' }
  /** A keypad built into a device (a dice tray), named for the log: "the keypad of Dice hub H1". */
  | { kind: 'keypad'; device: string }
  /** The computer player of a seat. */
  | { kind: 'computer'; seat: number }
  /**
   * A screen's camera (src/main/devices/camera-dice.ts): its reading taken at once, or filled into
   * that screen's keypad and entered there with Enter, as read (`camera`) or corrected
   * (`camera-corrected`). The live log says which; the record holds the throw only.
   */
  | { kind: 'camera'; screen: string; throwId: string; by: EnteredBy }

/** Something every screen is told, with how much it matters. */
export interface News {
  text: string
  level: MessageLevel
}

/** A person's request, by source (people may not play a computer seat's turn). */
export function isPerson(source: MoveSource): boolean {
  return source.kind !== 'computer'
}

/** How a move was entered, for the sources the log says it of (the camera's). */
export function enteredBy(source: MoveSource): EnteredBy | undefined {
  return source.kind === 'camera' ? source.by : undefined
}
