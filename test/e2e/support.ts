// Runs the real headless host (`npm run table`'s entry) as a child process and drives Debian's
// Chromium against it with playwright-core. The screens it serves are the app's electron-vite
// build, made once for the whole run by ./global-setup.ts.
import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { ROOT } from '@test/kit/root'
import { HOST_ENTRY, spawnHost } from '@test/kit/host'
import { launchBrowser } from '@test/kit/browser'
import type { ScreenClient } from '@test/kit/screen-client'

export { ROOT }
export const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots')
export { HOST_ENTRY, launchBrowser }

export interface RunningHost {
  url: string
  process: ChildProcess
  output: () => string
  stop: (signal?: NodeJS.Signals) => Promise<void>
}

/** Starts the host (test/kit/host.ts) and resolves once it prints its address; a host that has not in 60 s is stopped. */
export async function startHost(dataDir: string, port = 0, extraArguments: string[] = []): Promise<RunningHost> {
  const host = spawnHost(dataDir, { port, extraArguments })
  const timer = setTimeout(() => void host.stop('SIGKILL'), 60_000)
  try {
    const url = await host.ready
    return { url, process: host.child, output: host.output, stop: host.stop }
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Resolves once the page shows what it will go on showing: what it loads from the host come, its
 * fonts loaded, and every animation and transition that comes to an end (not a spinner's) ended. It looks from the frame after next,
 * so that what the last change set off has begun. For screenshots and layout checks.
 */
export async function settled(page: Page): Promise<void> {
  // What a screen loads from the host after it shows (a score chart) marks itself until it comes.
  await page.waitForFunction(() => document.querySelector('[data-loading]') === null)
  await page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
    await document.fonts.ready
    const ending = document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
    await Promise.all(ending.map((animation) => animation.finished.catch(() => undefined)))
  })
}

/** What the TV showed when it drew one state: its banner ('' for none), whether the banner was on its way out, and the throw's caption. */
export interface TvDrawn {
  banner: string
  leaving: boolean
  caption: string
}

/**
 * Notes, in the TV's page, what it showed at each state it drew (by the state's version), and
 * every banner it put up. A banner goes by itself after a few seconds: the tests read what was
 * shown whenever they look, however busy the machine. Call once the scoreboard is on the page.
 */
export async function recordTv(page: Page): Promise<void> {
  await page.evaluate(() => {
    const board = document.querySelector('[data-testid=scoreboard]')
    if (!board) throw new Error('no scoreboard on the page')
    const drawn: Record<string, { banner: string; leaving: boolean; caption: string }> = {}
    const banners: string[] = []
    const note = (): void => {
      const banner = document.querySelector('[data-testid=announcement]')
      const text = banner?.textContent?.trim() ?? ''
      const leaving = banner?.classList.contains('is-leaving') ?? false
      const version = board.getAttribute('data-version') ?? '-1'
      drawn[version] ??= { banner: text, leaving, caption: document.querySelector('[data-testid=throw-caption]')?.textContent?.trim() ?? '' }
      if (text !== '' && !leaving && banners.at(-1) !== text) banners.push(text)
    }
    // Called after each render (Vue patches the page for a state in one go).
    new MutationObserver(note).observe(board, { subtree: true, childList: true, attributes: true, characterData: true })
    note()
    Object.assign(window, { tvDrawn: drawn, tvBanners: banners })
  })
}

/**
 * What the TV showed when it first drew a state newer than `version` (once it has): the state a
 * change made after `version` (the TV is pushed only what changes on it, so not every version).
 */
export function tvDrawnAfter(page: Page, version: number): Promise<(TvDrawn & { version: number }) | undefined> {
  return page.evaluate((after) => {
    const drawn = (window as unknown as { tvDrawn: Record<string, TvDrawn> }).tvDrawn
    const first = Object.keys(drawn)
      .map(Number)
      .filter((version) => version > after)
      .sort((a, b) => a - b)[0]
    return first === undefined ? undefined : { ...drawn[first], version: first }
  }, version)
}

/** Every banner the TV has put up since recordTv, in order. */
export function tvBanners(page: Page): Promise<string[]> {
  return page.evaluate(() => [...(window as unknown as { tvBanners: string[] }).tvBanners])
}

/** What a test file's hooks keep: one browser, and the hosts and clients its tests start. */
export interface BrowserAndHosts {
  readonly browser: Browser
  /** A host to stop after the file's tests. */
  keep(host: RunningHost): RunningHost
  /** A client to close after the file's tests. */
  keep(client: ScreenClient): ScreenClient
}

/** Launches one browser before the file's tests; after them closes it, the clients kept and stops the hosts kept. */
export function useBrowserAndHosts(): BrowserAndHosts {
  let browser: Browser | null = null
  const hosts: RunningHost[] = []
  const clients: ScreenClient[] = []
  beforeAll(async () => {
    browser = await launchBrowser()
  }, 120_000)
  afterAll(async () => {
    for (const client of clients) client.close()
    await browser?.close()
    for (const running of hosts) await running.stop()
  })
  function keep(host: RunningHost): RunningHost
  function keep(client: ScreenClient): ScreenClient
  function keep(kept: RunningHost | ScreenClient): RunningHost | ScreenClient {
    if ('stop' in kept) hosts.push(kept)
    else clients.push(kept)
    return kept
  }
  return {
    get browser(): Browser {
      if (!browser) throw new Error('the browser starts before the tests')
      return browser
    },
    keep
  }
}
