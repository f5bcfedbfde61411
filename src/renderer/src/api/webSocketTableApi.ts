// The TableApi over the headless host's WebSocket (`/api`), for a browser that has no preload.
import type { TableState } from '@shared/api'
import type { WirePush, WireReply, WireRequest } from '@shared/api-methods'
import { applyStatePatch, type JsonObject } from '@shared/state-patch'
import { requestsOver, type MethodArgs, type MethodName, type MethodResult, type TableApi } from '@shared/api-methods'

/** The part of a browser WebSocket this client uses, so tests can hand in a fake. */
export interface SocketLike {
  readonly readyState: number
  onopen: ((event: unknown) => void) | null
  onclose: ((event: unknown) => void) | null
  onerror: ((event: unknown) => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
  send(data: string): void
  close(): void
}

export type SocketFactory = (url: string) => SocketLike

export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting'

/** A transport that can lose its connection tells the screens so ("Reconnecting…"). */
export interface ConnectionAware {
  readonly connectionStatus: ConnectionStatus
  onConnection(listener: (status: ConnectionStatus) => void): () => void
}

export interface WebSocketTableApiOptions {
  url: string
  createSocket: SocketFactory
  /** First wait before reconnecting; doubles on every failed attempt up to `maxDelayMs`. */
  initialDelayMs?: number
  maxDelayMs?: number
  /** Connects again when the connection is lost (the default, as a screen must); false: stays closed (a test's screen). */
  reconnect?: boolean
}

const OPEN = 1

interface Pending {
  resolve(value: unknown): void
  reject(error: Error): void
}

export class ConnectionLostError extends Error {
  constructor(message = 'Not connected to the table: reconnecting…') {
    super(message)
    this.name = 'ConnectionLostError'
  }
}

/** The connection to the host: requests matched to their replies, state pushes, reconnecting. */
export class TableSocket implements ConnectionAware {
  private socket: SocketLike | null = null
  private nextId = 1
  private readonly pending = new Map<number, Pending>()
  /** Requests made while the socket is still opening; sent as soon as it opens. */
  private queued: WireRequest[] = []
  private readonly stateListeners = new Set<(state: TableState) => void>()
  private readonly connectionListeners = new Set<(status: ConnectionStatus) => void>()
  private status: ConnectionStatus = 'connecting'
  private delayMs: number
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null
  /** Closed for good: by `close()`, or by losing the connection when it does not reconnect. */
  private stopped = false
  /** The state last pushed on this socket: what the host's next patch applies to. */
  private pushed: TableState | null = null
  private readonly initialDelayMs: number
  private readonly maxDelayMs: number

  constructor(private readonly options: WebSocketTableApiOptions) {
    this.initialDelayMs = options.initialDelayMs ?? 500
    this.maxDelayMs = options.maxDelayMs ?? 10_000
    this.delayMs = this.initialDelayMs
    this.connect()
  }

  get connectionStatus(): ConnectionStatus {
    return this.status
  }

  onConnection(listener: (status: ConnectionStatus) => void): () => void {
    this.connectionListeners.add(listener)
    return () => this.connectionListeners.delete(listener)
  }

  onState(listener: (state: TableState) => void): () => void {
    this.stateListeners.add(listener)
    return () => this.stateListeners.delete(listener)
  }

  /** Stops for good: no more reconnecting (used by tests and on page unload). */
  close(): void {
    this.stopped = true
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer)
    this.reconnectTimer = null
    this.socket?.close()
    this.failAll()
  }

  /** Sends one request of the screen API; the typed methods come from `openWebSocketTableApi`. */
  request<M extends MethodName>(method: M, args: MethodArgs<M>): Promise<MethodResult<M>> {
    if (this.status === 'reconnecting' || this.stopped) return Promise.reject(new ConnectionLostError())
    const request: WireRequest = { id: this.nextId++, method, args }
    return new Promise<MethodResult<M>>((resolve, reject) => {
      this.pending.set(request.id, { resolve: resolve as (value: unknown) => void, reject })
      if (this.socket && this.socket.readyState === OPEN) this.socket.send(JSON.stringify(request))
      else this.queued.push(request)
    })
  }

  private connect(): void {
    this.reconnectTimer = null
    const socket = this.options.createSocket(this.options.url)
    this.socket = socket
    this.pushed = null
    socket.onopen = () => {
      if (this.socket !== socket) return
      this.delayMs = this.initialDelayMs
      this.setStatus('open')
      const queued = this.queued
      this.queued = []
      for (const request of queued) socket.send(JSON.stringify(request))
      // A push may have been missed while away: fetch the state now rather than wait for the next change.
      this.request('getState', []).then(
        (reply) => reply.ok && this.emitState(reply.state),
        () => undefined
      )
    }
    socket.onmessage = (event) => {
      if (this.socket === socket) this.handleMessage(event.data)
    }
    socket.onerror = () => undefined
    socket.onclose = () => {
      if (this.socket !== socket) return
      this.socket = null
      if (this.options.reconnect === false) this.stopped = true
      this.failAll()
      if (this.stopped) return
      this.setStatus('reconnecting')
      this.reconnectTimer = setTimeout(() => this.connect(), this.delayMs)
      this.delayMs = Math.min(this.delayMs * 2, this.maxDelayMs)
    }
  }

  private handleMessage(data: unknown): void {
    if (typeof data !== 'string') return
    let message: unknown
    try {
      message = JSON.parse(data)
    } catch {
      return
    }
    if (!message || typeof message !== 'object') return
    if ('state' in message || 'patch' in message) {
      this.receivePush(message as WirePush)
      return
    }
    const reply = message as WireReply
    if (typeof reply.id !== 'number') return
    const pending = this.pending.get(reply.id)
    if (!pending) return
    this.pending.delete(reply.id)
    if ('error' in reply) pending.reject(new Error(reply.error))
    else pending.resolve(reply.result)
  }

  private receivePush(push: WirePush): void {
    if ('state' in push) {
      this.pushed = push.state
    } else if (this.pushed !== null && this.pushed.version === push.from) {
      this.pushed = applyStatePatch(this.pushed as unknown as JsonObject, push.patch) as unknown as TableState
    } else {
      // Not the state the host patched (it never should be): start afresh, with its whole state.
      this.pushed = null
      this.socket?.close()
      return
    }
    this.emitState(this.pushed)
  }

  private emitState(state: TableState): void {
    for (const listener of [...this.stateListeners]) listener(state)
  }

  private setStatus(status: ConnectionStatus): void {
    if (this.status === status) return
    this.status = status
    for (const listener of [...this.connectionListeners]) listener(status)
  }

  private failAll(): void {
    const pending = [...this.pending.values()]
    this.pending.clear()
    this.queued = []
    for (const request of pending) request.reject(new ConnectionLostError())
  }
}

/** The screen API over the host's WebSocket: a request per method of the table, typed end to end. */
export type WebSocketTableApi = TableApi & ConnectionAware & { close(): void }

export function openWebSocketTableApi(options: WebSocketTableApiOptions): WebSocketTableApi {
  const socket = new TableSocket(options)
  return {
    ...requestsOver((method, args) => socket.request(method, args)),
    onState: (listener) => socket.onState(listener),
    onConnection: (listener) => socket.onConnection(listener),
    get connectionStatus() {
      return socket.connectionStatus
    },
    close: () => socket.close()
  }
}
