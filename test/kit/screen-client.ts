// A screen of the tests on the host's WebSocket (`/api`): the renderer's own client (TableSocket:
// requests matched to their replies, state pushes whole or patched) over a `ws` socket, with what
// a test reads besides: every state pushed, each push's kind and size, the order things arrived
// in, and waits on a push. Tests that must send what no client sends (malformed or oversized
// frames, a socket that never reads) use test/faults/raw-socket.ts instead.
import WebSocket from 'ws'
import type { TableState } from '@shared/api'
import type { MethodArgs, MethodName, MethodResult } from '@shared/api-methods'
import type { Move } from '@shared/games/types'
import { TableSocket, type SocketLike } from '@renderer/api/webSocketTableApi'

export interface ScreenOptions {
  /** Request headers of the handshake (a page's `origin`, the `host` it asked for). */
  headers?: Record<string, string>
  /** The address the screen connects from (a LAN screen: another loopback address). */
  localAddress?: string
  /** The largest message the screen takes (ws's default is 100 MiB). */
  maxPayload?: number
}

/** The host refused the WebSocket's handshake with this HTTP status (another site's page). */
export class ScreenRefused extends Error {
  constructor(readonly status: number) {
    super(`the host refused the screen with HTTP ${status}`)
    this.name = 'ScreenRefused'
  }
}

export interface Push {
  kind: 'state' | 'patch'
  /** The message's length in characters (the bytes on the wire: the host sends JSON in ASCII). */
  length: number
}

/** How long a wait on a push may take before it fails the test (not a guess at how long it takes: far above it). */
const WAIT_LIMIT_MS = 15_000

/** The screen API's address for a page address (`http://127.0.0.1:5173/` → `ws://127.0.0.1:5173/api`), with a query (`?screen=scoreboard`). */
export function apiAddress(pageUrl: string, query = ''): string {
  const { protocol, host } = new URL(pageUrl)
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/api${query}`
}

export class ScreenClient {
  /** Every state pushed to this screen, in order; a patch is applied to the state before it by the renderer's client. */
  readonly states: TableState[] = []
  /** Each push as it came: whole or a patch, and its length. */
  readonly pushes: Push[] = []
  /** Everything in the order it came: `state <moveCount>` (`-` without a game) or `reply <method>`. */
  readonly arrivals: string[] = []
  /** Resolves when the connection has closed (either side). */
  readonly closed: Promise<void>
  private readonly socket: TableSocket
  private readonly raw: WebSocket
  private readonly methods = new Map<number, string>()
  private readonly waiters = new Set<() => void>()
  private readonly arrivalListeners = new Set<(arrival: string) => void>()
  private refusedWith: number | null = null
  /** Why the pushes stopped making sense (a patch that did not apply), if they did. */
  private failure: string | null = null
  /** A push is being handed to the renderer's client: the state it tells of is a pushed one. */
  private receivingPush = false

  private constructor(url: string, options: ScreenOptions) {
    this.raw = new WebSocket(url, { headers: options.headers, localAddress: options.localAddress, maxPayload: options.maxPayload })
    this.raw.on('error', () => undefined) // a refused or dropped connection closes; `closed` and the calls tell it
    this.raw.once('unexpected-response', (_request, response) => {
      this.refusedWith = response.statusCode ?? 0
      this.raw.terminate()
    })
    this.closed = new Promise((resolve) => this.raw.once('close', () => resolve()))
    void this.closed.then(() => this.notify())
    this.socket = new TableSocket({ url, createSocket: () => this.tapped(), reconnect: false })
    this.socket.onState((state) => this.pushed(state))
  }

  /**
   * Opens a screen at `url`, the screen API's address (`ws://…/api?screen=scoreboard`) or the
   * host's (`http://…/`), and resolves once the host has pushed it its first state; rejects with
   * ScreenRefused when the host refuses it.
   */
  static async open(url: string, options: ScreenOptions = {}): Promise<ScreenClient> {
    const screen = new ScreenClient(/^https?:/.test(url) ? apiAddress(url) : url, options)
    try {
      await screen.nextState()
    } catch (error) {
      if (screen.refusedWith !== null) throw new ScreenRefused(screen.refusedWith)
      throw error
    }
    return screen
  }

  /** A LAN screen paired with the code as a phone pairs: it connects again with the token it was given. */
  static async paired(url: string, code: string, name = 'Phone (test)', options: ScreenOptions = {}): Promise<ScreenClient> {
    const viewer = await ScreenClient.open(url, options)
    const answer = await viewer.call('pair', code, name)
    viewer.close()
    if (!answer.ok) throw new Error(`not paired: ${answer.error}`)
    return ScreenClient.open(`${url}${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(answer.token)}`, options)
  }

  /** The state pushed last. */
  get state(): TableState {
    const state = this.states.at(-1)
    if (!state) throw new Error('no state was pushed to this screen yet')
    return state
  }

  /** The state the host answers `getState` with now. */
  async getState(): Promise<TableState> {
    const answer = await this.call('getState')
    if (!answer.ok) throw new Error(`getState: ${answer.error}`)
    return answer.state
  }

  /** Plays moves one by one as this screen; throws at the first one refused, with its reason. */
  async play(moves: Move[]): Promise<void> {
    for (const move of moves) {
      const outcome = await this.call('submit', move)
      if (!outcome.ok) throw new Error(`${JSON.stringify(move)}: ${outcome.error}`)
    }
  }

  /** Listens for every message that reaches this screen, push or reply (in `arrivals`' words), as it comes. */
  onArrival(listener: (arrival: string) => void): () => void {
    this.arrivalListeners.add(listener)
    return () => this.arrivalListeners.delete(listener)
  }

  /** Calls a method of the screen API; resolves with its answer, rejects when the connection is lost first. */
  call<M extends MethodName>(method: M, ...args: MethodArgs<M>): Promise<MethodResult<M>> {
    return this.socket.request(method, args)
  }

  /** Sends a request as it is, unchecked: a method that does not exist, arguments of the wrong kind or number. */
  send(method: string, ...args: unknown[]): Promise<unknown> {
    return this.socket.request(method as MethodName, args as never)
  }

  /** The first state pushed (so far, or from now on) that passes `check`. */
  waitFor(check: (state: TableState) => boolean, what = 'a state that passes the check'): Promise<TableState> {
    return this.when(() => this.states.find(check), `was pushed ${what}`)
  }

  /** The next state pushed from now on. */
  nextState(): Promise<TableState> {
    const count = this.states.length
    return this.when(() => this.states[count], 'was pushed a state')
  }

  /** Resolves once `found` finds something, looking again at each push (and at the close, which ends the wait). */
  private when<T>(found: () => T | undefined, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const look = (): boolean => {
        const value = found()
        if (value !== undefined) resolve(value)
        else if (this.failure !== null) reject(new Error(`the screen was never ${what}: ${this.failure}`))
        else if (this.raw.readyState === WebSocket.CLOSED) reject(new Error(`the screen was never ${what}: the connection closed`))
        else return false
        return true
      }
      if (look()) return
      const timer = setTimeout(() => {
        this.waiters.delete(waiter)
        reject(new Error(`the screen was not ${what} within ${WAIT_LIMIT_MS / 1000} s (${this.states.length} states pushed)`))
      }, WAIT_LIMIT_MS)
      const waiter = (): void => {
        if (!look()) return
        clearTimeout(timer)
        this.waiters.delete(waiter)
      }
      this.waiters.add(waiter)
    })
  }

  /** Closes the connection (the host sees the screen leave). */
  close(): void {
    this.socket.close()
  }

  /** Drops the connection without a closing handshake, as a screen that vanishes does. */
  terminate(): void {
    this.raw.terminate()
  }

  /** The `ws` socket as the renderer's client sees a browser's, noting what goes out and comes in. */
  private tapped(): SocketLike {
    const raw = this.raw
    const tapped: SocketLike = {
      get readyState() {
        return raw.readyState
      },
      onopen: null,
      onclose: null,
      onerror: null,
      onmessage: null,
      send: (data) => {
        const request = JSON.parse(data) as { id: number; method: string }
        this.methods.set(request.id, request.method)
        raw.send(data)
      },
      close: () => raw.close()
    }
    raw.on('open', () => tapped.onopen?.({}))
    raw.on('error', (error) => tapped.onerror?.(error))
    raw.on('close', () => tapped.onclose?.({}))
    raw.on('message', (data) => {
      const text = data.toString()
      const message = JSON.parse(text) as { id?: number; state?: unknown; patch?: unknown }
      if ('state' in message || 'patch' in message) {
        this.pushes.push({ kind: 'state' in message ? 'state' : 'patch', length: text.length })
        const before = this.states.length
        this.receivingPush = true
        tapped.onmessage?.({ data: text })
        this.receivingPush = false
        if (this.states.length === before) {
          this.failure = `push ${this.pushes.length} (${text.slice(0, 80)}…) did not apply to the state before it`
          this.arrivals.push('state (not applied)')
        }
      } else {
        this.arrivals.push(`reply ${this.methods.get(message.id ?? -1) ?? message.id}`)
        tapped.onmessage?.({ data: text })
      }
      const arrival = this.arrivals.at(-1)!
      for (const listener of [...this.arrivalListeners]) listener(arrival)
      this.notify()
    })
    return tapped
  }

  /** A state from the renderer's client: a push (the state it fetches itself on connecting is not one). */
  private pushed(state: TableState): void {
    if (!this.receivingPush) return
    this.states.push(state)
    this.arrivals.push(`state ${state.current?.moveCount ?? '-'}`)
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter()
  }
}
