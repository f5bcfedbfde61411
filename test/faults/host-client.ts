// Runs the real headless host (`npm run table`: scripts/table.mjs) as a child process and plays
// on it over its WebSocket like a screen, knowing which requests were answered.
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import WebSocket from 'ws'
import type { Outcome, TableState } from '@shared/api'
import type { WireReply } from '@shared/api-methods'
import type { Move } from '@shared/games/types'
import { ROOT } from '@test/kit/root'

export interface Host {
  child: ChildProcess
  /** Resolves with the address once the host says it is ready; rejects if it exits first. */
  ready: Promise<string>
  output: () => string
  kill(): Promise<void>
}

export function spawnHost(dataDir: string): Host {
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'table.mjs'), '--port', '0', '--data', dataDir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString()
      const match = /Dice Referee is at (http:\/\/\S+\/)/.exec(output)
      if (match) resolve(match[1])
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    void exited.then(() => reject(new Error(`the host exited before it was ready:\n${output}`)))
  })
  ready.catch(() => undefined)
  return {
    child,
    ready,
    output: () => output,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    }
  }
}

/** A screen on the host: the latest state pushed, and requests answered in order. */
export class Screen {
  state: TableState | null = null
  private next = 1
  private readonly waiting = new Map<number, { resolve: (reply: WireReply) => void; reject: (error: Error) => void }>()
  private closed = false

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as WireReply | { state: TableState }
      if ('state' in message) this.state = message.state
      else this.waiting.get(message.id)?.resolve(message)
    })
    const fail = (): void => {
      this.closed = true
      for (const { reject } of this.waiting.values()) reject(new Error('the connection closed'))
      this.waiting.clear()
    }
    socket.on('close', fail)
    socket.on('error', fail)
  }

  static async open(url: string): Promise<Screen> {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}api`)
    const screen = new Screen(socket)
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject)
      const check = setInterval(() => {
        if (screen.state) {
          clearInterval(check)
          resolve()
        }
      }, 5)
    })
    return screen
  }

  call(method: string, args: unknown[] = []): Promise<WireReply> {
    if (this.closed) return Promise.reject(new Error('the connection closed'))
    const id = this.next++
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject })
      this.socket.send(JSON.stringify({ id, method, args }))
    })
  }

  async outcome(method: string, args: unknown[] = []): Promise<Outcome> {
    const reply = await this.call(method, args)
    if ('error' in reply) throw new Error(reply.error)
    return reply.result as Outcome
  }

  close(): void {
    this.socket.terminate()
  }
}

/** A random move the rules allow in a pushed state (the screens' own view of the offer). */
export function randomMoveIn(state: TableState, random: () => number): Move | null {
  const offer = state.current?.offer
  if (!offer || offer.finished) return null
  const choices: Move[] = offer.decisions.map((decision) => decision.move)
  if (offer.diceDue > 0) choices.push({ roll: Array.from({ length: offer.diceDue }, () => 1 + Math.floor(random() * 6)) })
  return choices.length === 0 ? null : choices[Math.floor(random() * choices.length)]
}
