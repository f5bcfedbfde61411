// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { setTableApi } from '@renderer/api'
import { useTableStore } from '@renderer/stores/table'
import { FakeTableApi, foursiesGame, stateWith } from '../fixtures'

describe('useTableStore', () => {
  let api: FakeTableApi

  beforeEach(() => {
    setActivePinia(createPinia())
    api = new FakeTableApi(stateWith(foursiesGame()))
    setTableApi(api)
  })

  afterEach(() => {
    localStorage.clear()
    history.replaceState({}, '', '/')
  })

  it('pairs a screen opened from the pairing QR code (?pair=CODE) once: keeps its token and opens the page again without the code', async () => {
    history.replaceState({}, '', '/table?pair=12345678')
    api.state = stateWith(foursiesGame(), { canControl: false, trust: 'viewer' })
    api.pair.mockResolvedValue({ ok: true, token: 'the-token' })
    const replace = vi.spyOn(window.location, 'replace').mockImplementation(() => undefined)
    const table = useTableStore()
    await table.start()
    expect(api.pair).toHaveBeenCalledWith('12345678', expect.any(String))
    expect(localStorage.getItem('dice-referee.screen-token')).toBe('the-token')
    expect(replace).toHaveBeenCalledTimes(1)
    expect(new URL(String(replace.mock.calls[0][0])).search).toBe('')
    replace.mockRestore()
  })

  it('does not pair a screen that may enter dice already, and forgets a token the host withdrew', async () => {
    history.replaceState({}, '', '/table?pair=12345678')
    localStorage.setItem('dice-referee.screen-token', 'old')
    const table = useTableStore()
    await table.start()
    expect(api.pair).not.toHaveBeenCalled()
    expect(localStorage.getItem('dice-referee.screen-token')).toBe('old')
    api.push(stateWith(foursiesGame(), { version: 5, canControl: false, trust: 'withdrawn' }))
    expect(localStorage.getItem('dice-referee.screen-token')).toBeNull()
  })

  it('loads the state on start and mirrors every push', async () => {
    const table = useTableStore()
    await table.start()
    expect(api.getState).toHaveBeenCalledOnce()
    expect(table.current?.summary.toPlay).toBe('Bob')
    expect(table.isGameOn).toBe(true)

    api.push(stateWith(null, { version: 3 }))
    expect(table.isGameOn).toBe(false)
    expect(table.state?.version).toBe(3)
  })

  it('keeps a newer push over an older answer', async () => {
    const table = useTableStore()
    await table.start()
    api.push(stateWith(foursiesGame({ moveCount: 9 }), { version: 10 }))
    table.receive(stateWith(foursiesGame({ moveCount: 1 }), { version: 4 }))
    expect(table.current?.moveCount).toBe(9)
  })

  it('sends every action to the API', async () => {
    const table = useTableStore()
    await table.start()
    await table.keypad('3')
    await table.submit({ end: true })
    await table.rollVirtual()
    await table.undo()
    await table.abandon()
    await table.setSharing(true)
    await table.importRecord('text')
    await table.newGame({ game: 'farkle', players: ['Ann'] })
    expect(api.keypad).toHaveBeenCalledWith('3')
    expect(api.submit).toHaveBeenCalledWith({ end: true })
    expect(api.rollVirtual).toHaveBeenCalledOnce()
    expect(api.undo).toHaveBeenCalledOnce()
    expect(api.abandon).toHaveBeenCalledOnce()
    expect(api.setSharing).toHaveBeenCalledWith(true)
    expect(api.importRecord).toHaveBeenCalledWith('text')
    expect(api.newGame).toHaveBeenCalledWith({ game: 'farkle', players: ['Ann'] })
  })

  it('shows a refusal until main says something newer', async () => {
    const table = useTableStore()
    await table.start()
    api.submit.mockResolvedValueOnce({ ok: false, error: 'No such move' })
    const outcome = await table.submit({ bank: true })
    expect(outcome).toEqual({ ok: false, error: 'No such move' })
    expect(table.notice).toEqual({ text: 'No such move', level: 'error' })

    api.push(stateWith(foursiesGame(), { version: 5, message: { text: 'Bob re-rolls', level: 'info', id: 7 } }))
    expect(table.notice).toEqual({ text: 'Bob re-rolls', level: 'info' })
  })

  it('turns a failed request into an error notice instead of throwing', async () => {
    const table = useTableStore()
    await table.start()
    api.keypad.mockRejectedValueOnce(new Error('Not connected'))
    const outcome = await table.keypad('Enter')
    expect(outcome.ok).toBe(false)
    expect(table.notice?.text).toBe('Not connected')
  })
})
