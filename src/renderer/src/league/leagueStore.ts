import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { HeadToHeadView, LeagueView } from '@shared/league'

/**
 * The league as its page and TV show it: the view main sends (/_league/view), fetched again
 * whenever the server says it changed (/_league/events). The page computes nothing itself.
 */
export const useLeagueStore = defineStore('league', () => {
  const view = shallowRef<LeagueView | null>(null)
  const night = ref<string | null>(null)
  const error = ref<string | null>(null)
  const connected = ref(false)
  const headToHead = shallowRef<HeadToHeadView | null>(null)
  let events: EventSource | null = null
  let loading: Promise<void> | null = null
  let again = false

  const liveTables = computed(() => view.value?.tables.filter((table) => table.game !== null) ?? [])

  async function load(): Promise<void> {
    // One request at a time; a change meanwhile loads once more after it.
    if (loading) {
      again = true
      return loading
    }
    loading = (async () => {
      do {
        again = false
        try {
          const query = night.value ? `?night=${encodeURIComponent(night.value)}` : ''
          const answer = await fetch(`/_league/view${query}`, { cache: 'no-store' })
          if (!answer.ok) throw new Error(`${answer.status} ${await answer.text()}`)
          view.value = (await answer.json()) as LeagueView
          error.value = null
        } catch (failure) {
          error.value = `The league page cannot reach its server: ${(failure as Error).message}`
        }
      } while (again)
    })()
    try {
      await loading
    } finally {
      loading = null
    }
  }

  /** Follows the server's news of changes (EventSource reconnects by itself when the server comes back). */
  function follow(): void {
    if (events) return
    events = new EventSource('/_league/events')
    events.addEventListener('view', () => {
      connected.value = true
      void load()
    })
    events.addEventListener('error', () => {
      connected.value = false
    })
  }

  function stop(): void {
    events?.close()
    events = null
  }

  async function chooseNight(chosen: string | null): Promise<void> {
    night.value = chosen
    headToHead.value = null
    await load()
  }

  async function compare(first: string, second: string): Promise<void> {
    const query = new URLSearchParams({ a: first, b: second, ...(night.value ? { night: night.value } : {}) })
    const answer = await fetch(`/_league/head-to-head?${query}`, { cache: 'no-store' })
    headToHead.value = answer.ok ? ((await answer.json()) as HeadToHeadView) : null
  }

  /** Makes `from` (on one table, or on all) part of `into`; the answer's error, or null. */
  async function merge(from: string, into: string, table: string | null, password: string | null): Promise<string | null> {
    const answer = await fetch('/_league/merge', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from, into, table, ...(password ? { password } : {}) })
    })
    const outcome = (await answer.json().catch(() => ({ ok: false, error: `${answer.status}` }))) as { ok: boolean; error?: string }
    return outcome.ok ? null : (outcome.error ?? 'refused')
  }

  return { view, night, error, connected, headToHead, liveTables, load, follow, stop, chooseNight, compare, merge }
})
