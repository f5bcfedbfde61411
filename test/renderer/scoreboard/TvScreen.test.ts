// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import TvScreen from '../../../src/renderer/src/scoreboard/TvScreen.vue'
import { FakeTableApi, farkleGame, foursiesGame, foursiesSummary, stateWith } from '../fixtures'
import { mountWith } from '../mountWith'

describe('TvScreen', () => {
  afterEach(() => vi.useRealTimers())

  it('waits calmly when no game is on', async () => {
    const wrapper = await mountWith(TvScreen, new FakeTableApi())
    expect(wrapper.find('[data-testid="waiting"]').text()).toContain('Waiting for a game')
    // Only the options toggle, hidden until a mouse moves.
    expect(wrapper.findAll('button').map((button) => button.attributes('data-testid'))).toEqual(['tv-options'])
  })

  it('shows every Foursies score with round and tour wins, the tab and who is to play', async () => {
    const wrapper = await mountWith(TvScreen, new FakeTableApi(stateWith(foursiesGame())))
    const bob = wrapper.find('[data-testid="score-Bob"]')
    expect(bob.find('[data-testid="points"]').text()).toBe('1')
    expect(bob.find('[data-testid="rounds"]').text()).toBe('2')
    expect(bob.find('[data-testid="tours"]').text()).toBe('1')
    expect(bob.attributes('data-current')).toBe('true')
    expect(wrapper.find('[data-testid="score-Ann"]').attributes('data-current')).toBe('false')
    expect(wrapper.find('[data-testid="score-Cy"] [data-testid="tab-marker"]').exists()).toBe(true)
    expect(wrapper.findAll('[data-testid="tab-marker"]')).toHaveLength(1)
    expect(wrapper.find('[data-testid="to-play"]').text()).toBe('Bob')
    expect(wrapper.find('[data-testid="phase"]').text()).toBe('Round 2 · Tour 1')
    expect(wrapper.find('[data-testid="player-note"]').text()).toBe('1 throw fewer')
    const dice = wrapper.find('[data-testid="scoreboard-dice"]').findAll('[data-testid="die"]')
    expect(dice.map((die) => die.attributes('data-value'))).toEqual(['2', '2', '1', '5'])
    expect(dice.map((die) => die.attributes('data-fresh'))).toEqual(['true', 'true', 'false', 'true'])
    // Only the options toggle, hidden until a mouse moves.
    expect(wrapper.findAll('button').map((button) => button.attributes('data-testid'))).toEqual(['tv-options'])
  })

  it('names the duellists when nobody is to play alone', async () => {
    const game = foursiesGame({ summary: foursiesSummary({ toPlay: null }) })
    game.table = { ...game.table, contenders: [0, 2], phase: 'Duel' }
    const wrapper = await mountWith(TvScreen, new FakeTableApi(stateWith(game)))
    expect(wrapper.find('[data-testid="to-play"]').text()).toBe('Ann vs Cy')
    expect(wrapper.find('[data-testid="score-Ann"]').attributes('data-current')).toBe('true')
  })

  it('shows Farkle scores, the turn points and the set-aside dice apart', async () => {
    const wrapper = await mountWith(TvScreen, new FakeTableApi(stateWith(farkleGame())))
    expect(wrapper.find('[data-testid="score-Ann"] [data-testid="points"]').text()).toBe('1,250')
    expect(wrapper.find('[data-testid="score-Ann"] [data-testid="turn-points"]').text()).toBe('+350')
    expect(wrapper.find('[data-testid="rounds"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="dice-set-aside"]').findAll('[data-testid="die"]')).toHaveLength(1)
  })

  it('shows each new announcement for a while', async () => {
    vi.useFakeTimers()
    const api = new FakeTableApi(stateWith(foursiesGame()))
    const wrapper = await mountWith(TvScreen, api)
    expect(wrapper.find('[data-testid="announcement"]').exists()).toBe(false)

    api.push(stateWith(foursiesGame({ announcement: { text: 'Bust!', kind: 'bust', id: 4 } }), { version: 3 }))
    await flushPromises()
    expect(wrapper.find('[data-testid="announcement"]').text()).toBe('Bust!')

    vi.advanceTimersByTime(2600) // shown 2.5 s, then it fades out for 0.3 s
    await flushPromises()
    expect(wrapper.find('[data-testid="announcement"]').classes()).toContain('is-leaving')
    vi.advanceTimersByTime(300)
    await flushPromises()
    expect(wrapper.find('[data-testid="announcement"]').exists()).toBe(false)

    // The same announcement again (another change elsewhere) does not come back; a new id does.
    api.push(stateWith(foursiesGame({ announcement: { text: 'Bust!', kind: 'bust', id: 4 } }), { version: 4 }))
    await flushPromises()
    expect(wrapper.find('[data-testid="announcement"]').exists()).toBe(false)
    api.push(stateWith(foursiesGame({ announcement: { text: 'Foursies!', kind: 'foursies', id: 5 } }), { version: 5 }))
    await flushPromises()
    expect(wrapper.find('[data-testid="announcement"]').text()).toBe('Foursies!')
  })

  it('shows the winners when the game is over, or that nobody won', async () => {
    const finished = foursiesGame({ summary: foursiesSummary({ finished: true, winners: ['Bob'], toPlay: null }) })
    const api = new FakeTableApi(stateWith(finished))
    const wrapper = await mountWith(TvScreen, api)
    expect(wrapper.find('[data-testid="winner-screen"] [data-testid="winner-names"]').text()).toBe('Bob')

    api.push(stateWith(foursiesGame({ summary: foursiesSummary({ finished: true, winners: [], toPlay: null }) }), { version: 9 }))
    await flushPromises()
    expect(wrapper.find('[data-testid="winner-names"]').text()).toBe('No winner')
  })
})
