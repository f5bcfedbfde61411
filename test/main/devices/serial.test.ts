// The device stack over a REAL pseudo-terminal: socat makes the pty pair, the simulated hub speaks
// on one end, a table (temp data dir) with its devices on the other.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { offerOf } from '@shared/game'
import { withChecksum } from '@shared/protocol'
import { DROP_REASONS } from '@shared/devices'
import { dispatch } from '@main/core/screens/dispatch'
import { openSerialPort, type OpenPort } from '@main/devices/serial-port'
import type { Outcome } from '@scripts/simulated-hub'
import { hubLinesRead, rigsClosedAfterEach, waitFor, type Rig } from './harness'
import { seededRandom } from '@shared/random-play'

const open = rigsClosedAfterEach()

const moves = (r: Rig): number => r.session.currentGame?.moves.length ?? 0
const rolls = (r: Rig): number[][] =>
  readFileSync(join(r.dir, 'data', 'current.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => JSON.parse(l))
    .filter((m) => 'roll' in m)
    .map((m) => m.roll)
const message = (r: Rig): string => r.session.snapshot(true).message?.text ?? ''
const device = (r: Rig) => r.manager.view().devices[0]

/** Which dice to pick up for the throw that is due, from the faces on the table. */
function diceToThrow(r: Rig, ids: string[]): string[] {
  const offer = offerOf(r.session.currentGame!)
  const due = offer.diceDue
  if (due === ids.length || offer.throwers.length > 1) return ids.slice(0, due) // all four, or a duel: A, B... in seat order
  const wanted = (offer.throwNote ?? '').replace(/^.*re-roll (the )?/, '').split(' ').map(Number)
  const faces = r.hub.faces()
  const chosen: string[] = []
  for (const v of wanted) {
    const id = ids.find((i) => faces[i] === v && !chosen.includes(i))
    if (!id) throw new Error(`no die shows ${v} (${offer.throwNote}, faces ${JSON.stringify(faces)})`)
    chosen.push(id)
  }
  if (chosen.length !== due) throw new Error(`cannot tell which ${due} dice: ${offer.throwNote}`)
  return chosen
}

describe('smart dice over a real pty', () => {
  it('plays a whole Foursies round: every throw in the record is what the dice showed', async () => {
    const r = await open({ keypad: true, speed: 0.02 })
    const rand = seededRandom(42)
    const ids = ['A', 'B', 'C', 'D']
    r.session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    const expected: number[][] = []
    let decisions = 0
    for (let step = 0; step < 400 && !offerOf(r.session.currentGame!).finished; step++) {
      const offer = offerOf(r.session.currentGame!)
      const before = moves(r)
      if (offer.diceDue > 0) {
        const thrown = diceToThrow(r, ids).sort()
        const outcomes: Record<string, Outcome> = {}
        for (const id of thrown) outcomes[id] = 1 + Math.floor(rand() * 6)
        await r.hub.throw(outcomes)
        expected.push(thrown.map((id) => outcomes[id] as number)) // die order
      } else {
        // The table decides on the tray's keypad: dice to re-roll typed, * socks, - end.
        const pick = offer.decisions[Math.floor(rand() * offer.decisions.length)]
        if ('reroll' in pick.move) r.hub.typed(pick.move.reroll.join(''))
        else r.hub.key('socks' in pick.move ? '*' : '-')
        decisions++
      }
      await waitFor(() => moves(r) === before + 1, `line ${before + 1} (${message(r)})`)
    }
    expect(offerOf(r.session.currentGame!).finished).toBe(true)
    expect(rolls(r)).toEqual(expected)
    expect(expected.length).toBeGreaterThan(3)
    expect(decisions).toBeGreaterThan(0)
    // What the hub said before the port opened (its hello too) is no drop.
    expect(Object.values(device(r).dropped).reduce((a, b) => a + b, 0)).toBe(0)
  })

  it('unplugged mid-throw and plugged back on a new path: no throw lost, none doubled', async () => {
    const r = await open({ speed: 1 })
    r.session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    // A and B settle before the cable is pulled, C while it is out, D after it is back.
    const first = r.hub.throw({ A: 6, B: 5, C: 6, D: 3 }, { settleMs: [30, 60, 250, 900] })
    await waitFor(() => (r.manager.view().assembling?.dice.filter((d) => d.status === 'settled').length ?? 0) === 2, 'A and B')
    await r.hub.unplug()
    await waitFor(() => device(r).state === 'reconnecting', 'reconnecting')
    await waitFor(() => r.hub.faces().C !== null, 'C to settle while the cable is out')
    await r.hub.plug(r.link('tty-new'))
    await first
    await waitFor(() => moves(r) === 1, 'the first throw')
    expect(device(r).path).toBe(r.link('tty-new'))
    expect(device(r).lost).toBeGreaterThan(0)

    // A whole throw while unplugged: found in the snapshot after the reconnect.
    await r.hub.unplug()
    await waitFor(() => device(r).state === 'reconnecting', 'reconnecting')
    await r.hub.throw({ A: 3, B: 6, C: 5, D: 6 }, { settleMs: [10, 20, 30, 40] })
    await r.hub.plug(r.link('tty-third'))
    await waitFor(() => moves(r) === 2, 'the throw made while unplugged')
    await hubLinesRead(r)
    expect(rolls(r)).toEqual([
      [6, 5, 6, 3],
      [3, 6, 5, 6]
    ])
    expect(device(r).state).toBe('connected')
  })

  it('reads bytes arriving one at a time, after boot noise', async () => {
    // The hub writes every byte on its own; the port reader also hands each byte over alone, so the
    // framer sees one-byte chunks whatever the pty coalesces under load.
    let chunks = 0
    const oneByOne: OpenPort = async (path) => {
      const t = await openSerialPort(path)
      return {
        ...t,
        onData: (listener) =>
          t.onData((chunk) => {
            for (let i = 0; i < chunk.length; i++) {
              chunks++
              listener(chunk.subarray(i, i + 1))
            }
          })
      }
    }
    const r = await open({ byteByByte: true, bootNoise: true, heartbeatMs: 0 }, { openPort: oneByOne }, false)
    expect((await r.manager.connect(r.hub.path)).ok).toBe(true)
    await r.hub.sendRaw('\x00garbage\xff\r\n') // boot noise after the port opened
    r.hub.reboot() // the board resets and says hello
    await waitFor(() => device(r)?.state === 'connected' && device(r).dice.length === 4, 'hello, byte by byte')
    r.session.newGame({ game: 'foursies', players: ['Ann'] })
    await r.hub.throw({ A: 2, B: 3, C: 5, D: 6 })
    await waitFor(() => moves(r) === 1, 'the throw')
    expect(rolls(r)).toEqual([[2, 3, 5, 6]])
    // The noise: listed raw, and dropped only when it came after the first hello (no drop before it).
    const noise = device(r).raw.find((l) => l.text === '\\x00garbage\\xff')
    expect(noise?.verdict).toMatch(/^ignored: before the hello|^bad-char$/)
    expect(device(r).dropped['bad-char']).toBe(noise?.verdict === 'bad-char' ? 1 : 0)
    expect(chunks).toBeGreaterThan(200)
  })

  it('survives 100,000 fuzzed lines: no crash, no throw, every bad line counted', async () => {
    const r = await open({ heartbeatMs: 50 })
    r.session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    const rand = seededRandom(7)
    const counts = { random: 0, long: 0, checksum: 0, duplicate: 0 }
    const total = 100_000
    const before = { ...device(r).dropped } // boot lines before the hello, when the port opened late
    let sent = 0
    while (sent < total) {
      const batch: string[] = []
      const last = (r.hub.nextSeq + 65535) % 65536 // the hub's latest sequence number
      for (let i = 0; i < 2000 && sent < total; i++, sent++) {
        const kind = rand()
        if (kind < 0.4) {
          counts.random++
          const n = 1 + Math.floor(rand() * 90)
          let s = ''
          for (let j = 0; j < n; j++) {
            let b = Math.floor(rand() * 256)
            if (b === 10 || b === 13) b = 0x41
            s += String.fromCharCode(b)
          }
          if (s.trim() === '' || s[0] === ' ') s = 'x' + s
          batch.push(s)
        } else if (kind < 0.55) {
          counts.long++
          batch.push('settled 1 A 0 4 ' + 'x'.repeat(90 + Math.floor(rand() * 300)))
        } else if (kind < 0.8) {
          counts.checksum++
          const good = withChecksum(`settled ${Math.floor(rand() * 65536)} A ${Math.floor(rand() * 100)} ${1 + Math.floor(rand() * 6)}`)
          const bad = ((parseInt(good.slice(-4), 16) + 1 + Math.floor(rand() * 65534)) % 65536).toString(16).toUpperCase().padStart(4, '0')
          batch.push(good.slice(0, -4) + bad)
        } else {
          counts.duplicate++
          const which = rand() < 0.5 ? `rolling ${last} A 9` : `settled ${last} B 9 4`
          batch.push(withChecksum(which))
        }
      }
      await r.hub.sendRaw(batch.join('\n') + '\n')
    }
    await r.hub.flush()
    const dropped = (): number => DROP_REASONS.reduce((sum, reason) => sum + device(r).dropped[reason] - before[reason], 0)
    // A hundred thousand lines through a pseudo-terminal: its limits only end a run that would never end, with both cores busy.
    await waitFor(() => dropped() >= total, `every bad line counted (${dropped()} of ${total})`, 100_000)
    const d = Object.fromEntries(DROP_REASONS.map((reason) => [reason, device(r).dropped[reason] - before[reason]]))
    expect(dropped()).toBe(total)
    expect(d['too-long']).toBe(counts.long)
    expect(d.duplicate).toBe(counts.duplicate)
    expect(d['bad-checksum']).toBeGreaterThanOrEqual(counts.checksum)
    expect(d['bad-char'] + d.malformed + d['bad-checksum'] + d['unknown-type'] + d['bad-field']).toBe(counts.random + counts.checksum)
    expect(d.behind).toBe(0)
    expect(device(r).raw.length).toBe(50)
    expect(moves(r)).toBe(0)
    expect(r.manager.view().assembling).toBeNull()
    // still works
    await r.hub.throw({ A: 6, B: 5, C: 6, D: 3 })
    await waitFor(() => moves(r) === 1, 'a real throw after the fuzz')
    expect(rolls(r)).toEqual([[6, 5, 6, 3]])
  }, 150_000)

  it('a cocked die waits for a re-throw or a nudge; a die turned after it settled is flagged', async () => {
    const r = await open({ speed: 0.05 })
    r.session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    await r.hub.throw({ A: 6, B: 5, C: 'cocked', D: 3 })
    await waitFor(() => /C \(Ivory\) is cocked: throw it again, nudge it flat, or type the throw/.test(message(r)), 'the cocked message')
    expect(r.session.snapshot(true).message?.level).toBe('warning')
    expect(r.manager.view().assembling).toMatchObject({ state: 'problem' })
    await hubLinesRead(r)
    expect(moves(r)).toBe(0)
    r.hub.nudge('C', 6)
    await waitFor(() => moves(r) === 1, 'the nudged throw')

    // Bob: A settles first and is turned by hand while the others still roll.
    const thrown = r.hub.throw({ A: 2, B: 6, C: 5, D: 6 }, { settleMs: [20, 300, 320, 340] })
    await waitFor(() => r.manager.view().assembling?.dice.some((d) => d.die === 'A' && d.status === 'settled') === true, 'A settled')
    r.hub.nudge('A', 4)
    await thrown
    await waitFor(() => moves(r) === 2, 'the second throw')
    expect(rolls(r)).toEqual([
      [6, 5, 6, 3],
      [2, 6, 5, 6]
    ])
    expect(r.manager.view().lastThrow?.flags[0]).toMatch(/A \(Red\) was turned to 4 after it settled on 2: 2 counts/)
    expect(message(r)).toMatch(/turned to 4/)
  })

  it('a die thrown that the rules did not allow holds the throw until it is put back', async () => {
    const r = await open({ keypad: true, speed: 0.05 })
    r.session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    await r.hub.throw({ A: 2, B: 2, C: 5, D: 3 })
    await waitFor(() => moves(r) === 1, 'the first throw')
    r.hub.typed('22') // re-roll the false four 2+2
    await waitFor(() => moves(r) === 2, 'the decision')
    await r.hub.throw({ A: 1, B: 6, C: 4 }) // C (5) was not part of the false four
    await waitFor(() => /Die C \(Ivory\) holds the 5 that stays: put it back on 5/.test(message(r)), 'the extra die called out')
    await hubLinesRead(r)
    expect(moves(r)).toBe(2)
    r.hub.nudge('C', 5) // put back
    await waitFor(() => moves(r) === 3, 'the throw once C is back')
    expect(rolls(r)).toEqual([
      [2, 2, 5, 3],
      [1, 6]
    ])
  })

  it('keypad keys, test mode, a late heartbeat, a too-new firmware', async () => {
    const r = await open({ keypad: true, heartbeatMs: 100, speed: 0.05 })
    r.session.newGame({ game: 'foursies', players: ['Ann', 'Bob'] })
    for (const k of ['6', '5', '6', '3', '#']) r.hub.key(k)
    await waitFor(() => moves(r) === 1, 'the keyed throw')
    expect(rolls(r)).toEqual([[6, 5, 6, 3]])

    expect(r.manager.setTestMode(true)).toEqual({ ok: true })
    await r.hub.throw({ A: 1, B: 2 })
    await waitFor(() => r.manager.view().lastThrow?.sent === false, 'the test throw')
    expect(r.manager.view().lastThrow).toMatchObject({ values: [1, 2], sent: false })
    expect(r.session.snapshot(true).devices?.testMode).toBe(true)
    expect(moves(r)).toBe(1)
    r.manager.setTestMode(false)

    await waitFor(() => device(r).raw.some((l) => l.text.startsWith('heartbeat')), 'a heartbeat (it sets the interval)')
    r.hub.paused = true
    await waitFor(() => device(r).state === 'stale', 'stale')
    expect(device(r).reason).toMatch(/No heartbeat/)
    r.hub.paused = false
    await waitFor(() => device(r).state === 'connected', 'back')
    // Its heartbeat came before the answer to the hello? asked while it was stale: it is back all the same.
    ;(r.hub as unknown as { sendHello(): void }).sendHello()
    await waitFor(() => (r.session.snapshot(true).message?.text ?? '').includes('is back'), 'the table told it is back')

    r.hub.sendBody('hello 0 2.0 dr-hub 9.0.0 DRH-NEW 0 0')
    await waitFor(() => device(r).state === 'refused', 'refused')
    expect(device(r).reason).toMatch(/Firmware too new/)
  })

  it('explains a permission error, and checks every device request', async () => {
    const r = await open({}, { openPort: async (path) => Promise.reject(Object.assign(new Error(`Error: Permission denied, cannot open ${path}`), { code: 'EACCES' })), platform: 'linux' }, false)
    const outcome = await r.manager.connect('/dev/ttyACM7')
    expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/dialout group.*log out and in again/) })
    expect(r.session.snapshot(true).message).toMatchObject({ level: 'error', text: expect.stringMatching(/dialout/) })
    expect(r.manager.view().devices).toEqual([])
    const notAPortPath = { ok: false, error: 'connectDevice: path must be a port path (such as /dev/ttyACM0 or COM3)' }
    expect(await dispatch(r.session.table, r.session.screen, 'connectDevice', ['relative/path'])).toEqual(notAPortPath)
    expect(await dispatch(r.session.table, r.session.screen, 'connectDevice', ['/dev/tty\u0000x'])).toEqual(notAPortPath)
    expect(await dispatch(r.session.table, r.session.screen, 'identifyDie', ['DRH-SIM001', 'A B'])).toEqual({ ok: false, error: 'identifyDie: dieId must be a die id (1 to 8 letters or digits)' })
    expect(await dispatch(r.session.table, r.session.screen, 'disconnectDevice', [{}])).toEqual({ ok: false, error: 'disconnectDevice: deviceId must be a device id' })
    expect(await dispatch(r.session.table, r.session.screen, 'setDeviceTestMode', ['yes'])).toEqual({ ok: false, error: 'setDeviceTestMode: on must be true or false' })
    expect(await dispatch(r.session.table, r.session.screenFor(false, false), 'listPorts', [])).toEqual({ ok: false, error: 'this screen can only watch' })
    expect(await dispatch(r.session.table, r.session.screen, 'identifyDie', ['DRH-SIM001', 'A'])).toMatchObject({ ok: false })
    expect(await dispatch(r.session.table, r.session.screen, 'listPorts', [])).toEqual({ ok: true, ports: [expect.objectContaining({ path: r.hub.path, serialNumber: 'DRH-SIM001' })] })
    expect(await dispatch(r.session.table, r.session.screen, 'connectDevice', ['COM3'])).toMatchObject({ ok: false, error: expect.stringMatching(/dialout/) })
  })
})
