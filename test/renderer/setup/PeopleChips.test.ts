// @vitest-environment happy-dom
// At Setup, the people on the player list against a fake screen API.
import { describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { setTableApi } from '@renderer/api'
import PeopleChips from '@renderer/setup/PeopleChips.vue'
import { FakeTableApi } from '../fixtures'

const PEOPLE = [
  { name: 'Ann', colour: '#e6194b', aliases: [] },
  { name: 'Bob', colour: '#3cb44b', aliases: ['Bobby'] }
]

describe('PeopleChips', () => {
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
})
