import type { TableApi } from '@shared/api-methods'
import { openWebSocketTableApi, type ConnectionAware, type SocketLike } from './webSocketTableApi'
import { isScoreboardPath } from '@shared/screen-paths'
import { savedScreenToken } from '../lib/screen-token'

export type { ConnectionAware, ConnectionStatus } from './webSocketTableApi'

declare global {
  interface Window {
    /** The TableApi Electron's preload exposes; absent in a browser talking to the headless host. */
    diceReferee?: TableApi
  }
}

let tableApi: TableApi | null = null

/**
 * The WebSocket address of the headless host, with the token of a paired screen, saying when the
 * page is the TV's scoreboard, and asking for state pushes as patches (the client applies them).
 */
export function apiUrlFor(location: Pick<Location, 'protocol' | 'host' | 'search'> & Partial<Pick<Location, 'pathname'>>, token: string | null = null): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
  const query = new URLSearchParams()
  if (token) query.set('token', token)
  if (isScoreboardPath(location.pathname ?? '/')) query.set('screen', 'scoreboard')
  query.set('patches', '1')
  const text = query.toString().replace(/\+/g, '%20')
  return `${scheme}//${location.host}/api` + (text ? `?${text}` : '')
}

export function getTableApi(): TableApi {
  if (tableApi) return tableApi
  if (window.diceReferee) {
    tableApi = window.diceReferee
  } else {
    tableApi = openWebSocketTableApi({
      url: apiUrlFor(window.location, savedScreenToken()),
      createSocket: (url) => new WebSocket(url) as unknown as SocketLike
    })
  }
  return tableApi
}

/** Replaces the API (tests hand in a fake). */
export function setTableApi(api: TableApi | null): void {
  tableApi = api
}

export function isConnectionAware(api: TableApi): api is TableApi & ConnectionAware {
  return typeof (api as Partial<ConnectionAware>).onConnection === 'function'
}
