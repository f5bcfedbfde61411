// The app's data folder held by another live process (the headless host on the same folder, say):
// the app says who holds it and exits, opening nothing and leaving the holder's lock alone.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it, vi } from 'vitest'

vi.mock('electron', () => import('./fake-electron'))
const { fake, shellStarted } = await import('./fake-electron')

it('refuses the folder naming the holder (pid, host, start time), and exits non-zero', async () => {
  fake.userData = mkdtempSync(join(tmpdir(), 'dice-referee-in-use-'))
  const games = join(fake.userData, 'games')
  mkdirSync(games)
  // Process 1 is alive on every machine: the holder is running.
  const holder = JSON.stringify({ pid: 1, host: hostname(), startedAt: new Date().toISOString(), program: 'the headless host (npm run table)' })
  writeFileSync(join(games, 'dice-referee.lock'), holder)
  await import('@main/index')
  await shellStarted()
  expect(fake.errorBoxes).toHaveLength(1)
  expect(fake.errorBoxes[0].title).toBe('Dice Referee cannot open its games')
  expect(fake.errorBoxes[0].content).toContain(`is in use by the headless host (npm run table) (process 1 on ${hostname()}, started ${JSON.parse(holder).startedAt})`)
  expect(fake.exitCode).toBe(1)
  expect(fake.FakeBrowserWindow.all).toEqual([])
  expect(fake.handlers.size).toBe(0)
  expect(readFileSync(join(games, 'dice-referee.lock'), 'utf8')).toBe(holder)
})
