// @vitest-environment happy-dom
// The statistics screens against a fake screen API: Setup offers people in their colours, History
// deletes to the trash and restores, the Players tab renames.
import { describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { setTableApi } from '../../src/renderer/src/api'
import HistoryScreen from '../../src/renderer/src/history/HistoryScreen.vue'
import PeopleChips from '../../src/renderer/src/setup/PeopleChips.vue'
import PlayersScreen from '../../src/renderer/src/players/PlayersScreen.vue'
import { FakeTableApi, historyEntry } from './fixtures'
import { mountWith } from './mountWith'

const PEOPLE = [
  { name: 'Ann', colour: '#e6194b', aliases: [] },
  { name: 'Bob', colour: '#3cb44b', aliases: ['Bobby'] }
]

describe('the statistics screens', () => {
  it('Setup offers the people on the player list again, each with a colour that can be changed', async () => {
    const api = new FakeTableApi()
    api.listPeople.mockResolvedValue({ ok: true, people: PEOPLE })
    const pinia = createPinia()
    setActivePinia(pinia)
    setTableApi(api)
    const wrapper = mount(PeopleChips, { props: { taken: ['Ann'], canControl: true }, global: { plugins: [pinia] } })
    await flushPromises()
    expect(wrapper.find('[data-testid="person-Ann"]').exists()).toBe(false)
    await wrapper.find('[data-testid="person-Bob"]').trigger('click')
    expect(wrapper.emitted('add')).toEqual([['Bob']])
    const colour = wrapper.find('[data-testid="person-colour-Bob"]')
    expect((colour.element as HTMLInputElement).value).toBe('#3cb44b')
    ;(colour.element as HTMLInputElement).value = '#000000'
    await colour.trigger('change')
    await flushPromises()
    expect(api.setPersonColour).toHaveBeenCalledWith('Bob', '#000000')
  })

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

  it("a player's page counts in words that agree with the number", async () => {
    const api = new FakeTableApi()
    api.listPeople.mockResolvedValue({ ok: true, people: PEOPLE })
    api.playerStatistics.mockResolvedValue({ ok: true, players: [{ name: 'Ann', games: 1, wins: 1, winRate: 1, byGame: {} }] })
    const page = (games: number, wins: number) => ({
      person: PEOPLE[0],
      statistics: { name: 'Ann', games, wins, winRate: wins / games, byGame: {} },
      form: Array.from({ length: games }, (_, i) => ({ id: `g${i}`, game: 'farkle' as const, startedAt: 1_000 * i, won: i < wins, seats: 2 })),
      opponents: []
    })
    api.playerPage.mockResolvedValue({ ok: true, page: page(1, 1) })
    const wrapper = await mountWith(PlayersScreen, api)
    await wrapper.find('[data-testid="player-Ann"]').trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="player-overall"]').text()).toBe('1 game · 1 win · 100%')
    expect(wrapper.find('[data-testid="form-chart"]').attributes('data-chart-title')).toBe('Form over the last 1 game')

    api.playerPage.mockResolvedValue({ ok: true, page: page(2, 0) })
    await wrapper.find('[data-testid="player-back"]').trigger('click')
    await wrapper.find('[data-testid="player-Ann"]').trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="player-overall"]').text()).toBe('2 games · 0 wins · 0%')
    expect(wrapper.find('[data-testid="form-chart"]').attributes('data-chart-title')).toBe('Form over the last 2 games')
  })

  it('the Players tab lists statistics and renames a person', async () => {
    const api = new FakeTableApi()
    api.listPeople.mockResolvedValue({ ok: true, people: PEOPLE })
    api.playerStatistics.mockResolvedValue({
      ok: true,
      players: [
        { name: 'Ann', games: 4, wins: 3, winRate: 0.75, byGame: {} },
        { name: 'Bob', games: 4, wins: 1, winRate: 0.25, byGame: {} }
      ]
    })
    const wrapper = await mountWith(PlayersScreen, api)
    expect(wrapper.find('[data-testid="players-screen"] tbody').text()).toContain('75%')
    expect(wrapper.find('[data-testid="players-screen"] tbody').text()).toContain('Bobby')
    await wrapper.find('[data-testid="rename-from"]').setValue('Bob')
    await wrapper.find('[data-testid="rename-to"]').setValue('Robert')
    await wrapper.find('[data-testid="rename-to"]').element.closest('form')?.dispatchEvent(new Event('submit'))
    await flushPromises()
    expect(api.renamePerson).toHaveBeenCalledWith('Bob', 'Robert')
    api.renamePerson.mockResolvedValue({ ok: false, error: 'Ann is already on the list: merge them instead' })
    await wrapper.find('[data-testid="rename-to"]').setValue('Ann')
    await wrapper.find('[data-testid="rename-to"]').element.closest('form')?.dispatchEvent(new Event('submit'))
    await flushPromises()
    expect(wrapper.find('[data-testid="players-error"]').text()).toContain('merge them instead')
  })
})
