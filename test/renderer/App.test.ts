// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia } from 'pinia'
import App from '../../src/renderer/src/App.vue'
import { setTableApi } from '../../src/renderer/src/api'
import { viewFor } from '../../src/renderer/src/lib/view'
import type { ConnectionStatus } from '../../src/renderer/src/api'
import { FakeTableApi, emptyState, foursiesGame, stateWith } from './fixtures'

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

describe('viewFor', () => {
  it('picks the scoreboard by path or hash, the control app otherwise', () => {
    expect(viewFor({ pathname: '/scoreboard', hash: '' })).toBe('scoreboard')
    expect(viewFor({ pathname: '/index.html', hash: '#/scoreboard' })).toBe('scoreboard')
    expect(viewFor({ pathname: '/', hash: '' })).toBe('control')
    expect(viewFor({ pathname: '/index.html', hash: '#/table' })).toBe('control')
  })
})

describe('App', () => {
  afterEach(() => window.history.replaceState(null, '', '/'))

  it('opens on Setup without a game and on the Table with one, and shows the Table tab only then', async () => {
    const api = new FakeTableApi(emptyState())
    setTableApi(api)
    const wrapper = mount(App, { global: { plugins: [createPinia()] } })
    await flushPromises()
    expect(wrapper.find('[data-testid="setup-screen"]').exists()).toBe(true)
    expect(wrapper.find('[data-testid="tab-table"]').exists()).toBe(false)

    api.push(stateWith(foursiesGame(), { version: 5 }))
    await flushPromises()
    expect(wrapper.find('[data-testid="table-screen"]').exists()).toBe(true)
    await wrapper.find('[data-testid="tab-history"]').trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="history-screen"]').exists()).toBe(true)
    wrapper.unmount()
  })

  it('shows main’s message, errors in red', async () => {
    const api = new FakeTableApi(stateWith(foursiesGame(), { message: { text: '7 is not a die face: use 1 to 6', level: 'error', id: 3 } }))
    setTableApi(api)
    const wrapper = mount(App, { global: { plugins: [createPinia()] } })
    await flushPromises()
    const message = wrapper.find('[data-testid="message"]')
    expect(message.text()).toContain('7 is not a die face')
    expect(message.classes()).toContain('message--error')
    wrapper.unmount()
  })

  it('shows the scoreboard on #/scoreboard and a banner while reconnecting', async () => {
    window.history.replaceState(null, '', '/#/scoreboard')
    const api = new FlakyApi(stateWith(foursiesGame()))
    setTableApi(api)
    const wrapper = mount(App, { global: { plugins: [createPinia()] } })
    await flushPromises()
    expect(wrapper.find('[data-testid="scoreboard"]').exists()).toBe(true)
    expect(wrapper.find('[data-testid="reconnecting"]').exists()).toBe(false)
    api.setConnection('reconnecting')
    await flushPromises()
    expect(wrapper.find('[data-testid="reconnecting"]').exists()).toBe(true)
    api.setConnection('open')
    await flushPromises()
    expect(wrapper.find('[data-testid="reconnecting"]').exists()).toBe(false)
    wrapper.unmount()
  })
})
