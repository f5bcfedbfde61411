// The table's own certificate, for serving its screens over HTTPS on the LAN (`npm run table --
// --https`): a phone's browser gives a page its camera only on a secure page, and a page from
// http://192.168.…/ is not one. No authority can vouch for a computer on a home network, so the
// table makes its own certificate (selfsigned, pinned), once per data folder, and keeps it there
// (`tls/key.pem` and `tls/cert.pem`, readable by this user only). A phone warns about it the first
// time (docs/camera.md says what it shows, and how to tell it is this table's). It is made again
// only when it no longer names one of the addresses shared on, or is about to expire.
import { X509Certificate, createPrivateKey } from 'node:crypto'
import { chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { syncFolder } from '../files/durable-files'

export interface TableCertificate {
  key: string
  cert: string
  /** SHA-256 of the certificate, as a browser's certificate viewer shows it (AB:CD:…). */
  fingerprint: string
  /** Made now (not read from the data folder). */
  made: boolean
  /** Where it is kept; null when it could not be written (it lasts until the table stops). */
  path: string | null
}

/** Days a certificate is made for: under the 398 days browsers accept of a server's certificate. */
const VALID_DAYS = 397
/** A certificate this close to its end is made again. */
const RENEW_DAYS = 30
const DAY = 24 * 60 * 60 * 1000

/**
 * The table's certificate for these addresses: the one kept in the data folder when it names them
 * all and is not about to expire, else a new one (kept there unless the folder may not be written).
 */
export async function tableCertificate(dataDir: string, addresses: readonly string[], writable = true, now: () => number = Date.now): Promise<TableCertificate> {
  const folder = join(dataDir, 'tls')
  const keyPath = join(folder, 'key.pem')
  const certPath = join(folder, 'cert.pem')
  const kept = readKept(keyPath, certPath, addresses, now())
  if (kept) return { ...kept, made: false, path: certPath }
  const made = await makeCertificate(addresses, now())
  if (!writable) return { ...made, made: true, path: null }
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  // The key first: a certificate kept without its key would be made again at the next start.
  writePrivately(keyPath, made.key)
  writePrivately(certPath, made.cert)
  syncFolder(folder)
  return { ...made, made: true, path: certPath }
}

function readKept(keyPath: string, certPath: string, addresses: readonly string[], now: number): Omit<TableCertificate, 'made' | 'path'> | null {
  if (!existsSync(keyPath) || !existsSync(certPath)) return null
  try {
    const key = readFileSync(keyPath, 'utf8')
    const cert = readFileSync(certPath, 'utf8')
    const x509 = new X509Certificate(cert)
    if (!x509.checkPrivateKey(createPrivateKey(key))) return null
    if (Date.parse(x509.validTo) - now < RENEW_DAYS * DAY || Date.parse(x509.validFrom) > now + DAY) return null
    if (!addresses.every((address) => x509.checkIP(address) !== undefined)) return null
    return { key, cert, fingerprint: x509.fingerprint256 }
  } catch {
    // Damaged or not ours: a new one is made in its place.
    return null
  }
}

async function makeCertificate(addresses: readonly string[], now: number): Promise<Omit<TableCertificate, 'made' | 'path'>> {
  const name = hostname()
  const ips = [...new Set(['127.0.0.1', ...addresses])]
  const dns = [...new Set(['localhost', name, `${name}.local`])].filter((one) => /^[A-Za-z0-9.-]{1,253}$/.test(one))
  // Loaded only when a certificate is made: its X.509 libraries cost the host 16 MB otherwise.
  const { generate } = await import('selfsigned')
  const pems = await generate([{ name: 'commonName', value: `Dice Referee on ${name}`.slice(0, 64) }, { name: 'organizationName', value: 'Dice Referee (this table’s own certificate)' }], {
    keyType: 'rsa',
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: new Date(now - DAY),
    notAfterDate: new Date(now + VALID_DAYS * DAY),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [...dns.map((value) => ({ type: 2 as const, value })), ...ips.map((ip) => ({ type: 7 as const, ip }))] }
    ]
  })
  return { key: pems.private, cert: pems.cert, fingerprint: new X509Certificate(pems.cert).fingerprint256 }
}

/** Writes a file only this user may read (0600), whole or not at all. */
function writePrivately(path: string, text: string): void {
  const temporary = `${path}.tmp`
  const descriptor = openSync(temporary, 'w', 0o600)
  try {
    writeSync(descriptor, text)
    fsyncSync(descriptor)
  } catch (error) {
    closeSync(descriptor)
    rmSync(temporary, { force: true })
    throw error
  }
  closeSync(descriptor)
  // A file that was there (made with another mode) keeps its mode on some systems: said again.
  chmodSync(temporary, 0o600)
  renameSync(temporary, path)
}
