// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import PairingForm from '@renderer/common/PairingForm.vue'
import { setTableApi } from '@renderer/api'
import { FakeTableApi } from '../fixtures'

describe('PairingForm', () => {
  let api: FakeTableApi
  beforeEach(() => {
    setActivePinia(createPinia())
    api = new FakeTableApi()
    setTableApi(api)
  })
  afterEach(() => localStorage.clear())

  it('pairs with the code typed (spaces left out), keeps the token and opens the page again', async () => {
    api.pair.mockResolvedValue({ ok: true, token: 'tok' })
    const replace = vi.spyOn(window.location, 'replace').mockImplementation(() => undefined)
    const wrapper = mount(PairingForm)
    await wrapper.find('[data-testid="pairing-code"]').setValue(' 1234 5678 ')
    await wrapper.find('form').trigger('submit')
    await flushPromises()
    expect(api.pair).toHaveBeenCalledWith('12345678', expect.any(String))
    expect(localStorage.getItem('dice-referee.screen-token')).toBe('tok')
    expect(replace).toHaveBeenCalledTimes(1)
    replace.mockRestore()
  })

  it('says a wrong code beside the form, and how many tries are left', async () => {
    const error = 'Wrong code: check the 8 digits shown on the host computer (4 more tries at once, then one every 10 seconds)'
    api.pair.mockResolvedValue({ ok: false, error })
    const wrapper = mount(PairingForm)
    await wrapper.find('[data-testid="pairing-code"]').setValue('11112222')
    await wrapper.find('form').trigger('submit')
    await flushPromises()
    expect(wrapper.find('[data-testid="pairing-refusal"]').text()).toBe(error)
    expect(localStorage.getItem('dice-referee.screen-token')).toBeNull()
  })
})
