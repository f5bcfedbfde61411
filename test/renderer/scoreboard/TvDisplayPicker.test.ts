// @vitest-environment happy-dom
// The desktop app's display picker for the TV, through the displays store.
import { describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import TvDisplayPicker from '@renderer/scoreboard/TvDisplayPicker.vue'
import { FakeTableApi } from '../fixtures'
import { mountWith } from '../mountWith'

const LAPTOP = { id: 1, label: 'Built-in', width: 1920, height: 1080, primary: true, showing: false }
const TV = { id: 2, label: 'TV', width: 3840, height: 2160, primary: false, showing: false }

describe('TvDisplayPicker', () => {
  it('stays hidden without displays (the headless host has none)', async () => {
    const wrapper = await mountWith(TvDisplayPicker, new FakeTableApi())
    expect(wrapper.find('[data-testid="scoreboard-displays"]').exists()).toBe(false)
    wrapper.unmount()
  })

  it('lists the displays, shows the scoreboard on the one chosen and closes it', async () => {
    const api = new FakeTableApi()
    api.listDisplays.mockResolvedValue({ ok: true, displays: [LAPTOP, TV] })
    const wrapper = await mountWith(TvDisplayPicker, api)
    expect(wrapper.find('[data-testid="show-scoreboard-2"]').text()).toContain('3840×2160')
    expect(wrapper.find('[data-testid="show-scoreboard-1"]').text()).toContain('· main')
    expect(wrapper.find('[data-testid="close-scoreboard"]').exists()).toBe(false)

    api.listDisplays.mockResolvedValue({ ok: true, displays: [LAPTOP, { ...TV, showing: true }] })
    await wrapper.find('[data-testid="show-scoreboard-2"]').trigger('click')
    await flushPromises()
    expect(api.showScoreboard).toHaveBeenCalledWith(2)
    expect(wrapper.find('[data-testid="show-scoreboard-2"]').classes()).toContain('is-on')

    api.listDisplays.mockResolvedValue({ ok: true, displays: [LAPTOP, TV] })
    await wrapper.find('[data-testid="close-scoreboard"]').trigger('click')
    await flushPromises()
    expect(api.showScoreboard).toHaveBeenLastCalledWith(null)
    expect(wrapper.find('[data-testid="close-scoreboard"]').exists()).toBe(false)
    wrapper.unmount()
  })

  it('says why a display was refused, and a failed request the same way', async () => {
    const api = new FakeTableApi()
    api.listDisplays.mockResolvedValue({ ok: true, displays: [LAPTOP, TV] })
    api.showScoreboard.mockResolvedValue({ ok: false, error: 'No display 2' })
    const wrapper = await mountWith(TvDisplayPicker, api)
    await wrapper.find('[data-testid="show-scoreboard-2"]').trigger('click')
    await flushPromises()
    expect(wrapper.find('.error-text').text()).toBe('No display 2')
    api.showScoreboard.mockRejectedValue(new Error('the app is closing'))
    await wrapper.find('[data-testid="show-scoreboard-1"]').trigger('click')
    await flushPromises()
    expect(wrapper.find('.error-text').text()).toBe('the app is closing')
    wrapper.unmount()
  })
})
