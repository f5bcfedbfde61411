// The Electron shell's own logic, with Electron replaced by a stand-in (the binary cannot be
// downloaded here): secure windows, the IPC guard, the scoreboard on the chosen display.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it, vi } from 'vitest'

import { waitUntil } from '@test/kit/wait'

vi.mock('electron', () => import('./fake-electron'))
const { fake, shellStarted } = await import('./fake-electron')

// As Electron sends it: the frame that asked, and the webContents of its window (the control window).
const fromApp = {
  senderFrame: { url: 'app://dice-referee/index.html', parent: null },
  get sender() {
    return fake.FakeBrowserWindow.all[0].webContents
  }
}
const call = (event: unknown, method: string, ...args: unknown[]) => fake.handlers.get('table:call')!(event, method, args)
const windows = () => fake.FakeBrowserWindow.all

beforeAll(async () => {
  fake.userData = mkdtempSync(join(tmpdir(), 'dice-referee-electron-'))
  await import('@main/index')
  await shellStarted()
})

describe('the Electron shell', () => {
  it('opens the control window with context isolation, the sandbox and no Node in the page', () => {
    const control = windows()[0]
    expect(control.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true })
    expect(String((control.options.webPreferences as { preload: string }).preload)).toMatch(/preload[/\\]index\.js$/)
    expect(control.loaded.url).toBe('app://dice-referee/')
  })

  it('answers only its own screens, and checks every payload', async () => {
    await expect(call({ senderFrame: { url: 'https://example.com/' } }, 'getState')).rejects.toThrow('refused')
    await expect(call({ senderFrame: null }, 'getState')).rejects.toThrow('refused')
    await expect(fake.handlers.get('table:call')!(fromApp, 42, [])).rejects.toThrow('malformed')
    expect(await call(fromApp, 'getState')).toMatchObject({ ok: true, state: { canControl: true, current: null } })
    expect(await call(fromApp, 'submit', { roll: [9] })).toMatchObject({ ok: false })
  })

  it('pushes every new state to the screens', async () => {
    expect(await call(fromApp, 'newGame', { game: 'four-plus', players: ['Ann', 'Bob'] })).toEqual({ ok: true })
    const pushes = windows()[0].webContents.sent.filter((message) => message.channel === 'table:state')
    expect(pushes.at(-1)?.payload).toMatchObject({ current: { game: 'four-plus' } })
  })

  it('refuses a request whose argument does not fit its schema, naming the field, and changes nothing', async () => {
    const before = await call(fromApp, 'getState')
    const record = readFileSync(join(fake.userData, 'games', 'current.jsonl'), 'utf8')
    const pushes = windows()[0].webContents.sent.length
    const refusals: [string, unknown[], string][] = [
      ['newGame', [{ game: 'farkle', players: ['Ann', 'Bob', 'x'.repeat(41)] }], 'newGame: players[2] must be a string of at most 40 characters'],
      ['newGame', [{ game: 'farkle', players: ['Ann'], seats: 2 }], 'newGame: seats is not a field of a game setup (game, players, rules, computers)'],
      ['submit', [{ roll: [4, 2, 2, 9] }], 'submit: move is not a move: 9 is not a die value (1-6)'],
      ['keypad', ['F5'], 'keypad: key must be a keypad key (0 1 2 3 4 5 6 7 8 9 Enter Backspace + - * / .)'],
      ['identifyDie', ['DRH-1', 'A B'], 'identifyDie: dieId must be a die id (1 to 8 letters or digits)'],
      ['showScoreboard', ['2'], 'showScoreboard: displayId must be a display id or null'],
      ['undo', [true], 'undo takes 0 arguments, not 1']
    ]
    for (const [method, args, error] of refusals) {
      expect(await fake.handlers.get('table:call')!(fromApp, method, args), method).toEqual({ ok: false, error })
    }
    expect(await call(fromApp, 'getState')).toEqual(before)
    expect(readFileSync(join(fake.userData, 'games', 'current.jsonl'), 'utf8')).toBe(record)
    expect(windows()[0].webContents.sent).toHaveLength(pushes)
  })

  it('opens the scoreboard fullscreen on the chosen display and remembers it', async () => {
    expect(await call(fromApp, 'listDisplays')).toEqual({
      ok: true,
      displays: [
        { id: 1, label: 'Laptop', width: 1440, height: 900, primary: true, showing: false },
        { id: 2, label: 'TV', width: 1920, height: 1080, primary: false, showing: false }
      ]
    })
    expect(await call(fromApp, 'showScoreboard', 2)).toEqual({ ok: true })
    const scoreboard = windows()[1]
    expect(scoreboard.loaded.url).toBe('app://dice-referee/scoreboard')
    expect(scoreboard.bounds).toEqual(fake.displays[1].bounds)
    expect(scoreboard.fullScreen).toBe(true)
    scoreboard.emit('ready-to-show')
    expect(JSON.parse(readFileSync(join(fake.userData, 'games', 'settings.json'), 'utf8')).scoreboardDisplayId).toBe(2)
    expect(await call(fromApp, 'showScoreboard', 7)).toEqual({ ok: false, error: 'That display is not connected' })
  })

  it('F11 toggles fullscreen and Esc leaves it', () => {
    const scoreboard = windows()[1]
    const press = (key: string) => {
      const event = { preventDefault: vi.fn() }
      scoreboard.webContents.emit('before-input-event', event, { type: 'keyDown', key })
      return event.preventDefault
    }
    expect(press('Escape')).toHaveBeenCalled()
    expect(scoreboard.fullScreen).toBe(false)
    press('F11')
    expect(scoreboard.fullScreen).toBe(true)
  })

  it('follows displays being unplugged and plugged back', () => {
    const scoreboard = windows()[1]
    const tv = fake.displays.pop()!
    fake.screenEvents.emit('display-removed')
    expect(scoreboard.bounds).toEqual(fake.displays[0].bounds)
    fake.displays.push(tv)
    fake.screenEvents.emit('display-added')
    expect(scoreboard.bounds).toEqual(tv.bounds)
    expect(scoreboard.fullScreen).toBe(true)
  })

  it('pushes the TV window a move first and the control window right after, before the request is answered', async () => {
    const [control, scoreboard] = windows()
    const order: string[] = []
    for (const [name, window] of [
      ['control', control],
      ['tv', scoreboard]
    ] as const) {
      const send = window.webContents.send.bind(window.webContents)
      window.webContents.send = (channel: string, payload: unknown) => {
        order.push(name)
        send(channel, payload)
      }
    }
    const answered = Promise.resolve(call(fromApp, 'newGame', { game: 'four-plus', players: ['Ann', 'Bob'] })).then((outcome: unknown) => {
      order.push('answered')
      return outcome
    })
    expect(await answered).toEqual({ ok: true })
    expect(order).toEqual(['tv', 'control', 'answered'])
  })

  it('never navigates away from the app, and opens no window', () => {
    const control = windows()[0]
    const event = { preventDefault: vi.fn() }
    control.webContents.emit('will-navigate', event, 'https://example.com/')
    expect(event.preventDefault).toHaveBeenCalled()
    expect(control.webContents.openHandler!({ url: 'https://example.com/help' })).toEqual({ action: 'deny' })
    expect(control.webContents.openHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' })
    expect(fake.opened).toEqual([])
  })

  it('picks a Bluetooth die with our own picker on the Devices tab, and answers pairing prompts', async () => {
    const control = windows()[0]
    const answered: string[] = []
    const prevented = { count: 0 }
    const event = { preventDefault: () => prevented.count++ }
    const found = [
      { deviceId: 'AA:01', deviceName: 'GoDice_00A1_K_v04' },
      { deviceId: 'BB:02', deviceName: 'Pixel Red' }
    ]
    // Chromium calls again, with the same callback, each time its scan finds more.
    const answer = (id: string) => answered.push(id)
    control.webContents.emit('select-bluetooth-device', event, found.slice(0, 1), answer)
    control.webContents.emit('select-bluetooth-device', event, found, answer)
    expect(prevented.count).toBe(2)
    // Device-only changes reach the screens at the next refresh.
    await waitUntil(() => {
      const pushes = control.webContents.sent.filter((message) => message.channel === 'table:state')
      expect(pushes.at(-1)?.payload).toMatchObject({
        devices: { bluetooth: { chooser: [{ id: 'AA:01', name: 'GoDice_00A1_K_v04' }, { id: 'BB:02', name: 'Pixel Red' }] } }
      })
    })
    expect(await call(fromApp, 'chooseBluetoothDevice', 'CC:03')).toMatchObject({ ok: false, error: expect.stringContaining('CC:03') })
    expect(await call(fromApp, 'chooseBluetoothDevice', 'BB:02')).toEqual({ ok: true })
    expect(answered).toEqual(['BB:02'])
    expect(await call(fromApp, 'chooseBluetoothDevice', null)).toMatchObject({ ok: false, error: expect.stringContaining('No Bluetooth scan') })
    // A scan cancelled from the screen answers Chromium with no device.
    control.webContents.emit('select-bluetooth-device', event, found, (id: string) => answered.push(id))
    expect(await call(fromApp, 'chooseBluetoothDevice', null)).toEqual({ ok: true })
    expect(answered).toEqual(['BB:02', ''])

    const responses: unknown[] = []
    const pair = control.webContents.session.pairingHandler!
    pair({ deviceId: 'BB:02', pairingKind: 'confirm' }, (response) => responses.push(response))
    pair({ deviceId: 'BB:02', pairingKind: 'confirmPin', pin: '123456' }, (response) => responses.push(response))
    pair({ deviceId: 'BB:02', pairingKind: 'providePin' }, (response) => responses.push(response))
    expect(responses).toEqual([{ confirmed: true }, { confirmed: true }, { confirmed: false }])
  })
})
