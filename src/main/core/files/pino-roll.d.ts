// pino-roll ships no types: the part of its API this program uses.
declare module 'pino-roll' {
  import type { DestinationStream } from 'pino'

  interface PinoRollOptions {
    file: string
    size?: string | number
    frequency?: 'daily' | 'hourly' | number
    extension?: string
    symlink?: boolean
    mkdir?: boolean
    sync?: boolean
    limit?: { count?: number; removeOtherLogFiles?: boolean }
  }

  export default function build(options: PinoRollOptions): Promise<DestinationStream & { end(): void; destroy(): void; flushSync(): void; on(event: 'error', listener: (error: NodeJS.ErrnoException) => void): void }>
}
