// Serves the renderer and the table API over HTTP + WebSocket: the headless host's whole
// transport, and LAN sharing for the desktop app. Loopback is always served; LAN addresses only
// while sharing is on. LAN screens watch; entering dice from one needs the host's pairing code.
import { randomInt } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { networkInterfaces } from 'node:os'
import { extname, join, normalize, sep } from 'node:path'
import QRCode from 'qrcode'
import { WebSocketServer, type WebSocket } from 'ws'
import type { ApiMethod, Outcome, SharingView, WirePush, WireReply } from '../../shared/api'
import { dispatch, RequestError, type Caller, type DisplayControl } from './dispatch'
import type { TableSession } from './table-session'

export interface TableServerOptions {
  session: TableSession
  /** The built renderer (index.html and its assets). */
  rendererDir: string
  port: number
  /** Loopback address served always. */
  host?: string
  /** Addresses LAN sharing listens on; by default this machine's non-internal IPv4 addresses. */
  lanAddresses?: () => string[]
  displays?: DisplayControl
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2'
}
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' ws: wss:"
const APP_PATHS = new Set(['/', '/index.html', '/scoreboard', '/table', '/history'])
const MAX_MESSAGE_BYTES = 21 * 1024 * 1024

interface Client {
  socket: WebSocket
  canControl: boolean
  /** Came in through a LAN address (closed when sharing stops). */
  lan: boolean
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
  private readonly clients = new Set<Client>()
  private readonly unsubscribe: () => void
  private sharing: SharingView | null = null
  private actualPort = 0

  constructor(private readonly options: TableServerOptions) {
    this.sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES })
    this.loopback = this.createHttpServer(false)
    this.unsubscribe = options.session.subscribe(() => this.pushState())
    options.session.sharingView = () => this.sharing
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
    this.unsubscribe()
    for (const client of this.clients) client.socket.terminate()
    await this.setSharing(false)
    await new Promise<void>((resolve) => this.loopback.close(() => resolve()))
    this.sockets.close()
  }

  /** Turns LAN sharing on (listening on the LAN addresses, same port) or off. */
  async setSharing(enabled: boolean): Promise<Outcome> {
    for (const server of this.lanServers) server.close()
    for (const client of this.clients) if (client.lan) client.socket.close()
    this.lanServers = []
    this.sharing = null
    if (enabled) {
      const addresses = (this.options.lanAddresses ?? defaultLanAddresses)()
      if (addresses.length === 0) {
        this.options.session.notify('No network to share on: this computer has no LAN address', 'warning')
        return { ok: false, error: 'No network to share on' }
      }
      for (const address of addresses) {
        const server = this.createHttpServer(true)
        await listen(server, this.actualPort, address)
        this.lanServers.push(server)
      }
      const urls = addresses.map((address) => `http://${address}:${this.actualPort}/scoreboard`)
      const qrSvg = await QRCode.toString(urls[0], { type: 'svg', margin: 1 })
      this.sharing = { enabled: true, urls, pairingCode: String(randomInt(100000, 1000000)), qrSvg }
    }
    this.options.session.notify(enabled ? 'LAN sharing is on' : 'LAN sharing is off', 'info')
    return { ok: true }
  }

  private createHttpServer(lan: boolean): Server {
    const server = createServer((request, response) => this.serveFile(request, response))
    server.on('upgrade', (request, socket, head) => {
      const url = new URL(request.url ?? '/', 'http://host')
      if (url.pathname !== '/api') {
        socket.destroy()
        return
      }
      const paired = this.sharing !== null && url.searchParams.get('pair') === this.sharing.pairingCode
      this.sockets.handleUpgrade(request, socket, head, (ws) => this.accept(ws, lan, !lan || paired))
    })
    return server
  }

  private accept(socket: WebSocket, lan: boolean, canControl: boolean): void {
    const client: Client = { socket, canControl, lan }
    this.clients.add(client)
    const caller: Caller = {
      canControl,
      local: !lan,
      displays: this.options.displays,
      setSharing: (enabled) => this.setSharing(enabled)
    }
    socket.on('message', (data) => void this.answer(client, caller, data.toString()))
    socket.on('close', () => this.clients.delete(client))
    socket.on('error', () => this.clients.delete(client))
    this.send(client, { state: this.options.session.snapshot(canControl, !lan) })
  }

  private async answer(client: Client, caller: Caller, text: string): Promise<void> {
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
    try {
      const result = await dispatch(this.options.session, caller, method as ApiMethod, args)
      this.send(client, { id, result })
    } catch (error) {
      // A refused request answers like a refused move, the same as over Electron's IPC.
      if (error instanceof RequestError) this.send(client, { id, result: { ok: false, error: error.message } })
      else this.send(client, { id, error: `internal error: ${(error as Error).message}` })
    }
  }

  private pushState(): void {
    const states = new Map<string, string>()
    for (const client of this.clients) {
      const kind = `${client.canControl}${client.lan}`
      let message = states.get(kind)
      if (message === undefined) {
        message = JSON.stringify({ state: this.options.session.snapshot(client.canControl, !client.lan) } satisfies WirePush)
        states.set(kind, message)
      }
      if (client.socket.readyState === client.socket.OPEN) client.socket.send(message)
    }
  }

  private send(client: Client, message: WireReply | WirePush): void {
    if (client.socket.readyState === client.socket.OPEN) client.socket.send(JSON.stringify(message))
  }

  private serveFile(request: IncomingMessage, response: ServerResponse): void {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://host').pathname)
    const root = this.options.rendererDir
    const relative = APP_PATHS.has(pathname) ? 'index.html' : normalize(pathname).replace(/^[/\\]+/, '')
    const path = join(root, relative)
    if (!path.startsWith(root + sep) || !existsSync(path) || !statSync(path).isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
      response.end('Not found')
      return
    }
    response.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
      'cache-control': relative === 'index.html' ? 'no-cache' : 'max-age=3600'
    })
    response.end(readFileSync(path))
  }
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
