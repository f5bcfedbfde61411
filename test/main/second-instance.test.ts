// A second launch of the app while one runs: it hands over (the first one's window comes forward,
// see security.test.ts) and quits without a window, without touching the data folder.
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it, vi } from 'vitest'

vi.mock('electron', () => import('./fake-electron'))
const { fake, shellStarted } = await import('./fake-electron')

it('quits at once, opening no window and leaving the data folder alone', async () => {
  fake.userData = mkdtempSync(join(tmpdir(), 'dice-referee-second-'))
  fake.firstInstance = false
  await import('@main/index')
  await shellStarted()
  // The ready handler has run its first step by the next turn of the event loop: a first instance's takes the data folder then.
  await new Promise((resolve) => setImmediate(resolve))
  expect(fake.quit).toBe(1)
  expect(fake.FakeBrowserWindow.all).toEqual([])
  expect(fake.handlers.size).toBe(0)
  expect(existsSync(join(fake.userData, 'games'))).toBe(false)
})
