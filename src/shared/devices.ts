// Physical dice and serial keypads: what the screens are shown about them (`DevicesView`), and the
// pure logic that turns die events into throws (`ThrowAssembler`). No Node, DOM or Electron here:
// the serial side lives in src/main/devices and feeds this. What a serial keypad's keys mean is in
// the keypad's key table (./keypad-keys.ts).
//
// How die events become a throw (the rules say how many dice are due: `offer.diceDue`):
// * Every die that sends `rolling` joins the open throw, whatever its hub throw number (a player
//   may throw two dice one after the other). Dice that did not roll keep their values: a Foursies
//   re-roll of 2 dice is the 2 values that settled.
// * The throw is complete when exactly `due` dice have rolled and all of them have settled. The
//   values go in die order: device order (first connected first), then the order the hub lists its
//   dice in its hello. In a Foursies duel the values are matched to the duellists in seat order, so
//   the first duellist in seat order throws the first die in that order (A before B...), and so on.
// * A die that came to rest cocked holds the throw: throw it again, nudge it flat (its `moved`
//   face counts), or type the throw on a keypad.
// * A die turned by hand after it settled keeps the face it settled on, and is flagged.
// * More dice rolled than are due (e.g. a die outside the chosen false four), or dice rolled when
//   no throw is due: nothing is sent. The table puts the extra die back on the face it showed
//   before (its `moved` back to that face takes it out of the throw), or enters the throw by hand.
// * Dice rolled before the table chose a decision stay in the open throw: once a throw is due and
//   they fit it, they count.
// * A throw typed by hand (or an undo, or a new game) clears the open throw.
// * With a plan (src/shared/dice-plan.ts: which dice the record says must be thrown and which hold
//   their values) a die that is not due is refused when it rolls, or changes face by hand: it is a
//   stray, named with the value to put it back on, and no throw completes until every stray shows
//   its value again (or a throw typed by hand, an undo or a new game clears them). The throw is
//   exactly the named dice; a die showing the same value as a due one may be thrown in its place.
// * Only dice in the game take part (`DieView.inGame`, set on the Devices tab: a hub may carry more
//   dice than the game uses). A die out of the game never joins or completes a throw; its faces and
//   throw numbers are still followed, so it can be put back in the game at any time. Taking a die
//   out of the game takes it out of the open throw too.

import type { DicePlan } from './dice-plan'
import { listNames } from './dice'
import type { Charge, ProtocolErrorCode } from './protocol/types'

// ---------------------------------------------------------------- view shapes (TableState.devices)

/** A serial port the system lists, with its USB details where it has them. */
export interface PortView {
  path: string
  manufacturer: string | null
  serialNumber: string | null
  vendorId: string | null
  productId: string | null
  /** Id of the device connected on it, if any. */
  device: string | null
}

export type DeviceState =
  /** Port open, waiting for the device's hello (sends `hello?` every 2 s). */
  | 'connecting'
  | 'connected'
  /** Open, but its heartbeat is overdue. */
  | 'stale'
  /** Unplugged (or the port failed): looking for it again, by serial number and path. */
  | 'reconnecting'
  /** Will not be used: `reason` says why (firmware too new, permission denied...). */
  | 'refused'

export type DieStatusView = 'unknown' | 'rolling' | 'settled' | 'cocked' | 'offline'

export interface DieView {
  id: string
  sides: number
  colour: string | null
  label: string
  status: DieStatusView
  /** Face up as last known (null when cocked, rolling or unknown). */
  face: number | null
  battery: { percent: number; charge: Charge } | null
  /** The die's latest hub throw number. */
  throwNo: number | null
  /** Takes part in throws (true for every die of a newly seen device; remembered per serial and die). */
  inGame: boolean
  /** Why the die can never be in the game (a d20 where the games use six-sided dice), else absent. */
  refused?: string
}

/** A die in the game when a game started (record header `meta.dice`). */
export interface GameDie {
  /** The hub's serial number (its hello). */
  device: string
  die: string
  label: string
}

export interface RawLineView {
  at: number
  /** `in` from the device, `out` to it. */
  dir: 'in' | 'out'
  /** The line as received, non-printable bytes as `\xNN`, cut to 120 characters. */
  text: string
  /** `ok`, or why it was dropped. */
  verdict: string
}

/**
 * Why lines were dropped: the parser's codes, plus sequence and hello bookkeeping. Lines before a
 * connection's first hello are no drops (the tail of what the hub sent before the port opened,
 * boot noise): they are listed raw only.
 */
export type DropReason =
  | Exclude<ProtocolErrorCode, 'empty'>
  /** Same sequence number as the line before: ignored. */
  | 'duplicate'
  /** Sequence number behind the last one (a restart whose hello was lost?): ignored, `hello?` sent. */
  | 'behind'
  /** Ahead of the sequence and never continued (noise that passed the checksum), or a hello that does not fit. */
  | 'out-of-sequence'
  /** About a die the device's hello did not list. */
  | 'unknown-die'
  /** A key or typed value from a device whose hello declared no keypad. */
  | 'no-keypad'

export const DROP_REASONS: readonly DropReason[] = [
  'too-long',
  'bad-char',
  'malformed',
  'bad-checksum',
  'unknown-type',
  'unknown-major',
  'bad-field',
  'duplicate',
  'behind',
  'out-of-sequence',
  'unknown-die',
  'no-keypad'
]

export interface DeviceView {
  /** The device's id for the API: its serial number from the hello, or `port:PATH` before one. */
  id: string
  path: string
  state: DeviceState
  /** Why it is refused, reconnecting or stale, in words a player can act on. */
  reason: string | null
  serial: string | null
  firmware: string | null
  firmwareVersion: string | null
  protocol: string | null
  keypad: boolean
  dice: DieView[]
  /** Dropped lines by reason (every key present). */
  dropped: Record<DropReason, number>
  /** Lines used. */
  received: number
  /** Lines the device sent that never arrived (sequence gaps). */
  lost: number
  lastLineAt: number | null
  /** The last ~50 lines both ways, oldest first. */
  raw: RawLineView[]
}

export interface ThrowDieView {
  device: string
  die: string
  /** `A (red)` */
  name: string
  status: 'rolling' | 'settled' | 'cocked'
  face: number | null
  /** Face it showed before it was thrown, when known. */
  before: number | null
  /** Something the table should know about this die (handled after it settled...). */
  flag: string | null
}

export interface ThrowView {
  /** Dice due by the rules (null in test mode: any dice). */
  due: number | null
  state: 'waiting' | 'problem'
  /** What is happening, in words ("2 of 4 dice settled", "B is cocked: throw it again..."). */
  text: string
  dice: ThrowDieView[]
}

/** One smart die of the game as every screen (the TV too) is shown it: the record next to the table. */
export interface SmartDieView {
  device: string
  die: string
  /** `A (red)` */
  name: string
  colour: string | null
  /** throw: due now; hold: must keep its value; idle: neither (a duel's spare die, a computer's turn). */
  role: 'throw' | 'hold' | 'idle'
  /** The value the record gives it in the throw in play (for a die due: the value it replaces), when known. */
  record: number | null
  /** What it shows now (null: rolling, cocked or unknown). */
  face: number | null
  /** Duel: the seat whose die it is. */
  seat: number | null
  /** False while it disagrees with the record (a stray). */
  agrees: boolean
}

/** The smart dice against the record (TableState.smartDice): shown by the table screen and the TV. */
export interface SmartDiceView {
  /** "Throw B (blue) and C (white)", "Ann throws A (red), Bob throws B (blue)", "Throw any 4 of the 6 smart dice", or '' when none. */
  toThrow: string
  dice: SmartDieView[]
  /** Each die that disagrees with the record, in words: "Die A (red) holds the 4 that scored: put it back on 4". */
  disagreements: string[]
  /** Why the smart dice are not used now (a computer's throw), or null. */
  note: string | null
}

export interface CountedThrowView {
  values: number[]
  /** Die names in the order of `values`. */
  dice: string[]
  at: number
  /** Sent to the game (false in test mode). */
  sent: boolean
  flags: string[]
}

/** Bytes main asks the screen holding the Bluetooth connections to write to a die (src/main/devices/bluetooth-link.ts). */
export interface BluetoothOutView {
  /** Grows with every write: the screen writes those it has not written yet. */
  seq: number
  /** The screen's id of the connection (BluetoothDevice.id). */
  link: string
  hex: string
}

/** A die the desktop app's Bluetooth scan found, for our own picker (Electron's `select-bluetooth-device`). */
export interface BluetoothChoiceView {
  id: string
  name: string
}

export interface DevicesView {
  ports: PortView[]
  devices: DeviceView[]
  /** Test mode: throws are assembled and shown, never sent to the game; keypads do nothing. */
  testMode: boolean
  /** The throw being assembled, null when no die has rolled. */
  assembling: ThrowView | null
  /** The last complete throw. */
  lastThrow: CountedThrowView | null
  /** The last key a device keypad sent (shown in test mode too). */
  lastKey: string | null
  /** Bluetooth dice: writes waiting for the screen that holds them, and the desktop picker's list while a scan is open. */
  bluetooth?: { out: BluetoothOutView[]; chooser: BluetoothChoiceView[] | null }
}

// ---------------------------------------------------------------- throw assembly

export type ThrowVerdict =
  | { kind: 'idle' }
  | { kind: 'waiting'; text: string }
  | { kind: 'problem'; problem: 'cocked' | 'too-many' | 'not-due' | 'wrong-die'; text: string }
  | { kind: 'complete'; values: number[]; keys: string[]; names: string[]; flags: string[] }

export interface ThrowRules {
  /** Dice due now; null accepts any number (test mode). 0: no throw is due. */
  due: number | null
  /** Why no throw can be taken (no game, game over), shown instead of "no throw is due". */
  blocked?: string
}

interface KnownDie {
  key: string
  device: string
  die: string
  name: string
  order: number
  throwNo: number | null
  /** Throw numbers this die's lines carried lately, newest last (at most RECENT_THROWS_KEPT). */
  seen: number[]
  face: number | null
  inGame: boolean
}

interface OpenDie {
  key: string
  throwNo: number
  status: 'rolling' | 'settled' | 'cocked'
  face: number | null
  before: number | null
  flag: string | null
  /** A line of this die was dropped as late though its throw was never seen: the hub's snapshot decides. */
  doubtful?: boolean
  /** Cocked in this throw, then thrown again: the hub throw it is in now is the cocked die's re-throw. */
  rethrowOfCocked?: boolean
}

/** Throw numbers remembered per die: a throw re-sent by the transport is known for this many throws. */
const RECENT_THROWS_KEPT = 64
/** How many throws behind a die's latest a line never seen may be and still be a late line of an earlier throw. */
const LATE_THROWS = 16

export const dieKey = (device: string, die: string): string => `${device}/${die}`

export function dieName(die: string, colour: string | null, label: string): string {
  const extra = label !== '' && label !== die ? label : colour
  return extra ? `${die} (${extra})` : die
}

const diceWord = (n: number): string => (n === 1 ? '1 die' : `${n} dice`)

/**
 * Groups die events into throws. Pure: feed it events and the rules, ask `verdict()`; the caller
 * sends a complete throw and then calls `counted()`.
 */
export class ThrowAssembler {
  private readonly known = new Map<string, KnownDie>()
  private open = new Map<string, OpenDie>()
  private rules: ThrowRules = { due: 0 }
  /** Warnings about dice handled after their throw was counted, collected for the caller. */
  private notes: string[] = []
  /** Dice of the open throw a snapshot said made no throw since their device started (told with the notes). */
  private leftByRestart: string[] = []
  /** Which dice must be thrown and which hold their values (null: any dice, as many as are due). */
  private plan: DicePlan | null = null
  /** Dice moved that must not have been, with the face to put them back on (null: unknown). */
  private strays = new Map<string, { expect: number | null; why: string }>()
  /** A line was dropped as late though its throw was never seen: what the host knows may be wrong. */
  private doubted = false

  /** Declares a die (from a hello). `order` sorts values: device order, then hub order. */
  register(device: string, die: string, order: number, name: string): void {
    const key = dieKey(device, die)
    const k = this.known.get(key)
    if (k) {
      k.order = order
      k.name = name
    } else this.known.set(key, { key, device, die, name, order, throwNo: null, seen: [], face: null, inGame: true })
  }

  /**
   * Puts a die in the game or takes it out. Out of the game its events never join a throw; taken
   * out while it is in the open throw, it leaves that throw (which may then be complete).
   */
  setInGame(device: string, die: string, inGame: boolean): void {
    const k = this.die(device, die)
    k.inGame = inGame
    if (!inGame) this.open.delete(k.key)
  }

  /** A die that left its device's list: out of the open throw, and forgotten. */
  forget(device: string, die: string): void {
    const key = dieKey(device, die)
    this.known.delete(key)
    this.open.delete(key)
    this.lastCounted.delete(key)
  }

  /** Whether a die takes part in throws (unknown dice do). */
  isInGame(device: string, die: string): boolean {
    return this.known.get(dieKey(device, die))?.inGame ?? true
  }

  setRules(rules: ThrowRules): void {
    this.rules = rules
  }

  get dueNow(): number | null {
    return this.rules.due
  }

  /** Forgets the open throw and the strays (a throw typed by hand, an undo, a new game). */
  clear(): void {
    this.open.clear()
    this.strays.clear()
  }

  /**
   * Which dice the record wants thrown now and which must hold their values (a copy is kept: the
   * assembler may swap two dice that show the same value). Open dice that are not due any more
   * become strays unless they show the value they hold.
   */
  setPlan(plan: DicePlan | null): void {
    this.plan = plan && {
      ...plan,
      due: plan.due && [...plan.due],
      held: new Map(plan.held),
      replacing: new Map(plan.replacing)
    }
    if (!this.plan?.due) return
    const due = this.plan.due
    for (const key of [...this.strays.keys()]) if (due.includes(key)) this.strays.delete(key)
    if (this.plan.count === 0) return
    for (const [key, o] of [...this.open]) {
      if (due.includes(key)) continue
      this.open.delete(key)
      const expect = this.expected(key, o.before)
      if (!(o.status === 'settled' && o.face === expect)) this.strays.set(key, { expect, why: this.whyStays(key) })
    }
  }

  get currentPlan(): DicePlan | null {
    return this.plan
  }

  /** Dice that disagree with the record, with the face that puts each right. */
  strayDice(): { key: string; expect: number | null; text: string }[] {
    return [...this.strays].map(([key, s]) => ({ key, expect: s.expect, text: this.strayText(key) }))
  }

  /** Whether the die is in the open throw. */
  isThrown(key: string): boolean {
    return this.open.has(key)
  }

  /** The face a die shows as last known. */
  faceOf(key: string): number | null {
    return this.known.get(key)?.face ?? null
  }

  private named(): string[] | null {
    return this.plan && this.plan.due && this.plan.count > 0 ? this.plan.due : null
  }

  private expected(key: string, before: number | null): number | null {
    return this.plan?.held.get(key)?.value ?? before
  }

  private whyStays(key: string): string {
    return this.plan?.held.get(key)?.why ?? this.plan?.idleWhy ?? 'is not due'
  }

  private strayText(key: string): string {
    const s = this.strays.get(key)!
    const name = this.known.get(key)?.name ?? key
    return s.expect === null ? `Die ${name} ${s.why}: put it back as it was` : `Die ${name} ${s.why}: put it back on ${s.expect}`
  }

  /**
   * An event of a die the plan does not want thrown (held, or a duel's spare): refused as a stray
   * unless it shows the value it holds. Returns true when the event is taken care of here. A held
   * die thrown in place of a due die showing the same value swaps with it (returns false: a throw).
   */
  private astray(k: KnownDie, face: number | null, rolled: boolean): boolean {
    if (this.strayHandled(k, face, rolled)) return true
    const plan = this.plan
    if (!plan || !plan.due) return false
    const due = plan.count > 0 ? plan.due : null
    if (due?.includes(k.key)) return false
    const held = plan.held.get(k.key)
    // No throw due: a die thrown stays in the open throw until a decision says what is due.
    if (due === null && (rolled || !held)) return false
    if (rolled && due && held) {
      const twin = due.find((d) => plan.replacing.get(d) === held.value && !this.open.has(d))
      if (twin !== undefined) {
        due[due.indexOf(twin)] = k.key
        plan.held.delete(k.key)
        plan.held.set(twin, held)
        plan.replacing.delete(twin)
        plan.replacing.set(k.key, held.value)
        return false
      }
    }
    const expect = held?.value ?? k.face
    if (!rolled && face !== null && face === expect) {
      k.face = face
      return true
    }
    this.strays.set(k.key, { expect, why: this.whyStays(k.key) })
    k.face = face
    return true
  }

  /** An event of a die that must be put back: it is back once it shows the face expected. True when the die is such a stray. */
  private strayHandled(k: KnownDie, face: number | null, rolled: boolean): boolean {
    const stray = this.strays.get(k.key)
    if (!stray) return false
    k.face = face
    if (!rolled && face !== null && face === stray.expect) this.strays.delete(k.key)
    return true
  }

  /**
   * A die of the open throw that had settled is thrown again while the throw waits on a cocked die,
   * or with the cocked die's re-throw (only the cocked die may be thrown again): its face in the
   * open throw stands, and it must be put back on it. True when that is so. Without a cocked die,
   * a later hub throw replaces its face (dice thrown one after the other, the last knocking one
   * thrown before); a number far from the open one is no re-throw (the open one came from noise).
   */
  private rethrown(k: KnownDie, o: OpenDie | undefined, throwNo: number, face: number | null, rolled: boolean): boolean {
    if (!o || o.status !== 'settled' || o.face === null) return false
    const ahead = (((throwNo - o.throwNo) % 65536) + 65536) % 65536
    if (ahead === 0 || ahead > LATE_THROWS) return false
    const withCocked = [...this.open.values()].some((d) => d.key !== k.key && (d.status === 'cocked' || (d.rethrowOfCocked && d.throwNo === throwNo)))
    if (!withCocked) return false
    this.strays.set(k.key, { expect: o.face, why: `was thrown again after it settled on ${o.face} in this throw` })
    this.saw(k, throwNo)
    k.face = face
    if (!rolled && face === o.face) this.strays.delete(k.key)
    return true
  }

  /**
   * A device (re)started: what is known of its throw numbers is forgotten (it counts from 0 again,
   * and its next snapshot is a baseline), and its dice leave the open throw, whose lines came from
   * the boot that ended. Returns the names of those dice: the table throws them again.
   */
  restarted(device: string): string[] {
    const left: string[] = []
    for (const k of this.known.values()) {
      if (k.device !== device) continue
      k.throwNo = null
      k.seen = []
      if (this.open.delete(k.key)) left.push(k.name)
    }
    return left
  }

  get isOpen(): boolean {
    return this.open.size > 0
  }

  rolling(device: string, die: string, throwNo: number): void {
    const k = this.die(device, die)
    if (!k.inGame) return this.follow(k, throwNo, null)
    const o = this.open.get(k.key)
    if (o && this.strayHandled(k, null, true)) return
    if (o && o.throwNo === throwNo) {
      o.doubtful = false // the device goes on with the open throw: it is real
      if (o.status !== 'rolling') {
        // Knocked while its throw is open: it tumbles again, and the face it comes to rest on counts.
        o.status = 'rolling'
        o.face = null
        k.face = null
      }
      return
    }
    // A throw already seen (re-sent by the transport) or older: not a new throw.
    if (this.isPast(k, throwNo, o ? o.throwNo : k.throwNo)) return this.doubtUnless(k, throwNo)
    if (this.rethrown(k, o, throwNo, null, true)) return
    if (!o && this.astray(k, null, true)) {
      this.saw(k, throwNo)
      return
    }
    const rethrowOfCocked = o?.status === 'cocked' || undefined
    this.open.set(k.key, { key: k.key, throwNo, status: 'rolling', face: null, before: o ? o.before : k.face, flag: null, rethrowOfCocked })
    this.saw(k, throwNo)
    k.face = null
  }

  settled(device: string, die: string, throwNo: number, face: number): void {
    const k = this.die(device, die)
    if (!k.inGame) return this.follow(k, throwNo, face)
    const o = this.open.get(k.key)
    if (o) {
      if (this.strayHandled(k, face, false)) return
      if (o.throwNo !== throwNo && this.isPast(k, throwNo, o.throwNo)) return this.doubtUnless(k, throwNo) // an older throw's line
      if (this.rethrown(k, o, throwNo, face, false)) return
      if (o.throwNo !== throwNo && o.status === 'cocked') o.rethrowOfCocked = true // its `rolling` was lost
      o.throwNo = throwNo
      o.doubtful = false
      o.status = 'settled'
      o.face = face
    } else {
      if (throwNo !== k.throwNo && this.isPast(k, throwNo, k.throwNo)) return this.doubtUnless(k, throwNo) // an older throw's line
      if (this.astray(k, face, false)) {
        this.saw(k, throwNo)
        return
      }
      // The throw already counted, come to rest again (knocked once it was counted): as if turned by hand.
      if (throwNo === k.throwNo) {
        if (face !== k.face) this.moved(device, die, face)
        return
      }
      // A throw already counted (or learnt from a snapshot): not a new one.
      if (this.isPast(k, throwNo, k.throwNo)) return
      // Its `rolling` was lost: still a throw.
      this.open.set(k.key, { key: k.key, throwNo, status: 'settled', face, before: k.face, flag: null })
    }
    this.saw(k, throwNo)
    k.face = face
  }

  cocked(device: string, die: string, throwNo: number): void {
    const k = this.die(device, die)
    if (!k.inGame) return this.follow(k, throwNo, null)
    const o = this.open.get(k.key)
    if (o) {
      if (this.strayHandled(k, null, false)) return
      if (o.throwNo !== throwNo && this.isPast(k, throwNo, o.throwNo)) return this.doubtUnless(k, throwNo)
      if (this.rethrown(k, o, throwNo, null, false)) return
      if (o.throwNo !== throwNo && o.status === 'cocked') o.rethrowOfCocked = true // its `rolling` was lost
      o.throwNo = throwNo
      o.doubtful = false
      o.status = 'cocked'
      o.face = null
    } else {
      if (throwNo !== k.throwNo && this.isPast(k, throwNo, k.throwNo)) return this.doubtUnless(k, throwNo)
      if (this.astray(k, null, false)) {
        this.saw(k, throwNo)
        return
      }
      if (this.isPast(k, throwNo, k.throwNo)) return
      this.open.set(k.key, { key: k.key, throwNo, status: 'cocked', face: null, before: k.face, flag: null })
    }
    this.saw(k, throwNo)
    k.face = null
  }

  /** A die handled by hand (never a roll). */
  moved(device: string, die: string, face: number | null): void {
    const k = this.die(device, die)
    const previous = k.face
    if (!k.inGame) {
      k.face = face
      return
    }
    const o = this.open.get(k.key)
    // A held die handled by hand must show its value (nudged, picked up: the same as thrown).
    if (!o && this.astray(k, face, false)) return
    if (o && this.strayHandled(k, face, false)) return
    k.face = face
    if (!o) {
      if (previous !== null && face !== previous && this.lastCounted.has(k.key) && !this.plan?.due) {
        this.notes.push(`${k.name} was turned from ${previous} to ${face ?? 'no clear face'} after its throw was counted as ${previous}: put it back on ${previous}`)
      }
      return
    }
    if (o.status === 'cocked') {
      // Nudged flat: that face counts.
      if (face !== null) {
        o.status = 'settled'
        o.face = face
      }
      return
    }
    if (this.tooMany() && face !== null && o.before !== null && face === o.before && o.status === 'settled') {
      // Put back on the face it showed before it was thrown: not part of the throw any more.
      this.open.delete(k.key)
      return
    }
    if (o.status === 'settled' && face !== o.face) {
      o.flag = `${k.name} was turned to ${face ?? 'no clear face'} after it settled on ${o.face}: ${o.face} counts`
      k.face = o.face
    } else if (o.status === 'rolling') {
      o.flag = `${k.name} was handled while it rolled`
    }
  }

  /**
   * One die of a state snapshot (`dstate`). With `baseline` (the first snapshot of a device) it only
   * learns faces and throw numbers; later, a throw number it did not know is a throw it missed.
   */
  snapshot(
    device: string,
    die: string,
    status: 'rolling' | 'settled' | 'cocked' | 'offline',
    throwNo: number | null,
    face: number | null,
    baseline: boolean
  ): void {
    const k = this.die(device, die)
    // By the device's own account the die made no throw since its boot, while the host knows one:
    // the device restarted unnoticed (its hello lost, the answer to `hello?` seemingly in sequence),
    // or the number came from noise. Either way the device's count wins: the die's numbers are
    // forgotten and it leaves the open throw. (Each die of the snapshot answers for itself, so one
    // line of noise cannot cancel the other dice's throw.)
    if (throwNo === null && k.throwNo !== null) {
      k.throwNo = null
      k.seen = []
      if (this.open.delete(k.key)) this.leftByRestart.push(k.name)
    }
    if (!k.inGame) {
      // Out of the game: only what it shows (a newer throw number is taken as it comes).
      if (throwNo !== null && (baseline || throwNo === k.throwNo || !this.isPast(k, throwNo, k.throwNo))) {
        this.saw(k, throwNo)
        if (status === 'settled' || (status === 'offline' && face !== null)) k.face = face
        else if (status !== 'offline') k.face = null
      } else if (throwNo === null && (status === 'settled' || (status === 'offline' && face !== null))) k.face = face
      return
    }
    if (baseline || status === 'offline' || throwNo === null) {
      if (baseline && throwNo !== null) this.saw(k, throwNo)
      if (status === 'settled' || (status === 'offline' && face !== null)) k.face = face
      return
    }
    let o = this.open.get(k.key)
    if (o?.doubtful) {
      // The hub says which throw the die is in: the open one, or another (the open one was noise).
      if (o.throwNo === throwNo) o.doubtful = false
      else {
        this.open.delete(k.key)
        o = undefined
      }
    }
    const ref = o ? o.throwNo : k.throwNo
    // The device's own account: only a throw already seen is old (a number the host took from a
    // line of noise must not hide the throw the device says it made).
    if (ref !== throwNo && k.seen.includes(throwNo)) return
    if (!o && k.throwNo === throwNo) {
      if (status === 'settled' && face !== k.face) this.moved(device, die, face)
      return
    }
    if (!o && k.throwNo !== throwNo && this.astray(k, status === 'settled' ? face : null, false)) {
      this.saw(k, throwNo)
      return
    }
    if (!o || o.throwNo !== throwNo) {
      // A throw (or a newer one) while its lines were lost.
      this.open.set(k.key, { key: k.key, throwNo, status: 'rolling', face: null, before: o ? o.before : k.face, flag: null })
      this.saw(k, throwNo)
    }
    if (status === 'settled' && face !== null) this.settled(device, die, throwNo, face)
    else if (status === 'cocked') this.cocked(device, die, throwNo)
  }

  /** Warnings about dice handled after their throw was counted, since the last call. */
  takeNotes(): string[] {
    const n = this.notes
    this.notes = []
    if (this.leftByRestart.length > 0) {
      const dice = this.leftByRestart
      this.leftByRestart = []
      const one = dice.length === 1
      n.push(`The hub says ${listNames(dice)} made no throw since it started (did it restart?): throw ${one ? 'it' : 'them'} again, or type the throw`)
    }
    return n
  }

  verdict(): ThrowVerdict {
    if (this.strays.size > 0) {
      const texts = this.strayDice().map((s) => s.text)
      const waiting = this.named() !== null ? ` The throw waits for ${listNames(this.named()!.map((key) => this.known.get(key)?.name ?? key))}.` : ''
      return { kind: 'problem', problem: 'wrong-die', text: `${texts.join('. ')}.${waiting}` }
    }
    if (this.open.size === 0) return { kind: 'idle' }
    const dice = this.sorted()
    const names = (ds: OpenDie[]): string[] => ds.map((d) => this.known.get(d.key)!.name)
    const due = this.rules.due
    if (due === 0) {
      const why = this.rules.blocked ?? 'No throw is due now: choose a decision first'
      return { kind: 'problem', problem: 'not-due', text: `${why} (${listNames(names(dice))} ${dice.length === 1 ? 'was' : 'were'} thrown and not counted)` }
    }
    if (due !== null && dice.length > due) {
      const was = dice.map((d) => `${this.known.get(d.key)!.name}${d.before !== null ? ` was ${d.before}` : ''}`)
      return {
        kind: 'problem',
        problem: 'too-many',
        text: `${diceWord(dice.length)} were thrown but ${diceWord(due)} ${due === 1 ? 'is' : 'are'} due: put the extra back on the face it showed (${was.join(', ')}), or type the throw`
      }
    }
    const cocked = dice.filter((d) => d.status === 'cocked')
    if (cocked.length > 0) {
      return {
        kind: 'problem',
        problem: 'cocked',
        text: `${listNames(names(cocked))} ${cocked.length === 1 ? 'is' : 'are'} cocked: throw ${cocked.length === 1 ? 'it' : 'them'} again, nudge ${cocked.length === 1 ? 'it' : 'them'} flat, or type the throw`
      }
    }
    const doubtful = dice.filter((d) => d.doubtful)
    if (doubtful.length > 0) return { kind: 'waiting', text: `Checking ${listNames(names(doubtful))} with the hub` }
    const settled = dice.filter((d) => d.status === 'settled')
    if (settled.length < dice.length || (due !== null && dice.length < due)) {
      const of = due === null ? dice.length : due
      return { kind: 'waiting', text: `${settled.length} of ${diceWord(of)} settled` }
    }
    return {
      kind: 'complete',
      values: dice.map((d) => d.face as number),
      keys: dice.map((d) => d.key),
      names: names(dice),
      flags: dice.flatMap((d) => (d.flag ? [d.flag] : []))
    }
  }

  private lastCounted = new Set<string>()

  /** The complete throw was taken (sent or shown): close it. */
  counted(): void {
    this.lastCounted = new Set(this.open.keys())
    this.open.clear()
  }

  /** The open throw for screens. */
  view(): ThrowView | null {
    if (this.open.size === 0 && this.strays.size === 0) return null
    const v = this.verdict()
    const dice = this.sorted().map((d) => {
      const k = this.known.get(d.key)!
      return { device: k.device, die: k.die, name: k.name, status: d.status, face: d.face, before: d.before, flag: d.flag }
    })
    return {
      due: this.rules.due,
      state: v.kind === 'problem' ? 'problem' : 'waiting',
      text: v.kind === 'problem' || v.kind === 'waiting' ? v.text : 'complete',
      dice
    }
  }

  /** A die out of the game: its throw number and face are followed, nothing opens. */
  private follow(k: KnownDie, throwNo: number, face: number | null): void {
    if (k.throwNo !== throwNo && this.isPast(k, throwNo, k.throwNo)) return // an older throw's line
    this.saw(k, throwNo)
    k.face = face
  }

  /**
   * Whether a line of a die belongs to a throw already seen: its latest (`latest`), one it carried
   * lately (the transport re-sends whole throws), or one just before the latest (a late line).
   * Any other number is a new throw. The hub's count wins over what the host believed: a line of
   * noise that passed every check and moved a die's number far away hides none of the hub's next
   * throws (comparing "newer" over half the wrapping range would hide up to 32,768 of them).
   */
  private isPast(k: KnownDie, throwNo: number, latest: number | null): boolean {
    if (k.seen.includes(throwNo)) return true
    if (latest === null) return false
    const behind = (((latest - throwNo) % 65536) + 65536) % 65536
    return behind <= LATE_THROWS
  }

  /** A line of a throw never seen was dropped as late: the device should be asked for a snapshot. */
  private doubtUnless(k: KnownDie, throwNo: number): void {
    if (k.seen.includes(throwNo)) return
    this.doubted = true
    const o = this.open.get(k.key)
    if (o) o.doubtful = true
  }

  /** Whether a line was dropped since the last call that the device's snapshot should settle. */
  takeDoubt(): boolean {
    const doubted = this.doubted
    this.doubted = false
    return doubted
  }

  /**
   * The die's latest throw number is `throwNo`. Numbers remembered ahead of it go: the device
   * counts forward, so they came from lines that were wrong (noise), and must not hide its throws
   * when it gets there.
   */
  private saw(k: KnownDie, throwNo: number): void {
    k.throwNo = throwNo
    if (k.seen[k.seen.length - 1] === throwNo) return
    k.seen = k.seen.filter((n) => {
      const ahead = (((n - throwNo) % 65536) + 65536) % 65536
      return ahead > 32768
    })
    k.seen.push(throwNo)
    if (k.seen.length > RECENT_THROWS_KEPT) k.seen.shift()
  }

  private tooMany(): boolean {
    return this.rules.due !== null && this.open.size > this.rules.due
  }

  private sorted(): OpenDie[] {
    const due = this.named()
    if (due) return [...this.open.values()].sort((a, b) => due.indexOf(a.key) - due.indexOf(b.key))
    return [...this.open.values()].sort((a, b) => this.known.get(a.key)!.order - this.known.get(b.key)!.order || (a.key < b.key ? -1 : 1))
  }

  private die(device: string, die: string): KnownDie {
    const key = dieKey(device, die)
    let k = this.known.get(key)
    if (!k) {
      k = { key, device, die, name: die, order: Number.MAX_SAFE_INTEGER, throwNo: null, seen: [], face: null, inGame: true }
      this.known.set(key, k)
    }
    return k
  }
}
