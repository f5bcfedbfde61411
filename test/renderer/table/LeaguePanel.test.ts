// @vitest-environment happy-dom
import { flushPromises, type VueWrapper } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import LeaguePanel from '@renderer/table/LeaguePanel.vue'
import { emptyState, FakeTableApi } from '../fixtures'
import { mountWith } from '../mountWith'

let wrapper: VueWrapper | null = null
afterEach(() => {
  wrapper?.unmount()
  wrapper = null
})

describe('LeaguePanel', () => {
  it('is not shown where there is no league to join (a LAN screen)', async () => {
    wrapper = await mountWith(LeaguePanel, new FakeTableApi(emptyState({ league: null })))
    expect(wrapper.find('[data-testid="league-panel"]').exists()).toBe(false)
  })

  it('joins a league with the address typed, and says a refusal beside the form', async () => {
    const api = new FakeTableApi(emptyState({ league: { joined: null, hosting: null } }))
    api.joinLeague.mockResolvedValueOnce({ ok: false, error: 'The league could not be joined: refused' })
    wrapper = await mountWith(LeaguePanel, api)
    await wrapper.find('[data-testid="league-address"]').setValue('  http://t1:pw@192.168.1.9:5984/league ')
    await wrapper.find('[data-testid="league-join-form"]').trigger('submit')
    await flushPromises()
    expect(api.joinLeague).toHaveBeenCalledWith('http://t1:pw@192.168.1.9:5984/league')
    expect(wrapper.find('[data-testid="league-refusal"]').text()).toBe('The league could not be joined: refused')
  })

  it('shows the league joined with its state, and leaves it', async () => {
    const joined = { league: 'http://t1@192.168.1.9:5984/league', table: 't1', connected: false, pending: 3, lastError: 'the league host is not answering' }
    const api = new FakeTableApi(emptyState({ league: { joined, hosting: { port: 5984 } } }))
    wrapper = await mountWith(LeaguePanel, api)
    expect(wrapper.find('[data-testid="league-joined"]').text()).toContain('as table t1')
    expect(wrapper.find('[data-testid="league-status"]').text()).toBe('Not reached (the league host is not answering): games are kept and sent when it is.')
    expect(wrapper.find('[data-testid="league-hosting"]').text()).toContain('port 5984')
    await wrapper.find('[data-testid="league-leave"]').trigger('click')
    expect(api.joinLeague).toHaveBeenCalledWith(null)
  })

  it('hosts the league on this computer with a port and a password', async () => {
    const api = new FakeTableApi(emptyState({ league: { joined: null, hosting: null } }))
    wrapper = await mountWith(LeaguePanel, api)
    await wrapper.find('[data-testid="league-port"]').setValue(6000)
    await wrapper.find('[data-testid="league-password"]').setValue('club-night')
    await wrapper.find('[data-testid="league-host-form"]').trigger('submit')
    expect(api.hostLeague).toHaveBeenCalledWith({ port: 6000, password: 'club-night' })
  })
})
