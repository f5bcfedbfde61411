// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, type VueWrapper } from '@vue/test-utils'
import TableScreen from '../../../src/renderer/src/table/TableScreen.vue'
import { FakeTableApi, farkleGame, foursiesGame, foursiesSummary, stateWith } from '../fixtures'
import { mountWith } from '../mountWith'

function press(key: string, code: string, target: EventTarget = window, repeat = false): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key, code, bubbles: true, cancelable: true, repeat })
  target.dispatchEvent(event)
  return event
}

describe('TableScreen', () => {
  let wrapper: VueWrapper | null = null
  afterEach(() => {
    wrapper?.unmount()
    wrapper = null
    document.body.innerHTML = ''
  })

  it('shows whose turn it is, the dice, the throw note, the log and the keypad', async () => {
    wrapper = await mountWith(TableScreen, new FakeTableApi(stateWith(foursiesGame())))
    expect(wrapper.find('[data-testid="to-play"]').text()).toBe('Bob')
    expect(wrapper.find('[data-testid="throw-note"]').text()).toBe('Odd man out: re-roll the 5')
    expect(wrapper.find('[data-testid="table-dice"]').findAll('[data-testid="die"]')).toHaveLength(4)
    expect(wrapper.find('[data-testid="keypad-buffer"]').text()).toBe('22')
    expect(wrapper.find('[data-testid="keypad-hint"]').text()).toBe('Type the dice to re-roll, then Enter')
    const log = wrapper.findAll('[data-testid="log-entry"]')
    expect(log[0].text()).toContain('Bob throws 2 2 1 5')
    expect(wrapper.find('[data-testid="score-Cy"] [data-testid="tab-marker"]').exists()).toBe(true)
  })

  it('offers the decisions with their keys and sends the chosen move', async () => {
    const api = new FakeTableApi(stateWith(foursiesGame()))
    wrapper = await mountWith(TableScreen, api)
    const reroll = wrapper.find('[data-testid="decision-0"]')
    expect(reroll.text()).toContain('Re-roll 2+2')
    expect(reroll.find('[data-testid="decision-keys"]').text()).toBe('22 Enter or +')
    await wrapper.find('[data-testid="decision-1"]').trigger('click')
    expect(api.submit).toHaveBeenCalledWith({ end: true })
    await reroll.trigger('click')
    expect(api.submit).toHaveBeenLastCalledWith({ reroll: [2, 2] })
  })

  it('shows blocked decisions disabled with their reason', async () => {
    wrapper = await mountWith(TableScreen, new FakeTableApi(stateWith(foursiesGame())))
    const blocked = wrapper.find('[data-testid="blocked-0"]')
    expect(blocked.attributes('disabled')).toBeDefined()
    expect(blocked.text()).toContain('Socks needs two pairs')
  })

  it('sends on-screen keypad keys, undo and the virtual roll', async () => {
    const api = new FakeTableApi(stateWith(farkleGame()))
    wrapper = await mountWith(TableScreen, api)
    await wrapper.find('[data-testid="keypad-5"]').trigger('click')
    await wrapper.find('[data-testid="keypad-backspace"]').trigger('click')
    await wrapper.find('[data-testid="keypad-enter"]').trigger('click')
    expect(api.keypad.mock.calls.map(([key]) => key)).toEqual(['5', 'Backspace', 'Enter'])
    expect(wrapper.find('[data-testid="roll-virtual"]').text()).toContain('Roll 6 dice')
    await wrapper.find('[data-testid="roll-virtual"]').trigger('click')
    expect(api.rollVirtual).toHaveBeenCalledOnce()
    await wrapper.find('[data-testid="undo"]').trigger('click')
    expect(api.undo).toHaveBeenCalledOnce()
    expect(wrapper.find('[data-testid="turn-points"]').text()).toBe('350')
  })

  it('maps the physical keyboard to keypad keys and Space to a virtual roll', async () => {
    const api = new FakeTableApi(stateWith(farkleGame()))
    wrapper = await mountWith(TableScreen, api, document.body)
    expect(press('3', 'Digit3').defaultPrevented).toBe(true)
    press('7', 'Digit7')
    press('1', 'Numpad1')
    press('Enter', 'NumpadEnter')
    press('Backspace', 'Backspace')
    press('*', 'NumpadMultiply')
    press('-', 'Minus')
    press('.', 'Period')
    press('/', 'Slash')
    press('+', 'NumpadAdd')
    press('Enter', 'Enter')
    press(' ', 'Space')
    expect(api.keypad.mock.calls.map(([key]) => key)).toEqual(['3', '7', '1', 'Enter', 'Backspace', '*', '-', '.', '/', '+', 'Enter'])
    expect(api.rollVirtual).toHaveBeenCalledOnce()
  })

  it('ignores keys typed into a text field, held-down keys and shortcuts', async () => {
    const api = new FakeTableApi(stateWith(farkleGame()))
    wrapper = await mountWith(TableScreen, api, document.body)
    const field = document.createElement('input')
    document.body.appendChild(field)
    press('3', 'Digit3', field)
    press('3', 'Digit3', window, true)
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'r', code: 'KeyR', ctrlKey: true }))
    expect(api.keypad).not.toHaveBeenCalled()
  })

  it('stops listening to the keyboard when it is left', async () => {
    const api = new FakeTableApi(stateWith(farkleGame()))
    wrapper = await mountWith(TableScreen, api, document.body)
    wrapper.unmount()
    wrapper = null
    press('3', 'Digit3')
    expect(api.keypad).not.toHaveBeenCalled()
  })

  it('keeps undo on at game over, on the keypad as on the button and the keyboard', async () => {
    const over = foursiesGame({ summary: foursiesSummary({ finished: true, winners: ['Ann'], toPlay: null }), offer: { ...foursiesGame().offer, finished: true, decisions: [], blocked: [] } })
    const api = new FakeTableApi(stateWith(over))
    wrapper = await mountWith(TableScreen, api, document.body)
    expect(wrapper.find('[data-testid="keypad-3"]').attributes('disabled')).toBeDefined()
    expect(wrapper.find('[data-testid="keypad-plus"]').attributes('disabled')).toBeDefined()
    expect(wrapper.find('[data-testid="undo"]').attributes('disabled')).toBeUndefined()
    expect(wrapper.find('[data-testid="keypad-slash"]').attributes('disabled')).toBeUndefined()
    await wrapper.find('[data-testid="keypad-slash"]').trigger('click')
    press('/', 'Slash')
    expect(api.keypad.mock.calls.map(([key]) => key)).toEqual(['/', '/'])

    api.push(stateWith(foursiesGame({ moveCount: 0 })))
    await flushPromises()
    expect(wrapper.find('[data-testid="keypad-slash"]').attributes('disabled')).toBeDefined()
    expect(wrapper.find('[data-testid="keypad-3"]').attributes('disabled')).toBeUndefined()
  })

  it('lets a view-only screen watch but not enter anything', async () => {
    const api = new FakeTableApi(stateWith(farkleGame(), { canControl: false }))
    wrapper = await mountWith(TableScreen, api, document.body)
    press('3', 'Digit3')
    expect(api.keypad).not.toHaveBeenCalled()
    expect(wrapper.find('[data-testid="keypad-3"]').attributes('disabled')).toBeDefined()
    expect(wrapper.find('[data-testid="roll-virtual"]').attributes('disabled')).toBeDefined()
  })

  it('exports the record as a file download', async () => {
    const api = new FakeTableApi(stateWith(foursiesGame()))
    const createObjectURL = vi.fn(() => 'blob:record')
    const revokeObjectURL = vi.fn()
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }))
    const clicked: string[] = []
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download)
    })
    wrapper = await mountWith(TableScreen, api)
    await wrapper.find('[data-testid="export"]').trigger('click')
    await flushPromises()
    expect(api.exportRecord).toHaveBeenCalledOnce()
    expect(clicked).toEqual(['foursies.jsonl'])
    click.mockRestore()
    vi.unstubAllGlobals()
  })

  it('imports a chosen file and shows a refusal with its line', async () => {
    const api = new FakeTableApi(stateWith(foursiesGame()))
    api.importRecord.mockResolvedValue({ ok: false, error: 'line 3: a 7 is not a die value' })
    wrapper = await mountWith(TableScreen, api)
    const input = wrapper.find('[data-testid="import-input"]')
    const file = new File(['{"game":"foursies"}\n'], 'game.jsonl')
    Object.defineProperty(input.element, 'files', { value: [file] })
    await input.trigger('change')
    await flushPromises()
    // A game is in progress: the table is asked first.
    expect(api.importRecord).not.toHaveBeenCalled()
    expect(wrapper.find('[data-testid="import-confirm"]').text()).toContain('Replace the game in progress with game.jsonl?')
    await wrapper.find('[data-testid="import-confirm-yes"]').trigger('click')
    await flushPromises()
    expect(api.importRecord).toHaveBeenCalledWith('{"game":"foursies"}\n')
    expect(wrapper.find('[data-testid="import-error"]').text()).toContain('line 3: a 7 is not a die value')
  })

  it('shows the sharing panel with its addresses, QR code and pairing code, and toggles it', async () => {
    const sharing = { enabled: true, urls: ['http://192.168.1.5:5173/scoreboard'], pairingCode: '48213360', qrSvg: '<svg data-qr="1"></svg>', pairQrSvg: null, paired: [] }
    const api = new FakeTableApi(stateWith(foursiesGame(), { sharing }))
    wrapper = await mountWith(TableScreen, api)
    expect(wrapper.find('[data-testid="sharing-urls"]').text()).toContain('http://192.168.1.5:5173/scoreboard')
    expect(wrapper.find('[data-testid="sharing-qr"] svg').attributes('data-qr')).toBe('1')
    expect(wrapper.find('[data-testid="sharing-code"]').text()).toBe('48213360')
    await wrapper.find('[data-testid="sharing-toggle"]').trigger('click')
    expect(api.setSharing).toHaveBeenCalledWith(false)
  })
})
