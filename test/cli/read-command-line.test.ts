// The parsing itself, in process: what each kind of command line reads as.
import { describe, expect, it } from 'vitest'
import { readCommandLine } from '@cli/command-line'

const USAGE = `usage: probe [--port N] [--share] FILE
  --port N     a port
  --share      share
  --help, -h   this`
const OPTIONS = { port: { type: 'string' }, share: { type: 'boolean' } } as const

describe('readCommandLine', () => {
  it('reads flags (--flag value and --flag=value) and positionals', () => {
    const read = readCommandLine('probe', USAGE, ['--port', '80', 'game.jsonl', '--share'], OPTIONS, true)
    expect(read).toMatchObject({ kind: 'run', values: { port: '80', share: true }, positionals: ['game.jsonl'] })
    expect(readCommandLine('probe', USAGE, ['--port=81'], OPTIONS)).toMatchObject({ kind: 'run', values: { port: '81' } })
  })

  it('--help or -h anywhere asks for the usage', () => {
    expect(readCommandLine('probe', USAGE, ['--share', '-h'], OPTIONS)).toEqual({ kind: 'help', text: `${USAGE}\n` })
  })

  it.each([
    [['--bogus'], "probe: Unknown option '--bogus' (probe --help lists the options)\n"],
    [['--port'], "probe: Option '--port <value>' argument missing (probe --help lists the options)\n"],
    [['--port', '--share'], "probe: Option '--port' argument is ambiguous (probe --help lists the options)\n"],
    [['--share=no'], "probe: Option '--share' does not take an argument (probe --help lists the options)\n"],
    [['stray'], "probe: Unexpected argument 'stray'. This command does not take positional arguments (probe --help lists the options)\n"]
  ])('%j is one line of error', (argv, line) => {
    expect(readCommandLine('probe', USAGE, argv, OPTIONS)).toEqual({ kind: 'error', line })
  })

  it('refuses to run with a flag its usage does not list', () => {
    expect(() => readCommandLine('probe', USAGE, [], { ...OPTIONS, verbose: { type: 'boolean' } })).toThrow('the usage of probe must list --verbose')
  })
})
