// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, type VueWrapper } from '@vue/test-utils'
import TableScreen from '@renderer/table/TableScreen.vue'
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

  it('shows the standings at game over with their places, "2nd =" for a place two people share', async () => {
    const over = foursiesGame({
      summary: foursiesSummary({ finished: true, winners: ['Bob'], toPlay: null }),
      offer: { ...foursiesGame().offer, finished: true, decisions: [], blocked: [] },
      standings: [
        { name: 'Bob', place: 1, shown: '2 tours', winner: true },
        { name: 'Ann', place: 2, shown: '1 tour', winner: false },
        { name: 'Cy', place: 2, shown: '1 tour', winner: false }
      ]
    })
    wrapper = await mountWith(TableScreen, new FakeTableApi(stateWith(over)))
    expect(wrapper.findAll('[data-testid="standing-place"]').map((place) => place.text())).toEqual(['1st', '2nd =', '2nd ='])
    expect(wrapper.findAll('[data-testid="standing-name"]').map((name) => name.text())).toEqual(['Bob', 'Ann', 'Cy'])
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

  it('shows sharing on the host when it is off (a switch that turns it on), the code with a new one on demand, and each paired screen with its revoke button', async () => {
    const paired = [
      { id: 'a1b2c3d4e5f60718', name: 'Phone (Android)', pairedAt: 1_700_000_000_000, lastSeenAt: 1_700_000_100_000, connected: true },
      { id: '0011223344556677', name: 'Tablet (iPad)', pairedAt: 1_700_000_000_000, lastSeenAt: 1_700_000_050_000, connected: false }
    ]
    const off = { enabled: false, urls: [], pairingCode: null, qrSvg: null, pairQrSvg: null, paired }
    const api = new FakeTableApi(stateWith(foursiesGame(), { sharing: off }))
    wrapper = await mountWith(TableScreen, api)
    expect(wrapper.find('[data-testid="sharing-off"]').text()).toContain('Off: only this computer opens the table')
    expect(wrapper.find('[data-testid="sharing-toggle"]').attributes('aria-checked')).toBe('false')
    await wrapper.find('[data-testid="sharing-toggle"]').trigger('click')
    expect(api.setSharing).toHaveBeenCalledWith(true)
    await flushPromises()
    expect(wrapper.findAll('[data-testid="paired-screen"]').map((item) => [item.find('[data-testid="paired-name"]').text(), item.attributes('data-connected')])).toEqual([
      ['Phone (Android)', 'true'],
      ['Tablet (iPad)', 'false']
    ])
    await wrapper.find('[data-testid="revoke-0011223344556677"]').trigger('click')
    expect(api.revokeScreen).toHaveBeenCalledWith('0011223344556677')

    api.push(stateWith(foursiesGame(), { version: 3, sharing: { ...off, enabled: true, urls: ['http://192.168.1.5:5858/scoreboard'], pairingCode: '48213360', pairQrSvg: '<svg data-qr="pair"></svg>' } }))
    await flushPromises()
    expect(wrapper.find('[data-testid="sharing-pair-qr"] svg').attributes('data-qr')).toBe('pair')
    expect(wrapper.find('[data-testid="sharing-panel"]').text()).toContain('http://192.168.1.5:5858/')
    await wrapper.find('[data-testid="new-pairing-code"]').trigger('click')
    expect(api.newPairingCode).toHaveBeenCalledOnce()
  })

  it('shows a paired screen where to watch while sharing is on, with no switch, code or list; nothing while it is off', async () => {
    const sharing = { enabled: true, urls: ['http://192.168.1.5:5858/scoreboard'], pairingCode: null, qrSvg: '<svg></svg>', pairQrSvg: null, paired: [] }
    const api = new FakeTableApi(stateWith(foursiesGame(), { trust: 'paired', sharing }))
    wrapper = await mountWith(TableScreen, api)
    expect(wrapper.find('[data-testid="sharing-urls"]').text()).toContain('http://192.168.1.5:5858/scoreboard')
    for (const part of ['sharing-toggle', 'sharing-code', 'paired-screens']) expect(wrapper.find(`[data-testid="${part}"]`).exists()).toBe(false)
    api.push(stateWith(foursiesGame(), { version: 3, trust: 'paired', sharing: { ...sharing, enabled: false, urls: [], qrSvg: null } }))
    await flushPromises()
    expect(wrapper.find('[data-testid="sharing-panel"]').exists()).toBe(false)
  })

  it('on a computer’s turn the keypad and buttons say so and stay off (undo stays on); after an undo it offers to let the computer play', async () => {
    const robo = farkleGame({ players: ['Ann', 'Robo'], computers: [1], thinking: { seat: 1, text: 'Robo is thinking…' }, undo: 'Ann’s bank' })
    const api = new FakeTableApi(stateWith(robo))
    wrapper = await mountWith(TableScreen, api, document.body)
    expect(wrapper.find('[data-testid="keypad-hint"]').text()).toBe('It is Robo’s turn: the computer plays it')
    expect(wrapper.find('[data-testid="computer-badge"]').exists()).toBe(true)
    expect(wrapper.find('[data-testid="keypad-enter"]').attributes('disabled')).toBeDefined()
    expect(wrapper.find('[data-testid="roll-virtual"]').attributes('disabled')).toBeDefined()
    expect(wrapper.find('[data-testid="roll-virtual"]').attributes('title')).toBe('It is Robo’s turn: the computer plays it')
    expect(wrapper.find('[data-testid="keypad-slash"]').attributes('disabled')).toBeUndefined()
    expect(wrapper.find('[data-testid="let-computer-play"]').exists()).toBe(false)
    // Keys typed on a keyboard still go to main, which says why they are refused: no silent refusal.
    press(' ', 'Space')
    press('5', 'Digit5')
    expect(api.rollVirtual).toHaveBeenCalledOnce()
    expect(api.keypad).toHaveBeenCalledWith('5')

    api.push(stateWith({ ...robo, thinking: { seat: 1, text: 'Robo waits after the undo: undo further, or let Robo play', waiting: true } }, { version: 3 }))
    await flushPromises()
    expect(wrapper.find('[data-testid="keypad-hint"]').text()).toBe('Robo waits after the undo')
    await wrapper.find('[data-testid="let-computer-play"]').trigger('click')
    expect(api.letComputerPlay).toHaveBeenCalledOnce()
  })

  it('says what undo takes back and what redo plays again; Ctrl+Z and Ctrl+Y do the same', async () => {
    const api = new FakeTableApi(stateWith(farkleGame({ undo: 'Ann’s keep 1', redo: 'Ann’s throw 5 3' })))
    wrapper = await mountWith(TableScreen, api, document.body)
    expect(wrapper.find('[data-testid="undo-what"]').text()).toBe('Ann’s keep 1')
    expect(wrapper.find('[data-testid="redo-what"]').text()).toBe('Ann’s throw 5 3')
    expect(wrapper.find('[data-testid="keypad-slash"]').attributes('title')).toBe('Undo Ann’s keep 1')
    await wrapper.find('[data-testid="redo"]').trigger('click')
    expect(api.redo).toHaveBeenCalledOnce()
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'z', code: 'KeyZ', ctrlKey: true, cancelable: true }))
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'y', code: 'KeyY', ctrlKey: true, cancelable: true }))
    expect(api.undo).toHaveBeenCalledOnce()
    expect(api.redo).toHaveBeenCalledTimes(2)
    expect(api.keypad).not.toHaveBeenCalled()
    // Nothing undone since the last move: no redo.
    api.push(stateWith(farkleGame({ undo: 'Ann’s keep 1', redo: null }), { version: 3 }))
    await flushPromises()
    expect(wrapper.find('[data-testid="redo"]').exists()).toBe(false)
  })

  it('shows this screen’s message beside the keypad', async () => {
    const api = new FakeTableApi(stateWith(foursiesGame(), { message: { text: '4 dice are due, not 2', level: 'error', id: 7 } }))
    wrapper = await mountWith(TableScreen, api)
    const message = wrapper.find('.table__keypad [data-testid="message"]')
    expect(message.text()).toContain('4 dice are due, not 2')
    expect(message.attributes('data-level')).toBe('error')
  })
})
