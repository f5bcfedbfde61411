// Electron's security checklist, item by item, on the packaged app's shell with a stand-in
// Electron (docs/security.md lists the items and points here). Fuses: test/packaging; the
// preload's API: test/preload/preload.test.ts; the CSP in the built page: test/host/logging.test.ts.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { CAMERA_WORKER_CONTENT_SECURITY_POLICY, HEADER_CONTENT_SECURITY_POLICY } from '@shared/content-security-policy'
import { appResponse, mayOpenInBrowser } from '@main/app-protocol'
import { ROOT } from '@test/kit/root'

vi.mock('electron', () => import('./fake-electron'))
const { fake, shellStarted } = await import('./fake-electron')

const call = (event: unknown, method: string, ...args: unknown[]) => fake.handlers.get('table:call')!(event, method, args)
const control = () => fake.FakeBrowserWindow.all[0]
// As Electron sends it: the frame that asked, and the webContents of its window (the control window).
const frame = (url: string, parent: unknown = null) => ({ senderFrame: { url, parent }, sender: fake.FakeBrowserWindow.all[0].webContents })

beforeAll(async () => {
  fake.userData = mkdtempSync(join(tmpdir(), 'dice-referee-security-'))
  fake.isPackaged = true
  // A packaged app ignores a dev server address even when one is in its environment.
  process.env.ELECTRON_RENDERER_URL = 'http://localhost:5173'
  await import('@main/index')
  await shellStarted()
})

describe('Electron security checklist (packaged app)', () => {
  it('1, 18: loads its screens from the app:// scheme, a privileged standard scheme of its own, never file:// or http', () => {
    expect(control().loaded).toEqual({ url: 'app://dice-referee/' })
    expect(fake.privilegedSchemes).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }])
    expect(fake.protocolHandlers.has('app')).toBe(true)
  })

  it('18: app:// serves the built screens with the CSP header, and nothing outside them', async () => {
    const rendererDir = mkdtempSync(join(tmpdir(), 'dice-referee-renderer-'))
    mkdirSync(join(rendererDir, 'assets'))
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Dice Referee</title>')
    writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)')
    writeFileSync(join(rendererDir, '..', 'secret.txt'), 'not for the screens')
    const page = await appResponse(rendererDir, 'app://dice-referee/index.html')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toBe(HEADER_CONTENT_SECURITY_POLICY)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await page.text()).toContain('<title>Dice Referee</title>')
    expect((await appResponse(rendererDir, 'app://dice-referee/assets/app.js')).headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect((await appResponse(rendererDir, 'app://dice-referee/assets/app.js')).headers.get('content-security-policy')).toBe(HEADER_CONTENT_SECURITY_POLICY)
    // The camera's reader (OpenCV's WebAssembly build) runs in a worker with a policy of its own: it may compile, and load nothing.
    writeFileSync(join(rendererDir, 'assets', 'camera.worker-Ab1_x.js'), 'postMessage(1)')
    expect((await appResponse(rendererDir, 'app://dice-referee/assets/camera.worker-Ab1_x.js')).headers.get('content-security-policy')).toBe(CAMERA_WORKER_CONTENT_SECURITY_POLICY)
    expect(CAMERA_WORKER_CONTENT_SECURITY_POLICY).toBe("default-src 'none'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'")
    // Every screen's address is the app's page (its router shows the screen), with the same header.
    for (const url of ['app://dice-referee/', 'app://dice-referee/scoreboard', 'app://dice-referee/history', 'app://dice-referee/players/AC%2FDC']) {
      const screen = await appResponse(rendererDir, url)
      expect(screen.status, url).toBe(200)
      expect(screen.headers.get('content-security-policy'), url).toBe(HEADER_CONTENT_SECURITY_POLICY)
      expect(await screen.text(), url).toContain('<title>Dice Referee</title>')
    }
    for (const url of [
      'app://dice-referee/../secret.txt',
      'app://dice-referee/%2e%2e/secret.txt',
      'app://dice-referee/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      'app://other-host/index.html',
      'app://dice-referee/missing.js',
      'app://dice-referee/%E0%A4%A',
      'app://dice-referee/players/%E0%A4%A',
      'app://dice-referee/players/Ann/extra',
      'app://other-host/scoreboard'
    ]) {
      expect((await appResponse(rendererDir, url)).status, url).toBe(404)
    }
    // The handler the shell registered serves the real build folder the same way.
    const registered = await fake.protocolHandlers.get('app')!({ url: 'app://dice-referee/no-such-file' })
    expect(registered.status).toBe(404)
  })

  it('2, 3, 4, 6, 8, 9, 10, 11: no Node, context isolation, the sandbox, web security, no insecure content, experiments or Blink features, no <webview>', () => {
    const preferences = control().options.webPreferences as Record<string, unknown>
    expect(preferences).toMatchObject({
      nodeIntegration: false,
      contextIsolation: true,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false
    })
    expect(preferences).not.toHaveProperty('enableBlinkFeatures')
    expect(preferences).not.toHaveProperty('nodeIntegrationInSubFrames')
  })

  it('no DevTools and no default menu in the packaged app', () => {
    expect((control().options.webPreferences as Record<string, unknown>).devTools).toBe(false)
    expect(process.platform === 'darwin' ? fake.menus.length : fake.menus).toEqual(process.platform === 'darwin' ? 1 : [null])
  })

  it('5: refuses every permission request and check, and every device, but a camera for its own pages', () => {
    const answers: boolean[] = []
    for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read', 'fullscreen', 'openExternal', 'hid', 'serial']) {
      fake.permissionRequest!({}, permission, (granted) => answers.push(granted), { requestingUrl: 'app://dice-referee/camera' })
    }
    expect(answers).toEqual(Array(8).fill(false))
    // The camera (video only) for the app's own pages, which read the dice tray with it (docs/camera.md).
    const camera = (details: Record<string, unknown>): boolean | undefined => {
      let answer: boolean | undefined
      fake.permissionRequest!({}, 'media', (granted) => (answer = granted), details)
      return answer
    }
    expect(camera({ requestingUrl: 'app://dice-referee/camera', mediaTypes: ['video'] })).toBe(true)
    expect(camera({ requestingUrl: 'app://dice-referee/camera', mediaTypes: ['video', 'audio'] })).toBe(false)
    expect(camera({ requestingUrl: 'app://dice-referee/camera', mediaTypes: ['audio'] })).toBe(false)
    expect(camera({ requestingUrl: 'https://evil.example/', mediaTypes: ['video'] })).toBe(false)
    expect(camera({ requestingUrl: 'app://evil/camera', mediaTypes: ['video'] })).toBe(false)
    expect(camera({ requestingUrl: 'http://localhost:5173/', mediaTypes: ['video'] })).toBe(false) // the dev server, which a packaged app never uses
    expect(fake.permissionCheck!({}, 'media', 'app://dice-referee', { mediaType: 'video' })).toBe(true)
    expect(fake.permissionCheck!({}, 'media', 'app://dice-referee', { mediaType: 'audio' })).toBe(false)
    expect(fake.permissionCheck!({}, 'media', 'https://evil.example', { mediaType: 'video' })).toBe(false)
    expect(fake.permissionCheck!({}, 'notifications', 'app://dice-referee', {})).toBe(false)
    expect(fake.devicePermission!({ deviceType: 'serial', origin: 'app://dice-referee' })).toBe(false)
  })

  it('17: answers IPC only from the main frame of its own origin app://dice-referee', async () => {
    expect(await call(frame('app://dice-referee/index.html'), 'getState')).toMatchObject({ ok: true, state: { canControl: true } })
    expect(await call(frame('app://dice-referee/scoreboard'), 'getState')).toMatchObject({ ok: true, state: { canControl: true } })
    for (const refused of [
      frame('app://dice-referee/index.html', { url: 'app://dice-referee/index.html', parent: null }), // a subframe
      frame('app://evil/index.html'),
      frame('file:///opt/dice-referee/resources/app.asar/out/renderer/index.html'),
      frame('http://localhost:5173/'), // the dev server, which a packaged app never uses
      frame('https://dice-referee/index.html'),
      frame('not a url'),
      { senderFrame: null }
    ]) {
      await expect(call(refused, 'getState'), JSON.stringify(refused)).rejects.toThrow('refused')
    }
  })

  it('13, 14, 15: no navigation away, no new windows, and only allow-listed addresses go to the browser', () => {
    const contents = control().webContents
    const navigation = { preventDefault: vi.fn() }
    contents.emit('will-navigate', navigation, 'https://example.com/')
    expect(navigation.preventDefault).toHaveBeenCalled()
    for (const url of ['https://example.com/', 'http://127.0.0.1:5858/scoreboard', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share']) {
      expect(contents.openHandler!({ url }), url).toEqual({ action: 'deny' })
    }
    // Sharing is off: the allow-list (this table's LAN addresses) is empty, so nothing was opened.
    expect(fake.opened).toEqual([])
  })

  it('15: the allow-list is exactly the addresses the table shares, while it shares them', () => {
    const url = 'http://192.168.1.20:5858/scoreboard'
    const sharing = { enabled: true, urls: [url], pairingCode: '123456', qrSvg: null }
    expect(mayOpenInBrowser(url, sharing)).toBe(true)
    expect(mayOpenInBrowser(url, { ...sharing, enabled: false })).toBe(false)
    expect(mayOpenInBrowser(url, null)).toBe(false)
    for (const other of [`${url}?x=1`, 'http://192.168.1.20:5858/', 'https://example.com/', 'file:///etc/passwd']) {
      expect(mayOpenInBrowser(other, sharing), other).toBe(false)
    }
    expect(mayOpenInBrowser('javascript:alert(1)', { ...sharing, urls: ['javascript:alert(1)'] })).toBe(false)
  })

  it('15: the page of the league this computer hosts opens in the browser while it hosts it, and nothing beside it', () => {
    const page = 'http://127.0.0.1:5984/_league/'
    expect(mayOpenInBrowser(page, null, 5984)).toBe(true)
    expect(mayOpenInBrowser(page, null, null)).toBe(false)
    expect(mayOpenInBrowser(page, null, 5985)).toBe(false)
    for (const other of ['http://127.0.0.1:5984/_league/tv', 'http://127.0.0.1:5984/league/_all_docs', 'http://example.com:5984/_league/', 'file:///etc/passwd']) {
      expect(mayOpenInBrowser(other, null, 5984), other).toBe(false)
    }
  })

  it('11, 12: refuses to attach any <webview>', () => {
    const contents = new (class extends fake.FakeBrowserWindow {})({}).webContents
    fake.appEvents.emit('web-contents-created', {}, contents)
    const attach = { preventDefault: vi.fn() }
    contents.emit('will-attach-webview', attach, {}, {})
    expect(attach.preventDefault).toHaveBeenCalled()
  })

  it('16: runs the Electron the packaged build pins (45, supported at the time of writing)', () => {
    const builder = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')
    const installed = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.electron
    expect(builder).toContain(`electronVersion: ${installed}`)
    expect(Number(installed.split('.')[0])).toBeGreaterThanOrEqual(45)
  })

  it('logs what it refused, with a time, to the log in the data folder', () => {
    const lines = readFileSync(join(fake.userData, 'games', 'logs', 'current.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; time: string; [key: string]: unknown })
    expect(lines[0]).toMatchObject({ msg: 'app starting', packaged: true })
    expect(lines.filter((line) => line.msg === 'refused a request from outside the app’s screens').map((line) => line.from)).toContain('app://evil/index.html')
    expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['refused a permission', 'refused to navigate', 'refused to open a window', 'refused a <webview>']))
    for (const line of lines) expect(Date.parse(line.time)).not.toBeNaN()
  })
})

describe('the packaged app', () => {
  it('a second launch brings the first one’s window forward', () => {
    control().minimize()
    fake.appEvents.emit('second-instance', {}, ['dice-referee'], '/')
    expect(control().isMinimized()).toBe(false)
    expect(control().focused).toBe(true)
  })

  it('holds its data folder: the lock file names this process', () => {
    expect(JSON.parse(readFileSync(join(fake.userData, 'games', 'dice-referee.lock'), 'utf8'))).toMatchObject({
      pid: process.pid,
      host: hostname(),
      program: 'the Dice Referee app'
    })
  })

  it('gives the data folder back when it quits', () => {
    const lock = join(fake.userData, 'games', 'dice-referee.lock')
    const held = readFileSync(lock, 'utf8')
    fake.appEvents.emit('will-quit', {})
    expect(existsSync(lock)).toBe(false)
    writeFileSync(lock, held) // still running here: hold it again for the tests after this one
  })

  it('a crashed screen is logged and loaded again, but not over and over', () => {
    const window = control()
    const crash = (reason: string) => fake.appEvents.emit('render-process-gone', {}, window.webContents, { reason, exitCode: 139 })
    crash('clean-exit')
    expect(window.reloads).toBe(0)
    for (let i = 0; i < 5; i++) crash('crashed')
    expect(window.reloads).toBe(3)
    const crashes = readFileSync(join(fake.userData, 'games', 'logs', 'current.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; reason?: string })
      .filter((line) => line.msg === 'a screen crashed')
    expect(crashes.map((line) => line.reason)).toEqual(['clean-exit', ...Array(5).fill('crashed')])
  })
})
