// The table's own certificate for HTTPS on the LAN (certificate.ts): made once per data folder,
// kept readable by its user only, made again only when it no longer names an address shared on
// (or is near its end, or damaged); and the table server answering over HTTPS with it.
import { X509Certificate } from 'node:crypto'
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { request } from 'node:https'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { tableCertificate } from '@main/core/screens/certificate'
import { dataFolder, openTable, type TestTable } from '@test/kit/table'

const DAY = 24 * 60 * 60 * 1000

describe('the table’s certificate', () => {
  it('is made once per data folder, for the addresses shared on, kept readable by its user only', async () => {
    const dir = dataFolder('tls')
    const first = await tableCertificate(dir, ['192.168.1.20'])
    expect(first).toMatchObject({ made: true, path: join(dir, 'tls', 'cert.pem') })
    const x509 = new X509Certificate(readFileSync(join(dir, 'tls', 'cert.pem')))
    expect(x509.fingerprint256).toBe(first.fingerprint)
    expect(x509.checkIP('192.168.1.20')).toBe('192.168.1.20')
    expect(x509.checkIP('127.0.0.1')).toBe('127.0.0.1')
    expect(x509.checkHost('localhost')).toBe('localhost')
    expect(x509.ca).toBe(false)
    expect((Date.parse(x509.validTo) - Date.now()) / DAY).toBeLessThan(398)
    if (process.platform !== 'win32') {
      for (const file of ['key.pem', 'cert.pem']) expect(statSync(join(dir, 'tls', file)).mode & 0o777, file).toBe(0o600)
      expect(statSync(join(dir, 'tls')).mode & 0o777).toBe(0o700)
    }
    // The next start, and a start sharing on fewer addresses: the same certificate.
    expect(await tableCertificate(dir, ['192.168.1.20'])).toMatchObject({ made: false, fingerprint: first.fingerprint })
    expect(await tableCertificate(dir, [])).toMatchObject({ made: false, fingerprint: first.fingerprint })
  }, 60_000)

  it('is made again for an address it does not name, near its end, or when damaged; not written where the folder may not be', async () => {
    const dir = dataFolder('tls')
    const first = await tableCertificate(dir, ['192.168.1.20'])
    const moved = await tableCertificate(dir, ['10.0.0.7'])
    expect(moved.made).toBe(true)
    expect(moved.fingerprint).not.toBe(first.fingerprint)
    const late = await tableCertificate(dir, ['10.0.0.7'], true, () => Date.now() + 380 * DAY)
    expect(late.made).toBe(true)
    writeFileSync(join(dir, 'tls', 'key.pem'), 'not a key')
    expect((await tableCertificate(dir, ['10.0.0.7'])).made).toBe(true)
    const readOnly = dataFolder('tls')
    expect(await tableCertificate(readOnly, ['10.0.0.7'], false)).toMatchObject({ made: true, path: null })
    expect(await tableCertificate(readOnly, ['10.0.0.7'], false)).toMatchObject({ made: true })
  }, 60_000)
})

describe('the table served over HTTPS on the LAN', () => {
  let table: TestTable | null = null
  afterEach(async () => {
    await table?.stop()
    table = null
  })

  it('answers its LAN address over HTTPS with its certificate, takes WebSockets from its https pages only, and keeps loopback on HTTP', async () => {
    const rendererDir = join(dataFolder('renderer'), 'renderer')
    mkdirSync(rendererDir)
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Dice Referee</title>')
    table = openTable({ serve: { rendererDir, port: 0, always: true, https: true, lanAddresses: () => ['127.0.0.2'] } })
    await table.table.start()
    expect(await table.table.setSharing(true)).toEqual({ ok: true })
    const port = table.table.server!.port
    const lan = table.snapshot().sharing!
    expect(lan.urls).toEqual([`https://127.0.0.2:${port}/scoreboard`])
    const cert = readFileSync(join(table.dataDir, 'tls', 'cert.pem'), 'utf8')
    expect(table.table.certificate?.fingerprint).toBe(new X509Certificate(cert).fingerprint256)
    // A client that trusts exactly this certificate reaches the table: the address is in it, the key matches.
    const answer = await new Promise<{ status: number; fingerprint: string }>((resolve, reject) => {
      const asked = request({ host: '127.0.0.2', port, path: '/scoreboard', ca: cert }, (response) => {
        response.resume()
        resolve({ status: response.statusCode ?? 0, fingerprint: (response.socket as import('node:tls').TLSSocket).getPeerX509Certificate()!.fingerprint256 })
      })
      asked.on('error', reject)
      asked.end()
    })
    expect(answer).toEqual({ status: 200, fingerprint: table.table.certificate!.fingerprint })
    const open = (origin: string): Promise<boolean> =>
      new Promise((resolve) => {
        const socket = new WebSocket(`wss://127.0.0.2:${port}/api`, { ca: cert, origin })
        socket.once('open', () => {
          socket.close()
          resolve(true)
        })
        socket.once('error', () => resolve(false))
      })
    expect(await open(`https://127.0.0.2:${port}`)).toBe(true)
    expect(await open(`http://127.0.0.2:${port}`)).toBe(false)
    expect((await fetch(`http://127.0.0.1:${port}/scoreboard`)).status).toBe(200)
  }, 60_000)
})
