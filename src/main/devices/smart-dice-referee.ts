// The smart dice against the rules: which physical dice are due, which must stay (dice-plan.ts),
// which die each duellist throws, and the throw assembly (src/shared/devices.ts) that turns the
// dice's events into one complete throw, sent to the game table as the smart dice's move. It
// lights up the dice to throw, tells the table what is wrong with a throw, and follows the moves
// of every other source (a throw typed by hand stands for the dice that were due).
import type { CountedThrowView, SmartDiceView, SmartDieView, ThrowRules } from '@shared/devices'
import { dieKey, dieName, ThrowAssembler } from '@shared/devices'
import type { DeviceMessage } from '@shared/protocol'
import { EMPTY_PLAN, listNames, planDice, type DicePlan } from '@shared/dice-plan'
import { computerSeats, offerOf, type Game } from '@shared/game'
import type { GameTable, TableEvent } from '../core/game/game-table'
import type { MoveSource } from '../core/game/move-source'
import type { Notices } from '../core/screens/notices'
import { Signal } from '../core/signal'
import type { DeviceRegistry } from './device-registry'
import { deviceName, type DeviceEvent, type ManagedDevice } from './managed-device'

const SMART_DICE: MoveSource = { kind: 'smart-dice' }

export class SmartDiceReferee {
  /** What the screens show of the smart dice changed. */
  readonly changes = new Signal()
  private readonly assembler = new ThrowAssembler()
  private testModeOn = false
  private lastCounted: CountedThrowView | null = null
  private lastProblem: string | null = null
  /** The value of the throw in play each smart die holds, by die key (what the record says it shows). */
  private table = new Map<string, number>()
  /** Die of each duellist for the duel in play. */
  private readonly duelDice = new Map<number, string>()
  /** The plan for the record as it stands (the assembler keeps a copy it may adjust). */
  private plan: DicePlan = EMPTY_PLAN
  private lastBlink = ''
  private readonly unsubscribe: (() => void)[]

  constructor(
    private readonly registry: DeviceRegistry,
    private readonly game: GameTable,
    private readonly notices: Notices,
    private readonly now: () => number = Date.now
  ) {
    this.unsubscribe = [registry.events.subscribe((event) => this.onDeviceEvent(event)), game.subscribe((event) => this.onTableEvent(event))]
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribe) unsubscribe()
  }

  get testMode(): boolean {
    return this.testModeOn
  }

  get assembling(): ReturnType<ThrowAssembler['view']> {
    return this.assembler.view()
  }

  get lastThrow(): CountedThrowView | null {
    return this.lastCounted
  }

  setTestMode(on: boolean): void {
    this.testModeOn = on
    this.assembler.clear()
    this.replan()
    this.lastProblem = null
    this.notices.post(on ? 'Dice test mode: throws are shown, not counted' : 'Dice test mode off: throws count again', 'info')
  }

  private onDeviceEvent(event: DeviceEvent): void {
    switch (event.type) {
      case 'hello':
        return this.onHello(event.device, event.fresh, event.left)
      case 'in-game': {
        const serial = event.device.hello!.serial
        this.assembler.setInGame(serial, event.die.id, event.die.inGame)
        // Out of the open throw: what is left may be complete now (or show another problem).
        this.replan()
        this.evaluate()
        return
      }
      case 'gone': {
        const name = dieName(event.die.id, event.die.colour, event.die.label)
        const during = this.assembler.isThrown(dieKey(event.device.id, event.die.id))
        this.notices.post(
          during
            ? `Die ${name} dropped out during the throw: type the throw on the keypad (it reconnects by itself when it comes back)`
            : `Die ${name} dropped out: it reconnects by itself when it comes back`,
          'warning'
        )
        return
      }
      case 'message':
        return this.onMessage(event.device, event.message)
    }
  }

  private onHello(device: ManagedDevice, fresh: boolean, left: string[]): void {
    const serial = device.hello!.serial
    const rethrow = fresh ? this.assembler.restarted(serial) : []
    for (const id of left) this.assembler.forget(serial, id)
    let index = 0
    for (const die of device.dice.values()) {
      this.assembler.register(serial, die.id, device.order * 1000 + index++, dieName(die.id, die.colour, die.label))
      this.assembler.setInGame(serial, die.id, die.inGame)
    }
    if (rethrow.length > 0) {
      const them = rethrow.length === 1 ? `die ${rethrow[0]}` : `dice ${listNames(rethrow)}`
      this.notices.post(`${deviceName(device)} restarted during a throw: throw ${them} again, or type the throw`, 'warning')
    }
    this.replan()
  }

  private onMessage(device: ManagedDevice, m: DeviceMessage): void {
    const serial = device.id
    switch (m.type) {
      case 'rolling':
        this.assembler.rolling(serial, m.die, m.throw)
        this.askIfDoubted(device)
        if (!this.assembler.isInGame(serial, m.die)) return this.outOfGame(device, m.die)
        return this.evaluate()
      case 'settled':
        this.assembler.settled(serial, m.die, m.throw, m.face)
        this.askIfDoubted(device)
        return this.evaluate()
      case 'cocked':
        this.assembler.cocked(serial, m.die, m.throw)
        this.askIfDoubted(device)
        return this.evaluate()
      case 'moved':
        this.assembler.moved(serial, m.die, m.face)
        return this.evaluate()
      case 'dstate':
        this.assembler.snapshot(serial, m.die, m.status, m.throw, m.face, device.snapshotBaseline)
        return this.evaluate()
      default:
        return
    }
  }

  /** A line was dropped as late though its throw was never seen: the device's snapshot settles it. */
  private askIfDoubted(device: ManagedDevice): void {
    if (this.assembler.takeDoubt()) device.conn?.requestSnapshot()
  }

  private rules(): ThrowRules {
    if (this.testModeOn) return { due: null }
    const game = this.game.current
    if (!game) return { due: 0, blocked: 'Start a game first' }
    const offer = offerOf(game)
    if (offer.finished) return { due: 0, blocked: 'The game is over' }
    if (this.plan.virtual !== null) return { due: 0, blocked: this.plan.virtual }
    return { due: offer.diceDue }
  }

  private evaluate(): void {
    this.assembler.setRules(this.rules())
    const verdict = this.assembler.verdict()
    for (const note of this.assembler.takeNotes()) this.notices.post(note, 'warning')
    if (verdict.kind === 'complete') {
      this.assembler.counted()
      this.lastProblem = null
      this.lastCounted = { values: verdict.values, dice: verdict.names, at: this.now(), sent: !this.testModeOn, flags: verdict.flags }
      if (this.testModeOn) {
        this.notices.post(`Test throw: ${verdict.values.join(' ')} (${verdict.names.join(', ')}), not counted`, 'info')
        return
      }
      const held = this.assembler.currentPlan?.held ?? new Map()
      const outcome = this.game.submit({ roll: verdict.values }, SMART_DICE)
      if (!outcome.ok) {
        this.notices.post(outcome.error, 'error')
        return
      }
      // The dice of the throw in play: those that stayed, and those just thrown.
      this.table = new Map([...held].map(([key, h]) => [key, h.value]))
      verdict.keys.forEach((key, i) => this.table.set(key, verdict.values[i]))
      this.replan()
      if (verdict.flags.length > 0) this.notices.post(verdict.flags.join('. '), 'warning')
      return
    }
    if (verdict.kind === 'problem') {
      if (verdict.text !== this.lastProblem) {
        this.lastProblem = verdict.text
        this.notices.post(verdict.text, 'warning')
        return
      }
    } else this.lastProblem = null
    this.changes.emit()
  }

  /** A die out of the game rolled: a quiet note, unless a problem with the throw is being shown. */
  private outOfGame(device: ManagedDevice, dieId: string): void {
    const die = device.dice.get(dieId)
    if (this.lastProblem === null) {
      this.notices.post(`Die ${dieName(dieId, die?.colour ?? null, die?.label ?? '')} is not in the game: its throw does not count`, 'info')
    } else this.changes.emit()
  }

  private onTableEvent(event: TableEvent): void {
    if (event.type === 'archived') return
    // The smart dice's own throw: the table was set when it was taken (see evaluate).
    if (event.type === 'moved' && event.source.kind === 'smart-dice') return
    // Someone else moved: a decision keeps the open throw (dice thrown before it was entered); a
    // throw typed by hand, an undo or another game clears it.
    const move = event.type === 'moved' ? event.move : null
    if (!move || 'roll' in move) {
      this.assembler.clear()
      this.lastProblem = null
      if (event.type === 'moved' && move && 'roll' in move && this.plan.virtual === null) this.typedThrow(move.roll, event.game, event.redone ? 'Redone' : howEntered(event.source))
      else this.table.clear()
    }
    this.replan()
    if (this.assembler.isOpen) queueMicrotask(() => this.evaluate())
  }

  /**
   * A throw entered by keypad, screen or virtual dice while smart dice are in the game: the values
   * stand for the dice that were due (the record is the override), and the table is told.
   */
  private typedThrow(values: number[], game: Game, how: string): void {
    const due = this.plan.due
    const held = this.assembler.currentPlan?.held ?? this.plan.held
    this.table = new Map([...held].map(([key, h]) => [key, h.value]))
    if (!due || due.length !== values.length || due.length === 0) {
      this.table.clear()
      return
    }
    due.forEach((key, i) => this.table.set(key, values[i]))
    const names = due.map((key) => this.registry.dieNameOf(key))
    queueMicrotask(() => {
      // Unless the throw was taken back meanwhile (the disk failed it): its refusal stays the message.
      if (this.game.current !== game) return
      this.notices.post(`${how}: ${values.join(' ')} in place of ${listNames(names)} (the smart dice are not read for this throw)`, 'info')
    })
  }

  /** Works out again which dice are due and which hold their values (the record or the dice changed). */
  replan(): void {
    const game = this.game.current
    const dice = this.registry.gameDice().map((d) => dieKey(d.device, d.die))
    if (this.testModeOn || !game || dice.length === 0) {
      this.plan = EMPTY_PLAN
      this.assembler.setPlan(null)
      return
    }
    const faces = new Map(dice.map((key) => [key, this.assembler.faceOf(key)]))
    const names = new Map(dice.map((key) => [key, this.registry.dieNameOf(key)]))
    this.plan = planDice({ game, dice, table: this.table, faces, computers: computerSeats(game), duelDice: this.duelDice, names })
    this.assembler.setPlan(this.plan)
    this.blinkDue()
  }

  /**
   * Lights up the dice that must be thrown (the protocol's blink), once per new set of dice; not
   * when every die is due (nothing to find).
   */
  private blinkDue(): void {
    const all = this.registry.gameDice().length
    const due = this.plan.count > 0 && this.plan.due && this.plan.due.length < all ? this.plan.due : null
    const mark = due ? due.join(',') + `#${this.game.current?.moves.length ?? 0}` : ''
    if (mark === this.lastBlink) return
    this.lastBlink = mark
    if (due) for (const key of due) this.registry.blink(key)
  }

  /** The smart dice against the record, for every screen (null without smart dice in the game). */
  view(): SmartDiceView | null {
    const game = this.game.current
    if (!game || this.testModeOn) return null
    const inGame = this.registry.devices.flatMap((d) =>
      d.hello && d.state !== 'refused' ? [...d.dice.values()].filter((die) => die.inGame).map((die) => ({ serial: d.hello!.serial, die })) : []
    )
    if (inGame.length === 0) return null
    const plan = this.assembler.currentPlan ?? this.plan
    const due = plan.count > 0 ? plan.due : null
    const strays = new Map(this.assembler.strayDice().map((s) => [s.key, s]))
    const dice: SmartDieView[] = inGame.map(({ serial, die }) => {
      const key = dieKey(serial, die.id)
      const held = plan.held.get(key)
      return {
        device: serial,
        die: die.id,
        name: dieName(die.id, die.colour, die.label),
        colour: die.colour,
        role: due?.includes(key) ? 'throw' : held ? 'hold' : 'idle',
        record: held?.value ?? plan.replacing.get(key) ?? null,
        face: die.status === 'settled' ? die.face : null,
        seat: plan.seats.get(key) ?? null,
        agrees: !strays.has(key)
      }
    })
    const players = game.header.players
    let toThrow = ''
    if (plan.virtual === null && plan.count > 0) {
      if (due && plan.seats.size > 0) toThrow = listNames(due.map((key) => `${players[plan.seats.get(key)!]} throws ${this.registry.dieNameOf(key)}`))
      else if (due) toThrow = `Throw ${listNames(due.map((key) => this.registry.dieNameOf(key)))}`
      else toThrow = unnamedThrow(plan.count, inGame.length, plan.held.size)
    }
    const disagreements = [...strays.values()].map((s) => s.text)
    const verdict = this.assembler.verdict()
    if (verdict.kind === 'problem' && verdict.problem === 'not-due') disagreements.push(verdict.text)
    return { toThrow, dice, disagreements, note: plan.virtual }
  }
}

/** How a throw that stands for the smart dice was entered, in the words of their message. */
function howEntered(source: MoveSource): string {
  if (source.kind === 'virtual') return 'Rolled with virtual dice'
  if (source.kind === 'camera') return source.by === 'camera' ? 'Read by the camera' : 'Corrected by hand'
  return 'Entered by hand'
}

/**
 * The dice to throw when they cannot be named: more smart dice are free than are due (any of them),
 * or fewer (a hub of 4 dice under a game of 6), when the throw must be typed.
 */
function unnamedThrow(due: number, inGame: number, held: number): string {
  const free = inGame - held
  const dice = (count: number): string => (count === 1 ? '1 die' : `${count} dice`)
  if (due > free) {
    const why = held === 0 ? `only ${inGame} smart ${inGame === 1 ? 'die is' : 'dice are'} in the game` : `only ${free} of the smart dice ${free === 1 ? 'is' : 'are'} free`
    return `Throw ${dice(due)} and type the throw on the keypad: ${why}`
  }
  if (free > due) return `Throw any ${due} of the ${free} ${held === 0 ? 'smart' : 'free'} dice`
  return `Throw any ${dice(due)}`
}
