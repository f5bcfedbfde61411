// `npm run -s referee -- replay FILE|-`: checks a game record and prints the resulting state.
// `npm run -s referee -- odds FILE|-`: checks it the same way and prints the exact odds of the
// position the record ends in (src/shared/odds), as one JSON object.
// `npm run -s referee -- stats PATH…`: statistics of records (./stats-command.ts).
import { readFileSync } from 'node:fs'
import { replayText, summaryOf } from '../shared/game'
import { oddsFor } from '../shared/odds'
import { decodeRecordBytes } from '../shared/record'
import { statsCommand } from './stats-command'

const USAGE =
  'usage: referee replay FILE|-   or   referee odds FILE|-   (FILE "-" reads standard input)   or   referee stats PATH…'

function readInput(file: string): Buffer {
  return file === '-' ? readFileSync(0) : readFileSync(file)
}

function main(args: string[]): number {
  const [command, file, ...rest] = args
  if (command === 'stats') {
    return statsCommand(args.slice(1), (text) => process.stdout.write(text), (text) => process.stderr.write(text))
  }
  if ((command !== 'replay' && command !== 'odds') || file === undefined || rest.length > 0) {
    process.stderr.write(`${USAGE}\n`)
    return 2
  }
  let bytes: Buffer
  try {
    bytes = readInput(file)
  } catch (error) {
    process.stderr.write(`cannot read ${file}: ${(error as Error).message}\n`)
    return 2
  }
  const decoded = decodeRecordBytes(bytes)
  if (!decoded.ok) {
    // The first bad line is the one reported: a line before the one that is not UTF-8 may be bad too.
    const lenient = replayText(new TextDecoder('utf-8').decode(bytes))
    const earlier = !lenient.ok && lenient.line < decoded.line ? lenient : decoded
    process.stderr.write(`line ${earlier.line}: ${earlier.error}\n`)
    return 1
  }
  const replayed = replayText(decoded.text)
  if (!replayed.ok) {
    process.stderr.write(`line ${replayed.line}: ${replayed.error}\n`)
    return 1
  }
  const output = command === 'odds' ? oddsFor(replayed.game) : summaryOf(replayed.game)
  process.stdout.write(`${JSON.stringify(output)}\n`)
  return 0
}

process.exitCode = main(process.argv.slice(2))
