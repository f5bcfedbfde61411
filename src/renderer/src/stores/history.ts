import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { HistoryEntry, HistoryGame, Outcome, ReplayStep } from '@shared/api'
import type { GameChart, TrashEntry } from '@shared/stats'
import { getTableApi } from '../api'

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The saved games (newest first), the one being stepped through, and the games in the trash. */
export const useHistoryStore = defineStore('history', () => {
  const entries = shallowRef<HistoryEntry[]>([])
  const loading = ref(false)
  const error = ref<string | null>(null)
  const openGame = shallowRef<HistoryGame | null>(null)
  const stepIndex = ref(0)
  /** The step shown: asked of main one at a time, since a long game has hundreds of thousands. */
  const step = shallowRef<ReplayStep | null>(null)
  let stepsAsked = 0
  let shownIndex = 0

  const stepCount = computed(() => openGame.value?.stepCount ?? 0)
  const atFirst = computed(() => stepIndex.value <= 0)
  const atLast = computed(() => stepIndex.value >= stepCount.value - 1)

  /** A step that could not be shown: why, and the position goes back to the step still shown. */
  function showFailure(why: string): void {
    error.value = why
    stepIndex.value = step.value ? shownIndex : 0
  }

  /** Shows step `index` once main answers, unless another step was asked for meanwhile. */
  async function loadStep(index: number): Promise<void> {
    const game = openGame.value
    const asked = ++stepsAsked
    if (!game || index >= game.stepCount) {
      step.value = null
      shownIndex = 0
      return
    }
    try {
      const answer = await getTableApi().historyStep(game.replay, index)
      if (asked !== stepsAsked) return
      if (answer.ok) {
        step.value = answer.step
        shownIndex = index
      } else showFailure(answer.error)
    } catch (failure) {
      if (asked === stepsAsked) showFailure(errorText(failure))
    }
  }

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

  /** Which game is being opened (a long one takes a while): an answer for an earlier click, or after Back, is dropped. */
  const opening = ref<string | null>(null)
  let opensAsked = 0

  async function open(id: string): Promise<void> {
    error.value = null
    const asked = ++opensAsked
    opening.value = id
    try {
      const opened = await getTableApi().openHistory(id)
      if (asked !== opensAsked) return
      if (!opened.ok) {
        error.value = opened.error
        return
      }
      openGame.value = opened.game
      stepIndex.value = 0
      step.value = null
      await loadStep(0)
    } catch (failure) {
      if (asked === opensAsked) error.value = errorText(failure)
    } finally {
      if (asked === opensAsked) opening.value = null
    }
  }

  function close(): void {
    opensAsked++
    opening.value = null
    openGame.value = null
    stepIndex.value = 0
    void loadStep(0)
  }

  function goTo(index: number): Promise<void> {
    const last = stepCount.value - 1
    const wanted = Math.max(0, Math.min(last, index))
    if (wanted === stepIndex.value && step.value) return Promise.resolve()
    stepIndex.value = wanted
    return loadStep(wanted)
  }
  const first = () => goTo(0)
  const previous = () => goTo(stepIndex.value - 1)
  const next = () => goTo(stepIndex.value + 1)
  const last = () => goTo(stepCount.value - 1)

  /** Games deleted from the history, which can be put back. */
  const trash = shallowRef<TrashEntry[]>([])

  async function loadTrash(): Promise<void> {
    const listed = await getTableApi().listTrash()
    if (listed.ok) trash.value = listed.games
  }

  /** Moves a game to the trash; the answer says whether main did. */
  const trashGame = (id: string): Promise<Outcome> => getTableApi().trashGame(id)
  /** Puts a game from the trash back in the history. */
  const restoreGame = (id: string): Promise<Outcome> => getTableApi().restoreGame(id)
  /** A game's score over its turns (`current` for the game being played). */
  const gameChart = (id: string): Promise<Outcome<GameChart>> => getTableApi().gameChart(id)

  return {
    entries,
    loading,
    error,
    openGame,
    opening,
    stepIndex,
    stepCount,
    step,
    atFirst,
    atLast,
    trash,
    load,
    open,
    close,
    goTo,
    first,
    previous,
    next,
    last,
    loadTrash,
    trashGame,
    restoreGame,
    gameChart
  }
})
