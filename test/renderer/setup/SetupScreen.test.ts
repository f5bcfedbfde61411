// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { flushPromises, type VueWrapper } from '@vue/test-utils'
import SetupScreen from '@renderer/setup/SetupScreen.vue'
import { useSetupStore } from '@renderer/stores/setup'
import { MAX_NAME_LENGTH } from '@shared/api-methods'
import { FakeTableApi, emptyState } from '../fixtures'
import { mountWith } from '../mountWith'

async function name(wrapper: VueWrapper, index: number, value: string): Promise<void> {
  await wrapper.find(`[data-testid="player-name-${index}"]`).setValue(value)
}

describe('SetupScreen', () => {
  it('builds a Foursies setup with the chosen options', async () => {
    const api = new FakeTableApi()
    const wrapper = await mountWith(SetupScreen, api)
    await name(wrapper, 0, 'Ann')
    await name(wrapper, 1, 'Bob')
    await wrapper.find('[data-testid="option-match-tour"]').trigger('click')
    await wrapper.find('[data-testid="option-tour-four-rounds"]').trigger('click')
    await wrapper.find('[data-testid="option-devilsNumber-reset"]').trigger('click')
    await wrapper.find('[data-testid="option-tab"]').setValue('1')
    await wrapper.find('[data-testid="start-game"]').trigger('click')
    await flushPromises()
    expect(api.newGame).toHaveBeenCalledWith({
      game: 'foursies',
      players: ['Ann', 'Bob'],
      rules: { match: 'tour', tour: 'four-rounds', devilsNumber: 'reset', tab: 1 }
    })
    expect(wrapper.emitted('started')).toHaveLength(1)
  })

  it('offers the club league before any game is on (join or host it from Setup)', async () => {
    const wrapper = await mountWith(SetupScreen, new FakeTableApi(emptyState({ league: { joined: null, hosting: null } })))
    expect(wrapper.find('[data-testid="league-join-form"]').exists()).toBe(true)
    expect(wrapper.find('[data-testid="league-host-form"]').exists()).toBe(true)
  })

  it('sends the defaults of each game', async () => {
    const api = new FakeTableApi()
    const wrapper = await mountWith(SetupScreen, api)
    await name(wrapper, 0, 'Ann')
    await name(wrapper, 1, 'Bob')
    const expected = {
      foursies: { match: 'round', tour: 'first-to-four', devilsNumber: 'none', tab: 0 },
      farkle: { entry: 500, target: 10000 },
      fouche: { entry: 0, target: 10000 },
      'four-plus': { rounds: 3 }
    }
    for (const [game, rules] of Object.entries(expected)) {
      await wrapper.find(`[data-testid="game-${game}"]`).trigger('click')
      await wrapper.find('[data-testid="start-game"]').trigger('click')
      await flushPromises()
      expect(api.newGame).toHaveBeenLastCalledWith({ game, players: ['Ann', 'Bob'], rules })
    }
  })

  it('keeps Farkle and Fouche options apart though they share a form', async () => {
    const api = new FakeTableApi()
    const wrapper = await mountWith(SetupScreen, api)
    await name(wrapper, 0, 'Ann')
    await name(wrapper, 1, 'Bob')
    await wrapper.find('[data-testid="game-fouche"]').trigger('click')
    await wrapper.find('[data-testid="option-entry"]').setValue('300')
    await wrapper.find('[data-testid="option-target"]').setValue('5000')
    await wrapper.find('[data-testid="game-farkle"]').trigger('click')
    expect((wrapper.find('[data-testid="option-entry"]').element as HTMLInputElement).value).toBe('500')
    await wrapper.find('[data-testid="game-fouche"]').trigger('click')
    await wrapper.find('[data-testid="start-game"]').trigger('click')
    await flushPromises()
    expect(api.newGame).toHaveBeenLastCalledWith({ game: 'fouche', players: ['Ann', 'Bob'], rules: { entry: 300, target: 5000 } })
  })

  it('reorders, removes and adds players, skipping blank rows', async () => {
    const api = new FakeTableApi()
    const wrapper = await mountWith(SetupScreen, api)
    await name(wrapper, 0, 'Ann')
    await name(wrapper, 1, 'Bob')
    await wrapper.find('[data-testid="add-player"]').trigger('click')
    await name(wrapper, 2, 'Cy')
    await wrapper.find('[data-testid="add-player"]').trigger('click')
    await wrapper.find('[data-testid="player-down-0"]').trigger('click')
    await wrapper.find('[data-testid="player-up-2"]').trigger('click')
    expect((wrapper.find('[data-testid="player-name-0"]').element as HTMLInputElement).value).toBe('Bob')
    expect((wrapper.find('[data-testid="player-name-1"]').element as HTMLInputElement).value).toBe('Cy')
    await wrapper.find('[data-testid="player-remove-2"]').trigger('click')
    await wrapper.find('[data-testid="game-farkle"]').trigger('click')
    await wrapper.find('[data-testid="option-entry"]').setValue('0')
    await wrapper.find('[data-testid="option-target"]').setValue('5000')
    await wrapper.find('[data-testid="start-game"]').trigger('click')
    await flushPromises()
    expect(api.newGame).toHaveBeenCalledWith({ game: 'farkle', players: ['Bob', 'Cy'], rules: { entry: 0, target: 5000 } })
  })

  it('takes names as long as the screen API takes them', async () => {
    const api = new FakeTableApi()
    const wrapper = await mountWith(SetupScreen, api)
    expect(wrapper.find('[data-testid="player-name-0"]').attributes('maxlength')).toBe(String(MAX_NAME_LENGTH))
    const long = 'A'.repeat(MAX_NAME_LENGTH)
    await name(wrapper, 0, long)
    await name(wrapper, 1, 'Bob')
    await wrapper.find('[data-testid="start-game"]').trigger('click')
    await flushPromises()
    expect(api.newGame).toHaveBeenCalledWith(expect.objectContaining({ players: [long, 'Bob'] }))
  })

  it('offers recent players as chips that fill the first empty row', async () => {
    const api = new FakeTableApi(emptyState({ recentPlayers: ['Dee', 'Ann'] }))
    const wrapper = await mountWith(SetupScreen, api)
    await name(wrapper, 0, 'Ann')
    expect(wrapper.find('[data-testid="recent-player-Ann"]').exists()).toBe(false)
    await wrapper.find('[data-testid="recent-player-Dee"]').trigger('click')
    expect(useSetupStore().names).toEqual(['Ann', 'Dee'])
    expect(wrapper.find('[data-testid="recent-player-Dee"]').exists()).toBe(false)
  })

  it('offers each known person once: on the player list (recent first, with their colour), else as a recent player', async () => {
    const api = new FakeTableApi(emptyState({ recentPlayers: ['Dee', 'Bob', 'Eve'] }))
    api.listPeople.mockResolvedValue({
      ok: true,
      people: [
        { name: 'Ann', colour: '#e6194b', aliases: [] },
        { name: 'Bob', colour: '#3cb44b', aliases: [] },
        { name: 'Dee', colour: '#4363d8', aliases: [] }
      ]
    })
    const wrapper = await mountWith(SetupScreen, api)
    await flushPromises()
    const people = wrapper.findAll('[data-testid^="person-"]').filter((chip) => chip.element.tagName === 'BUTTON')
    expect(people.map((chip) => chip.attributes('data-testid'))).toEqual(['person-Dee', 'person-Bob', 'person-Ann'])
    expect(wrapper.findAll('[data-testid^="recent-player-"]').map((chip) => chip.attributes('data-testid'))).toEqual(['recent-player-Eve'])
  })

  it('refuses duplicate names and too few players before asking main, and shows main’s refusal', async () => {
    const api = new FakeTableApi()
    const wrapper = await mountWith(SetupScreen, api)
    await name(wrapper, 0, 'Ann')
    await name(wrapper, 1, 'ann')
    await wrapper.find('[data-testid="start-game"]').trigger('click')
    expect(wrapper.find('[data-testid="setup-error"]').text()).toContain('different name')

    await name(wrapper, 1, '')
    await wrapper.find('[data-testid="game-four-plus"]').trigger('click')
    await wrapper.find('[data-testid="start-game"]').trigger('click')
    expect(wrapper.find('[data-testid="setup-error"]').text()).toContain('needs at least 2 players')
    expect(api.newGame).not.toHaveBeenCalled()

    api.newGame.mockResolvedValue({ ok: false, error: 'rounds must be at least 1' })
    await name(wrapper, 1, 'Bob')
    await wrapper.find('[data-testid="start-game"]').trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="setup-error"]').text()).toBe('rounds must be at least 1')
    expect(wrapper.emitted('started')).toBeUndefined()
  })

  it('checks every number option against its definition before asking main, naming it by its label', async () => {
    const api = new FakeTableApi()
    const wrapper = await mountWith(SetupScreen, api)
    await name(wrapper, 0, 'Ann')
    await name(wrapper, 1, 'Bob')
    const start = async (): Promise<string> => {
      await wrapper.find('[data-testid="start-game"]').trigger('click')
      await flushPromises()
      return wrapper.find('[data-testid="setup-error"]').text()
    }
    await wrapper.find('[data-testid="game-farkle"]').trigger('click')
    await wrapper.find('[data-testid="option-target"]').setValue('0')
    expect(await start()).toBe('Target must be a whole number, 1 or more')
    await wrapper.find('[data-testid="option-target"]').setValue('2.5')
    expect(await start()).toBe('Target must be a whole number, 1 or more')
    await wrapper.find('[data-testid="option-target"]').setValue('1e16')
    expect(await start()).toBe('Target must be at most 9,007,199,254,740,991')
    await wrapper.find('[data-testid="option-target"]').setValue('')
    expect(await start()).toBe('Target must be a whole number, 1 or more')
    await wrapper.find('[data-testid="option-target"]').setValue('5000')
    await wrapper.find('[data-testid="option-entry"]').setValue('-50')
    expect(await start()).toBe('Entry minimum must be a whole number, 0 or more')
    await wrapper.find('[data-testid="game-four-plus"]').trigger('click')
    await wrapper.find('[data-testid="option-rounds"]').setValue('0')
    expect(await start()).toBe('Rounds must be a whole number, 1 or more')
    expect(api.newGame).not.toHaveBeenCalled()

    await wrapper.find('[data-testid="option-rounds"]').setValue('2')
    expect(wrapper.find('[data-testid="setup-error"]').exists()).toBe(false)
    await wrapper.find('[data-testid="start-game"]').trigger('click')
    await flushPromises()
    expect(api.newGame).toHaveBeenCalledWith({ game: 'four-plus', players: ['Ann', 'Bob'], rules: { rounds: 2 } })
  })

  it('keeps the tab on a seat that exists when players are removed', async () => {
    const api = new FakeTableApi()
    const wrapper = await mountWith(SetupScreen, api)
    await name(wrapper, 0, 'Ann')
    await name(wrapper, 1, 'Bob')
    await wrapper.find('[data-testid="option-tab"]').setValue('1')
    await wrapper.find('[data-testid="player-remove-1"]').trigger('click')
    await wrapper.find('[data-testid="start-game"]').trigger('click')
    await flushPromises()
    expect(api.newGame).toHaveBeenCalledWith(expect.objectContaining({ players: ['Ann'], rules: expect.objectContaining({ tab: 0 }) }))
  })

  it('shows each game’s own options from its engine definition, the tour only for a tour match', async () => {
    const wrapper = await mountWith(SetupScreen, new FakeTableApi())
    const fields = (): string[] =>
      wrapper.findAll('.setup__options [data-testid^="option-"]').map((node) => node.attributes('data-testid')!).filter((id) => !/^option-.*-.*-/.test(id))
    expect(wrapper.find('[data-testid="option-tour-first-to-four"]').exists()).toBe(false)
    await wrapper.find('[data-testid="option-match-tour-de-fours"]').trigger('click')
    expect(wrapper.find('[data-testid="option-tour-first-to-four"]').exists()).toBe(true)
    expect(fields()).toContain('option-tab')
    await wrapper.find('[data-testid="game-four-plus"]').trigger('click')
    expect(fields()).toEqual(['option-rounds'])
    expect((wrapper.find('[data-testid="option-rounds"]').element as HTMLInputElement).value).toBe('3')
  })
})
