// The only bridge between a screen and main: one small typed API, no raw ipcRenderer.
import { contextBridge, ipcRenderer } from 'electron'
import type { ApiMethod, TableApi, TableState } from '../shared/api'

function call<M extends ApiMethod>(method: M): TableApi[M] {
  return ((...args: unknown[]) => ipcRenderer.invoke('table:call', method, args)) as TableApi[M]
}

const api: TableApi = {
  getState: call('getState'),
  onState(listener: (state: TableState) => void): () => void {
    const handler = (_event: unknown, state: TableState): void => listener(state)
    ipcRenderer.on('table:state', handler)
    return () => ipcRenderer.removeListener('table:state', handler)
  },
  newGame: call('newGame'),
  submit: call('submit'),
  keypad: call('keypad'),
  rollVirtual: call('rollVirtual'),
  undo: call('undo'),
  abandon: call('abandon'),
  exportRecord: call('exportRecord'),
  importRecord: call('importRecord'),
  listHistory: call('listHistory'),
  openHistory: call('openHistory'),
  resumeHistory: call('resumeHistory'),
  rematch: call('rematch'),
  setSharing: call('setSharing'),
  setShowOdds: call('setShowOdds'),
  listDisplays: call('listDisplays'),
  showScoreboard: call('showScoreboard'),
  listPorts: call('listPorts'),
  connectDevice: call('connectDevice'),
  disconnectDevice: call('disconnectDevice'),
  identifyDie: call('identifyDie'),
  assignDie: call('assignDie'),
  setDeviceTestMode: call('setDeviceTestMode')
}

contextBridge.exposeInMainWorld('diceReferee', api)
