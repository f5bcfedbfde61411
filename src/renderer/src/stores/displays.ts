import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { DisplayInfo, Outcome } from '@shared/api'
import { getTableApi } from '../api'

/** The desktop app's displays and which one shows the TV's scoreboard (main opens it there). */
export const useDisplaysStore = defineStore('displays', () => {
  const displays = ref<DisplayInfo[]>([])

  async function refresh(): Promise<void> {
    const api = getTableApi()
    // Older preloads and the headless host may not offer displays: then the list stays empty.
    if (typeof api.listDisplays !== 'function') return
    try {
      const listed = await api.listDisplays()
      displays.value = listed.ok ? listed.displays : []
    } catch {
      displays.value = []
    }
  }

  /** Shows the scoreboard on a display (null closes it), then reads the list again. */
  async function show(displayId: number | null): Promise<Outcome> {
    let outcome: Outcome
    try {
      outcome = await getTableApi().showScoreboard(displayId)
    } catch (failure) {
      outcome = { ok: false, error: failure instanceof Error ? failure.message : String(failure) }
    }
    await refresh()
    return outcome
  }

  return { displays, refresh, show }
})
