// Command-line arguments for every command of the project (`referee`, `table`, `dice-sim`), parsed
// by node:util's parseArgs with one convention: `--help` prints the usage (which lists every flag)
// and exits 0; an unknown flag, a flag without its value or a value that makes no sense prints
// one line on standard error and exits with status 2.
import { parseArgs, type ParseArgsConfig } from 'node:util'

type Options = NonNullable<ParseArgsConfig['options']>
type WithHelp<T extends Options> = T & { help: { type: 'boolean'; short: 'h' } }
type Parsed<T extends Options, P extends boolean> = ReturnType<typeof parseArgs<{ args: string[]; options: WithHelp<T>; allowPositionals: P; strict: true }>>

export const USAGE_EXIT_STATUS = 2

/** What a command line asks for: a run with these arguments, the usage, or nothing (a usage error, as one line). */
export type CommandLine<T extends Options, P extends boolean> =
  | ({ kind: 'run' } & Parsed<T, P>)
  | { kind: 'help'; text: string }
  | { kind: 'error'; line: string }

/** Reads a command line without acting on it (for a command run inside another program, e.g. a test). */
export function readCommandLine<const T extends Options, const P extends boolean = false>(
  program: string,
  usage: string,
  argv: string[],
  options: T,
  allowPositionals?: P
): CommandLine<T, P> {
  const unlisted = Object.keys(options).filter((name) => !new RegExp(`^\\s+--${name}\\b`, 'm').test(usage))
  if (unlisted.length > 0) throw new Error(`the usage of ${program} must list ${unlisted.map((name) => `--${name}`).join(', ')}`)
  let parsed: Parsed<T, P>
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } } as WithHelp<T>,
      allowPositionals: (allowPositionals ?? false) as P,
      strict: true as const
    })
  } catch (error) {
    return { kind: 'error', line: usageErrorLine(program, parseArgsMessage(error as Error)) }
  }
  if ((parsed.values as { help?: boolean }).help) return { kind: 'help', text: `${usage}\n` }
  return { kind: 'run', ...parsed }
}

/** Reads a command line; prints the usage and exits 0 for --help, prints one line and exits 2 for a usage error. */
export function parseCommandLine<const T extends Options, const P extends boolean = false>(
  program: string,
  usage: string,
  argv: string[],
  options: T,
  allowPositionals?: P
): Parsed<T, P> {
  const read = readCommandLine(program, usage, argv, options, allowPositionals)
  if (read.kind === 'help') {
    process.stdout.write(read.text)
    process.exit(0)
  }
  if (read.kind === 'error') {
    process.stderr.write(read.line)
    process.exit(USAGE_EXIT_STATUS)
  }
  return read
}

/** parseArgs' messages span several lines or sentences; the first says what is wrong. */
function parseArgsMessage(error: Error): string {
  const first = error.message.split('\n')[0]
  const code = (error as Error & { code?: string }).code
  const sentence = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? first.replace(/\. To specify a positional.*$/, '') : first
  return sentence.replace(/\.$/, '')
}

/** A usage error as the one line (newline included) that goes to standard error. */
export function usageErrorLine(program: string, message: string): string {
  return `${program}: ${message} (${program} --help lists the options)\n`
}

export function exitWithUsageError(program: string, message: string): never {
  process.stderr.write(usageErrorLine(program, message))
  process.exit(USAGE_EXIT_STATUS)
}
