// Serves the renderer and the table API over HTTP + WebSocket: the headless host's whole
// transport, and LAN sharing for the desktop app. Loopback is always served; LAN addresses only
// while sharing is on. LAN screens watch; entering dice from one needs the host's pairing code.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { networkInterfaces } from 'node:os'
import type { Duplex } from 'node:stream'
import { extname, join, normalize, sep } from 'node:path'
import { WebSocketServer, type WebSocket } from 'ws'
import type { Outcome, ScreenTrust } from '@shared/api'
import type { WireReply } from '@shared/api-methods'
import { contentSecurityPolicyFor } from '@shared/content-security-policy'
import { isScreenPath } from '@shared/screen-paths'
import { jsonNesting } from '@shared/json-limits'
import { CONTENT_TYPES } from './content-types'
import { log } from '../files/log'
import type { Pairing } from './pairing'
import type { Notices } from './notices'
import type { Screen, ScreenRole } from './screen'
import type { ScreenViews } from './screen-views'
import type { Screens } from './screens'
import type { SharingState } from './sharing-state'
import { ShownState, tvFirst } from './state-push'

/** What the server serves: the screens' states and their requests. */
export interface ServedTable {
  views: Pick<ScreenViews, 'subscribe' | 'stateFor'>
  screens: Pick<Screens, 'open' | 'close'>
  notices: Pick<Notices, 'post'>
  /** Answers a request of a screen (the dispatcher, with every check). */
  answer(screen: Screen, method: string, args: unknown[]): Promise<unknown>
}

export interface TableServerOptions {
  table: ServedTable
  /** Where the server says whether (and how) the table is shared on the LAN. */
  sharing: SharingState
  /** Which LAN screens may enter dice. */
  pairing: Pairing
  /** The built renderer (index.html and its assets). */
  rendererDir: string
  port: number
  /** Loopback address served always. */
  host?: string
  /** Addresses LAN sharing listens on; by default this machine's non-internal IPv4 addresses. */
  lanAddresses?: () => string[]
  /** More pages served before the renderer's files (a joined league's, src/main/league); true when answered. */
  routes?: (request: IncomingMessage, response: ServerResponse) => boolean
  /**
   * The LAN addresses are served over HTTPS with this key and certificate (certificate.ts): a
   * phone's browser gives only a secure page its camera. Loopback stays HTTP (a secure page
   * already). None: the LAN is served over HTTP.
   */
  lanTls?: (addresses: string[]) => Promise<{ key: string; cert: string }>
}

const MAX_MESSAGE_BYTES = 21 * 1024 * 1024
/** A screen that may only watch sends small requests; it is never let near an import's size. */
const MAX_VIEWER_MESSAGE_BYTES = 64 * 1024
/** How deeply a request may nest, checked on its text before it is parsed (requests nest 4 levels). */
const MAX_REQUEST_NESTING = 32
/**
 * What one screen may leave unread (a state push is tens of kB): past it, the screen reads too
 * slowly (or not at all) and is dropped, so that it cannot make the host grow without limit. One
 * message sent while nothing is unread goes out whatever its size: a long game's exported record
 * can be larger than this.
 */
const MAX_UNREAD_BYTES = 8 * 1024 * 1024
/** With this much unread, state pushes to a screen wait: it gets the latest one once it has caught up. */
const PUSH_WAITS_AT_BYTES = 512 * 1024
/** Requests one screen may have in progress at once (the app's screens have one or two): more is a flood, and it is dropped. */
const MAX_PENDING_REQUESTS = 64
/** Names the loopback server answers for (a DNS name rebound to 127.0.0.1 is refused). */
const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]'])

interface Client {
  socket: WebSocket
  /** The screen it is: what it may do, what it typed, its own messages. */
  screen: Screen
  /** Came in through a LAN address (closed when sharing stops). */
  lan: boolean
  /** The screen's address, for the log. */
  from: string | undefined
  /** Requests being answered. */
  pending: number
  /** A state push was held back while the screen had too much unread. */
  stateBehind: boolean
  /** The state it was last pushed. */
  shown: ShownState
  /** Asked for patches (`/api?patches=1`): pushed what changed when that is shorter than the state. */
  takesPatches: boolean
}

export function defaultLanAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((address) => address && address.family === 'IPv4' && !address.internal)
    .map((address) => address!.address)
}

export class TableServer {
  private readonly loopback: Server
  private lanServers: Server[] = []
  private readonly sockets: WebSocketServer
  private readonly viewerSockets: WebSocketServer
  private readonly clients = new Set<Client>()
  private readonly unsubscribe: (() => void)[]
  private actualPort = 0
  /** The LAN addresses listened on while sharing is on. */
  private lanAddresses: string[] = []
  /** How the LAN addresses are served: over HTTPS when the table has its certificate. */
  private readonly lanScheme: 'http' | 'https'

  constructor(private readonly options: TableServerOptions) {
    this.sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES })
    this.viewerSockets = new WebSocketServer({ noServer: true, maxPayload: MAX_VIEWER_MESSAGE_BYTES })
    this.loopback = this.createHttpServer(false)
    this.lanScheme = options.lanTls ? 'https' : 'http'
    this.unsubscribe = [
      options.table.views.subscribe(
        tvFirst(
          () => this.pushStateTo((client) => client.screen.kind === 'scoreboard'),
          () => this.pushStateTo((client) => client.screen.kind !== 'scoreboard')
        )
      ),
      // A withdrawn screen's connections are closed: it comes back as a viewer.
      options.pairing.withdrawn.subscribe((id) => {
        for (const client of this.clients) if (client.screen.pairedId === id) client.socket.close(4001, 'pairing withdrawn')
      }),
      // A new code: a new QR code to pair with.
      options.pairing.changes.subscribe(() => void this.showPairQr())
    ]
  }

  get port(): number {
    return this.actualPort
  }

  get url(): string {
    return `http://${this.options.host ?? '127.0.0.1'}:${this.actualPort}/`
  }

  async start(): Promise<void> {
    await listen(this.loopback, this.options.port, this.options.host ?? '127.0.0.1')
    const address = this.loopback.address()
    this.actualPort = typeof address === 'object' && address ? address.port : this.options.port
  }

  async stop(): Promise<void> {
    for (const unsubscribe of this.unsubscribe) unsubscribe()
    for (const client of this.clients) client.socket.terminate()
    await this.setSharing(false, false)
    await new Promise<void>((resolve) => this.loopback.close(() => resolve()))
    this.sockets.close()
    this.viewerSockets.close()
  }

  /** Screens dropped so far: for leaving too much unread, and for sending too many requests at once. */
  readonly dropped = { unread: 0, flooding: 0 }

  /** Screens connected now (for tests and the fault suite). */
  get clientCount(): number {
    return this.clients.size
  }

  /** Turns LAN sharing on (listening on the LAN addresses, same port) or off. */
  async setSharing(enabled: boolean, tell = true): Promise<Outcome> {
    for (const server of this.lanServers) server.close()
    for (const client of this.clients) if (client.lan) client.socket.close()
    this.lanServers = []
    this.lanAddresses = []
    const wasShared = this.options.sharing.lan() !== null
    if (enabled) {
      const addresses = (this.options.lanAddresses ?? defaultLanAddresses)()
      if (addresses.length === 0) {
        this.options.sharing.set(null)
        this.options.table.notices.post('No network to share on: this computer has no LAN address', 'warning')
        return { ok: false, error: 'No network to share on' }
      }
      let tls: { key: string; cert: string } | null = null
      try {
        tls = this.options.lanTls ? await this.options.lanTls(addresses) : null
      } catch (error) {
        this.options.sharing.set(null)
        return { ok: false, error: `Sharing could not start: the table's certificate could not be made or kept (${(error as Error).message})` }
      }
      for (const address of addresses) {
        const server = this.createHttpServer(true, tls)
        await listen(server, this.actualPort, address)
        this.lanServers.push(server)
      }
      this.lanAddresses = addresses
      const urls = addresses.map((address) => `${this.lanScheme}://${address}:${this.actualPort}/scoreboard`)
      const qrSvg = await qrSvgOf(urls[0])
      this.options.sharing.set({ urls, qrSvg, pairQrSvg: await this.pairQr() })
    } else this.options.sharing.set(null)
    if (tell && (enabled || wasShared)) this.options.table.notices.post(enabled ? 'LAN sharing is on' : 'LAN sharing is off', 'info')
    return { ok: true }
  }

  /** The address a phone scans to pair: the first LAN address, with the code. */
  private async pairQr(): Promise<string | null> {
    const address = this.lanAddresses[0]
    if (!address) return null
    return qrSvgOf(`${this.lanScheme}://${address}:${this.actualPort}/table?pair=${this.options.pairing.pairingCode}`)
  }

  private async showPairQr(): Promise<void> {
    const lan = this.options.sharing.lan()
    if (lan) this.options.sharing.set({ ...lan, pairQrSvg: await this.pairQr() })
  }

  private createHttpServer(lan: boolean, tls: { key: string; cert: string } | null = null): Server {
    const serve = (request: IncomingMessage, response: ServerResponse): void => this.serveFile(request, response, lan)
    const server = tls ? createHttpsServer({ key: tls.key, cert: tls.cert }, serve) : createServer(serve)
    // A browser that does not accept the certificate (yet) hangs up in the handshake: no error of the table's.
    server.on('tlsClientError', (_error, socket) => socket.destroy())
    server.on('upgrade', (request, socket, head) => {
      socket.on('error', () => socket.destroy())
      const url = parseRequestUrl(request)
      if (url?.pathname !== '/api') return refuseUpgrade(socket, 404)
      if (!this.forThisHost(request, lan) || !this.fromOwnPage(request, lan)) {
        log.warn({ origin: request.headers.origin, host: request.headers.host, from: request.socket.remoteAddress }, 'refused a WebSocket from another site')
        return refuseUpgrade(socket, 403)
      }
      // A loopback screen is the host's own; a LAN screen enters dice with the token it got when it paired.
      const token = url.searchParams.get('token')
      const pairedId = lan && token !== null ? this.options.pairing.trusted(token) : null
      const trust: ScreenTrust = !lan ? 'host' : pairedId !== null ? 'paired' : token !== null ? 'withdrawn' : 'viewer'
      const canControl = trust === 'host' || trust === 'paired'
      const kind = url.searchParams.get('screen') === 'scoreboard' ? 'scoreboard' : 'control'
      const takesPatches = url.searchParams.get('patches') === '1'
      const sockets = canControl ? this.sockets : this.viewerSockets
      const address = request.socket.remoteAddress ?? 'unknown'
      sockets.handleUpgrade(request, socket, head, (ws) =>
        this.accept(ws, { kind, canControl, local: !lan, trust, pairedId, address }, lan, takesPatches)
      )
    })
    return server
  }

  /**
   * Whether a WebSocket comes from one of our own pages. Browsers always send an Origin with a
   * WebSocket, and any page may open one to this computer: it must be this server's own address,
   * as the table's pages are served (on loopback a loopback name, on the LAN one of the LAN
   * addresses it listens on), so that a page of another site whose name is made to point here
   * (DNS rebinding) is refused on every listener. Clients that are not browsers send no Origin.
   */
  private fromOwnPage(request: IncomingMessage, lan: boolean): boolean {
    const origin = request.headers.origin
    if (origin === undefined) return true
    let url: URL
    try {
      url = new URL(origin)
    } catch {
      return false
    }
    const scheme = lan ? this.lanScheme : 'http'
    if (url.protocol !== `${scheme}:` || url.port !== String(this.actualPort)) return false
    return this.ownName(url.hostname, lan)
  }

  /** Whether a host name is one this server's pages are served under, on this listener. */
  private ownName(hostname: string, lan: boolean): boolean {
    return lan ? this.lanAddresses.includes(hostname) : LOOPBACK_NAMES.has(hostname) || hostname === (this.options.host ?? '127.0.0.1')
  }

  /** Whether a request names this server as its host (a name rebound to its address does not). */
  private forThisHost(request: IncomingMessage, lan: boolean): boolean {
    const host = request.headers.host
    if (host === undefined) return true
    try {
      return this.ownName(new URL(`http://${host}`).hostname, lan)
    } catch {
      return false
    }
  }

  private accept(socket: WebSocket, role: ScreenRole, lan: boolean, takesPatches: boolean): void {
    const screen = this.options.table.screens.open(role, lan ? 'lan' : 'local')
    const client: Client = { socket, screen, lan, from: role.address, pending: 0, stateBehind: false, shown: new ShownState(), takesPatches }
    this.clients.add(client)
    socket.on('message', (data) => {
      const text = data.toString()
      if (jsonNesting(text, MAX_REQUEST_NESTING) > MAX_REQUEST_NESTING) {
        return this.send(client, { id: -1, error: `a request may nest at most ${MAX_REQUEST_NESTING} levels` })
      }
      if (client.pending >= MAX_PENDING_REQUESTS) return this.drop(client, 'flooding')
      client.pending++
      void this.answer(client, text).finally(() => client.pending--)
    })
    socket.on('close', () => this.forget(client))
    socket.on('error', () => this.forget(client))
    this.pushTo(client, this.stateJson(client))
  }

  private forget(client: Client): void {
    this.clients.delete(client)
    this.options.table.screens.close(client.screen)
  }

  private async answer(client: Client, text: string): Promise<void> {
    let request: unknown
    try {
      request = JSON.parse(text)
    } catch {
      return this.send(client, { id: -1, error: 'not JSON' })
    }
    const { id, method, args } = (request ?? {}) as { id?: unknown; method?: unknown; args?: unknown }
    if (typeof id !== 'number' || typeof method !== 'string' || !Array.isArray(args)) {
      return this.send(client, { id: typeof id === 'number' ? id : -1, error: 'a request is {id, method, args}' })
    }
    log.debug({ method, lan: client.lan }, 'request')
    try {
      // A refused request answers like a refused move ({ ok: false, error }), as over Electron's IPC.
      this.send(client, { id, result: await this.options.table.answer(client.screen, method, args) })
    } catch (error) {
      log.error({ method, err: error }, 'a request failed')
      this.send(client, { id, error: `internal error: ${(error as Error).message}` })
    }
  }

  private pushStateTo(which: (client: Client) => boolean): void {
    for (const client of this.clients) {
      if (!which(client)) continue
      if (client.socket.bufferedAmount > PUSH_WAITS_AT_BYTES) {
        client.stateBehind = true
        continue
      }
      this.pushTo(client, this.stateJson(client))
    }
  }

  /** Pushes a state to a screen unless it shows nothing the screen does not show already. */
  private pushTo(client: Client, stateJson: string): void {
    const message = client.shown.pushFor(stateJson, client.takesPatches)
    if (message !== null) this.deliver(client, message)
  }

  private stateJson(client: Client): string {
    return JSON.stringify(this.options.table.views.stateFor(client.screen))
  }

  private send(client: Client, message: WireReply): void {
    this.deliver(client, JSON.stringify(message))
  }

  /** Sends unless the screen has left too much unread: then it is dropped (its memory is freed at once). */
  private deliver(client: Client, data: string): void {
    const socket = client.socket
    if (socket.readyState !== socket.OPEN) return
    if (socket.bufferedAmount > 0 && socket.bufferedAmount + data.length > MAX_UNREAD_BYTES) return this.drop(client, 'unread')
    socket.send(data, () => this.caughtUp(client))
  }

  /** Hangs up on a screen that floods or does not read; whatever was queued for it is freed at once. */
  private drop(client: Client, why: keyof TableServer['dropped']): void {
    if (!this.clients.has(client)) return
    this.forget(client)
    this.dropped[why]++
    const reason = why === 'unread' ? 'it left too much unread' : 'it sent too many requests at once'
    log.warn({ from: client.from, lan: client.lan }, `dropped a screen: ${reason}`)
    client.socket.terminate()
  }

  /** A screen whose state push was held back gets the latest state once it has read enough. */
  private caughtUp(client: Client): void {
    if (!client.stateBehind || client.socket.bufferedAmount > PUSH_WAITS_AT_BYTES) return
    client.stateBehind = false
    this.pushTo(client, this.stateJson(client))
  }

  private serveFile(request: IncomingMessage, response: ServerResponse, lan: boolean): void {
    const url = parseRequestUrl(request)
    const pathname = decodePath(url)
    if (url === null || pathname === null) {
      response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' })
      response.end('Bad request')
      return
    }
    if (!this.forThisHost(request, lan)) {
      log.warn({ host: request.headers.host, from: request.socket.remoteAddress }, 'refused a request for another host name')
      response.writeHead(421, { 'content-type': 'text/plain; charset=utf-8' })
      response.end('Misdirected request: this is the Dice Referee table, reached by its own address')
      return
    }
    if (this.options.routes?.(request, response)) return
    const root = this.options.rendererDir
    // A screen's address (`/table`, `/players/Ann`) is the app itself: its router shows that screen.
    const relative = isScreenPath(url.pathname) ? 'index.html' : normalize(pathname).replace(/^[/\\]+/, '')
    const path = join(root, relative)
    if (!path.startsWith(root + sep) || !existsSync(path) || !statSync(path).isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
      response.end('Not found')
      return
    }
    response.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
      'content-security-policy': contentSecurityPolicyFor(relative),
      'x-content-type-options': 'nosniff',
      'cache-control': relative === 'index.html' ? 'no-cache' : 'max-age=3600'
    })
    response.end(readFileSync(path))
  }
}

/** The request's address, or null when it is not one (then the request is refused, not thrown on). */
function parseRequestUrl(request: IncomingMessage): URL | null {
  try {
    return new URL(request.url ?? '/', 'http://host')
  } catch {
    return null
  }
}

function decodePath(url: URL | null): string | null {
  if (url === null) return null
  try {
    return decodeURIComponent(url.pathname)
  } catch {
    return null
  }
}

function refuseUpgrade(socket: Duplex, status: 403 | 404): void {
  const reason = { 403: 'Forbidden', 404: 'Not Found' }[status]
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
}

/** A QR code of `text` as SVG; qrcode is loaded when a table first shares on the LAN, not at every start. */
async function qrSvgOf(text: string): Promise<string> {
  const { default: QRCode } = await import('qrcode')
  return QRCode.toString(text, { type: 'svg', margin: 1 })
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
}
