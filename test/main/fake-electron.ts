// A stand-in for the `electron` module (its binary cannot be downloaded here): just enough of
// app, BrowserWindow, ipcMain, screen, shell, protocol, session, Menu and dialog for the shell's
// own logic, recording what the shell asks of them. Use it with
//   vi.mock('electron', () => import('./fake-electron'))
// set `fake` up, then import src/main/index.
import { waitUntil } from '@test/kit/wait'

type Listener = (...args: unknown[]) => void

class Emitter {
  listeners = new Map<string, Listener[]>()
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener])
    return this
  }
  once(event: string, listener: Listener): this {
    return this.on(event, listener)
  }
  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(...args)
  }
}

export interface FakeFrame {
  url: string
  parent: FakeFrame | null
}

export class FakeWebContents extends Emitter {
  sent: { channel: string; payload: unknown }[] = []
  openHandler: ((details: { url: string }) => { action: string }) | null = null
  url = ''
  readonly mainFrame: FakeFrame = { url: '', parent: null }
  /** The webContents' session: only what the Bluetooth chooser uses (src/main/bluetooth-chooser.ts). */
  readonly session = {
    pairingHandler: null as ((details: unknown, callback: (response: unknown) => void) => void) | null,
    setBluetoothPairingHandler(handler: (details: unknown, callback: (response: unknown) => void) => void): void {
      this.pairingHandler = handler
    }
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.openHandler = handler
  }
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload })
  }
  getURL(): string {
    return this.url
  }
}

type Bounds = { x: number; y: number; width: number; height: number }

export class FakeBrowserWindow extends Emitter {
  static all: FakeBrowserWindow[] = []
  static getAllWindows(): FakeBrowserWindow[] {
    return FakeBrowserWindow.all.filter((window) => !window.destroyed)
  }
  static fromWebContents(contents: FakeWebContents): FakeBrowserWindow | null {
    return FakeBrowserWindow.all.find((window) => window.webContents === contents) ?? null
  }
  webContents = new FakeWebContents()
  bounds: Bounds = { x: 0, y: 0, width: 800, height: 600 }
  fullScreen = false
  visible = false
  minimized = false
  focused = false
  destroyed = false
  reloads = 0
  loaded: { file?: string; url?: string; hash?: string } = {}
  constructor(readonly options: Record<string, unknown>) {
    super()
    FakeBrowserWindow.all.push(this)
  }
  loadFile(file: string, options: { hash?: string } = {}): Promise<void> {
    this.loaded = { file, hash: options.hash }
    this.webContents.url = `file://${file}${options.hash ? `#${options.hash}` : ''}`
    return Promise.resolve()
  }
  loadURL(url: string): Promise<void> {
    this.loaded = { url }
    this.webContents.url = url
    this.webContents.mainFrame.url = url
    return Promise.resolve()
  }
  reload(): void {
    this.reloads++
  }
  show(): void {
    this.visible = true
  }
  isVisible(): boolean {
    return this.visible
  }
  minimize(): void {
    this.minimized = true
    this.focused = false
  }
  isMinimized(): boolean {
    return this.minimized
  }
  restore(): void {
    this.minimized = false
  }
  focus(): void {
    this.focused = true
  }
  close(): void {
    this.destroyed = true
    this.emit('closed')
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  setBounds(bounds: Bounds): void {
    this.bounds = bounds
  }
  getBounds(): Bounds {
    return this.bounds
  }
  setFullScreen(on: boolean): void {
    this.fullScreen = on
  }
  isFullScreen(): boolean {
    return this.fullScreen
  }
}

const displays = [
  { id: 1, label: 'Laptop', bounds: { x: 0, y: 0, width: 1440, height: 900 }, size: { width: 1440, height: 900 } },
  { id: 2, label: 'TV', bounds: { x: 1440, y: 0, width: 1920, height: 1080 }, size: { width: 1920, height: 1080 } }
]

type PermissionRequestHandler = (contents: unknown, permission: string, callback: (granted: boolean) => void, details?: unknown) => void

/** What the shell asked of Electron, and the knobs a test sets before importing the shell. */
export const fake = {
  userData: '',
  isPackaged: true,
  /** What requestSingleInstanceLock answers (false: another instance runs). */
  firstInstance: true,
  displays,
  screenEvents: new Emitter(),
  appEvents: new Emitter(),
  handlers: new Map<string, (...args: unknown[]) => unknown>(),
  opened: [] as string[],
  quit: 0,
  exitCode: null as number | null,
  privilegedSchemes: [] as { scheme: string; privileges: Record<string, boolean> }[],
  protocolHandlers: new Map<string, (request: { url: string }) => Promise<Response>>(),
  permissionRequest: null as PermissionRequestHandler | null,
  permissionCheck: null as ((...args: unknown[]) => boolean) | null,
  devicePermission: null as ((...args: unknown[]) => boolean) | null,
  /** Every Menu.setApplicationMenu call, in order (null: no menu). */
  menus: [] as ({ template: unknown[] } | null)[],
  errorBoxes: [] as { title: string; content: string }[],
  FakeBrowserWindow
}

export const app = {
  whenReady: () => Promise.resolve(),
  getPath: () => fake.userData,
  getVersion: () => '0.1.0-test',
  get isPackaged() {
    return fake.isPackaged
  },
  requestSingleInstanceLock: () => fake.firstInstance,
  on: (event: string, listener: Listener) => fake.appEvents.on(event, listener),
  quit: () => {
    fake.quit++
  },
  exit: (code = 0) => {
    fake.exitCode = code
  }
}

export const BrowserWindow = FakeBrowserWindow

export const ipcMain = { handle: (channel: string, handler: (...args: unknown[]) => unknown) => fake.handlers.set(channel, handler) }

export const screen = {
  getAllDisplays: () => fake.displays,
  getPrimaryDisplay: () => fake.displays[0],
  getDisplayMatching: (bounds: { x: number }) => fake.displays.find((display) => display.bounds.x === bounds.x) ?? fake.displays[0],
  on: (event: string, listener: Listener) => fake.screenEvents.on(event, listener)
}

export const shell = { openExternal: (url: string) => fake.opened.push(url) }

export const protocol = {
  registerSchemesAsPrivileged: (schemes: { scheme: string; privileges: Record<string, boolean> }[]) => fake.privilegedSchemes.push(...schemes),
  handle: (scheme: string, handler: (request: { url: string }) => Promise<Response>) => fake.protocolHandlers.set(scheme, handler)
}

export const session = {
  defaultSession: {
    setPermissionRequestHandler: (handler: PermissionRequestHandler) => (fake.permissionRequest = handler),
    setPermissionCheckHandler: (handler: (...args: unknown[]) => boolean) => (fake.permissionCheck = handler),
    setDevicePermissionHandler: (handler: (...args: unknown[]) => boolean) => (fake.devicePermission = handler)
  }
}

export const Menu = {
  buildFromTemplate: (template: unknown[]) => ({ template }),
  setApplicationMenu: (menu: { template: unknown[] } | null) => fake.menus.push(menu)
}

export const dialog = {
  showErrorBox: (title: string, content: string) => fake.errorBoxes.push({ title, content })
}

/** Waits until the shell has finished starting: its IPC is answered, or it gave up (quit, exit). */
export async function shellStarted(): Promise<void> {
  await waitUntil(() => {
    if (!fake.handlers.has('table:call') && fake.quit === 0 && fake.exitCode === null) throw new Error('the shell has not finished starting')
  })
}
