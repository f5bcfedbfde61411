// @vitest-environment happy-dom
// The Devices tab's Bluetooth dice card: where Bluetooth is not available it says why in words a
// player can act on; the desktop picker's list comes from the state and is answered through the API.
import { afterEach, describe, expect, it } from 'vitest'
import type { VueWrapper } from '@vue/test-utils'
import BluetoothDice from '@renderer/devices/BluetoothDice.vue'
import { bluetoothUnavailable, type WebBluetooth } from '@renderer/lib/webBluetooth'
import { FakeTableApi, devicesView, emptyState } from '../fixtures'
import { mountWith } from '../mountWith'

const adapter = (available: boolean | Error): WebBluetooth => ({
  getAvailability: async () => {
    if (available instanceof Error) throw available
    return available
  },
  requestDevice: async () => {
    throw new Error('not used')
  }
})

describe('where Bluetooth is not available', () => {
  it('names the reason: a page over plain HTTP on the network, a browser without Web Bluetooth, no adapter or no BlueZ', async () => {
    expect(await bluetoothUnavailable({ bluetooth: adapter(true) }, false)).toMatch(/secure page.*not from a screen on the network/)
    expect(await bluetoothUnavailable({}, true)).toMatch(/no Web Bluetooth/)
    expect(await bluetoothUnavailable({ bluetooth: adapter(false) }, true)).toMatch(/No Bluetooth adapter.*BlueZ/)
    expect(await bluetoothUnavailable({ bluetooth: adapter(new Error('BlueZ service is not running')) }, true)).toMatch(/BlueZ service is not running/)
    expect(await bluetoothUnavailable({ bluetooth: adapter(true) }, true)).toBeNull()
  })
})

describe('BluetoothDice', () => {
  let wrapper: VueWrapper | null = null
  afterEach(() => {
    wrapper?.unmount()
    wrapper = null
  })

  it('says why it cannot connect in this browser, and keeps the button off', async () => {
    const api = new FakeTableApi(emptyState({ devices: devicesView() }))
    wrapper = await mountWith(BluetoothDice, api)
    expect(wrapper.find('[data-testid="bluetooth-unavailable"]').text()).toMatch(/secure page|no Web Bluetooth/)
    expect(wrapper.find('[data-testid="bluetooth-connect"]').attributes('disabled')).toBeDefined()
  })

  it("lists the dice the desktop app's scan found and answers with the one picked, or none", async () => {
    const view = { ...devicesView(), bluetooth: { out: [], chooser: [{ id: 'AA:01', name: 'GoDice_00A1_K_v04' }, { id: 'BB:02', name: 'Pixel Red' }] } }
    const api = new FakeTableApi(emptyState({ devices: view }))
    wrapper = await mountWith(BluetoothDice, api)
    const choices = wrapper.findAll('[data-testid="bluetooth-choice"]')
    expect(choices.map((c) => c.text())).toEqual(['GoDice_00A1_K_v04', 'Pixel Red'])
    await choices[1].trigger('click')
    expect(api.chooseBluetoothDevice).toHaveBeenCalledWith('BB:02')
    await wrapper.find('[data-testid="bluetooth-choice-cancel"]').trigger('click')
    expect(api.chooseBluetoothDevice).toHaveBeenLastCalledWith(null)
  })
})
