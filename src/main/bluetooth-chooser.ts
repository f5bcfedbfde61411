// The desktop app's Bluetooth device selection. Chromium's Web Bluetooth asks the embedder to pick
// a device (Electron: `select-bluetooth-device` on the webContents, called again each time the scan
// finds more) and, on Linux and Windows, to answer pairing prompts (`setBluetoothPairingHandler`;
// without a handler a pairing that needs one is cancelled). Instead of a blank dialog the dice the
// scan found are shown on the Devices tab (`DevicesView.bluetooth.chooser`), and the screen
// answers with `chooseBluetoothDevice`.
import type { BluetoothChoiceView } from '@shared/devices'
import type { Outcome } from '@shared/api'

/** What Electron passes for each device found (Electron.BluetoothDevice). */
export interface FoundDevice {
  deviceId: string
  deviceName: string
}

/** The parts of a webContents and its session used here (Electron.WebContents / Electron.Session). */
export interface ChooserContents {
  on(event: 'select-bluetooth-device', listener: (event: { preventDefault(): void }, devices: FoundDevice[], callback: (deviceId: string) => void) => void): unknown
  session: {
    setBluetoothPairingHandler(
      handler: (details: { deviceId: string; pairingKind: 'confirm' | 'confirmPin' | 'providePin'; pin?: string }, callback: (response: { confirmed: boolean; pin?: string | null }) => void) => void
    ): void
  }
}

export interface ChooserSink {
  setBluetoothChooser(choices: BluetoothChoiceView[] | null): void
}

/** Most names shown (a busy room can list many Bluetooth devices; the filters keep it to dice). */
const MAX_CHOICES = 40

export class BluetoothChooser {
  private pending: ((deviceId: string) => void) | null = null
  private found: FoundDevice[] = []

  constructor(
    contents: ChooserContents,
    private readonly sink: ChooserSink,
    private readonly warn: (text: string) => void = () => {}
  ) {
    contents.on('select-bluetooth-device', (event, devices, callback) => {
      event.preventDefault()
      // A new scan while one waits: the old one is answered "none" (its callback must be called once).
      if (this.pending && this.pending !== callback) this.pending('')
      this.pending = callback
      this.found = devices.slice(0, MAX_CHOICES)
      this.sink.setBluetoothChooser(this.found.map((d) => ({ id: d.deviceId, name: d.deviceName || `Unnamed device ${d.deviceId}` })))
    })
    contents.session.setBluetoothPairingHandler((details, callback) => {
      // Dice have no keypad or display: a plain confirmation is accepted (the die was chosen in our
      // picker); a die that wants a PIN typed is not one the referee knows how to pair.
      if (details.pairingKind === 'providePin') {
        this.warn('This Bluetooth device asks for a PIN: Pixels and GoDice never do, so it was not paired')
        callback({ confirmed: false })
        return
      }
      callback({ confirmed: true })
    })
  }

  /** The screen's answer: a device of the list, or null to cancel the scan. */
  choose(deviceId: string | null): Outcome {
    const callback = this.pending
    if (!callback) return { ok: false, error: 'No Bluetooth scan is waiting for a choice' }
    if (deviceId !== null && !this.found.some((d) => d.deviceId === deviceId)) return { ok: false, error: `No device ${deviceId} was found by the scan` }
    this.pending = null
    this.found = []
    this.sink.setBluetoothChooser(null)
    callback(deviceId ?? '')
    return { ok: true }
  }
}
