// How the headless host stops on SIGINT (Ctrl+C) and SIGTERM (a service manager, a test).
//
// Node's default for both signals kills the process outright: no 'exit' listeners run, so the
// data folder's lock file stays behind naming a dead process. The host therefore listens for them
// from before it takes the folder (in the same tick: no signal can be handled in between), not
// after it has started: a signal that arrived while it started, or in the moment between it
// printing its address and installing handlers after that, used to kill it by the signal.
//
// A stop stops what the host has started so far, newest first, and exits with 0 (1 if a part
// failed or did not stop in time); exiting releases the data lock (see data-lock.ts). A stop while
// the host is still starting also aborts what it is waiting for (the screens' build), and the
// start goes no further (see `requested`). A second signal while stopping changes nothing: `npm run
// table` passes Ctrl+C on to the host, which the terminal has already sent it.
import { log } from '@main/core/files/log'

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const
/** A part that has not stopped by then is left to the process's exit. */
const STOP_TIMEOUT_MS = 5_000

interface Part {
  name: string
  stop: () => void | Promise<void>
}

export class Shutdown {
  private readonly parts: Part[] = []
  private readonly aborter = new AbortController()
  private stopping = false

  constructor() {
    for (const signal of STOP_SIGNALS) process.on(signal, this.onSignal)
  }

  /** Whether a stop has begun: the start goes no further. */
  get requested(): boolean {
    return this.stopping
  }

  /** Aborted when a stop begins, for what the start waits for. */
  get signal(): AbortSignal {
    return this.aborter.signal
  }

  /** A part that has started, to stop on shutdown (after the parts started later). */
  add(name: string, stop: () => void | Promise<void>): void {
    this.parts.push({ name, stop })
  }

  private readonly onSignal = (signal: NodeJS.Signals): void => {
    if (this.stopping) return
    this.stopping = true
    log.info({ signal }, 'headless host stopping')
    this.aborter.abort()
    const timer = setTimeout(() => {
      process.stderr.write(`table: did not stop within ${STOP_TIMEOUT_MS / 1000} s; exiting anyway\n`)
      process.exit(1)
    }, STOP_TIMEOUT_MS)
    void this.stopParts().then((ok) => {
      clearTimeout(timer)
      process.exit(ok ? 0 : 1)
    })
  }

  private async stopParts(): Promise<boolean> {
    let ok = true
    for (const part of [...this.parts].reverse()) {
      try {
        await part.stop()
      } catch (error) {
        ok = false
        log.error({ err: error, part: part.name }, 'a part of the host could not be stopped')
        process.stderr.write(`table: ${part.name} could not be stopped: ${(error as Error).message}\n`)
      }
    }
    return ok
  }
}
