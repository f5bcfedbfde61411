import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { Outcome } from '@shared/api'
import { personResolver, type PlayerList, type PlayerPage, type PlayerStatistics } from '@shared/stats'
import { getTableApi } from '../api'

/** The player list, everyone's statistics, and the player page being shown. */
export const usePlayersStore = defineStore('players', () => {
  const people = shallowRef<PlayerList>([])
  const statistics = shallowRef<PlayerStatistics[]>([])
  const page = shallowRef<PlayerPage | null>(null)
  const error = ref<string | null>(null)
  const personOf = computed(() => personResolver(people.value))

  async function loadPeople(): Promise<void> {
    const listed = await getTableApi().listPeople()
    if (listed.ok) people.value = listed.people
  }

  async function load(): Promise<void> {
    error.value = null
    const [listed, figures] = await Promise.all([getTableApi().listPeople(), getTableApi().playerStatistics()])
    if (listed.ok) people.value = listed.people
    if (figures.ok) statistics.value = figures.players
    else error.value = figures.error
  }

  /** Which page was asked for last: an answer to an earlier one (or after the page was closed) is dropped. */
  let pagesAsked = 0

  async function openPage(name: string): Promise<void> {
    error.value = null
    const asked = ++pagesAsked
    const answer = await getTableApi().playerPage(name)
    if (asked !== pagesAsked) return
    if (answer.ok) page.value = answer.page
    else error.value = answer.error
  }

  function closePage(): void {
    pagesAsked++
    page.value = null
  }

  /** Runs a change of the player list; on success everything is loaded again. */
  async function change(run: () => Promise<{ ok: true } | { ok: false; error: string }>): Promise<boolean> {
    const answer = await run()
    if (!answer.ok) {
      error.value = answer.error
      return false
    }
    await load()
    return true
  }

  const rename = (from: string, to: string) => change(() => getTableApi().renamePerson(from, to))
  const merge = (from: string, into: string) => change(() => getTableApi().mergePeople(from, into))
  const setColour = (name: string, colour: string) => change(() => getTableApi().setPersonColour(name, colour))

  /** Everyone's statistics as a CSV file; a refusal is shown as this store's error. */
  async function statisticsCsv(): Promise<Outcome<{ csv: string; fileName: string }>> {
    const answer = await getTableApi().statisticsCsv()
    if (!answer.ok) error.value = answer.error
    return answer
  }

  return { people, statistics, page, error, personOf, loadPeople, load, openPage, closePage, rename, merge, setColour, statisticsCsv }
})
