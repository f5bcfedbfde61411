// @vitest-environment happy-dom
// The Players tab and a player's page against a fake screen API.
import { describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import PlayersScreen from '@renderer/players/PlayersScreen.vue'
import { FakeTableApi } from '../fixtures'
import { mountApp, mountWith } from '../mountWith'

const PEOPLE = [
  { name: 'Ann', colour: '#e6194b', aliases: [] },
  { name: 'Bob', colour: '#3cb44b', aliases: ['Bobby'] }
]

describe('the Players tab', () => {
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
    const { wrapper, router } = await mountApp(api, '/players')
    await wrapper.find('[data-testid="player-Ann"]').trigger('click')
    await flushPromises()
    expect(router.currentRoute.value.fullPath).toBe('/players/Ann')
    expect(api.playerPage).toHaveBeenCalledWith('Ann')
    expect(wrapper.find('[data-testid="player-overall"]').text()).toBe('1 game · 1 win · 100%')
    expect(wrapper.find('[data-testid="form-chart"]').attributes('data-chart-title')).toBe('Form over the last 1 game')

    api.playerPage.mockResolvedValue({ ok: true, page: page(2, 0) })
    await wrapper.find('[data-testid="player-back"]').trigger('click')
    await flushPromises()
    expect(router.currentRoute.value.fullPath).toBe('/players')
    await wrapper.find('[data-testid="player-Ann"]').trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="player-overall"]').text()).toBe('2 games · 0 wins · 0%')
    expect(wrapper.find('[data-testid="form-chart"]').attributes('data-chart-title')).toBe('Form over the last 2 games')
    wrapper.unmount()
  })

  it('the Players table sorts by each column: numbers from the most, words from A; again the other way', async () => {
    const api = new FakeTableApi()
    api.listPeople.mockResolvedValue({ ok: true, people: [...PEOPLE, { name: 'Cy', colour: '#4363d8', aliases: ['Cyril', 'C'] }] })
    api.playerStatistics.mockResolvedValue({
      ok: true,
      players: [
        { name: 'Bob', games: 4, wins: 1, winRate: 0.25, byGame: {} },
        { name: 'Cy', games: 2, wins: 2, winRate: 1, byGame: {} },
        { name: 'Ann', games: 6, wins: 3, winRate: 0.5, byGame: {} }
      ]
    })
    const wrapper = await mountWith(PlayersScreen, api)
    const names = () => wrapper.findAll('[data-testid="players-row"]').map((row) => row.find('a').text())
    expect(names()).toEqual(['Bob', 'Cy', 'Ann'])
    const sortings: Array<[string, string[]]> = [
      ['name', ['Ann', 'Bob', 'Cy']],
      ['name', ['Cy', 'Bob', 'Ann']],
      ['games', ['Ann', 'Bob', 'Cy']],
      ['wins', ['Ann', 'Cy', 'Bob']],
      ['winRate', ['Cy', 'Ann', 'Bob']],
      ['winRate', ['Bob', 'Ann', 'Cy']],
      ['aliases', ['Bob', 'Cy', 'Ann']]
    ]
    for (const [column, order] of sortings) {
      await wrapper.find(`[data-testid="sort-${column}"]`).trigger('click')
      expect(names(), column).toEqual(order)
    }
    expect(wrapper.find('[data-testid="sort-aliases"]').element.closest('th')?.getAttribute('aria-sort')).toBe('ascending')
    expect(wrapper.find('[data-testid="sort-games"]').element.closest('th')?.getAttribute('aria-sort')).toBe('none')
    wrapper.unmount()
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

  it("a player's page has an address of its own, the name encoded in it; a refusal is said there", async () => {
    const api = new FakeTableApi()
    const odd = { name: 'AC/DC fan', colour: '#4363d8', aliases: [] }
    api.listPeople.mockResolvedValue({ ok: true, people: [odd] })
    api.playerStatistics.mockResolvedValue({ ok: true, players: [{ name: odd.name, games: 1, wins: 0, winRate: 0, byGame: {} }] })
    api.playerPage.mockResolvedValue({ ok: true, page: { person: odd, statistics: null, form: [], opponents: [] } })
    const { wrapper, router } = await mountApp(api, '/players')
    expect(wrapper.find('[data-testid="player-AC/DC fan"]').attributes('href')).toBe('/players/AC%2FDC%20fan')
    await wrapper.find('[data-testid="player-AC/DC fan"]').trigger('click')
    await flushPromises()
    expect(api.playerPage).toHaveBeenCalledWith('AC/DC fan')
    expect(wrapper.find('[data-testid="player-name"]').text()).toBe('AC/DC fan')

    api.playerPage.mockResolvedValue({ ok: false, error: 'Nobody called Zed on the player list' })
    await router.push('/players/Zed')
    await flushPromises()
    expect(wrapper.find('[data-testid="player-page"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="players-error"]').text()).toBe('Nobody called Zed on the player list')
    wrapper.unmount()
  })
})
