// Waiting in tests on what they wait for, never on a guess at how long it takes.
import { vi } from 'vitest'

/**
 * Waits until `check` passes (returns, or stops throwing), looking again every few milliseconds:
 * a wait on what the test waits for, never a guess at how long it takes. The limit is only there
 * to end a test that would wait for ever, and is far above what a busy machine needs.
 */
export function waitUntil<T>(check: () => T | Promise<T>, limitMs = 15_000): Promise<T> {
  return vi.waitFor(check, { timeout: limitMs, interval: 5 })
}

