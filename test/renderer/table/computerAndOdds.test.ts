// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import type { VueWrapper } from '@vue/test-utils'
import SetupScreen from '@renderer/setup/SetupScreen.vue'
import TableScreen from '@renderer/table/TableScreen.vue'
import type { FoursiesOdds } from '@shared/games/foursies/odds'
import { FakeTableApi, foursiesGame, stateWith } from '../fixtures'
import { mountWith } from '../mountWith'

let wrapper: VueWrapper | null = null
afterEach(() => {
  wrapper?.unmount()
  wrapper = null
})

const odds: FoursiesOdds = {
  game: 'foursies',
  finished: false,
  player: 'Ann',
  phase: 'turn',
  policy: 'p',
  options: [
    { move: { reroll: [2, 2] }, label: 'Re-roll 2+2', best: true, text: 'Re-roll 2+2: 31% to finish on 4, 12% bust', finish: 0.31, onFour: 0.3, foursies: 0.01, bust: 0.12, reset: 0, expectedScore: 2.5, endScores: [0, 0, 0.2, 0.5, 0.3] },
    { move: { end: true }, label: 'End the turn', best: false, text: 'End the turn: 0% to finish on 4, 0% bust', finish: 0, onFour: 0, foursies: 0, bust: 0, reset: 0, expectedScore: 2, endScores: [0, 0, 1, 0, 0] }
  ],
  text: 'Ann: the best choice is Re-roll 2+2'
}

describe('computer players and odds on the screens', () => {
  it('marks seats for the computer in the setup', async () => {
    const api = new FakeTableApi()
    wrapper = await mountWith(SetupScreen, api)
    await wrapper.find('[data-testid="player-name-0"]').setValue('Ann')
    await wrapper.find('[data-testid="player-name-1"]').setValue('Robo')
    await wrapper.find('[data-testid="player-computer-1"]').trigger('click')
    await wrapper.find('[data-testid="start-game"]').trigger('click')
    await flushPromises()
    expect(api.newGame).toHaveBeenLastCalledWith(expect.objectContaining({ players: ['Ann', 'Robo'], computers: [1] }))
  })

  it('adds a computer opponent who moves first to a solo game of Fouche', async () => {
    const api = new FakeTableApi()
    wrapper = await mountWith(SetupScreen, api)
    await wrapper.find('[data-testid="game-fouche"]').trigger('click')
    await wrapper.find('[data-testid="player-name-0"]').setValue('Ann')
    await wrapper.find('[data-testid="start-game"]').trigger('click')
    await flushPromises()
    expect(api.newGame).toHaveBeenLastCalledWith(expect.objectContaining({ game: 'fouche', players: ['Computer', 'Ann'], computers: [0] }))
  })

  it('shows what the computer is doing, and the odds only when asked', async () => {
    const game = foursiesGame({ thinking: { seat: 1, text: 'Bob is thinking…' }, odds })
    const api = new FakeTableApi(stateWith(game, { showOdds: false }))
    wrapper = await mountWith(TableScreen, api)
    expect(wrapper.find('[data-testid="thinking"]').text()).toContain('Bob is thinking…')
    expect(wrapper.find('[data-testid="odds"]').exists()).toBe(false)
    await wrapper.find('[data-testid="odds-toggle"]').trigger('click')
    expect(api.setShowOdds).toHaveBeenCalledWith(true)
    api.push(stateWith(game, { showOdds: true, version: 99 }))
    await flushPromises()
    const lines = wrapper.findAll('[data-testid="odds-line"]').map((line) => line.text())
    expect(lines).toEqual(['Re-roll 2+2: 31% to finish on 4, 12% bust', 'End the turn: 0% to finish on 4, 0% bust'])
  })
})
