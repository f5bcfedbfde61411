// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, type VueWrapper } from '@vue/test-utils'
import DevicesScreen from '@renderer/devices/DevicesScreen.vue'
import TableScreen from '@renderer/table/TableScreen.vue'
import { BLINK_MS } from '@renderer/stores/devices'
import { FakeTableApi, connectedHub, devicesView, emptyState, foursiesGame, stateWith } from '../fixtures'
import { mountApp, mountWith } from '../mountWith'

const HUB = '[data-testid="device-HUB-0042"]'
const REFUSED = '[data-testid="device-port:/dev/ttyUSB0"]'

describe('DevicesScreen', () => {
  let wrapper: VueWrapper | null = null
  afterEach(() => {
    wrapper?.unmount()
    wrapper = null
    vi.useRealTimers()
  })

  it('lists the ports with their USB details, reading them when it opens', async () => {
    const api = new FakeTableApi(emptyState({ devices: devicesView() }))
    wrapper = await mountWith(DevicesScreen, api)
    expect(api.listPorts).toHaveBeenCalled()
    const acm = wrapper.find('[data-testid="port-/dev/ttyACM0"]')
    expect(acm.find('[data-testid="port-usb"]').text()).toContain('Dice Works')
    expect(acm.find('[data-testid="port-usb"]').text()).toContain('2e8a:000a')
    expect(acm.find('[data-testid="port-usb"]').text()).toContain('HUB-0042')
    expect(acm.find('[data-testid="port-in-use"]').text()).toBe('HUB-0042')
    expect(acm.find('[data-testid="port-connect"]').exists()).toBe(false)
    // A refused device's port can be tried again.
    expect(wrapper.find('[data-testid="port-/dev/ttyUSB0"] [data-testid="port-connect"]').text()).toBe('Try again')
  })

  it('connects a listed port and a typed path', async () => {
    const devices = devicesView({ ports: [{ path: 'COM3', manufacturer: null, serialNumber: null, vendorId: null, productId: null, device: null }], devices: [] })
    const api = new FakeTableApi(emptyState({ devices }))
    wrapper = await mountWith(DevicesScreen, api)
    expect(wrapper.find('[data-testid="devices-none"]').exists()).toBe(true)
    expect(wrapper.find('[data-testid="port-COM3"] [data-testid="port-usb"]').text()).toBe('No USB details')
    await wrapper.find('[data-testid="port-COM3"] [data-testid="port-connect"]').trigger('click')
    expect(api.connectDevice).toHaveBeenLastCalledWith('COM3')

    await wrapper.find('[data-testid="manual-path"]').setValue('  /tmp/dice-hub ')
    await wrapper.find('form').trigger('submit')
    await flushPromises()
    expect(api.connectDevice).toHaveBeenLastCalledWith('/tmp/dice-hub')
    expect((wrapper.find('[data-testid="manual-path"]').element as HTMLInputElement).value).toBe('')
  })

  it('shows a refused connection’s reason and keeps the typed path', async () => {
    const api = new FakeTableApi(emptyState({ devices: devicesView({ devices: [] }) }))
    api.connectDevice.mockResolvedValue({ ok: false, error: '/dev/ttyS9 is not there: is the device plugged in?' })
    wrapper = await mountWith(DevicesScreen, api)
    await wrapper.find('[data-testid="manual-path"]').setValue('/dev/ttyS9')
    await wrapper.find('form').trigger('submit')
    await flushPromises()
    expect(wrapper.find('[data-testid="devices-error"]').text()).toContain('is not there')
    expect((wrapper.find('[data-testid="manual-path"]').element as HTMLInputElement).value).toBe('/dev/ttyS9')
  })

  it('shows each device’s state, reason, firmware and protocol', async () => {
    wrapper = await mountWith(DevicesScreen, new FakeTableApi(emptyState({ devices: devicesView() })))
    const hub = wrapper.find(HUB)
    expect(hub.attributes('data-state')).toBe('connected')
    expect(hub.find('[data-testid="device-state"]').text()).toBe('Connected')
    expect(hub.find('[data-testid="device-firmware"]').text()).toBe('dicehub 1.4.2')
    expect(hub.find('[data-testid="device-protocol"]').text()).toBe('1.0')
    expect(hub.find('[data-testid="device-reason"]').exists()).toBe(false)

    const refused = wrapper.find(REFUSED)
    expect(refused.find('[data-testid="device-state"]').text()).toBe('Refused')
    expect(refused.find('[data-testid="device-reason"]').text()).toContain('add your user to the dialout group')
    expect(refused.find('[data-testid="device-title"]').text()).toBe('/dev/ttyUSB0')
  })

  it('shows stale and reconnecting devices with their reason', async () => {
    const devices = devicesView({
      devices: [
        connectedHub({ state: 'stale', reason: 'No heartbeat for 6.0 s: is the hub powered and its cable in?' }),
        connectedHub({ id: 'HUB-7', serial: 'HUB-7', path: '/dev/ttyACM1', state: 'reconnecting', reason: 'Unplugged or lost (EIO): waiting for it to come back' })
      ]
    })
    wrapper = await mountWith(DevicesScreen, new FakeTableApi(emptyState({ devices })))
    expect(wrapper.find(`${HUB} [data-testid="device-state"]`).text()).toBe('No heartbeat')
    expect(wrapper.find(`${HUB} [data-testid="device-reason"]`).text()).toContain('No heartbeat for 6.0 s')
    expect(wrapper.find('[data-testid="device-HUB-7"] [data-testid="device-state"]').text()).toBe('Reconnecting…')
    expect(wrapper.find('[data-testid="device-HUB-7"] [data-testid="device-reason"]').text()).toContain('waiting for it to come back')
  })

  it('shows the dice as chips with label, status, face and battery', async () => {
    wrapper = await mountWith(DevicesScreen, new FakeTableApi(emptyState({ devices: devicesView() })))
    const a = wrapper.find(`${HUB} [data-testid="die-chip-A"]`)
    expect(a.attributes('style')).toContain('--die-colour: red')
    expect(a.find('[data-testid="die-chip-label"]').text()).toBe('A')
    expect(a.find('[data-testid="die-chip-status"]').text()).toBe('Settled')
    expect(a.find('[data-testid="die"]').attributes('data-value')).toBe('4')
    expect(a.find('[data-testid="die-chip-battery"]').text()).toContain('82%')
    expect(a.find('[data-testid="die-chip-charging"]').exists()).toBe(false)

    const b = wrapper.find(`${HUB} [data-testid="die-chip-B"]`)
    expect(b.find('[data-testid="die-chip-label"]').text()).toBe('Lucky')
    expect(b.find('[data-testid="die-chip-status"]').text()).toBe('Cocked')
    expect(b.find('[data-testid="die"]').exists()).toBe(false)
    expect(b.find('[data-testid="die-blank"]').exists()).toBe(true)
    expect(b.find('[data-testid="die-chip-battery"]').text()).toContain('9%')
    expect(b.find('[data-testid="die-chip-charging"]').exists()).toBe(true)

    const c = wrapper.find(`${HUB} [data-testid="die-chip-C"]`)
    expect(c.find('[data-testid="die-chip-status"]').text()).toBe('Offline')
    expect(c.find('[data-testid="die-chip-battery"]').text()).toBe('—')
  })

  it('identifies a die, disconnects a device and retries a refused one', async () => {
    vi.useFakeTimers()
    const api = new FakeTableApi(emptyState({ devices: devicesView() }))
    wrapper = await mountWith(DevicesScreen, api)
    await wrapper.find(`${HUB} [data-testid="identify-B"]`).trigger('click')
    await flushPromises()
    expect(api.identifyDie).toHaveBeenCalledWith('HUB-0042', 'B')
    expect(wrapper.find(`${HUB} [data-testid="identify-B"]`).text()).toBe('Blinking…')
    vi.advanceTimersByTime(BLINK_MS)
    await flushPromises()
    expect(wrapper.find(`${HUB} [data-testid="identify-B"]`).text()).toBe('Identify')

    await wrapper.find(`${HUB} [data-testid="device-disconnect"]`).trigger('click')
    expect(api.disconnectDevice).toHaveBeenCalledWith('HUB-0042')
    await wrapper.find(`${REFUSED} [data-testid="device-retry"]`).trigger('click')
    expect(api.connectDevice).toHaveBeenCalledWith('/dev/ttyUSB0')
    // Identify needs a connected device.
    const stale = new FakeTableApi(emptyState({ devices: devicesView({ devices: [connectedHub({ state: 'stale' })] }) }))
    wrapper.unmount()
    wrapper = await mountWith(DevicesScreen, stale)
    expect(wrapper.find(`${HUB} [data-testid="identify-A"]`).attributes('disabled')).toBeDefined()
  })

  it('counts dropped lines by reason, received and lost lines', async () => {
    wrapper = await mountWith(DevicesScreen, new FakeTableApi(emptyState({ devices: devicesView() })))
    const hub = wrapper.find(HUB)
    expect(hub.find('[data-testid="count-received"]').text()).toBe('1520')
    expect(hub.find('[data-testid="count-lost"]').text()).toBe('2')
    expect(hub.find('[data-testid="count-dropped"]').text()).toBe('4')
    expect(hub.find('[data-testid="dropped-bad-checksum"]').text()).toContain('3')
    expect(hub.find('[data-testid="dropped-duplicate"]').text()).toContain('1')
    expect(hub.find('[data-testid="dropped-behind"]').classes()).toContain('is-zero')
  })

  it('shows the raw lines newest first with direction and verdict', async () => {
    wrapper = await mountWith(DevicesScreen, new FakeTableApi(emptyState({ devices: devicesView() })))
    const lines = wrapper.findAll(`${HUB} [data-testid="raw-line"]`)
    expect(lines.map((line) => line.find('[data-testid="raw-text"]').text())).toEqual(['cocked 42 B 12*BC65', 'settled 41 A 12 4*0000', 'blink A 3*1574'])
    expect(lines[1].find('[data-testid="raw-dir"]').text()).toBe('← in')
    expect(lines[1].find('[data-testid="raw-verdict"]').text()).toBe('bad-checksum')
    expect(lines[1].classes()).toContain('is-dropped')
    expect(lines[2].find('[data-testid="raw-dir"]').text()).toBe('→ out')
    expect(lines[2].find('[data-testid="raw-verdict"]').text()).toBe('sent')
    expect(lines[2].classes()).not.toContain('is-dropped')
  })

  it('shows no more than the last 50 raw lines', async () => {
    const raw = Array.from({ length: 60 }, (_, i) => ({ at: 1_000 + i, dir: 'in' as const, text: `heartbeat ${i} 2000*0000`, verdict: 'ok' }))
    wrapper = await mountWith(DevicesScreen, new FakeTableApi(emptyState({ devices: devicesView({ devices: [connectedHub({ raw })] }) })))
    const lines = wrapper.findAll('[data-testid="raw-line"]')
    expect(lines).toHaveLength(50)
    expect(lines[0].text()).toContain('heartbeat 59 ')
  })

  it('switches test mode and shows the last throw and key', async () => {
    const api = new FakeTableApi(emptyState({ devices: devicesView() }))
    wrapper = await mountWith(DevicesScreen, api)
    expect(wrapper.find('[data-testid="test-mode-toggle"]').attributes('aria-checked')).toBe('false')
    await wrapper.find('[data-testid="test-mode-toggle"]').trigger('click')
    expect(api.setDeviceTestMode).toHaveBeenCalledWith(true)

    api.push(
      emptyState({
        version: 3,
        devices: devicesView({ testMode: true, lastThrow: { values: [6, 3], dice: ['A (red)', 'B (Lucky)'], at: 2_000, sent: false, flags: ['B (Lucky) was turned to 1 after it settled on 3: 3 counts'] } })
      })
    )
    await flushPromises()
    expect(wrapper.find('[data-testid="test-mode-toggle"]').attributes('aria-checked')).toBe('true')
    expect(wrapper.find('[data-testid="test-mode-on"]').exists()).toBe(true)
    const last = wrapper.find('[data-testid="last-throw"]')
    expect(last.findAll('[data-testid="die"]').map((die) => die.attributes('data-value'))).toEqual(['6', '3'])
    expect(last.text()).toContain('B (Lucky)')
    expect(last.find('[data-testid="last-throw-sent"]').text()).toBe('test only, not sent')
    expect(last.text()).toContain('was turned to 1')
    expect(wrapper.find('[data-testid="last-key"]').text()).toBe('5')
    await wrapper.find('[data-testid="test-mode-toggle"]').trigger('click')
    expect(api.setDeviceTestMode).toHaveBeenLastCalledWith(false)
  })

  it('shows the throw being assembled: due, dice and the problem', async () => {
    wrapper = await mountWith(DevicesScreen, new FakeTableApi(emptyState({ devices: devicesView() })))
    const assembling = wrapper.find('[data-testid="device-throw"]')
    expect(assembling.classes()).toContain('throw--problem')
    expect(assembling.find('[data-testid="throw-due"]').text()).toBe('4 dice due')
    expect(assembling.find('[data-testid="throw-text"]').text()).toContain('B (Lucky) is cocked: throw it again')
    expect(assembling.find('[data-testid="throw-die-A"] [data-testid="die"]').attributes('data-value')).toBe('4')
    expect(assembling.find('[data-testid="throw-die-A"]').text()).toContain('was 2')
    expect(assembling.find('[data-testid="throw-die-B"]').text()).toContain('cocked')
  })

  it('puts a die in or out of the game with its switch; a die out of the game is dimmed', async () => {
    const api = new FakeTableApi(emptyState({ devices: devicesView() }))
    wrapper = await mountWith(DevicesScreen, api)
    const toggle = () => wrapper!.find(`${HUB} [data-testid="assign-B"]`)
    expect(toggle().attributes('role')).toBe('switch')
    expect(toggle().attributes('aria-checked')).toBe('true')
    expect(wrapper.find(`${HUB} [data-testid="die-chip-B"]`).classes()).not.toContain('is-out')
    expect(wrapper.find(`${HUB} [data-testid="die-chip-B"] [data-testid="die-chip-out"]`).exists()).toBe(false)
    await toggle().trigger('click')
    expect(api.assignDie).toHaveBeenCalledWith('HUB-0042', 'B', false)

    const hub = connectedHub()
    hub.dice[1] = { ...hub.dice[1], inGame: false }
    api.push(emptyState({ version: 3, devices: devicesView({ devices: [hub] }) }))
    await flushPromises()
    const chip = wrapper.find(`${HUB} [data-testid="die-chip-B"]`)
    expect(chip.classes()).toContain('is-out')
    expect(chip.attributes('data-in-game')).toBe('false')
    expect(chip.find('[data-testid="die-chip-out"]').text()).toBe('not in the game')
    expect(toggle().attributes('aria-checked')).toBe('false')
    expect(wrapper.find(`${HUB} [data-testid="die-chip-A"]`).classes()).not.toContain('is-out')
    await toggle().trigger('click')
    expect(api.assignDie).toHaveBeenLastCalledWith('HUB-0042', 'B', true)

    // A refusal shows like the other device requests.
    api.assignDie.mockResolvedValueOnce({ ok: false, error: 'HUB-0042 has no die B' })
    await toggle().trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="devices-error"]').text()).toContain('has no die B')

    // Assignments are settings: a reconnecting hub's dice can still be put in or out; a viewer cannot.
    api.push(emptyState({ version: 4, devices: devicesView({ devices: [{ ...hub, state: 'reconnecting' }] }) }))
    await flushPromises()
    expect(toggle().attributes('disabled')).toBeUndefined()
    expect(wrapper.find(`${HUB} [data-testid="identify-B"]`).attributes('disabled')).toBeDefined()
    api.push(emptyState({ version: 5, canControl: false, devices: devicesView({ devices: [hub] }) }))
    await flushPromises()
    expect(toggle().attributes('disabled')).toBeDefined()
  })

  it('lets nothing be sent from a screen that cannot control', async () => {
    wrapper = await mountWith(DevicesScreen, new FakeTableApi(emptyState({ canControl: false, devices: devicesView() })))
    expect(wrapper.find('[data-testid="manual-connect"]').attributes('disabled')).toBeDefined()
    expect(wrapper.find('[data-testid="test-mode-toggle"]').attributes('disabled')).toBeDefined()
    expect(wrapper.find(`${HUB} [data-testid="identify-A"]`).attributes('disabled')).toBeDefined()
    expect(wrapper.find(`${HUB} [data-testid="device-disconnect"]`).attributes('disabled')).toBeDefined()
  })
})

describe('Table screen with smart dice', () => {
  it('shows the compact assembling status near the dice entry while a device is connected', async () => {
    const api = new FakeTableApi(stateWith(foursiesGame(), { devices: devicesView() }))
    const wrapper = await mountWith(TableScreen, api)
    const compact = wrapper.find('[data-testid="device-throw-compact"]')
    expect(compact.find('[data-testid="throw-text"]').text()).toContain('B (Lucky) is cocked: throw it again')
    expect(compact.findAll('[data-testid^="throw-die-"]')).toHaveLength(2)
    // The refused port is mentioned too.
    expect(compact.find('[data-testid="throw-device-trouble"]').text()).toContain('/dev/ttyUSB0: Refused')

    api.push(stateWith(foursiesGame({ offer: { ...foursiesGame().offer, diceDue: 2 } }), { version: 3, devices: devicesView({ assembling: null, testMode: true }) }))
    await flushPromises()
    expect(wrapper.find('[data-testid="throw-idle"]').text()).toBe('Smart dice ready: throw 2 dice (2 in the game)')
    expect(wrapper.find('[data-testid="throw-test-mode"]').exists()).toBe(true)
    wrapper.unmount()
  })

  it('counts only the dice in the game, and says when they are fewer than the throw needs', async () => {
    const hub = connectedHub()
    hub.dice[1] = { ...hub.dice[1], inGame: false } // B out; C is offline: only A can throw
    const game = foursiesGame({ offer: { ...foursiesGame().offer, diceDue: 1 } })
    const api = new FakeTableApi(stateWith(game, { devices: devicesView({ devices: [hub], assembling: null }) }))
    const wrapper = await mountWith(TableScreen, api)
    expect(wrapper.find('[data-testid="throw-idle"]').text()).toBe('Smart dice ready: throw 1 die (1 in the game)')
    expect(wrapper.find('[data-testid="throw-short"]').exists()).toBe(false)

    api.push(stateWith(foursiesGame({ offer: { ...foursiesGame().offer, diceDue: 4 } }), { version: 3, devices: devicesView({ devices: [hub], assembling: null }) }))
    await flushPromises()
    expect(wrapper.find('[data-testid="throw-idle"]').text()).toBe('Smart dice ready: throw 4 dice (1 in the game)')
    expect(wrapper.find('[data-testid="throw-short"]').text()).toBe(
      'Only 1 die is in the game and 4 dice are due: put more in the game on the Devices tab, or type the throw'
    )
    wrapper.unmount()
  })

  it('shows nothing about devices when none is connected, or on a LAN viewer', async () => {
    const none = await mountWith(TableScreen, new FakeTableApi(stateWith(foursiesGame(), { devices: devicesView({ devices: [], assembling: null }) })))
    expect(none.find('[data-testid="device-throw-compact"]').exists()).toBe(false)
    none.unmount()
    const viewer = await mountWith(TableScreen, new FakeTableApi(stateWith(foursiesGame(), { devices: null })))
    expect(viewer.find('[data-testid="device-throw-compact"]').exists()).toBe(false)
    viewer.unmount()
  })
})

describe('Devices tab', () => {
  it('appears when the state has devices, with a dot for trouble, and goes away without them', async () => {
    const api = new FakeTableApi(emptyState({ devices: devicesView() }))
    const { wrapper, router } = await mountApp(api)
    const tab = wrapper.find('[data-testid="tab-devices"]')
    expect(tab.exists()).toBe(true)
    expect(tab.find('[data-testid="devices-dot"]').attributes('data-tone')).toBe('bad')
    await tab.trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="devices-screen"]').exists()).toBe(true)
    expect(router.currentRoute.value.fullPath).toBe('/devices')

    api.push(emptyState({ version: 4, devices: devicesView({ devices: [connectedHub()] }) }))
    await flushPromises()
    expect(wrapper.find('[data-testid="devices-dot"]').attributes('data-tone')).toBe('good')

    api.push(emptyState({ version: 5, devices: null }))
    await flushPromises()
    expect(wrapper.find('[data-testid="tab-devices"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="devices-screen"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="setup-screen"]').exists()).toBe(true)
    wrapper.unmount()
  })

  it('is hidden from LAN viewers', async () => {
    const { wrapper } = await mountApp(new FakeTableApi(stateWith(foursiesGame(), { canControl: false, devices: null })))
    expect(wrapper.find('[data-testid="tab-devices"]').exists()).toBe(false)
    wrapper.unmount()
  })
})
