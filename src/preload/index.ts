// The only bridge between a screen and main: one small typed API, no raw ipcRenderer. Its methods
// come from the screen API's table; every request goes on one channel and main checks it there.
import { contextBridge, ipcRenderer } from 'electron'
import { requestsOver, type TableApi } from '@shared/api-methods'
import type { TableState } from '@shared/api'

const api: TableApi = {
  ...requestsOver((method, args) => ipcRenderer.invoke('table:call', method, args)),
  onState(listener: (state: TableState) => void): () => void {
    const handler = (_event: unknown, state: TableState): void => listener(state)
    ipcRenderer.on('table:state', handler)
    return () => ipcRenderer.removeListener('table:state', handler)
  }
}

contextBridge.exposeInMainWorld('diceReferee', api)
