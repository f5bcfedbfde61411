// The `referee` command itself, apart from the process it runs in: the fault suite runs thousands
// of records through it without starting a process for each.
import { readFileSync } from 'node:fs'
import { shippedWinTables } from '@main/core/computer/win-table-files'
import type { WinTableSource } from '@shared/games/six-dice/win-play'
import { replayText, summaryOf } from '@shared/game'
import { oddsFor } from '@shared/odds'
import { decodeRecordBytes } from '@shared/record'
import { readCommandLine, USAGE_EXIT_STATUS, usageErrorLine } from './command-line'
import type { OpenCv } from '@shared/vision/opencv'
import { statsCommand } from './stats-command'

const USAGE = `usage: npm run -s referee -- replay FILE
       npm run -s referee -- odds FILE
       npm run -s referee -- stats PATH…
       npm run -s referee -- league-export URL DIR
       npm run -s referee -- dice-photo FILE…   (or --eval FOLDER; dice-photo --help says more)
  replay FILE   check every line of the game record FILE against the rules and print the
                resulting state as one JSON object (exit 1 and "line N: reason" on standard
                error at the first line the rules do not allow)
  odds FILE     check it the same way and print the exact odds of the position it ends in
                (Farkle and Fouche chances to win with the tables shipped for the most
                played rules)
  stats PATH…   print each player's statistics over the record files PATH (or the folders of
                them) as one JSON object
  league-export URL DIR
                write the finished games of the league database at URL
                (http://[NAME:PW@]HOST:PORT/DB) as record files in DIR/TABLE/ (docs/league.md)
  dice-photo    read the dice in photos (one JSON line each), or measure the reading on a
                folder of photos with their true values
  FILE          a path, or - for standard input (a file named like a flag goes after --)
  --help, -h    print this and exit`

/** The chance-to-win tables shipped with the app, read the first time a position needs one. */
let winTables: WinTableSource | null = null

/** What is wrong with a command line whose flags parsed, or null when it can run. */
function commandProblem(positionals: string[]): string | null {
  const [command, file] = positionals
  if (command === undefined) return 'a command is needed: replay, odds, stats, league-export or dice-photo'
  if (command === 'dice-photo') return 'dice-photo runs through runRefereeCommand'
  if (command === 'stats') return file === undefined ? 'stats needs at least one PATH (record files, or folders of them)' : null
  if (command === 'league-export') return positionals.length === 3 ? null : 'league-export needs the league URL and a DIR'
  if (command !== 'replay' && command !== 'odds') return `unknown command '${command}', the commands are replay, odds, stats, league-export and dice-photo`
  if (file === undefined) return `${command} needs a FILE, or - for standard input`
  if (positionals.length > 2) return `${command} takes one FILE, not ${positionals.length - 1}`
  return null
}

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
  const read = readCommandLine('referee', USAGE, args, {}, true)
  if (read.kind === 'help') {
    io.stdout(read.text)
    return 0
  }
  if (read.kind === 'error') {
    io.stderr(read.line)
    return USAGE_EXIT_STATUS
  }
  const problem = commandProblem(read.positionals)
  if (problem !== null) {
    io.stderr(usageErrorLine('referee', problem))
    return USAGE_EXIT_STATUS
  }
  const [command, file] = read.positionals
  if (command === 'stats') return statsCommand(read.positionals.slice(1), io.stdout, io.stderr)
  if (command === 'league-export') {
    io.stderr('referee: league-export reads over the network: run it through runRefereeCommand\n')
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
  const output = command === 'odds' ? oddsFor(replayed.game, (winTables ??= shippedWinTables())) : summaryOf(replayed.game)
  io.stdout(`${JSON.stringify(output)}\n`)
  return 0
}

/** Runs `referee ARGS` with every command: league-export reads over the network and dice-photo loads OpenCV with `openCv`; resolves with the exit status. */
export async function runRefereeCommand(args: string[], io: RefereeIo = processIo, openCv: () => Promise<{ cv: OpenCv }> = loadOpenCvWhenAsked): Promise<number> {
  // Loaded only for dice-photo: the other commands need none of its packages (image decoders).
  if (args[0] === 'dice-photo') {
    const { runDicePhoto } = await import('./dice-photo-command')
    return runDicePhoto(args.slice(1), { readFile: (path) => io.readInput(path), stdout: io.stdout, stderr: io.stderr }, openCv)
  }
  if (args[0] !== 'league-export') return runReferee(args, io)
  const positionals = args.filter((arg) => arg !== '--')
  const problem = commandProblem(positionals)
  if (problem !== null || positionals.some((arg) => arg.startsWith('-'))) {
    io.stderr(usageErrorLine('referee', problem ?? 'league-export takes no flags'))
    return USAGE_EXIT_STATUS
  }
  // Loaded only for this command: the others need nothing outside the project's own pure code.
  const { leagueExportCommand } = await import('./league-export-command')
  return leagueExportCommand(positionals.slice(1), io.stdout, io.stderr)
}

/** OpenCV, loaded on the first dice-photo (it takes a second or two, and its 10 MB are for that command only). */
async function loadOpenCvWhenAsked(): Promise<{ cv: OpenCv }> {
  return (await import('@shared/vision/load-opencv')).loadOpenCv()
}
