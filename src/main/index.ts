// The Electron shell: windows, displays and IPC. Everything else is the core in ./core, which
// also runs without Electron in the headless host (src/host).
import { app, BrowserWindow, dialog, ipcMain, Menu, screen, session as electronSession, shell } from 'electron'
import { join } from 'node:path'
import type { DisplayInfo, Outcome } from '@shared/api'
import { SCREEN_PATHS } from '@shared/screen-paths'
import type { BluetoothChoiceView } from '@shared/devices'
import { appUrl, isFromAppMainFrame, mayOpenInBrowser, mayUseCamera, registerAppScheme, serveAppScheme } from './app-protocol'
import { BluetoothChooser } from './bluetooth-chooser'
import { createTable, type CreatedTable } from './core/create-table'
import { DataFolderInUseError, lockDataFolder, type DataFolderLock } from './core/files/data-lock'
import { log, startLogging } from './core/files/log'
import { dispatch } from './core/screens/dispatch'
import type { Screen } from './core/screens/screen'
import { ShownState, tvFirst } from './core/screens/state-push'

const SHARING_PORT = 5858
let table: CreatedTable
/** A window of the app and the screen it is to the table (its own entry, messages and pushes). */
interface AppWindow {
  window: BrowserWindow
  screen: Screen
  shown: ShownState
}
let controlWindow: AppWindow | null = null
let scoreboardWindow: AppWindow | null = null

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
    const lan = table.sharing.lan()
    if (mayOpenInBrowser(url, lan ? { enabled: true, urls: lan.urls } : null, table.leagues.hosting?.port ?? null)) void shell.openExternal(url)
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

/** Opens a window as a screen of the table; the screen closes with it. */
function asScreen(window: BrowserWindow, kind: 'control' | 'scoreboard'): AppWindow {
  const opened: AppWindow = { window, screen: table.screens.open({ kind, canControl: true, local: true }, `window-${kind}`), shown: new ShownState() }
  window.on('closed', () => table.screens.close(opened.screen))
  return opened
}

/** The TV window with its own state (the moves, never the computer's reasons or the odds), then the control window. */
const pushState = tvFirst(
  () => pushTo(scoreboardWindow),
  () => pushTo(controlWindow)
)

function pushTo(target: AppWindow | null): void {
  if (!target || target.window.isDestroyed()) return
  const state = table.views.stateFor(target.screen)
  if (target.shown.changes(JSON.stringify(state))) target.window.webContents.send('table:state', state)
}

function listDisplays(): DisplayInfo[] {
  const primary = screen.getPrimaryDisplay().id
  const tv = scoreboardWindow?.window
  const showing = tv && !tv.isDestroyed() ? screen.getDisplayMatching(tv.getBounds()).id : null
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
  const remembered = displays.find((display) => display.id === table.settings.get().scoreboardDisplayId)
  const primary = screen.getPrimaryDisplay()
  return remembered ?? displays.find((display) => display.id !== primary.id) ?? primary
}

/** Puts the scoreboard fullscreen on its display; does nothing while it is already there. */
function placeScoreboard(): void {
  const tv = scoreboardWindow?.window
  if (!tv || tv.isDestroyed()) return
  const display = scoreboardDisplay()
  // Already covering its display: leave it (and whether the table left fullscreen with Esc) alone.
  const bounds = tv.getBounds()
  const target = display.bounds
  if (bounds.x === target.x && bounds.y === target.y && bounds.width === target.width && bounds.height === target.height) return
  tv.setFullScreen(false)
  tv.setBounds(display.bounds)
  tv.setFullScreen(true)
}

async function showScoreboard(displayId: number | null): Promise<Outcome> {
  if (displayId === null) {
    scoreboardWindow?.window.close()
    return { ok: true }
  }
  if (!screen.getAllDisplays().some((display) => display.id === displayId)) return { ok: false, error: 'That display is not connected' }
  table.settings.update({ scoreboardDisplayId: displayId })
  if (!scoreboardWindow || scoreboardWindow.window.isDestroyed()) {
    const tv = secureWindow({ title: 'Dice Referee — Scoreboard', show: false, autoHideMenuBar: true })
    scoreboardWindow = asScreen(tv, 'scoreboard')
    tv.on('closed', () => (scoreboardWindow = null))
    tv.webContents.on('before-input-event', (event, input) => {
      if (input.type !== 'keyDown') return
      if (input.key === 'F11') {
        tv.setFullScreen(!tv.isFullScreen())
        event.preventDefault()
      } else if (input.key === 'Escape' && tv.isFullScreen()) {
        tv.setFullScreen(false)
        event.preventDefault()
      }
    })
    loadView(tv, 'scoreboard')
    tv.once('ready-to-show', () => tv.show())
  }
  placeScoreboard()
  return { ok: true }
}

let bluetoothChooser: BluetoothChooser | null = null

function createControlWindow(): void {
  const window = secureWindow({ title: 'Dice Referee', width: 1280, height: 860, minWidth: 900, minHeight: 600, show: false })
  controlWindow = asScreen(window, 'control')
  window.on('closed', () => {
    controlWindow = null
    scoreboardWindow?.window.close()
  })
  window.once('ready-to-show', () => window.show())
  window.webContents.on('before-input-event', (event, input) => {
    if (input.type === 'keyDown' && input.key === 'F11') {
      window.setFullScreen(!window.isFullScreen())
      event.preventDefault()
    }
  })
  const chooserSink = { setBluetoothChooser: (choices: BluetoothChoiceView[] | null) => table.devices.setBluetoothChooser(choices) }
  bluetoothChooser = new BluetoothChooser(window.webContents, chooserSink, (text) => table.notices.post(text, 'warning'))
  loadView(window, 'app')
}

/**
 * Permissions: the screens use one, a camera (video only) on the app's own pages, to read the
 * dice tray (docs/camera.md); every other (microphone, notifications, clipboard, devices...) is
 * refused.
 */
function answerPermissions(): void {
  const defaultSession = electronSession.defaultSession
  defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const media = details as { requestingUrl?: string; mediaTypes?: string[] }
    const granted = mayUseCamera(permission, media.requestingUrl, media.mediaTypes, devServer)
    if (!granted) log.warn({ permission, mediaTypes: media.mediaTypes }, 'refused a permission')
    callback(granted)
  })
  defaultSession.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) => {
    const media = details as { mediaType?: string }
    return mayUseCamera(permission, requestingOrigin, media.mediaType ? [media.mediaType] : undefined, devServer)
  })
  defaultSession.setDevicePermissionHandler(() => false)
}

/** A packaged app has no default menu (its View menu has reload and DevTools); macOS keeps quit and copy/paste. */
function setMenu(): void {
  if (!app.isPackaged) return
  Menu.setApplicationMenu(process.platform === 'darwin' ? Menu.buildFromTemplate([{ role: 'appMenu' }, { role: 'editMenu' }]) : null)
}

function bringForward(): void {
  const window = controlWindow?.window
  if (!window || window.isDestroyed()) return
  if (window.isMinimized()) window.restore()
  window.show()
  window.focus()
}

app.on('second-instance', bringForward)

void app.whenReady().then(async () => {
  if (!isFirstInstance) return
  const dataDir = join(app.getPath('userData'), 'games')
  let lock: DataFolderLock
  try {
    lock = lockDataFolder(dataDir, 'the Dice Referee app')
    app.on('will-quit', () => lock.release())
  } catch (error) {
    if (!(error instanceof DataFolderInUseError)) throw error
    dialog.showErrorBox('Dice Referee cannot open its games', error.message)
    app.exit(1)
    return
  }
  // A folder that cannot be written is opened read-only; that and a log that cannot be kept are said on the screens.
  const logging = await startLogging({ dataDir, verbose: process.argv.includes('--verbose'), toStandardError: !app.isPackaged, writable: lock.readOnly === null })
  log.info({ dataDir, logFile: logging.path, readOnly: lock.readOnly?.message ?? null, version: app.getVersion(), packaged: app.isPackaged }, 'app starting')
  answerPermissions()
  setMenu()
  serveAppScheme(rendererDir)
  table = createTable({
    dataDir,
    readOnly: lock.readOnly,
    startProblems: logging.problem ? [logging.problem] : [],
    appVersion: app.getVersion(),
    // LAN sharing serves the screens while it is on (the app's own windows use IPC).
    serve: { rendererDir, port: SHARING_PORT, always: false },
    shell: {
      displays: { listDisplays: async () => listDisplays(), showScoreboard },
      chooseBluetoothDevice: (deviceId) => bluetoothChooser?.choose(deviceId) ?? { ok: false, error: 'No Bluetooth scan is waiting for a choice' }
    }
  })
  table.views.subscribe(pushState)
  // Smart dice and serial keypads: the screens connect ports; unplugged devices come back by themselves.
  await table.start()
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
    const from = [controlWindow, scoreboardWindow].find((open) => open !== null && !open.window.isDestroyed() && open.window.webContents === event.sender)
    if (!from) throw new Error('refused: not one of the app’s own windows')
    try {
      // Each window is its own screen: the TV's gets the TV's state (never the computer's reasons or the odds).
      return await dispatch(table, from.screen, method, args)
    } catch (error) {
      log.error({ method, err: error }, 'a request failed')
      throw error
    }
  })

  screen.on('display-added', placeScoreboard)
  screen.on('display-removed', placeScoreboard)
  screen.on('display-metrics-changed', placeScoreboard)

  createControlWindow()
  if (table.settings.get().scoreboardDisplayId !== null && screen.getAllDisplays().length > 1) {
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
  void table?.stop()
})

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})
