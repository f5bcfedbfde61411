// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { setTableApi } from '@renderer/api'
import { useHistoryStore } from '@renderer/stores/history'
import { FakeTableApi, historyEntry, historyGame } from '../fixtures'

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

  it('opens a game and steps through it within its bounds, asking main for each step', async () => {
    api.openHistory.mockResolvedValue({ ok: true, game: historyGame(api) })
    const history = useHistoryStore()
    await history.open('g1')
    expect(api.openHistory).toHaveBeenCalledWith('g1')
    expect(api.historyStep).toHaveBeenLastCalledWith('replay-1', 0)
    expect(history.step?.text).toBe('Ann throws 4 4 2 3')
    await history.previous()
    expect(history.stepIndex).toBe(0)
    await history.next()
    expect(history.step?.text).toBe('Ann ends the turn on 4')
    await history.last()
    expect(history.atLast).toBe(true)
    expect(history.step?.text).toBe('Ann wins the round')
    await history.next()
    expect(history.stepIndex).toBe(2)
    await history.first()
    expect(history.atFirst).toBe(true)
    expect(history.step?.line).toBe(2)
    expect(history.error).toBeNull()
  })

  it('shows the step asked for last when answers come back out of order', async () => {
    api.openHistory.mockResolvedValue({ ok: true, game: historyGame(api) })
    const history = useHistoryStore()
    await history.open('g1')
    const answer = api.historyStep.getMockImplementation()!
    let releaseSlow: () => void = () => {}
    api.historyStep.mockImplementationOnce(async (replay, index) => {
      await new Promise<void>((resolve) => (releaseSlow = resolve))
      return answer(replay, index)
    })
    const slow = history.goTo(1)
    await history.goTo(2)
    releaseSlow()
    await slow
    expect(history.stepIndex).toBe(2)
    expect(history.step?.text).toBe('Ann wins the round')
  })

  it('shows the game clicked last, and none after Back, when a long game answers late', async () => {
    const history = useHistoryStore()
    const answers = new Map<string, () => void>()
    api.openHistory.mockImplementation(async (id) => {
      await new Promise<void>((resolve) => answers.set(id, resolve))
      return { ok: true, game: { ...historyGame(api), entry: historyEntry(id, 2_000) } }
    })
    const long = history.open('long')
    const short = history.open('short')
    expect(history.opening).toBe('short')
    answers.get('short')!()
    await short
    answers.get('long')!()
    await long
    expect(history.openGame?.entry.id).toBe('short')
    expect(history.opening).toBeNull()

    history.close()
    const again = history.open('long')
    history.close()
    answers.get('long')!()
    await again
    expect(history.openGame).toBeNull()
    expect(history.opening).toBeNull()
  })

  it('says why a step cannot be shown', async () => {
    api.openHistory.mockResolvedValue({ ok: true, game: historyGame(api) })
    const history = useHistoryStore()
    await history.open('g1')
    api.historyStep.mockResolvedValueOnce({ ok: false, error: 'This replay was closed (other games were opened since): open the game again' })
    await history.next()
    expect(history.error).toContain('This replay was closed')
    expect(history.step?.text).toBe('Ann throws 4 4 2 3')
    expect(history.stepIndex).toBe(0)
  })

  it('shows why a game cannot be opened', async () => {
    api.openHistory.mockResolvedValue({ ok: false, error: 'The record is damaged' })
    const history = useHistoryStore()
    await history.open('bad')
    expect(history.openGame).toBeNull()
    expect(history.error).toBe('The record is damaged')
  })
})
