// The project's three commands parse their arguments the same way (src/cli/command-line.ts, on
// node:util's parseArgs): `--help` lists every flag and exits 0; an unknown flag or a flag without
// its value is one line on standard error and exit status 2, with nothing started.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '@test/kit/root'

const COMMANDS = {
  referee: [process.execPath, '--import', 'tsx', 'src/cli/referee.ts'],
  table: [process.execPath, 'scripts/table.mjs'],
  'dice-sim': [process.execPath, '--import', 'tsx', 'scripts/dice-sim.ts']
} as const
type Command = keyof typeof COMMANDS

function run(command: Command, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const [program, ...prefix] = COMMANDS[command]
  const result = spawnSync(program, [...prefix, ...args], { cwd: ROOT, encoding: 'utf8', input: '', timeout: 60_000 })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** The flags of a usage text's option lines ("  --port N   ..."), with whether each takes a value. */
function listedFlags(usage: string): { flag: string; takesValue: boolean }[] {
  return [...usage.matchAll(/^\s+(--[a-z][\w-]*)( [A-Z]+)?/gm)].map((match) => ({ flag: match[1], takesValue: match[2] !== undefined }))
}

function expectOneLineUsageError(result: { status: number | null; stdout: string; stderr: string }, command: Command, mention: string): void {
  expect(result.status).toBe(2)
  expect(result.stdout).toBe('')
  expect(result.stderr.endsWith('\n')).toBe(true)
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1)
  expect(result.stderr).toContain(`${command}: `)
  expect(result.stderr).toContain(mention)
}

describe.each(Object.keys(COMMANDS) as Command[])('%s', (command) => {
  it('--help (and -h) prints the usage on standard output and exits 0; every flag it lists is accepted', () => {
    const help = run(command, ['--help'])
    expect(help.status).toBe(0)
    expect(help.stderr).toBe('')
    expect(help.stdout).toMatch(/^usage: npm run /)
    expect(run(command, ['-h']).stdout).toBe(help.stdout)
    const flags = listedFlags(help.stdout)
    expect(flags.map(({ flag }) => flag)).toContain('--help')
    // All of them at once, each with a value when the usage shows one: parsing accepts them all,
    // then --help wins (the values are never checked or used).
    const all = run(command, [...flags.map(({ flag, takesValue }) => (takesValue ? `${flag}=1` : flag)), '--help'])
    expect(all.stderr).toBe('')
    expect(all.status).toBe(0)
  })

  it('refuses an unknown flag in one line, exit status 2', () => {
    expectOneLineUsageError(run(command, ['--no-such-flag']), command, `'--no-such-flag'`)
  })
})

describe('a flag without its value, or a value that makes no sense, is one line and exit status 2', () => {
  it.each([
    ['table', ['--port'], '--port'],
    ['table', ['--port', '--share'], '--port'],
    ['table', ['--port', '70000'], '--port takes a number from 0 to 65535'],
    ['table', ['--port', '12ab'], '--port takes a number from 0 to 65535'],
    ['table', ['--share=yes'], '--share'],
    ['table', ['--lan', 'wifi'], '--lan takes an IPv4 address of this computer ("wifi" is none)'],
    ['dice-sim', ['--link'], '--link'],
    ['dice-sim', [], '--link PATH is required'],
    ['dice-sim', ['--link', '/nonexistent/dice', '--sides', '1'], '--sides takes 2 to 100'],
    ['dice-sim', ['--link', '/nonexistent/dice', '--speed', '0'], '--speed'],
    ['referee', [], 'a command is needed'],
    ['referee', ['roll', 'game.jsonl'], `unknown command 'roll'`],
    ['referee', ['replay'], 'replay needs a FILE'],
    ['referee', ['odds', 'a.jsonl', 'b.jsonl'], 'odds takes one FILE']
  ] as [Command, string[], string][])('%s %j', (command, args, mention) => {
    expectOneLineUsageError(run(command, args), command, mention)
  })

  it('the host refused its arguments before it started: nothing was saved', () => {
    const data = mkdtempSync(join(tmpdir(), 'dice-referee-args-'))
    expectOneLineUsageError(run('table', ['--data', data, '--port', '99999']), 'table', '--port')
    expect(readdirSync(data)).toEqual([])
  })

  it('referee: a file named like a flag is read after --', () => {
    const result = run('referee', ['replay', '--', '--not-a-flag.jsonl'])
    expect(result.status).toBe(2)
    expect(result.stderr).toMatch(/^cannot read --not-a-flag\.jsonl: /)
  })
})
