// The Electron shell: windows, displays and IPC. Everything else is the core in ./core, which
// also runs without Electron in the headless host (src/host).
import { ComputerPlayer } from './core/computer-player'
import { app, BrowserWindow, ipcMain, screen, shell, type IpcMainInvokeEvent } from 'electron'
import { join } from 'node:path'
import type { DisplayInfo, Outcome } from '../shared/api'
import { dispatch, type Caller } from './core/dispatch'
import { RecordStore } from './core/record-store'
import { SettingsStore } from './core/settings'
import { TableServer } from './core/table-server'
import { TableSession } from './core/table-session'
import { DeviceManager } from './devices/device-manager'
import { BluetoothChooser } from './bluetooth-chooser'
import type { BluetoothChoiceView } from '../shared/devices'

const SHARING_PORT = 5858
let session: TableSession
let settings: SettingsStore
let controlWindow: BrowserWindow | null = null
let scoreboardWindow: BrowserWindow | null = null
let sharingServer: TableServer | null = null
let devices: DeviceManager | null = null

const rendererDir = join(__dirname, '../renderer')

function loadView(window: BrowserWindow, view: 'app' | 'scoreboard'): void {
  const devServer = process.env.ELECTRON_RENDERER_URL
  if (devServer) void window.loadURL(view === 'scoreboard' ? `${devServer}/#/scoreboard` : devServer)
  else void window.loadFile(join(rendererDir, 'index.html'), view === 'scoreboard' ? { hash: '/scoreboard' } : {})
}

function secureWindow(options: Electron.BrowserWindowConstructorOptions): BrowserWindow {
  const window = new BrowserWindow({
    ...options,
    backgroundColor: '#0b0f17',
    webPreferences: {
      preload: join(__dirname, '../preload/index.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true
    }
  })
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
  window.webContents.on('will-navigate', (event, url) => {
    if (url !== window.webContents.getURL()) event.preventDefault()
  })
  return window
}

function pushState(): void {
  const state = session.snapshot(true)
  for (const window of [controlWindow, scoreboardWindow]) {
    if (window && !window.isDestroyed()) window.webContents.send('table:state', state)
  }
}

function isOurFrame(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame
  if (!frame) return false
  const url = frame.url
  const devServer = process.env.ELECTRON_RENDERER_URL
  return (devServer !== undefined && url.startsWith(devServer)) || url.startsWith('file://')
}

function listDisplays(): DisplayInfo[] {
  const primary = screen.getPrimaryDisplay().id
  const showing = scoreboardWindow && !scoreboardWindow.isDestroyed() ? screen.getDisplayMatching(scoreboardWindow.getBounds()).id : null
  return screen.getAllDisplays().map((display, index) => ({
    id: display.id,
    label: display.label || `Display ${index + 1}`,
    width: display.size.width,
    height: display.size.height,
    primary: display.id === primary,
    showing: display.id === showing
  }))
}

/** The display the scoreboard goes on: the remembered one if plugged in, else a non-primary one. */
function scoreboardDisplay(): Electron.Display {
  const displays = screen.getAllDisplays()
  const remembered = displays.find((display) => display.id === settings.get().scoreboardDisplayId)
  const primary = screen.getPrimaryDisplay()
  return remembered ?? displays.find((display) => display.id !== primary.id) ?? primary
}

/** Puts the scoreboard fullscreen on its display; does nothing while it is already there. */
function placeScoreboard(): void {
  if (!scoreboardWindow || scoreboardWindow.isDestroyed()) return
  const display = scoreboardDisplay()
  // Already covering its display: leave it (and whether the table left fullscreen with Esc) alone.
  const bounds = scoreboardWindow.getBounds()
  const target = display.bounds
  if (bounds.x === target.x && bounds.y === target.y && bounds.width === target.width && bounds.height === target.height) return
  scoreboardWindow.setFullScreen(false)
  scoreboardWindow.setBounds(display.bounds)
  scoreboardWindow.setFullScreen(true)
}

async function showScoreboard(displayId: number | null): Promise<Outcome> {
  if (displayId === null) {
    scoreboardWindow?.close()
    return { ok: true }
  }
  if (!screen.getAllDisplays().some((display) => display.id === displayId)) return { ok: false, error: 'That display is not connected' }
  settings.update({ scoreboardDisplayId: displayId })
  if (!scoreboardWindow || scoreboardWindow.isDestroyed()) {
    scoreboardWindow = secureWindow({ title: 'Dice Referee — Scoreboard', show: false, autoHideMenuBar: true })
    scoreboardWindow.on('closed', () => (scoreboardWindow = null))
    scoreboardWindow.webContents.on('before-input-event', (event, input) => {
      if (input.type !== 'keyDown' || !scoreboardWindow) return
      if (input.key === 'F11') {
        scoreboardWindow.setFullScreen(!scoreboardWindow.isFullScreen())
        event.preventDefault()
      } else if (input.key === 'Escape' && scoreboardWindow.isFullScreen()) {
        scoreboardWindow.setFullScreen(false)
        event.preventDefault()
      }
    })
    loadView(scoreboardWindow, 'scoreboard')
    scoreboardWindow.once('ready-to-show', () => scoreboardWindow?.show())
  }
  placeScoreboard()
  return { ok: true }
}

async function setSharing(enabled: boolean): Promise<Outcome> {
  if (enabled && !sharingServer) {
    const server = new TableServer({ session, rendererDir, port: SHARING_PORT })
    try {
      await server.start()
    } catch (error) {
      await server.stop().catch(() => undefined)
      const reason = (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? `port ${SHARING_PORT} is in use (is \`npm run table\` running?)` : (error as Error).message
      return { ok: false, error: `Sharing could not start: ${reason}` }
    }
    sharingServer = server
  }
  if (!sharingServer) return { ok: true }
  const outcome = await sharingServer.setSharing(enabled)
  if (!enabled) {
    await sharingServer.stop()
    sharingServer = null
  }
  return outcome
}

let bluetoothChooser: BluetoothChooser | null = null

function createControlWindow(): void {
  controlWindow = secureWindow({ title: 'Dice Referee', width: 1280, height: 860, minWidth: 900, minHeight: 600, show: false })
  controlWindow.on('closed', () => {
    controlWindow = null
    scoreboardWindow?.close()
  })
  controlWindow.once('ready-to-show', () => controlWindow?.show())
  controlWindow.webContents.on('before-input-event', (event, input) => {
    if (input.type === 'keyDown' && input.key === 'F11' && controlWindow) {
      controlWindow.setFullScreen(!controlWindow.isFullScreen())
      event.preventDefault()
    }
  })
  const chooserSink = { setBluetoothChooser: (choices: BluetoothChoiceView[] | null) => devices?.setBluetoothChooser(choices) }
  bluetoothChooser = new BluetoothChooser(controlWindow.webContents, chooserSink, (text) => session.notify(text, 'warning'))
  loadView(controlWindow, 'app')
}

void app.whenReady().then(() => {
  const dataDir = join(app.getPath('userData'), 'games')
  settings = new SettingsStore(dataDir)
  session = new TableSession({ store: new RecordStore(dataDir), settings, appVersion: app.getVersion() })
  session.subscribe(pushState)
  // Smart dice and serial keypads: the screens connect ports; unplugged devices come back by themselves.
  new ComputerPlayer(session)
  devices = new DeviceManager({ session, settings })
  devices.start()

  const caller: Caller = {
    canControl: true,
    local: true,
    displays: { listDisplays: async () => listDisplays(), showScoreboard },
    setSharing,
    devices,
    chooseBluetoothDevice: (deviceId) => bluetoothChooser?.choose(deviceId) ?? { ok: false, error: 'No Bluetooth scan is waiting for a choice' }
  }
  ipcMain.handle('table:call', async (event, method: unknown, args: unknown) => {
    if (!isOurFrame(event)) throw new Error('refused: not one of the app’s own screens')
    if (typeof method !== 'string' || !Array.isArray(args)) throw new Error('refused: malformed request')
    return dispatch(session, caller, method, args)
  })

  screen.on('display-added', placeScoreboard)
  screen.on('display-removed', placeScoreboard)
  screen.on('display-metrics-changed', placeScoreboard)

  createControlWindow()
  if (settings.get().scoreboardDisplayId !== null && screen.getAllDisplays().length > 1) {
    void showScoreboard(scoreboardDisplay().id)
  }
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createControlWindow()
  })
})

app.on('web-contents-created', (_event, contents) => {
  contents.on('will-attach-webview', (event) => event.preventDefault())
})

app.on('before-quit', () => {
  void devices?.stop()
})

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})
