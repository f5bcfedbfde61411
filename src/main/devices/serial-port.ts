// The operating system's serial ports, behind two small functions the devices can be given
// fakes of in tests: list the ports (with their USB details) and open one.
import { SerialPort } from 'serialport'

/** One port as `SerialPort.list()` reports it. */
export interface PortInfo {
  path: string
  manufacturer?: string
  serialNumber?: string
  vendorId?: string
  productId?: string
}

/** An open port: bytes in, lines out. */
export interface Transport {
  write(data: string): void
  close(): Promise<void>
  onData(listener: (chunk: Uint8Array) => void): void
  /** Called once when the port closes: `error` set when it was not asked to (unplugged, I/O error). */
  onClose(listener: (error: Error | null) => void): void
}

export type ListPorts = () => Promise<PortInfo[]>
export type OpenPort = (path: string) => Promise<Transport>

export const listSerialPorts: ListPorts = async () => {
  const ports = await SerialPort.list()
  return ports.map((p) => ({
    path: p.path,
    manufacturer: p.manufacturer,
    serialNumber: p.serialNumber,
    vendorId: p.vendorId,
    productId: p.productId
  }))
}

/** Opens a port at 115200 8N1 (native USB ignores the rate). Rejects with the system's error. */
export const openSerialPort: OpenPort = (path) =>
  new Promise((resolve, reject) => {
    const port = new SerialPort({ path, baudRate: 115200, autoOpen: false })
    port.open((error) => {
      if (error) {
        reject(error)
        return
      }
      let closedOnPurpose = false
      let closeListener: ((error: Error | null) => void) | null = null
      let done = false
      const finish = (why: Error | null): void => {
        if (done) return
        done = true
        closeListener?.(closedOnPurpose ? null : why ?? new Error('the port closed'))
      }
      port.on('close', (why: (Error & { disconnected?: boolean }) | null) => finish(why ?? null))
      port.on('error', (why: Error) => {
        finish(why)
        if (port.isOpen) port.close(() => undefined)
      })
      resolve({
        write: (data) => {
          if (port.isOpen) port.write(data)
        },
        close: () =>
          new Promise<void>((done) => {
            closedOnPurpose = true
            if (!port.isOpen) {
              finish(null)
              done()
              return
            }
            port.close(() => {
              finish(null)
              done()
            })
          }),
        onData: (listener) => port.on('data', listener),
        onClose: (listener) => {
          closeListener = listener
        }
      })
    })
  })

/**
 * What a player can do about a port that would not open. Linux/macOS permission errors (EACCES):
 * join the dialout group; Windows "Access denied": another program holds the port.
 */
export function explainOpenError(error: unknown, path: string, platform: NodeJS.Platform = process.platform): string {
  const text = error instanceof Error ? error.message : String(error)
  const code = (error as { code?: string } | null)?.code
  if (/access denied/i.test(text) || (platform === 'win32' && /denied/i.test(text))) {
    return `${path} is in use by another program (Windows says "Access denied"): close the other app that holds it (a serial monitor, Cura, another Dice Referee), then connect again`
  }
  if (code === 'EACCES' || /permission denied|EACCES/i.test(text)) {
    return platform === 'darwin'
      ? `No permission to open ${path}: check who owns it (ls -l ${path}) and that no other program holds it`
      : `No permission to open ${path}: add your user to the dialout group (sudo usermod -aG dialout $USER), then log out and in again (or reboot)`
  }
  if (code === 'EBUSY' || /resource busy|EBUSY|locked/i.test(text)) {
    return `${path} is busy: another program holds it (a serial monitor, ModemManager, another Dice Referee)`
  }
  if (code === 'ENOENT' || /no such file/i.test(text)) return `${path} is not there: is the device plugged in?`
  return `Cannot open ${path}: ${text}`
}
