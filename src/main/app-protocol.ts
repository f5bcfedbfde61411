// The screens come from app://dice-referee/, a privileged scheme of the app's own, not file://: a
// page there has an origin of its own (file:// pages share one, and may read any file), the
// IPC sender check can match that exact origin, and every response carries the CSP header.
import { protocol, type IpcMainInvokeEvent } from 'electron'
import { readFile } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'
import type { SharingView } from '@shared/api'
import { contentSecurityPolicyFor } from '@shared/content-security-policy'
import { isScreenPath, leaguePageAddress, SCREEN_PATHS } from '@shared/screen-paths'
import { CONTENT_TYPES } from './core/screens/content-types'

export const APP_SCHEME = 'app'
export const APP_HOST = 'dice-referee'
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`

/** Must run before the app is ready. `standard` gives the pages a real origin; `secure` lets them use what https pages may. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }])
}

/** Serves the built renderer at app://dice-referee/. */
export function serveAppScheme(rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => appResponse(rendererDir, request.url))
}

/** The address of a screen: the control app or the TV's scoreboard (the renderer's router reads the path). */
export function appUrl(view: 'app' | 'scoreboard'): string {
  return `${APP_ORIGIN}${view === 'scoreboard' ? SCREEN_PATHS.scoreboard : SCREEN_PATHS.home}`
}

/** A file of the built renderer (index.html for a screen's address), or 404 for anything outside it. */
export async function appResponse(rendererDir: string, url: string): Promise<Response> {
  const notFound = (): Response => new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } })
  let pathname: string
  let screen: boolean
  try {
    const parsed = new URL(url)
    if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return notFound()
    screen = isScreenPath(parsed.pathname)
    pathname = decodeURIComponent(parsed.pathname)
  } catch {
    return notFound()
  }
  const relative = screen ? 'index.html' : normalize(pathname).replace(/^[/\\]+/, '')
  const path = join(rendererDir, relative)
  if (!path.startsWith(rendererDir + sep)) return notFound()
  let body: Buffer
  try {
    body = await readFile(path)
  } catch {
    return notFound()
  }
  return new Response(new Uint8Array(body), {
    headers: {
      'content-type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
      'content-security-policy': contentSecurityPolicyFor(relative),
      'x-content-type-options': 'nosniff'
    }
  })
}

/**
 * Whether an IPC message comes from the main frame of one of the app's own screens: the exact
 * origin app://dice-referee, or, in development only, the electron-vite dev server's origin.
 */
export function isFromAppMainFrame(event: Pick<IpcMainInvokeEvent, 'senderFrame'>, devServerUrl: string | null): boolean {
  const frame = event.senderFrame
  if (!frame || frame.parent !== null) return false
  let url: URL
  try {
    url = new URL(frame.url)
  } catch {
    return false
  }
  if (url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST) return true
  return devServerUrl !== null && (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === new URL(devServerUrl).origin
}

/** Whether an address is of the app's own pages: app://dice-referee, or, in development only, the dev server's. */
function isOwnPage(address: string | undefined, devServerUrl: string | null): boolean {
  let url: URL
  try {
    url = new URL(address ?? '')
  } catch {
    return false
  }
  if (url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST) return true
  return devServerUrl !== null && (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === new URL(devServerUrl).origin
}

/**
 * The one permission the screens get: a camera (video only, no microphone) for the app's own
 * pages, which read the dice tray with it (docs/camera.md). Everything else is refused.
 */
export function mayUseCamera(permission: string, pageAddress: string | undefined, mediaTypes: readonly string[] | undefined, devServerUrl: string | null): boolean {
  if (permission !== 'media') return false
  if (!mediaTypes || mediaTypes.length === 0 || mediaTypes.some((type) => type !== 'video')) return false
  return isOwnPage(pageAddress, devServerUrl)
}

/**
 * The allow-list of shell.openExternal: the addresses this table itself shares on the LAN (the
 * scoreboard for a TV), exactly as offered while sharing is on, and the page of the league this
 * computer hosts (`http://127.0.0.1:PORT/_league/`, as the League panel links it) while it hosts
 * one. Nothing else leaves the app.
 */
export function mayOpenInBrowser(url: string, sharing: Pick<SharingView, 'enabled' | 'urls'> | null, hostedLeaguePort: number | null = null): boolean {
  if (!/^https?:\/\//.test(url)) return false
  if (hostedLeaguePort !== null && url === leaguePageAddress('127.0.0.1', hostedLeaguePort)) return true
  return sharing?.enabled === true && sharing.urls.includes(url)
}
