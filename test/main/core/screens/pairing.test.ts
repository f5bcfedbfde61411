// Pairing a LAN screen with the code: wrong codes slow a guesser down without refusing the right
// code, a run of wrong codes brings a new code, tokens are kept as hashes, a damaged file is kept aside.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Pairing } from '@main/core/screens/pairing'

function pairing(dir = mkdtempSync(join(tmpdir(), 'dice-referee-pairing-'))) {
  let clock = 1_000_000
  const waits: number[] = []
  const wait = async (ms: number): Promise<void> => {
    waits.push(ms)
    clock += ms
  }
  return { dir, waits, pairing: new Pairing(dir, () => clock, wait) }
}

const wrongFor = (code: string): string => String((Number(code) + 1) % 10 ** 8).padStart(8, '0')

describe('pairing a screen', () => {
  it('answers an address’s first five wrong codes at once, then one every 10 s, and the right code always', async () => {
    const { pairing: p, waits } = pairing()
    const wrong = wrongFor(p.pairingCode)
    for (let i = 0; i < 5; i++) expect((await p.tryCode(wrong, '10.0.0.9', 'x')).ok).toBe(false)
    expect(waits).toEqual([])
    expect(await p.tryCode(wrong, '10.0.0.9', 'x')).toMatchObject({ ok: false, error: expect.stringContaining('one try every 10 seconds') })
    expect(waits).toEqual([10_000])
    // Another address is not slowed by the guesser.
    expect(await p.tryCode(p.pairingCode, '10.0.0.7', 'Phone')).toMatchObject({ ok: true })
    expect(waits).toEqual([10_000])
    // The guesser's address gets the right code too, after its wait.
    expect(await p.tryCode(p.pairingCode, '10.0.0.9', 'Laptop')).toMatchObject({ ok: true })
    expect(waits).toEqual([10_000, 10_000])
  })

  it('brings a new code after 500 wrong codes in all; paired screens stay paired', async () => {
    const { pairing: p } = pairing()
    const paired = await p.tryCode(p.pairingCode, '10.0.0.7', 'Phone')
    if (!paired.ok) throw new Error(paired.error)
    const first = p.pairingCode
    for (let i = 0; i < 500; i++) await p.tryCode(wrongFor(first), `10.1.${i >> 8}.${i & 255}`, 'x')
    expect(p.pairingCode).not.toBe(first)
    expect(p.trusted(paired.token)).toBe(paired.screen)
  })

  it('keeps only a hash of each token, across restarts, until the screen is withdrawn', async () => {
    const { pairing: p, dir } = pairing()
    const paired = await p.tryCode(p.pairingCode, '10.0.0.7', 'Phone (Android)')
    if (!paired.ok) throw new Error(paired.error)
    expect(readFileSync(join(dir, 'paired-screens.json'), 'utf8')).not.toContain(paired.token)
    const again = pairing(dir).pairing
    expect(again.trusted(paired.token)).toBe(paired.screen)
    expect(again.trusted('not-a-token')).toBeNull()
    expect(again.view(new Set([paired.screen]))).toMatchObject([{ name: 'Phone (Android)', connected: true }])
    expect(again.withdraw(paired.screen)).toEqual({ ok: true })
    expect(pairing(dir).pairing.trusted(paired.token)).toBeNull()
  })

  it('keeps a damaged file of paired screens aside and says so; the screens pair again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dice-referee-pairing-'))
    writeFileSync(join(dir, 'paired-screens.json'), '{"screens": [{"id": 1}]')
    const p = pairing(dir).pairing
    expect(p.problem).toMatch(/^paired-screens\.json was damaged \(it is not JSON.*kept as paired-screens\.json\.damaged-\d+.*Paired phones pair again with the code\.$/)
    expect(readdirSync(dir).some((name) => name.startsWith('paired-screens.json.damaged-'))).toBe(true)
    expect(existsSync(join(dir, 'paired-screens.json'))).toBe(false)
    expect(p.view(new Set())).toEqual([])
  })
})
