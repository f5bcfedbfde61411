// Drives the host's screen API over its WebSocket from the test (as a screen on the host would),
// to bring the table to a state quickly; the pages under test only watch and are checked.
import WebSocket from 'ws'
import type { Outcome, TableState } from '@shared/api'
import type { MethodName } from '@shared/api-methods'

export interface ApiClient {
  call<T = Outcome>(method: MethodName, ...args: unknown[]): Promise<T>
  close(): void
}

export async function connectApi(hostUrl: string): Promise<ApiClient> {
  const socket = new WebSocket(`${hostUrl.replace(/^http/, 'ws')}api`)
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })
  let nextId = 1
  const pending = new Map<number, (value: unknown) => void>()
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: string }
    if (typeof message.id !== 'number') return
    const resolve = pending.get(message.id)
    pending.delete(message.id)
    resolve?.(message.error !== undefined ? { ok: false, error: message.error } : message.result)
  })
  return {
    call<T>(method: MethodName, ...args: unknown[]): Promise<T> {
      const id = nextId++
      return new Promise<T>((resolve) => {
        pending.set(id, resolve as (value: unknown) => void)
        socket.send(JSON.stringify({ id, method, args }))
      })
    },
    close: () => socket.close()
  }
}

/** The state the host shows a screen on its own computer. */
export async function tableState(api: ApiClient): Promise<TableState> {
  const answer = await api.call<{ ok: true; state: TableState }>('getState')
  return answer.state
}

/** Sends moves one by one; throws on the first refusal, with its reason. */
export async function playMoves(api: ApiClient, moves: object[]): Promise<void> {
  for (const move of moves) {
    const outcome = await api.call('submit', move)
    if (!outcome.ok) throw new Error(`${JSON.stringify(move)}: ${outcome.error}`)
  }
}
