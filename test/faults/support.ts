// Helpers shared by the disk tests and the fault suite: a small real file system (tmpfs) that
// can be filled up and made read-only, and random legal moves for a game in progress.
import { execFileSync } from 'node:child_process'
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Move } from '@shared/games/types'
import { offerOf, replayText, type Game } from '@shared/game'
import { waitUntil } from '@test/kit/wait'

/**
 * Mounts a tmpfs of `size` bytes on a new folder (root is needed: `mount` is the real thing, so
 * that a full disk gives the kernel's own short writes and ENOSPC).
 */
export function mountTmpfs(size: number): string {
  if (process.getuid?.() !== 0) throw new Error('the disk tests mount a tmpfs: run them as root (CI does)')
  const dir = mkdtempSync(join(tmpdir(), 'dice-referee-tmpfs-'))
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir])
  return dir
}

export function unmountTmpfs(dir: string): void {
  execFileSync('umount', ['-l', dir])
  rmSync(dir, { recursive: true, force: true })
}

export function remount(dir: string, mode: 'ro' | 'rw'): void {
  execFileSync('mount', ['-o', `remount,${mode}`, dir])
}

/** Fills the file system `dir` is on until not one more byte fits; returns the filler's path. */
export function fillDisk(dir: string, name = 'filler'): string {
  const path = join(dir, name)
  const descriptor = openSync(path, 'a')
  try {
    for (const chunk of [65536, 4096, 512, 64, 8, 1]) {
      const bytes = Buffer.alloc(chunk, 120)
      for (;;) {
        try {
          if (writeSync(descriptor, bytes) < chunk) break
        } catch {
          break
        }
      }
    }
  } finally {
    closeSync(descriptor)
  }
  return path
}

/** Fills the disk, then frees `free` bytes of it again (so that it fills up some moves later). */
export function fillDiskLeaving(dir: string, free: number): string {
  const path = fillDisk(dir)
  const size = readFileSync(path).length
  execFileSync('truncate', ['-s', String(Math.max(0, size - free)), path])
  return path
}

/** A random move the rules allow now: a throw when one is due, else one of the decisions on offer; null when the game is over. */
export function randomMove(game: Game, random: () => number): Move | null {
  const offer = offerOf(game)
  if (offer.finished) return null
  const choices: Move[] = offer.decisions.map((decision) => decision.move)
  if (offer.diceDue > 0) choices.push({ roll: Array.from({ length: offer.diceDue }, () => 1 + Math.floor(random() * 6)) })
  return choices.length === 0 ? null : choices[Math.floor(random() * choices.length)]
}

/** The moves of a record file as the app would read them back (the whole file must be readable); none when there is no file. */
export function movesOnDisk(path: string): string[] {
  if (!existsSync(path)) return []
  const replayed = replayText(readFileSync(path, 'utf8'))
  if (!replayed.ok) throw new Error(`${path}: line ${replayed.line}: ${replayed.error}`)
  return replayed.game.moves.map((recorded) => JSON.stringify(recorded.move))
}

/**
 * Resolves once the server has read everything `sender` wrote and answered all of it (so that a
 * test sends a few requests at a time, whatever the load), or once the server let it go.
 */
export async function answered(server: unknown, sender: { bytesWritten: number; localPort?: number; destroyed: boolean }): Promise<void> {
  type ServerSide = { pending: number; socket: { _socket?: { bytesRead: number; remotePort?: number } } }
  const clients = (server as { clients: Set<ServerSide> }).clients
  await waitUntil(() => {
    const client = [...clients].find((candidate) => candidate.socket._socket?.remotePort === sender.localPort)
    if (sender.destroyed || !client) return
    if ((client.socket._socket?.bytesRead ?? 0) < sender.bytesWritten || client.pending > 0) throw new Error('the server has not answered all of it yet')
  })
}

/** The same record lines under another start time: a game of its own, not the one already on the table. */
export function underAnotherStart(record: string): string {
  const [header, ...rest] = record.split('\n')
  const parsed = JSON.parse(header) as { meta?: { startedAt?: number } }
  parsed.meta = { ...parsed.meta, startedAt: (parsed.meta?.startedAt ?? 0) + 1 }
  return [JSON.stringify(parsed), ...rest].join('\n')
}
