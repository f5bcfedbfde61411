// Command-line arguments for every command of the project (`referee`, `table`, `dice-sim`), parsed
// by node:util's parseArgs with one convention: `--help` prints the usage (which lists every flag)
// and exits 0; an unknown flag, a flag without its value or a value that makes no sense prints
// one line on standard error and exits with status 2.
import { parseArgs, type ParseArgsConfig } from 'node:util'

type Options = NonNullable<ParseArgsConfig['options']>
type WithHelp<T extends Options> = T & { help: { type: 'boolean'; short: 'h' } }
type Parsed<T extends Options, P extends boolean> = ReturnType<typeof parseArgs<{ args: string[]; options: WithHelp<T>; allowPositionals: P; strict: true }>>

export const USAGE_EXIT_STATUS = 2

export function parseCommandLine<const T extends Options, const P extends boolean = false>(
  program: string,
  usage: string,
  argv: string[],
  options: T,
  allowPositionals?: P
): Parsed<T, P> {
  const unlisted = Object.keys(options).filter((name) => !new RegExp(`^\\s+--${name}\\b`, 'm').test(usage))
  if (unlisted.length > 0) throw new Error(`the usage of ${program} must list ${unlisted.map((name) => `--${name}`).join(', ')}`)
  const config = {
    args: argv,
    options: { ...options, help: { type: 'boolean', short: 'h' } } as WithHelp<T>,
    allowPositionals: (allowPositionals ?? false) as P,
    strict: true as const
  }
  const parsed = tryParse(program, () => parseArgs(config))
  if ((parsed.values as { help?: boolean }).help) {
    process.stdout.write(`${usage}\n`)
    process.exit(0)
  }
  return parsed
}

function tryParse<R>(program: string, parse: () => R): R {
  try {
    return parse()
  } catch (error) {
    return exitWithUsageError(program, parseArgsMessage(error as Error))
  }
}

/** parseArgs' messages span several lines or sentences; the first says what is wrong. */
function parseArgsMessage(error: Error): string {
  const first = error.message.split('\n')[0]
  const code = (error as Error & { code?: string }).code
  const sentence = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? first.replace(/\. To specify a positional.*$/, '') : first
  return sentence.replace(/\.$/, '')
}

export function exitWithUsageError(program: string, message: string): never {
  process.stderr.write(`${program}: ${message} (${program} --help lists the options)\n`)
  process.exit(USAGE_EXIT_STATUS)
}
