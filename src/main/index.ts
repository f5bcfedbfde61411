// The Electron shell: windows, displays and IPC. Everything else is the core in ./core, which
// also runs without Electron in the headless host (src/host).
import { ComputerPlayer } from './core/computer-player'
import { WinTables } from './core/win-tables'
import { app, BrowserWindow, dialog, ipcMain, Menu, screen, session as electronSession, shell } from 'electron'
import { join } from 'node:path'
import type { DisplayInfo, Outcome, TableState } from '../shared/api'
import { SCREEN_PATHS } from '../shared/screen-paths'
import { appUrl, isFromAppMainFrame, mayOpenInBrowser, registerAppScheme, serveAppScheme } from './app-protocol'
import { DataFolderInUseError, lockDataFolder } from './core/data-lock'
import { dispatch, type Caller } from './core/dispatch'
import { log, logSessionMessages, startLogging } from './core/log'
import { RecordStore } from './core/record-store'
import { SettingsStore } from './core/settings'
import { ShownState, tvFirst } from './core/state-push'
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
/** What each window was last pushed (a new window starts with nothing shown). */
let controlShown = new ShownState()
let scoreboardShown = new ShownState()
let sharingServer: TableServer | null = null
let devices: DeviceManager | null = null

const rendererDir = join(__dirname, '../renderer')
/** electron-vite's dev server (`npm run dev`); never used by a packaged app. */
const devServer = !app.isPackaged ? (process.env.ELECTRON_RENDERER_URL ?? null) : null
/** Screen crashes within a minute after which a crashed screen is no longer reloaded. */
const RELOADS_PER_MINUTE = 3

// One app per user: a second launch hands over to the first (its window comes forward) and quits.
const isFirstInstance = app.requestSingleInstanceLock()
if (!isFirstInstance) app.quit()
registerAppScheme()

function loadView(window: BrowserWindow, view: 'app' | 'scoreboard'): void {
  if (devServer) void window.loadURL(view === 'scoreboard' ? `${devServer}${SCREEN_PATHS.scoreboard}` : devServer)
  else void window.loadURL(appUrl(view))
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
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      devTools: !app.isPackaged
    }
  })
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (mayOpenInBrowser(url, session.snapshot(true).sharing)) void shell.openExternal(url)
    else log.warn({ url }, 'refused to open a window')
    return { action: 'deny' }
  })
  window.webContents.on('will-navigate', (event, url) => {
    if (url === window.webContents.getURL()) return
    log.warn({ url }, 'refused to navigate')
    event.preventDefault()
  })
  return window
}

/** The TV window with its own state (the moves, never the computer's reasons or the odds), then the control window. */
const pushState = tvFirst(
  () => {
    if (scoreboardWindow && !scoreboardWindow.isDestroyed()) pushTo(scoreboardWindow, scoreboardShown, session.snapshot(true, true, 'scoreboard'))
  },
  () => {
    if (controlWindow && !controlWindow.isDestroyed()) pushTo(controlWindow, controlShown, session.snapshot(true))
  }
)

function pushTo(window: BrowserWindow, shown: ShownState, state: TableState): void {
  if (shown.changes(JSON.stringify(state))) window.webContents.send('table:state', state)
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
    scoreboardShown = new ShownState()
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
  controlShown = new ShownState()
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

/** Permissions: the screens use none (no camera, notifications, clipboard, devices...): all refused. */
function refusePermissions(): void {
  const defaultSession = electronSession.defaultSession
  defaultSession.setPermissionRequestHandler((_contents, permission, callback) => {
    log.warn({ permission }, 'refused a permission')
    callback(false)
  })
  defaultSession.setPermissionCheckHandler(() => false)
  defaultSession.setDevicePermissionHandler(() => false)
}

/** A packaged app has no default menu (its View menu has reload and DevTools); macOS keeps quit and copy/paste. */
function setMenu(): void {
  if (!app.isPackaged) return
  Menu.setApplicationMenu(process.platform === 'darwin' ? Menu.buildFromTemplate([{ role: 'appMenu' }, { role: 'editMenu' }]) : null)
}

function bringForward(): void {
  if (!controlWindow || controlWindow.isDestroyed()) return
  if (controlWindow.isMinimized()) controlWindow.restore()
  controlWindow.show()
  controlWindow.focus()
}

app.on('second-instance', bringForward)

void app.whenReady().then(async () => {
  if (!isFirstInstance) return
  const dataDir = join(app.getPath('userData'), 'games')
  try {
    const lock = lockDataFolder(dataDir, 'the Dice Referee app')
    app.on('will-quit', () => lock.release())
  } catch (error) {
    if (!(error instanceof DataFolderInUseError)) throw error
    dialog.showErrorBox('Dice Referee cannot open its games', error.message)
    app.exit(1)
    return
  }
  const logFile = await startLogging({ dataDir, verbose: process.argv.includes('--verbose'), toStandardError: !app.isPackaged })
  log.info({ dataDir, logFile, version: app.getVersion(), packaged: app.isPackaged }, 'app starting')
  refusePermissions()
  setMenu()
  serveAppScheme(rendererDir)
  settings = new SettingsStore(dataDir)
  session = new TableSession({ store: new RecordStore(dataDir), settings, appVersion: app.getVersion() })
  logSessionMessages(session)
  session.subscribe(pushState)
  const winTables = new WinTables({ dir: join(dataDir, 'win-tables'), onChange: () => session.refresh() })
  session.winTables = winTables
  app.on('will-quit', () => winTables.stop())
  new ComputerPlayer(session)
  // Smart dice and serial keypads: the screens connect ports; unplugged devices come back by themselves.
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
    if (!isFromAppMainFrame(event, devServer)) {
      log.warn({ from: event.senderFrame?.url ?? null, method }, 'refused a request from outside the app’s screens')
      throw new Error('refused: not one of the app’s own screens')
    }
    if (typeof method !== 'string' || !Array.isArray(args)) {
      log.warn({ method }, 'refused a malformed request')
      throw new Error('refused: malformed request')
    }
    log.debug({ method }, 'request')
    try {
      // The TV's window gets the TV's state: the moves, never the computer's reasons or the odds.
      const scoreboard = scoreboardWindow !== null && !scoreboardWindow.isDestroyed() && event.sender === scoreboardWindow.webContents
      return await dispatch(session, scoreboard ? { ...caller, scoreboard } : caller, method, args)
    } catch (error) {
      log.error({ method, err: error }, 'a request failed')
      throw error
    }
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
  contents.on('will-attach-webview', (event) => {
    log.warn('refused a <webview>')
    event.preventDefault()
  })
})

// A crashed screen is logged and loaded again (unless it keeps crashing); nothing is lost, main holds the game.
const recentReloads: number[] = []
app.on('render-process-gone', (_event, contents, details) => {
  log.error({ reason: details.reason, exitCode: details.exitCode, url: contents.getURL() }, 'a screen crashed')
  if (details.reason === 'clean-exit') return
  const now = Date.now()
  while (recentReloads.length && now - recentReloads[0] > 60_000) recentReloads.shift()
  const window = BrowserWindow.fromWebContents(contents)
  if (!window || window.isDestroyed() || recentReloads.length >= RELOADS_PER_MINUTE) return
  recentReloads.push(now)
  window.reload()
})

app.on('child-process-gone', (_event, details) => {
  if (details.reason === 'clean-exit') return
  log.error({ type: details.type, reason: details.reason, exitCode: details.exitCode }, 'a helper process of Electron ended')
})

app.on('before-quit', () => {
  void devices?.stop()
})

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})
