// Which screens on the LAN may enter dice: those that brought the pairing code shown on the host
// once. A screen that pairs gets a token of its own, kept by the screen, and is trusted with it
// across reconnects and host restarts until the host withdraws it (paired-screens.json in the
// data folder keeps only a hash of each token).
//
// Guessing the code is made useless without ever refusing the right one: the code has 8 digits
// (10^8 codes), an address gets 5 answers at once and then one every 10 seconds (the right code
// included: the people at the table wait at most that), and every 500 wrong codes in all bring a
// new code. A trusted screen's reconnects are no guesses.
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import { join } from 'node:path'
import * as v from 'valibot'
import type { Outcome, PairedScreenView } from '@shared/api'
import { readOwnedFile, writeOwnedFile } from '../files/owned-files'
import { Signal } from '../signal'

export const PAIRING_CODE_DIGITS = 8
/** Wrong codes an address gets answered at once; then one answer every SLOW_ANSWER_MS. */
const QUICK_TRIES = 5
const SLOW_ANSWER_MS = 10_000
/** Wrong codes in all after which the code changes. */
const NEW_CODE_AFTER = 500
const MAX_PAIRED = 64
const FILE = 'paired-screens.json'

const pairedScreen = v.object({
  id: v.pipe(v.string(), v.regex(/^[a-f0-9]{16}$/)),
  name: v.pipe(v.string(), v.maxLength(60)),
  tokenHash: v.pipe(v.string(), v.regex(/^[a-f0-9]{64}$/)),
  pairedAt: v.number(),
  lastSeenAt: v.number()
})
const pairedScreensFile = v.object({ screens: v.pipe(v.array(pairedScreen), v.maxLength(MAX_PAIRED)) })
type PairedScreen = v.InferOutput<typeof pairedScreen>

interface Tries {
  wrong: number
  /** When this address may next be answered. */
  nextAnswerAt: number
  /** The answer it is waiting for (one at a time per address). */
  waiting: Promise<unknown> | null
}

export class Pairing {
  private code: string
  private screens: PairedScreen[] = []
  private readonly tries = new Map<string, Tries>()
  private wrongInAll = 0
  private readonly path: string
  /** The code or the paired screens changed (the host's screens show them). */
  readonly changes = new Signal()
  /** A screen's pairing was withdrawn: its connections must stop being trusted. */
  readonly withdrawn = new Signal<string>()
  /** What went wrong reading the paired screens' file, for the screens; null when nothing did. */
  readonly problem: string | null = null

  constructor(
    dataDir: string,
    private readonly now: () => number = Date.now,
    private readonly wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref()),
    /** The data folder is not this process's to write: pairings last until it stops. */
    private readonly readOnly = false
  ) {
    this.path = join(dataDir, FILE)
    this.code = newCode()
    const file = readOwnedFile(this.path, pairedScreensFile, now, !readOnly)
    if (file.state === 'read') this.screens = file.value.screens
    if (file.state === 'damaged') this.problem = `${file.problem} Paired phones pair again with the code.`
  }

  get pairingCode(): string {
    return this.code
  }

  /** Shows a new code (the old one pairs no more screens; paired ones stay paired). */
  renewCode(): void {
    this.code = newCode()
    this.tries.clear()
    this.changes.emit()
  }

  /** The screens paired, newest first, with whether one is connected now. */
  view(connected: ReadonlySet<string>): PairedScreenView[] {
    return [...this.screens]
      .sort((a, b) => b.pairedAt - a.pairedAt)
      .map((screen) => ({ id: screen.id, name: screen.name, pairedAt: screen.pairedAt, lastSeenAt: screen.lastSeenAt, connected: connected.has(screen.id) }))
  }

  /**
   * A screen tries the code from `address`. Right: it is paired and gets its token. An address's
   * answers come at once for its first tries, then one every 10 s (wrong or right).
   */
  async tryCode(code: string, address: string, name: string): Promise<Outcome<{ token: string; screen: string }>> {
    const tries = this.triesOf(address)
    while (tries.waiting) await tries.waiting
    const delay = tries.nextAnswerAt - this.now()
    if (delay > 0) {
      tries.waiting = this.wait(delay)
      await tries.waiting
      tries.waiting = null
    }
    if (!sameText(code.replace(/\s/g, ''), this.code)) {
      tries.wrong++
      this.wrongInAll++
      if (tries.wrong >= QUICK_TRIES) tries.nextAnswerAt = this.now() + SLOW_ANSWER_MS
      if (this.wrongInAll % NEW_CODE_AFTER === 0) this.renewCode()
      const left = QUICK_TRIES - tries.wrong
      return {
        ok: false,
        error:
          left > 0
            ? `Wrong code: check the ${PAIRING_CODE_DIGITS} digits shown on the host computer (${left} more ${left === 1 ? 'try' : 'tries'} at once, then one every 10 seconds)`
            : 'Wrong code: check the digits shown on the host computer (one try every 10 seconds from this screen now)'
      }
    }
    this.tries.delete(address)
    const token = randomBytes(32).toString('base64url')
    const screen: PairedScreen = {
      id: randomBytes(8).toString('hex'),
      name: name.trim().slice(0, 60) || 'A screen',
      tokenHash: hashOf(token),
      pairedAt: this.now(),
      lastSeenAt: this.now()
    }
    // The oldest pairing goes when there are too many (a screen paired again and again).
    this.screens = [...this.screens, screen].slice(-MAX_PAIRED)
    this.save()
    this.changes.emit()
    return { ok: true, token, screen: screen.id }
  }

  /** The paired screen a token belongs to (its id), or null. Never counted as a guess. */
  trusted(token: string): string | null {
    const hash = hashOf(token)
    const screen = this.screens.find((candidate) => sameText(candidate.tokenHash, hash))
    if (!screen) return null
    screen.lastSeenAt = this.now()
    this.saveQuietly()
    return screen.id
  }

  /** Withdraws a screen's pairing (the host's revoke): it can only watch from now on. */
  withdraw(id: string): Outcome {
    const screen = this.screens.find((candidate) => candidate.id === id)
    if (!screen) return { ok: false, error: 'No such paired screen' }
    this.screens = this.screens.filter((candidate) => candidate !== screen)
    this.save()
    this.withdrawn.emit(id)
    this.changes.emit()
    return { ok: true }
  }

  private triesOf(address: string): Tries {
    let tries = this.tries.get(address)
    if (!tries) {
      tries = { wrong: 0, nextAnswerAt: 0, waiting: null }
      this.tries.set(address, tries)
    }
    return tries
  }

  private save(): void {
    if (!this.readOnly) writeOwnedFile(this.path, { screens: this.screens })
  }

  /** When a screen was last seen is a courtesy: a disk that refuses it changes nothing. */
  private saveQuietly(): void {
    try {
      this.save()
    } catch {
      // See above.
    }
  }
}

function newCode(): string {
  return String(randomInt(0, 10 ** PAIRING_CODE_DIGITS)).padStart(PAIRING_CODE_DIGITS, '0')
}

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** Compares in constant time, so that the time taken does not tell how much of it was right. */
function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && b.length > 0 && timingSafeEqual(a, b)
}
