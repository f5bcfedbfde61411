// @vitest-environment happy-dom
// History's trash against a fake screen API: a game deleted goes there and comes back.
import { describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import HistoryScreen from '@renderer/history/HistoryScreen.vue'
import { FakeTableApi, historyEntry } from '../fixtures'
import { mountWith } from '../mountWith'

describe('the history and its trash', () => {
  it('History deletes a game to the trash and restores it', async () => {
    const api = new FakeTableApi()
    api.listHistory.mockResolvedValue({ ok: true, games: [historyEntry('g1', 2_000)] })
    const wrapper = await mountWith(HistoryScreen, api)
    api.listTrash.mockResolvedValue({ ok: true, games: [{ id: 'g1', game: 'foursies', players: ['Ann', 'Bob'], deletedAt: 5_000 }] })
    api.listHistory.mockResolvedValue({ ok: true, games: [] })
    await wrapper.find('[data-testid="history-delete-0"]').trigger('click')
    await flushPromises()
    expect(api.trashGame).toHaveBeenCalledWith('g1')
    expect(wrapper.find('[data-testid="history-entry-0"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="trash"]').text()).toContain('Foursies · Ann and Bob')
    await wrapper.find('[data-testid="restore-g1"]').trigger('click')
    await flushPromises()
    expect(api.restoreGame).toHaveBeenCalledWith('g1')
  })

  it('History says where Delete was pressed that the game went to the trash, and puts it back from there', async () => {
    const api = new FakeTableApi()
    const g2 = { ...historyEntry('g2', 3_000), game: 'farkle' as const, title: 'Farkle', players: ['Cy', 'Dee'] }
    api.listHistory.mockResolvedValue({ ok: true, games: [g2, historyEntry('g1', 2_000)] })
    const wrapper = await mountWith(HistoryScreen, api)
    api.listHistory.mockResolvedValue({ ok: true, games: [historyEntry('g1', 2_000)] })
    api.listTrash.mockResolvedValue({ ok: true, games: [{ id: 'g2', game: 'farkle', players: ['Cy', 'Dee'], deletedAt: 5_000 }] })
    await wrapper.find('[data-testid="history-delete-0"]').trigger('click')
    await flushPromises()
    expect(api.trashGame).toHaveBeenCalledWith('g2')
    const rows = wrapper.findAll('.history__list > li')
    expect(rows).toHaveLength(2)
    expect(rows[0].attributes('data-testid')).toBe('history-trashed')
    expect(rows[0].text()).toContain('Moved the Farkle game of Cy and Dee to the trash')
    expect(rows[1].find('[data-testid="history-entry-0"]').attributes('data-id')).toBe('g1')

    api.listHistory.mockResolvedValue({ ok: true, games: [g2, historyEntry('g1', 2_000)] })
    api.listTrash.mockResolvedValue({ ok: true, games: [] })
    await wrapper.find('[data-testid="history-trashed-restore"]').trigger('click')
    await flushPromises()
    expect(api.restoreGame).toHaveBeenCalledWith('g2')
    expect(wrapper.find('[data-testid="history-trashed"]').exists()).toBe(false)
    expect(wrapper.findAll('[data-testid^="history-entry-"]')).toHaveLength(2)

    api.trashGame.mockResolvedValue({ ok: false, error: 'No game g1 in the history' })
    await wrapper.find('[data-testid="history-delete-1"]').trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="history-trashed"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="history-error"]').text()).toBe('No game g1 in the history')
  })
})
