// @vitest-environment happy-dom
// The whole app with its router (in memory): which screen each address opens, the tabs as links,
// Back and Forward, the pairing code kept from screen to screen, and the TV's own page.
import { afterEach, describe, expect, it } from 'vitest'
import { flushPromises, type VueWrapper } from '@vue/test-utils'
import type { ConnectionStatus } from '@renderer/api'
import { FakeTableApi, devicesView, emptyState, foursiesGame, stateWith } from './fixtures'
import { mountApp } from './mountWith'

/** A fake transport that can lose its connection, like the WebSocket one. */
class FlakyApi extends FakeTableApi {
  connectionStatus: ConnectionStatus = 'open'
  private connectionListeners = new Set<(status: ConnectionStatus) => void>()
  onConnection(listener: (status: ConnectionStatus) => void): () => void {
    this.connectionListeners.add(listener)
    return () => this.connectionListeners.delete(listener)
  }
  setConnection(status: ConnectionStatus): void {
    this.connectionStatus = status
    for (const listener of this.connectionListeners) listener(status)
  }
}

let mounted: VueWrapper | null = null
afterEach(() => {
  mounted?.unmount()
  mounted = null
})

async function open(api: FakeTableApi, path: string) {
  const app = await mountApp(api, path)
  mounted = app.wrapper
  return app
}

const shows = (wrapper: VueWrapper, testId: string): boolean => wrapper.find(`[data-testid="${testId}"]`).exists()

describe('App', () => {
  it('opens on Setup without a game and on the Table with one, and shows the Table tab only then', async () => {
    const api = new FakeTableApi(emptyState())
    const { wrapper, router } = await open(api, '/')
    expect(shows(wrapper, 'setup-screen')).toBe(true)
    expect(router.currentRoute.value.fullPath).toBe('/setup')
    expect(shows(wrapper, 'tab-table')).toBe(false)

    api.push(stateWith(foursiesGame(), { version: 5 }))
    await flushPromises()
    expect(shows(wrapper, 'table-screen')).toBe(true)
    expect(router.currentRoute.value.fullPath).toBe('/table')
    await wrapper.find('[data-testid="tab-history"]').trigger('click')
    await flushPromises()
    expect(shows(wrapper, 'history-screen')).toBe(true)
    expect(router.currentRoute.value.fullPath).toBe('/history')
  })

  it('opens `/` on the Table when a game is on', async () => {
    const { wrapper, router } = await open(new FakeTableApi(stateWith(foursiesGame())), '/')
    expect(shows(wrapper, 'table-screen')).toBe(true)
    expect(router.currentRoute.value.fullPath).toBe('/table')
  })

  it('shows main’s message, errors in red', async () => {
    const api = new FakeTableApi(stateWith(foursiesGame(), { message: { text: '7 is not a die face: use 1 to 6', level: 'error', id: 3 } }))
    const { wrapper } = await open(api, '/')
    const message = wrapper.find('[data-testid="message"]')
    expect(message.text()).toContain('7 is not a die face')
    expect(message.classes()).toContain('message--error')
  })

  it('shows the message on the Table beside the keypad and on the other screens at the top, once; no band while there is none', async () => {
    const api = new FakeTableApi(stateWith(foursiesGame(), { message: { text: 'LAN sharing is on', level: 'info', id: 3 } }))
    const { wrapper, router } = await open(api, '/table')
    expect(wrapper.findAll('[data-testid="message"]')).toHaveLength(1)
    expect(wrapper.find('.table__keypad [data-testid="message"]').text()).toContain('LAN sharing is on')
    await router.push('/history')
    await flushPromises()
    expect(wrapper.findAll('[data-testid="message"]')).toHaveLength(1)
    expect(wrapper.find('.control__message').text()).toContain('LAN sharing is on')
    api.push(stateWith(foursiesGame(), { version: 4, message: null }))
    await flushPromises()
    expect(wrapper.find('.control__message').classes()).toContain('message--none')
  })

  it('a LAN viewer is told it only watches and how to pair; a screen whose pairing was withdrawn is told so', async () => {
    const viewer = await open(new FakeTableApi(stateWith(foursiesGame(), { canControl: false, trust: 'viewer', devices: null })), '/table')
    expect(viewer.wrapper.find('[data-testid="pairing-band"]').text()).toContain('type the pairing code shown on the table’s own screen')
    expect(shows(viewer.wrapper, 'pairing-form')).toBe(true)
    viewer.wrapper.unmount()
    const withdrawn = await open(new FakeTableApi(stateWith(foursiesGame(), { canControl: false, trust: 'withdrawn', devices: null })), '/table')
    expect(withdrawn.wrapper.find('[data-testid="pairing-withdrawn"]').text()).toBe('The table withdrew this screen’s pairing: pair again to enter dice.')
    withdrawn.wrapper.unmount()
    const host = await open(new FakeTableApi(stateWith(foursiesGame())), '/table')
    expect(shows(host.wrapper, 'pairing-band')).toBe(false)
  })

  it('shows the scoreboard on /scoreboard and a banner while reconnecting', async () => {
    const api = new FlakyApi(stateWith(foursiesGame()))
    const { wrapper } = await open(api, '/scoreboard')
    expect(shows(wrapper, 'scoreboard')).toBe(true)
    expect(shows(wrapper, 'tab-setup')).toBe(false)
    expect(shows(wrapper, 'reconnecting')).toBe(false)
    api.setConnection('reconnecting')
    await flushPromises()
    expect(shows(wrapper, 'reconnecting')).toBe(true)
    api.setConnection('open')
    await flushPromises()
    expect(shows(wrapper, 'reconnecting')).toBe(false)
  })

  it('says nothing of a lost connection while a page makes its first one', async () => {
    const api = new FlakyApi(stateWith(foursiesGame()))
    api.connectionStatus = 'connecting'
    const { wrapper } = await open(api, '/table')
    expect(shows(wrapper, 'reconnecting')).toBe(false)
    api.setConnection('reconnecting')
    await flushPromises()
    expect(shows(wrapper, 'reconnecting')).toBe(true)
  })
})

describe('each screen has its address', () => {
  const SCREENS: Array<[path: string, testId: string, tab: string | null]> = [
    ['/setup', 'setup-screen', 'setup'],
    ['/table', 'table-screen', 'table'],
    ['/devices', 'devices-screen', 'devices'],
    ['/history', 'history-screen', 'history'],
    ['/players', 'players-screen', 'players'],
    ['/players/Ann', 'player-page', 'players'],
    ['/scoreboard', 'scoreboard', null]
  ]

  it.each(SCREENS)('%s opens %s, and stays there while a game is on', async (path, testId, tab) => {
    const api = new FakeTableApi(stateWith(foursiesGame(), { devices: devicesView() }))
    api.playerPage.mockResolvedValue({
      ok: true,
      page: { person: { name: 'Ann', colour: '#e6194b', aliases: [] }, statistics: null, form: [], opponents: [] }
    })
    const { wrapper, router } = await open(api, path)
    expect(shows(wrapper, testId)).toBe(true)
    expect(router.currentRoute.value.fullPath).toBe(path)
    if (tab) {
      expect(wrapper.find('[aria-selected="true"]').attributes('data-testid')).toBe(`tab-${tab}`)
      expect(wrapper.findAll('.tabs__tab.is-active')).toHaveLength(1)
    }
  })

  it('a tab is a link to its screen’s address', async () => {
    const { wrapper } = await open(new FakeTableApi(stateWith(foursiesGame(), { devices: devicesView() })), '/table')
    const links = Object.fromEntries(wrapper.findAll('[role="tab"]').map((tab) => [tab.attributes('data-testid'), tab.attributes('href')]))
    expect(links).toEqual({ 'tab-setup': '/setup', 'tab-table': '/table', 'tab-devices': '/devices', 'tab-history': '/history', 'tab-players': '/players' })
    expect(wrapper.find('[data-testid="open-scoreboard"]').attributes('href')).toBe('/scoreboard')
  })

  it('opens Setup in place of a Table without a game, and in place of Devices on a LAN viewer', async () => {
    const noGame = await open(new FakeTableApi(emptyState()), '/table')
    expect(noGame.router.currentRoute.value.fullPath).toBe('/setup')
    expect(shows(noGame.wrapper, 'setup-screen')).toBe(true)
    noGame.wrapper.unmount()
    const viewer = await open(new FakeTableApi(stateWith(foursiesGame(), { canControl: false, devices: null })), '/devices')
    expect(viewer.router.currentRoute.value.fullPath).toBe('/table')
    expect(shows(viewer.wrapper, 'devices-screen')).toBe(false)
  })

  it('an address no screen has opens the control app', async () => {
    const { wrapper, router } = await open(new FakeTableApi(emptyState()), '/index.html')
    expect(router.currentRoute.value.fullPath).toBe('/setup')
    expect(shows(wrapper, 'setup-screen')).toBe(true)
  })

  it('Back and Forward go through the screens visited', async () => {
    const { wrapper, router } = await open(new FakeTableApi(stateWith(foursiesGame())), '/table')
    await wrapper.find('[data-testid="tab-history"]').trigger('click')
    await flushPromises()
    await wrapper.find('[data-testid="tab-players"]').trigger('click')
    await flushPromises()
    expect(shows(wrapper, 'players-screen')).toBe(true)
    router.back()
    await flushPromises()
    expect(router.currentRoute.value.fullPath).toBe('/history')
    expect(shows(wrapper, 'history-screen')).toBe(true)
    router.back()
    await flushPromises()
    expect(shows(wrapper, 'table-screen')).toBe(true)
    router.forward()
    await flushPromises()
    expect(shows(wrapper, 'history-screen')).toBe(true)
  })

  it('brings the Table forward when a game starts while another screen is shown, and Setup when it goes away', async () => {
    const api = new FakeTableApi(emptyState())
    const { wrapper, router } = await open(api, '/history')
    expect(shows(wrapper, 'history-screen')).toBe(true)
    api.push(stateWith(foursiesGame(), { version: 3 }))
    await flushPromises()
    expect(router.currentRoute.value.fullPath).toBe('/table')
    api.push(emptyState({ version: 4 }))
    await flushPromises()
    expect(router.currentRoute.value.fullPath).toBe('/setup')
    expect(shows(wrapper, 'setup-screen')).toBe(true)
  })
})
