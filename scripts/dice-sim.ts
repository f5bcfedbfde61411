// `npm run dice-sim -- --link PATH`: a simulated smart-dice hub on a pseudo-terminal (needs socat).
// The app opens PATH (`npm run table -- --serial PATH`); the hub speaks the protocol on PATH.hub.
// Type commands (or give --script FILE, or --random); `help` lists them.
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { exitWithUsageError, parseCommandLine } from '@cli/command-line'
import { SimulatedHub, type Outcome, type SimDie } from './simulated-hub'

const USAGE = `usage: npm run dice-sim -- --link PATH [options]
  --link PATH        the path the app opens (the hub's end is PATH.hub)
  --dice SPEC        dice: a count (4) or ids with colours "A:red,B:blue,C:white" (default 4: A red, B blue, C white, D green)
  --sides N          faces per die (default 6)
  --serial S         the hub's serial number (default DRH-SIM001)
  --keypad           the hub has a keypad (key/typed commands)
  --heartbeat MS     heartbeat interval, 0 for none (default 2000)
  --speed X          multiply settle times (0.1: ten times faster; default 1)
  --noise            print boot noise before the hello
  --byte-by-byte     write one byte at a time
  --random           throw random dice every few seconds (cocked and nudged dice too)
  --script FILE      run the commands in FILE (one a line, # comments), then read stdin
  --quiet            do not print every line
  --help, -h         print this and the hub's commands, and exit`

const HELP = `commands:
  throw A=4 B=2 C=2 D=6   throw these dice, landing on these faces ("B=cocked" lands cocked; "throw A B" or "throw" = random)
  cock B                  B's next throw ends cocked
  nudge A 3 | nudge A -   a die turned by hand (moved), - = no clear face
  battery A 12 [charging|discharging|full]
  key 5 | typed 3446      keypad (hello says keypad with --keypad)
  error CODE DIE|- TEXT   an error line (die-lost, die-back, overflow...)
  unplug | plug [PATH]    pull the cable (the pty goes away) / plug it back, on the same or a new path
  reboot                  restart: sequence numbers from 0, a new hello
  dup                     send the last line again (a duplicate sequence number)
  raw TEXT                send TEXT as it is (add the line end yourself with \\n)
  wait MS                 (scripts) pause
  random on|off           random throws
  quit`

interface Args {
  link: string
  dice: SimDie[]
  serial?: string
  keypad: boolean
  heartbeat: number
  speed: number
  noise: boolean
  byteByByte: boolean
  random: boolean
  script?: string
  quiet: boolean
}

const COLOURS = ['red', 'blue', 'white', 'green', 'yellow', 'black', 'purple', 'orange']

function parseArguments(argv: string[]): Args {
  const { values } = parseCommandLine('dice-sim', `${USAGE}\n\n${HELP}`, argv, {
    link: { type: 'string' },
    dice: { type: 'string', default: '4' },
    sides: { type: 'string', default: '6' },
    serial: { type: 'string' },
    keypad: { type: 'boolean', default: false },
    heartbeat: { type: 'string', default: '2000' },
    speed: { type: 'string', default: '1' },
    noise: { type: 'boolean', default: false },
    'byte-by-byte': { type: 'boolean', default: false },
    random: { type: 'boolean', default: false },
    script: { type: 'string' },
    quiet: { type: 'boolean', default: false }
  })
  const fail = (message: string): never => exitWithUsageError('dice-sim', message)
  if (!values.link) fail('--link PATH is required')
  const sides = Number(values.sides)
  if (!Number.isInteger(sides) || sides < 2 || sides > 100) fail('--sides takes 2 to 100')
  const heartbeat = Number(values.heartbeat)
  if (!Number.isInteger(heartbeat) || heartbeat < 0) fail('--heartbeat takes a whole number of milliseconds, 0 for none')
  const speed = Number(values.speed)
  if (!(speed > 0)) fail('--speed takes a number above 0')
  let dice: SimDie[]
  if (/^\d+$/.test(values.dice)) {
    const n = Number(values.dice)
    if (n > 26) fail('--dice takes 0 to 26 dice')
    dice = Array.from({ length: n }, (_, i) => ({ id: String.fromCharCode(65 + i), colour: COLOURS[i % COLOURS.length], sides }))
  } else {
    dice = values.dice.split(',').map((part) => {
      const [id, colour] = part.split(':')
      return { id, colour: colour ?? null, sides }
    })
  }
  return {
    link: values.link as string,
    dice,
    serial: values.serial,
    keypad: values.keypad,
    heartbeat,
    speed,
    noise: values.noise,
    byteByByte: values['byte-by-byte'],
    random: values.random,
    script: values.script,
    quiet: values.quiet
  }
}

async function main(): Promise<void> {
  const args = parseArguments(process.argv.slice(2))
  const out = (text: string): void => void process.stdout.write(`${text}\n`)
  const hub = new SimulatedHub({
    link: args.link,
    serial: args.serial,
    dice: args.dice,
    keypad: args.keypad,
    heartbeatMs: args.heartbeat,
    speed: args.speed,
    bootNoise: args.noise,
    byteByByte: args.byteByByte,
    log: (text) => {
      if (!args.quiet || !/^(->|<-) /.test(text) || /^<- /.test(text)) out(text)
    }
  })
  await hub.start()
  out(`Simulated hub ${hub.serial} with ${args.dice.map((d) => d.id).join(' ') || 'no dice'} on ${hub.path}`)
  out(`Connect the app to it: npm run table -- --serial ${hub.path}   (type "help" for commands)`)

  let stopping = false
  const stop = async (): Promise<void> => {
    if (stopping) return
    stopping = true
    await hub.stop()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop())
  process.on('SIGTERM', () => void stop())

  const run = async (line: string): Promise<void> => {
    const words = line.trim().split(/\s+/)
    const cmd = words[0]?.toLowerCase()
    if (!cmd || cmd.startsWith('#')) return
    try {
      switch (cmd) {
        case 'help':
          out(HELP)
          return
        case 'throw': {
          const outcomes: Record<string, Outcome> = {}
          const ids = words.length > 1 ? words.slice(1) : args.dice.map((d) => d.id)
          for (const w of ids) {
            const [id, face] = w.split('=')
            const sides = args.dice.find((d) => d.id === id)?.sides ?? 6
            outcomes[id] = face === undefined ? 1 + Math.floor(Math.random() * sides) : face === 'cocked' ? 'cocked' : Number(face)
            if (outcomes[id] !== 'cocked' && !(Number.isInteger(outcomes[id]) && (outcomes[id] as number) >= 1 && (outcomes[id] as number) <= sides)) {
              throw new Error(`${w}: a face is 1 to ${sides}, or "cocked"`)
            }
          }
          await hub.throw(outcomes)
          out(`settled: ${Object.entries(hub.faces()).map(([id, f]) => `${id}=${f ?? 'cocked'}`).join(' ')}`)
          return
        }
        case 'cock':
          hub.cockNext(words[1])
          return
        case 'nudge':
          hub.nudge(words[1], words[2] === '-' || words[2] === undefined ? null : Number(words[2]))
          return
        case 'battery':
          hub.battery(words[1], Number(words[2]), (words[3] as 'charging' | 'discharging' | 'full' | undefined) ?? 'discharging')
          return
        case 'key':
          hub.key(words[1])
          return
        case 'typed':
          hub.typed(words[1])
          return
        case 'error':
          hub.error(words[1], words[2] === '-' || words[2] === undefined ? null : words[2], words.slice(3).join(' '))
          return
        case 'unplug':
          await hub.unplug()
          return
        case 'plug':
          await hub.plug(words[1])
          return
        case 'reboot':
          hub.reboot()
          return
        case 'dup':
          hub.replayLast()
          return
        case 'raw':
          await hub.sendRaw(line.trim().slice(4).replace(/\\n/g, '\n').replace(/\\r/g, '\r'))
          return
        case 'wait':
          await new Promise((resolve) => setTimeout(resolve, Number(words[1]) || 0))
          return
        case 'random':
          if (words[1] === 'off') {
            hub.stopRandom()
            out('random throws are off')
          } else hub.startRandom(out)
          return
        case 'quit':
        case 'exit':
          await stop()
          return
        default:
          out(`unknown command "${cmd}" (help lists them)`)
      }
    } catch (error) {
      out(`! ${(error as Error).message}`)
    }
  }

  if (args.script) for (const line of readFileSync(args.script, 'utf8').split('\n')) await run(line)
  if (args.random) hub.startRandom(out)
  const rl = createInterface({ input: process.stdin })
  let queue = Promise.resolve()
  rl.on('line', (line) => {
    queue = queue.then(() => run(line))
  })
  rl.on('close', () => {
    if (!args.random) void queue.then(() => stop())
  })
}

main().catch((error: Error) => {
  process.stderr.write(`dice-sim: ${error.message}\n`)
  process.exit(1)
})
