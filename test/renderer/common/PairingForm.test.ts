// @vitest-environment happy-dom
import { mount } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import PairingForm from '../../../src/renderer/src/common/PairingForm.vue'

describe('PairingForm', () => {
  it('opens the same page again with the pairing code, which the transport passes on', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined)
    const wrapper = mount(PairingForm)
    await wrapper.find('[data-testid="pairing-code"]').setValue(' 123 456 ')
    await wrapper.find('form').trigger('submit')
    expect(assign).toHaveBeenCalledTimes(1)
    expect(new URL(String(assign.mock.calls[0][0])).searchParams.get('pair')).toBe('123456')
    assign.mockRestore()
  })
})
