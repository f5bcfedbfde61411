// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import HistoryScreen from '@renderer/history/HistoryScreen.vue'
import { FakeTableApi, foursiesGame, historyEntry, historyGame, stateWith } from '../fixtures'
import { mountWith } from '../mountWith'

describe('HistoryScreen', () => {
  it('lists the games and steps through one', async () => {
    const api = new FakeTableApi()
    api.listHistory.mockResolvedValue({ ok: true, games: [historyEntry('g1', 2_000), historyEntry('g2', 9_000, false)] })
    api.openHistory.mockResolvedValue({ ok: true, game: historyGame(api) })
    const wrapper = await mountWith(HistoryScreen, api)
    expect(wrapper.find('[data-testid="history-entry-0"]').attributes('data-id')).toBe('g2')
    expect(wrapper.find('[data-testid="history-entry-0"] [data-testid="history-status"]').text()).toBe('Abandoned')
    expect(wrapper.find('[data-testid="history-entry-1"] [data-testid="history-status"]').text()).toBe('Finished')
    // Its moves, not its lines: the header is line 1, so 12 moves end at line 13.
    expect(wrapper.find('[data-testid="history-entry-1"] .history__date').text()).toMatch(/ · 12 moves$/)

    await wrapper.find('[data-testid="history-entry-1"]').trigger('click')
    await flushPromises()
    expect(api.openHistory).toHaveBeenCalledWith('g1')
    expect(wrapper.find('[data-testid="history-step-text"]').text()).toContain('Ann throws 4 4 2 3')
    expect(wrapper.find('[data-testid="history-position"]').text()).toBe('Line 2 · step 1 of 3')
    await wrapper.find('[data-testid="history-next"]').trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="history-step-text"]').text()).toContain('Ann ends the turn on 4')
    expect(wrapper.find('[data-testid="history-position"]').text()).toBe('Line 3 · step 2 of 3')
    await wrapper.find('[data-testid="history-last"]').trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="history-step-text"]').text()).toContain('Ann wins the round')
    expect(wrapper.find('[data-testid="history-next"]').attributes('disabled')).toBeDefined()
    await wrapper.find('[data-testid="history-previous"]').trigger('click')
    await wrapper.find('[data-testid="history-first"]').trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="history-position"]').text()).toBe('Line 2 · step 1 of 3')
    expect(wrapper.find('[data-testid="history-dice"] [data-testid="die"]').attributes('data-value')).toBe('4')
    expect(wrapper.find('[data-testid="score-Ann"]').exists()).toBe(true)
    await wrapper.find('[data-testid="history-back"]').trigger('click')
    expect(wrapper.find('[data-testid="history-entry-0"]').exists()).toBe(true)
  })

  it('asks before Resume replaces a game in progress; with none, resumes at once', async () => {
    const api = new FakeTableApi(stateWith(foursiesGame()))
    api.listHistory.mockResolvedValue({ ok: true, games: [historyEntry('g2', 9_000, false)] })
    const wrapper = await mountWith(HistoryScreen, api)
    await wrapper.find('[data-testid="history-resume-0"]').trigger('click')
    expect(api.resumeHistory).not.toHaveBeenCalled()
    expect(wrapper.find('[data-testid="resume-confirm"]').text()).toContain('Resume Foursies of Ann and Bob in place of the game in progress?')
    await wrapper.find('[data-testid="resume-confirm-no"]').trigger('click')
    expect(wrapper.find('[data-testid="resume-confirm"]').exists()).toBe(false)
    expect(api.resumeHistory).not.toHaveBeenCalled()
    await wrapper.find('[data-testid="history-resume-0"]').trigger('click')
    await wrapper.find('[data-testid="resume-confirm-yes"]').trigger('click')
    await flushPromises()
    expect(api.resumeHistory).toHaveBeenCalledWith('g2')
    expect(wrapper.emitted('resumed')).toHaveLength(1)
    wrapper.unmount()

    const idle = new FakeTableApi()
    idle.listHistory.mockResolvedValue({ ok: true, games: [historyEntry('g2', 9_000, false)] })
    const noGame = await mountWith(HistoryScreen, idle)
    await noGame.find('[data-testid="history-resume-0"]').trigger('click')
    await flushPromises()
    expect(idle.resumeHistory).toHaveBeenCalledWith('g2')
    expect(noGame.find('[data-testid="resume-confirm"]').exists()).toBe(false)
    noGame.unmount()
  })
})
