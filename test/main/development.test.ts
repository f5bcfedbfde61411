// `npm run dev` (not packaged): the screens come from electron-vite's dev server, whose exact
// origin is then the one IPC answers besides app://; DevTools and the default menu stay.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('./fake-electron'))
const { fake, shellStarted } = await import('./fake-electron')

const call = (url: string) => fake.handlers.get('table:call')!({ senderFrame: { url, parent: null }, sender: fake.FakeBrowserWindow.all[0].webContents }, 'getState', [])

beforeAll(async () => {
  fake.userData = mkdtempSync(join(tmpdir(), 'dice-referee-dev-'))
  fake.isPackaged = false
  process.env.ELECTRON_RENDERER_URL = 'http://localhost:5173'
  await import('@main/index')
  await shellStarted()
})

describe('the shell in development', () => {
  it('loads the dev server, keeps DevTools and the default menu', () => {
    const control = fake.FakeBrowserWindow.all[0]
    expect(control.loaded.url).toBe('http://localhost:5173')
    expect((control.options.webPreferences as Record<string, unknown>).devTools).toBe(true)
    expect(fake.menus).toEqual([])
  })

  it('opens the scoreboard at the dev server’s /scoreboard, the address the browser uses too', async () => {
    const frame = { senderFrame: { url: 'http://localhost:5173/', parent: null }, sender: fake.FakeBrowserWindow.all[0].webContents }
    expect(await fake.handlers.get('table:call')!(frame, 'showScoreboard', [2])).toEqual({ ok: true })
    expect(fake.FakeBrowserWindow.all[1].loaded.url).toBe('http://localhost:5173/scoreboard')
  })

  it('answers the dev server’s exact origin and app://, nothing else', async () => {
    expect(await call('http://localhost:5173/scoreboard')).toMatchObject({ ok: true, state: { canControl: true } })
    expect(await call('app://dice-referee/index.html')).toMatchObject({ ok: true, state: { canControl: true } })
    await expect(call('http://localhost:5174/')).rejects.toThrow('refused')
    await expect(call('http://127.0.0.1:5173/')).rejects.toThrow('refused')
  })
})
