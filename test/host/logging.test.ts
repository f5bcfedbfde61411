// The headless host's log (standard error and the rotating file in the data folder) and the one
// Content Security Policy that the built page carries and the host sends.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { HEADER_CONTENT_SECURITY_POLICY, PAGE_CONTENT_SECURITY_POLICY } from '@shared/content-security-policy'
import { HOST_ENTRY, ROOT, startHost } from '../e2e/support'
import { ScreenClient } from '@test/kit/screen-client'

interface LogLine {
  level: number
  time: string
  msg: string
  [key: string]: unknown
}

const parseLog = (text: string): LogLine[] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)

/** Sends requests as they are over one screen's WebSocket, all at once, and waits for their answers. */
async function send(url: string, requests: { method: string; args: unknown[] }[]): Promise<unknown[]> {
  const screen = await ScreenClient.open(url)
  const answers = await Promise.all(requests.map((request) => screen.send(request.method, ...request.args)))
  screen.close()
  return answers
}

describe('the headless host’s log', () => {
  it('goes to standard error and to logs/ in the data folder, with a time on every line; --verbose adds the requests', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-log-'))
    const host = await startHost(dataDir, 0, ['--verbose'])
    const answers = await send(host.url, [
      { method: 'newGame', args: [{ game: 'four-plus', players: ['Ann', 'Bob'] }] },
      { method: 'submit', args: [{ roll: [9] }] },
      { method: 'noSuchMethod', args: [] },
      { method: 'keypad', args: ['0'] }
    ])
    expect(answers[1]).toMatchObject({ ok: false })
    expect(answers[2]).toMatchObject({ ok: false })
    await expect(ScreenClient.open(host.url, { headers: { origin: 'http://evil.example' } })).rejects.toMatchObject({ status: 403 })
    await host.stop()

    expect(host.output()).toContain(`The log is ${join(dataDir, 'logs', 'current.log')}`)
    const current = join(dataDir, 'logs', 'current.log')
    expect(existsSync(current)).toBe(true)
    expect(realpathSync(current)).toMatch(/dice-referee\.\d+\.log$/)
    const file = parseLog(readFileSync(current, 'utf8'))
    expect(file.length).toBeGreaterThan(0)
    for (const line of file) expect(Date.parse(line.time), JSON.stringify(line)).not.toBeNaN()
    const messages = file.map((line) => line.msg)
    expect(messages).toContain('headless host starting')
    expect(messages).toContain('request') // --verbose
    expect(file.filter((line) => line.msg === 'refused a request').map((line) => line.method)).toEqual(['submit', 'noSuchMethod'])
    expect(answers[3]).toMatchObject({ ok: false })
    // A refusal of what one screen asked is told to that screen (logged with --verbose only, not as a warning).
    expect(file.find((line) => line.msg === 'told a screen of an error')).toMatchObject({ level: 20, message: (answers[3] as { error: string }).error })
    expect(file.find((line) => line.msg === 'refused a WebSocket from another site')).toMatchObject({ origin: 'http://evil.example' })
    // Standard error carries the same lines.
    expect(parseLog(host.output()).map((line) => line.msg)).toEqual(expect.arrayContaining(['headless host starting', 'refused a request']))
    expect(readdirSync(join(dataDir, 'logs')).filter((name) => name.endsWith('.log')).length).toBeGreaterThan(1)
  })

  it('logs an uncaught exception with its time before the host dies of it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-log-'))
    // The host (`npm run table`'s entry), loaded by a script that throws when told to (SIGUSR2), once the host says where it is.
    const child = spawn(
      process.execPath,
      ['-e', `process.on('SIGUSR2', () => { throw new Error('boom at the table') }); process.argv.push('table', '--port', '0', '--data', ${JSON.stringify(dataDir)}); import(${JSON.stringify(pathToFileURL(HOST_ENTRY).href)})`],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }
    )
    let output = ''
    let told = false
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stdout.on('data', (chunk: Buffer) => {
      if (told || !chunk.toString().includes('Dice Referee is at')) return
      told = child.kill('SIGUSR2')
    })
    const code = await new Promise((resolve) => child.once('exit', resolve))
    expect(told).toBe(true)
    expect(code).not.toBe(0)
    const fatal = parseLog(readFileSync(join(dataDir, 'logs', 'current.log'), 'utf8')).find((line) => line.msg === 'uncaught exception')
    expect(fatal).toMatchObject({ level: 60, err: { message: 'boom at the table' } })
    expect(Date.parse(fatal!.time)).not.toBeNaN()
    expect(output).toContain('boom at the table')
  })
})

describe('the Content Security Policy', () => {
  it('is the same in the built page and in the header the host sends, and connects only to the page’s own origin', async () => {
    const html = readFileSync(join(ROOT, 'out', 'renderer', 'index.html'), 'utf8')
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1].replace(/&#39;/g, "'")
    expect(meta).toBe(PAGE_CONTENT_SECURITY_POLICY)
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<script'))
    expect(HEADER_CONTENT_SECURITY_POLICY.startsWith(`${PAGE_CONTENT_SECURITY_POLICY};`)).toBe(true)
    expect(PAGE_CONTENT_SECURITY_POLICY).toContain("connect-src 'self';")
    expect(PAGE_CONTENT_SECURITY_POLICY).not.toMatch(/\b(ws|wss|http|https):/)

    const host = await startHost(mkdtempSync(join(tmpdir(), 'dice-referee-csp-')))
    try {
      expect((await fetch(host.url)).headers.get('content-security-policy')).toBe(HEADER_CONTENT_SECURITY_POLICY)
    } finally {
      await host.stop()
    }
  })
})
