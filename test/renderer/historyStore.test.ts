// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { setTableApi } from '../../src/renderer/src/api'
import { useHistoryStore } from '../../src/renderer/src/stores/history'
import { FakeTableApi, historyEntry, historyGame } from './fixtures'

describe('useHistoryStore', () => {
  let api: FakeTableApi

  beforeEach(() => {
    setActivePinia(createPinia())
    api = new FakeTableApi()
    setTableApi(api)
  })

  it('lists the games newest first', async () => {
    api.listHistory.mockResolvedValue({ ok: true, games: [historyEntry('old', 1_000), historyEntry('new', 5_000, false)] })
    const history = useHistoryStore()
    await history.load()
    expect(history.entries.map((entry) => entry.id)).toEqual(['new', 'old'])
  })

  it('opens a game and steps through it within its bounds', async () => {
    api.openHistory.mockResolvedValue({ ok: true, game: historyGame() })
    const history = useHistoryStore()
    await history.open('g1')
    expect(api.openHistory).toHaveBeenCalledWith('g1')
    expect(history.step?.text).toBe('The game starts')
    history.previous()
    expect(history.stepIndex).toBe(0)
    history.next()
    expect(history.step?.text).toBe('Ann throws 4 4 2 3')
    history.last()
    expect(history.atLast).toBe(true)
    history.next()
    expect(history.stepIndex).toBe(2)
    history.first()
    expect(history.atFirst).toBe(true)
  })

  it('shows why a game cannot be opened', async () => {
    api.openHistory.mockResolvedValue({ ok: false, error: 'The record is damaged' })
    const history = useHistoryStore()
    await history.open('bad')
    expect(history.openGame).toBeNull()
    expect(history.error).toBe('The record is damaged')
  })
})
