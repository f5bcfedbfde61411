// `npm run -s referee -- replay FILE|-`: checks a game record and prints the resulting state.
import { readFileSync } from 'node:fs'
import { replayText, summaryOf } from '../shared/game'
import { decodeRecordBytes } from '../shared/record'

const USAGE = 'usage: referee replay FILE|-   (FILE "-" reads standard input)'

function readInput(file: string): Buffer {
  return file === '-' ? readFileSync(0) : readFileSync(file)
}

function main(args: string[]): number {
  const [command, file, ...rest] = args
  if (command !== 'replay' || file === undefined || rest.length > 0) {
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
    process.stderr.write(`line ${decoded.line}: ${decoded.error}\n`)
    return 1
  }
  const replayed = replayText(decoded.text)
  if (!replayed.ok) {
    process.stderr.write(`line ${replayed.line}: ${replayed.error}\n`)
    return 1
  }
  process.stdout.write(`${JSON.stringify(summaryOf(replayed.game))}\n`)
  return 0
}

process.exitCode = main(process.argv.slice(2))
