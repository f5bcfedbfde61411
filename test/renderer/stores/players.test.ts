// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { setTableApi } from '@renderer/api'
import { usePlayersStore } from '@renderer/stores/players'
import type { PlayerPage } from '@shared/stats'
import { FakeTableApi } from '../fixtures'

const pageOf = (name: string): PlayerPage => ({ person: { name, colour: '#e6194b', aliases: [] }, statistics: null, form: [], opponents: [] })

/** An answer main gives when the test says. */
function later<T>(): { promise: Promise<T>; answer: (value: T) => void } {
  let answer!: (value: T) => void
  const promise = new Promise<T>((resolve) => (answer = resolve))
  return { promise, answer }
}

describe('usePlayersStore', () => {
  let api: FakeTableApi

  beforeEach(() => {
    setActivePinia(createPinia())
    api = new FakeTableApi()
    setTableApi(api)
  })

  it('shows the page asked for last, whatever order the answers come in', async () => {
    const ann = later<{ ok: true; page: PlayerPage }>()
    const bob = later<{ ok: true; page: PlayerPage }>()
    api.playerPage.mockReturnValueOnce(ann.promise).mockReturnValueOnce(bob.promise)
    const players = usePlayersStore()
    const openedAnn = players.openPage('Ann')
    const openedBob = players.openPage('Bob')
    bob.answer({ ok: true, page: pageOf('Bob') })
    await openedBob
    ann.answer({ ok: true, page: pageOf('Ann') })
    await openedAnn
    expect(players.page?.person.name).toBe('Bob')
  })

  it('drops an answer that comes after the page was closed', async () => {
    const ann = later<{ ok: true; page: PlayerPage }>()
    api.playerPage.mockReturnValueOnce(ann.promise)
    const players = usePlayersStore()
    const opened = players.openPage('Ann')
    players.closePage()
    ann.answer({ ok: true, page: pageOf('Ann') })
    await opened
    expect(players.page).toBeNull()
  })

  it('keeps a refused statistics export as its error', async () => {
    api.statisticsCsv.mockResolvedValue({ ok: false, error: 'The disk is full' })
    const players = usePlayersStore()
    expect(await players.statisticsCsv()).toEqual({ ok: false, error: 'The disk is full' })
    expect(players.error).toBe('The disk is full')
  })
})
