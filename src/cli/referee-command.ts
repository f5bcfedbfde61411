// The `referee` command itself, apart from the process it runs in: the fault suite runs thousands
// of records through it without starting a process for each.
import { readFileSync } from 'node:fs'
import { replayText, summaryOf } from '../shared/game'
import { oddsFor } from '../shared/odds'
import { decodeRecordBytes } from '../shared/record'

const USAGE = 'usage: referee replay FILE|-   or   referee odds FILE|-   (FILE "-" reads standard input)'

export interface RefereeIo {
  readInput(file: string): Buffer
  stdout(text: string): void
  stderr(text: string): void
}

export const processIo: RefereeIo = {
  readInput: (file) => (file === '-' ? readFileSync(0) : readFileSync(file)),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text)
}

/** Runs `referee ARGS`; returns the exit status. */
export function runReferee(args: string[], io: RefereeIo = processIo): number {
  const [command, file, ...rest] = args
  if ((command !== 'replay' && command !== 'odds') || file === undefined || rest.length > 0) {
    io.stderr(`${USAGE}\n`)
    return 2
  }
  let bytes: Buffer
  try {
    bytes = io.readInput(file)
  } catch (error) {
    io.stderr(`cannot read ${file}: ${(error as Error).message}\n`)
    return 2
  }
  const decoded = decodeRecordBytes(bytes)
  if (!decoded.ok) {
    // The first bad line is the one reported: a line before the one that is not UTF-8 may be bad too.
    const lenient = replayText(new TextDecoder('utf-8').decode(bytes))
    const earlier = !lenient.ok && lenient.line < decoded.line ? lenient : decoded
    io.stderr(`line ${earlier.line}: ${earlier.error}\n`)
    return 1
  }
  const replayed = replayText(decoded.text)
  if (!replayed.ok) {
    io.stderr(`line ${replayed.line}: ${replayed.error}\n`)
    return 1
  }
  const output = command === 'odds' ? oddsFor(replayed.game) : summaryOf(replayed.game)
  io.stdout(`${JSON.stringify(output)}\n`)
  return 0
}
