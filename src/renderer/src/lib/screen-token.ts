// The token this screen got when it paired with the host's code (a phone used as the keypad): kept
// in its localStorage and sent when it connects, so it stays paired across reloads and host
// restarts until the host withdraws it.
const KEY = 'dice-referee.screen-token'

export function savedScreenToken(): string | null {
  try {
    return globalThis.localStorage?.getItem(KEY) ?? null
  } catch {
    return null
  }
}

export function saveScreenToken(token: string | null): void {
  try {
    if (token === null) globalThis.localStorage?.removeItem(KEY)
    else globalThis.localStorage?.setItem(KEY, token)
  } catch {
    // A browser that keeps nothing: the screen pairs again after a reload.
  }
}

/** What this screen calls itself when it pairs, for the host's list ("Phone (Android)"). */
export function screenName(userAgent: string): string {
  if (/iPhone/.test(userAgent)) return 'iPhone'
  if (/iPad/.test(userAgent)) return 'iPad'
  if (/Android/.test(userAgent)) return /Mobile/.test(userAgent) ? 'Phone (Android)' : 'Tablet (Android)'
  if (/Windows/.test(userAgent)) return 'Browser on Windows'
  if (/Macintosh/.test(userAgent)) return 'Browser on a Mac'
  if (/Linux/.test(userAgent)) return 'Browser on Linux'
  return 'A screen'
}
