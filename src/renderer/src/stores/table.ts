import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { KeypadKey, MessageLevel, Outcome, TableState } from '@shared/api'
import type { GameSetup } from '@shared/api-methods'
import type { Move } from '@shared/games/types'
import { getTableApi, isConnectionAware } from '../api'
import { saveScreenToken, savedScreenToken, screenName } from '../lib/screen-token'

export interface Notice {
  text: string
  level: MessageLevel
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** Mirrors main's TableState; every action is a request to main, which answers with a new state. */
export const useTableStore = defineStore('table', () => {
  const state = shallowRef<TableState | null>(null)
  const connected = ref(true)
  /** A refusal or transport failure of this screen's own request, until main says something newer. */
  const localNotice = ref<Notice | null>(null)
  let stopListening: (() => void) | null = null

  const current = computed(() => state.value?.current ?? null)
  const isGameOn = computed(() => current.value !== null)
  const canControl = computed(() => state.value?.canControl ?? false)
  const notice = computed<Notice | null>(() => {
    if (localNotice.value) return localNotice.value
    const message = state.value?.message
    return message ? { text: message.text, level: message.level } : null
  })

  function receive(next: TableState): void {
    const previous = state.value
    if (previous && next.version < previous.version) {
      // An answer that crossed a newer push: keep the newer one.
      return
    }
    if (next.message?.id !== previous?.message?.id) localNotice.value = null
    // The host withdrew this screen's pairing: its token is of no use any more.
    if (next.trust === 'withdrawn' && savedScreenToken() !== null) saveScreenToken(null)
    state.value = next
  }

  /**
   * Pairs this screen with the host's code: kept (its token) until the host withdraws it. Then
   * the page connects again with the token, and may enter dice.
   */
  async function pair(code: string): Promise<Outcome> {
    const outcome = await request(() => getTableApi().pair(code, screenName(globalThis.navigator?.userAgent ?? '')))
    if (!outcome.ok) return outcome
    saveScreenToken(outcome.token)
    const address = new URL(globalThis.location.href)
    address.searchParams.delete('pair')
    globalThis.location.replace(address.toString())
    return { ok: true }
  }

  async function start(): Promise<void> {
    if (stopListening) return
    const api = getTableApi()
    stopListening = api.onState(receive)
    if (isConnectionAware(api)) {
      // Lost only once it was lost: the first connection of a page being made is no loss to announce.
      connected.value = api.connectionStatus !== 'reconnecting'
      api.onConnection((status) => {
        connected.value = status !== 'reconnecting'
        // After a reconnect the host may have restarted and counts versions from scratch.
        if (status === 'open') state.value = state.value ? { ...state.value, version: -1 } : null
      })
    }
    try {
      const reply = await api.getState()
      if (reply.ok) receive(reply.state)
      else localNotice.value = { text: reply.error, level: 'error' }
    } catch (error) {
      localNotice.value = { text: errorText(error), level: 'error' }
    }
    // Opened from the host's pairing QR code (`?pair=CODE`): this screen pairs at once.
    const code = new URLSearchParams(globalThis.location?.search ?? '').get('pair')
    if (code && state.value && !state.value.canControl) await pair(code)
  }

  function stop(): void {
    stopListening?.()
    stopListening = null
  }

  async function request<T extends object>(send: () => Promise<Outcome<T>>): Promise<Outcome<T>> {
    let outcome: Outcome<T>
    try {
      outcome = await send()
    } catch (error) {
      outcome = { ok: false, error: errorText(error) }
    }
    localNotice.value = outcome.ok ? null : { text: outcome.error, level: 'error' }
    return outcome
  }

  const newGame = (setup: GameSetup) => request(() => getTableApi().newGame(setup))
  const submit = (move: Move) => request(() => getTableApi().submit(move))
  const keypad = (key: KeypadKey) => request(() => getTableApi().keypad(key))
  const rollVirtual = () => request(() => getTableApi().rollVirtual())
  const undo = () => request(() => getTableApi().undo())
  const redo = () => request(() => getTableApi().redo())
  const letComputerPlay = () => request(() => getTableApi().letComputerPlay())
  const revokeScreen = (id: string) => request(() => getTableApi().revokeScreen(id))
  const joinLeague = (url: string | null) => request(() => getTableApi().joinLeague(url))
  const hostLeague = (setup: { port: number; password: string } | null) => request(() => getTableApi().hostLeague(setup))
  const newPairingCode = () => request(() => getTableApi().newPairingCode())
  const abandon = () => request(() => getTableApi().abandon())
  const importRecord = (text: string) => request(() => getTableApi().importRecord(text))
  const rematch = () => request(() => getTableApi().rematch())
  const resumeHistory = (id: string) => request(() => getTableApi().resumeHistory(id))
  const setSharing = (enabled: boolean) => request(() => getTableApi().setSharing(enabled))
  const setShowOdds = (on: boolean) => request(() => getTableApi().setShowOdds(on))

  async function exportRecord(): Promise<Outcome<{ record: string; fileName: string }>> {
    try {
      const exported = await getTableApi().exportRecord()
      localNotice.value = exported.ok ? null : { text: exported.error, level: 'error' }
      return exported
    } catch (error) {
      localNotice.value = { text: errorText(error), level: 'error' }
      return { ok: false, error: errorText(error) }
    }
  }

  function dismissNotice(): void {
    localNotice.value = null
  }

  return {
    state,
    connected,
    current,
    isGameOn,
    canControl,
    notice,
    localNotice,
    receive,
    start,
    stop,
    newGame,
    submit,
    keypad,
    rollVirtual,
    undo,
    redo,
    letComputerPlay,
    pair,
    revokeScreen,
    joinLeague,
    hostLeague,
    newPairingCode,
    abandon,
    exportRecord,
    importRecord,
    rematch,
    resumeHistory,
    setSharing,
    setShowOdds,
    dismissNotice
  }
})
