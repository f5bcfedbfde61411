import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { HistoryEntry, HistoryGame } from '../../../shared/api'
import { getTableApi } from '../api'

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The saved games (newest first) and the one being stepped through. */
export const useHistoryStore = defineStore('history', () => {
  const entries = shallowRef<HistoryEntry[]>([])
  const loading = ref(false)
  const error = ref<string | null>(null)
  const openGame = shallowRef<HistoryGame | null>(null)
  const stepIndex = ref(0)

  const steps = computed(() => openGame.value?.steps ?? [])
  const step = computed(() => steps.value[stepIndex.value] ?? null)
  const atFirst = computed(() => stepIndex.value <= 0)
  const atLast = computed(() => stepIndex.value >= steps.value.length - 1)

  async function load(): Promise<void> {
    loading.value = true
    error.value = null
    try {
      const listed = await getTableApi().listHistory()
      if (listed.ok) entries.value = [...listed.games].sort((a, b) => b.finishedAt - a.finishedAt)
      else error.value = listed.error
    } catch (failure) {
      error.value = errorText(failure)
    } finally {
      loading.value = false
    }
  }

  async function open(id: string): Promise<void> {
    error.value = null
    try {
      const opened = await getTableApi().openHistory(id)
      if (!opened.ok) {
        error.value = opened.error
        return
      }
      openGame.value = opened.game
      stepIndex.value = 0
    } catch (failure) {
      error.value = errorText(failure)
    }
  }

  function close(): void {
    openGame.value = null
    stepIndex.value = 0
  }

  function goTo(index: number): void {
    const last = steps.value.length - 1
    stepIndex.value = Math.max(0, Math.min(last, index))
  }
  const first = () => goTo(0)
  const previous = () => goTo(stepIndex.value - 1)
  const next = () => goTo(stepIndex.value + 1)
  const last = () => goTo(steps.value.length - 1)

  return { entries, loading, error, openGame, stepIndex, steps, step, atFirst, atLast, load, open, close, goTo, first, previous, next, last }
})
