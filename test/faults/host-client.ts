// Runs the real headless host (`npm run table`: scripts/table.mjs) as a child process, for the
// fault suite to kill; its screens are the test kit's (test/kit/screen-client.ts).
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import type { TableState } from '@shared/api'
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

/** A random move the rules allow in a pushed state (the screens' own view of the offer). */
export function randomMoveIn(state: TableState, random: () => number): Move | null {
  const offer = state.current?.offer
  if (!offer || offer.finished) return null
  const choices: Move[] = offer.decisions.map((decision) => decision.move)
  if (offer.diceDue > 0) choices.push({ roll: Array.from({ length: offer.diceDue }, () => 1 + Math.floor(random() * 6)) })
  return choices.length === 0 ? null : choices[Math.floor(random() * choices.length)]
}
