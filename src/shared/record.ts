// Game records: JSON Lines per docs/record-format.md. Parsing here checks the shape of each
// line; whether a line is allowed at that point of the game is the rules engine's business.
import type { Move, Parsed } from './games/types'
import { GAME_IDS, type GameId } from './games'
import { describeValue, jsonNesting } from './json-limits'
import { isDieValue } from './dice'

export interface Header {
  game: GameId
  players: string[]
  rules?: Record<string, unknown>
  meta?: Record<string, unknown>
}

/** A record line after the header: the move, and when it happened if the record says so. */
export interface RecordedMove {
  move: Move
  at?: number
}

const MOVE_KEYS = ['roll', 'reroll', 'socks', 'end', 'keep', 'bank'] as const
type MoveKey = (typeof MOVE_KEYS)[number]
const HEADER_KEYS = new Set(['game', 'players', 'rules', 'meta'])
/**
 * How deeply a record line may nest. The app writes at most 4 levels; the limit is checked on
 * the text before it is parsed, so a hostile line never reaches code that recurses.
 */
export const MAX_LINE_NESTING = 64
/**
 * The limits of a game, the same however its record arrives (a game started on a screen, an
 * import, a saved or history record, a league's): the screens show every name of it in every
 * state they are sent, so a record beyond them is refused, never shown.
 */
export const MAX_PLAYERS = 16
export const MAX_NAME_LENGTH = 40

/** Splits record text into lines: a byte-order mark and CRLF are accepted. */
export function splitRecordLines(text: string): string[] {
  const withoutBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const lines = withoutBom.split('\n')
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
}

/**
 * How long a record is, as the screens say it: its moves, the lines after the header. Not "lines":
 * line numbers count the header (line 1), so a record of 21 moves ends at line 22.
 */
export function movesText(moves: number): string {
  return moves === 1 ? '1 move' : `${moves} moves`
}

export function isBlankLine(line: string): boolean {
  return line.trim() === ''
}

/**
 * JSON.parse keeps the last of two equal keys without a word; the format calls such a line
 * malformed. Counting the keys written in the text against the keys parsed finds them.
 */
function keysWritten(text: string): number {
  let count = 0
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) !== 34 /* " */) continue
    i++
    while (i < text.length && text.charCodeAt(i) !== 34) {
      if (text.charCodeAt(i) === 92 /* \ */) i++
      i++
    }
    let j = i + 1
    while (j < text.length && (text[j] === ' ' || text[j] === '\t' || text[j] === '\r' || text[j] === '\n')) j++
    if (text[j] === ':') count++
  }
  return count
}

function keysParsed(value: unknown): number {
  // An explicit stack: deeply nested (valid) JSON must not overflow the call stack.
  let count = 0
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const item = stack.pop()
    if (item === null || typeof item !== 'object') continue
    if (Array.isArray(item)) {
      for (const inner of item) stack.push(inner)
    } else {
      for (const key of Object.keys(item)) {
        count++
        stack.push((item as Record<string, unknown>)[key])
      }
    }
  }
  return count
}

function parseObject(line: string): Parsed<Record<string, unknown>> {
  if (jsonNesting(line, MAX_LINE_NESTING) > MAX_LINE_NESTING) {
    return { ok: false, error: `the line nests lists or objects more than ${MAX_LINE_NESTING} levels deep` }
  }
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return { ok: false, error: 'not valid JSON' }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: 'a record line must be a JSON object' }
  }
  if (keysWritten(line) !== keysParsed(value)) return { ok: false, error: 'a key is repeated' }
  return { ok: true, value: value as Record<string, unknown> }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function describeDice(key: MoveKey, value: unknown): string | null {
  if (!Array.isArray(value)) return `"${key}" must be a list of die values`
  if (value.length === 0) return `"${key}" must not be empty`
  for (const die of value) {
    if (!isDieValue(die)) {
      return `${describeValue(die)} is not a die value (1-6)`
    }
  }
  return null
}

/** Parses a header line (line 1). */
export function parseHeaderLine(line: string): Parsed<Header> {
  const parsed = parseObject(line)
  if (!parsed.ok) return parsed
  return checkHeader(parsed.value)
}

/** Checks a header object's shape. The game's own options are checked by its module. */
export function checkHeader(object: Record<string, unknown>): Parsed<Header> {
  for (const key of Object.keys(object)) {
    if (!HEADER_KEYS.has(key)) return { ok: false, error: `unknown header key "${key}"` }
  }
  const { game, players, rules, meta } = object
  if (game === undefined) return { ok: false, error: 'the header has no "game"' }
  if (typeof game !== 'string' || !(GAME_IDS as readonly string[]).includes(game)) {
    return { ok: false, error: `unknown game ${describeValue(game)} (expected one of ${GAME_IDS.join(', ')})` }
  }
  if (!Array.isArray(players)) return { ok: false, error: '"players" must be a list of names' }
  if (players.length === 0) return { ok: false, error: 'a game needs at least one player' }
  if (players.length > MAX_PLAYERS) return { ok: false, error: `a game has at most ${MAX_PLAYERS} players, not ${players.length}` }
  const seen = new Set<string>()
  for (const name of players) {
    if (typeof name !== 'string' || name === '') return { ok: false, error: 'every player name must be a non-empty string' }
    if (name.length > MAX_NAME_LENGTH) return { ok: false, error: `a player name is at most ${MAX_NAME_LENGTH} characters, not ${name.length}` }
    if (seen.has(name)) return { ok: false, error: `two players are called ${JSON.stringify(name)}` }
    seen.add(name)
  }
  if (rules !== undefined && !isPlainObject(rules)) return { ok: false, error: '"rules" must be an object' }
  if (meta !== undefined && !isPlainObject(meta)) return { ok: false, error: '"meta" must be an object' }
  const header: Header = { game: game as GameId, players: players as string[] }
  if (rules !== undefined) header.rules = rules
  if (meta !== undefined) header.meta = meta
  return { ok: true, value: header }
}

// The lines the app writes itself, in their exact compact form, read without the general parser:
// replaying a long history is mostly these.
const COMPACT_DICE_LINE = /^\{"(roll|reroll|keep)":\[([1-6](?:,[1-6])*)\](?:,"at":(0|[1-9]\d{0,14}))?\}$/
const COMPACT_FLAG_LINE = /^\{"(socks|end|bank)":true(?:,"at":(0|[1-9]\d{0,14}))?\}$/

function parseCompactMove(line: string): RecordedMove | null {
  const dice = COMPACT_DICE_LINE.exec(line)
  if (dice) {
    const values: number[] = []
    for (let i = 0; i < dice[2].length; i += 2) values.push(dice[2].charCodeAt(i) - 48)
    const move = diceMove(dice[1] as DiceMoveKey, values)
    return dice[3] === undefined ? { move } : { move, at: Number(dice[3]) }
  }
  const flag = COMPACT_FLAG_LINE.exec(line)
  if (flag) {
    const move = flagMove(flag[1] as FlagMoveKey)
    return flag[2] === undefined ? { move } : { move, at: Number(flag[2]) }
  }
  return null
}

// Moves are built as literals of one key, never with a computed key: each kind of move then has
// one fixed shape, which is what keeps the engines' `'roll' in move` checks fast in a long replay.
type DiceMoveKey = 'roll' | 'reroll' | 'keep'
type FlagMoveKey = 'socks' | 'end' | 'bank'

function diceMove(key: DiceMoveKey, values: number[]): Move {
  return key === 'roll' ? { roll: values } : key === 'keep' ? { keep: values } : { reroll: values }
}

function flagMove(key: FlagMoveKey): Move {
  return key === 'bank' ? { bank: true } : key === 'end' ? { end: true } : { socks: true }
}

/** Parses a line after the header. */
export function parseMoveLine(line: string): Parsed<RecordedMove> {
  const compact = parseCompactMove(line)
  if (compact) return { ok: true, value: compact }
  const parsed = parseObject(line)
  if (!parsed.ok) return parsed
  return checkMove(parsed.value)
}

/** Checks that an object is exactly one record move (plus an optional "at"). */
export function checkMove(object: Record<string, unknown>): Parsed<RecordedMove> {
  let found: MoveKey | null = null
  let at: number | undefined
  for (const key of Object.keys(object)) {
    if (key === 'at') {
      const value = object.at
      if (typeof value !== 'number' || !Number.isFinite(value)) return { ok: false, error: '"at" must be a time in milliseconds' }
      at = value
    } else if ((MOVE_KEYS as readonly string[]).includes(key)) {
      if (found !== null) return { ok: false, error: `a line holds one move, not both "${found}" and "${key}"` }
      found = key as MoveKey
    } else if (HEADER_KEYS.has(key)) {
      return { ok: false, error: 'a header may only be the first line' }
    } else {
      return { ok: false, error: `unknown key "${key}"` }
    }
  }
  if (found === null) return { ok: false, error: 'the line holds no move' }
  const value = object[found]
  let move: Move
  switch (found) {
    case 'roll':
    case 'reroll':
    case 'keep': {
      const problem = describeDice(found, value)
      if (problem) return { ok: false, error: problem }
      move = diceMove(found, (value as number[]).slice())
      break
    }
    case 'socks':
    case 'end':
    case 'bank':
      if (value !== true) return { ok: false, error: `"${found}" must be exactly true` }
      move = flagMove(found)
      break
  }
  return { ok: true, value: at === undefined ? { move } : { move, at } }
}

export function serializeHeader(header: Header): string {
  const ordered: Record<string, unknown> = { game: header.game, players: header.players }
  if (header.rules !== undefined) ordered.rules = header.rules
  if (header.meta !== undefined) ordered.meta = header.meta
  return JSON.stringify(ordered)
}

export function serializeMove(recorded: RecordedMove): string {
  return JSON.stringify(recorded.at === undefined ? recorded.move : { ...recorded.move, at: recorded.at })
}

/** The key of a move: "roll", "keep", ... */
export function moveKind(move: Move): MoveKey {
  for (const key of MOVE_KEYS) if (key in move) return key
  throw new Error('not a move')
}

/** Decodes UTF-8, naming the first line that is not valid UTF-8. */
export function decodeRecordBytes(bytes: Uint8Array): { ok: true; text: string } | { ok: false; line: number; error: string } {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
  try {
    return { ok: true, text: decoder.decode(bytes) }
  } catch {
    let line = 1
    let start = 0
    for (let i = 0; i <= bytes.length; i++) {
      if (i === bytes.length || bytes[i] === 0x0a) {
        try {
          decoder.decode(bytes.subarray(start, i))
        } catch {
          return { ok: false, line, error: 'the line is not valid UTF-8' }
        }
        line++
        start = i + 1
      }
    }
    return { ok: false, line: 1, error: 'the record is not valid UTF-8' }
  }
}
