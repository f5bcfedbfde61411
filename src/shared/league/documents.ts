// The documents of a league database (docs/league.md): what each table writes and what every
// reader accepts. A league database is CouchDB's (a real CouchDB 3.x or the league host built on
// express-pouchdb), so anything in it may have been written by anyone who could write: a reader
// checks every document here (its shape with valibot, its record with the rules engine) before
// it counts, and refuses the rest with a reason. Pure: the hash of a record is computed by the
// caller (Node's crypto on the tables and the league host).
import * as v from 'valibot'
import { replayText, summaryOf, type Game } from '../game'
import { jsonNesting } from '../json-limits'
import { MAX_NAME_LENGTH } from '../record'
import { checkPlayerList, type PlayerList } from '../stats/people'

/**
 * A table's name in the league: the user name it joins with (`http://NAME:PW@HOST:PORT/DB`).
 * Letters, digits, '_', '.', '-': it is part of document ids, where ':' separates the parts.
 */
export const TABLE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/
/** The league's organiser: never a table's name. */
export const ADMIN_NAME = 'admin'
/**
 * The longest record a league document may hold, in characters (JSON text of the whole record).
 * A game of the app is 5–60 kB; this is about 40,000 moves. Longer games stay on their table.
 */
export const MAX_RECORD_CHARACTERS = 2 * 1024 * 1024
/** How deep a league document may nest (the app's documents nest 4 levels). */
export const MAX_DOCUMENT_NESTING = 16
/** How many characters of a record's hash a game document's id carries (of SHA-256's 64 hex digits). */
export const GAME_HASH_LENGTH = 32
/** Names in a table's player list (an imported record may have brought longer ones than Setup allows). */
const MAX_LISTED_NAME_LENGTH = 200
const MAX_PEOPLE = 2000

export type DocumentKind = 'game' | 'live' | 'people' | 'merge'

/** `game:TABLE:HASH`: one finished game, written once and never changed. */
export function gameDocumentId(table: string, recordHash: string): string {
  return `game:${table}:${recordHash.slice(0, GAME_HASH_LENGTH)}`
}

/** `live:TABLE`: the game on the table now (changed with every move). */
export function liveDocumentId(table: string): string {
  return `live:${table}`
}

/** `people:TABLE`: the table's player list (renames and merges of its people). */
export function peopleDocumentId(table: string): string {
  return `people:${table}`
}

/** `merge:AUTHOR:ID`: "these names are this person" for the whole league. */
export function mergeDocumentId(author: string, id: string): string {
  return `merge:${author}:${id}`
}

/** The parts of a league document id, or null for any other id. */
export function parseDocumentId(id: string): { kind: DocumentKind; owner: string; key: string | null } | null {
  const match = /^(game|live|people|merge):([^:]+)(?::([A-Za-z0-9_-]{1,64}))?$/.exec(id)
  if (!match || !TABLE_NAME.test(match[2])) return null
  const kind = match[1] as DocumentKind
  const key = match[3] ?? null
  if ((kind === 'game' || kind === 'merge') !== (key !== null)) return null
  return { kind, owner: match[2], key }
}

// CouchDB's own fields, as a document read from the league (or sent by replication) has them.
const couchFields = {
  _id: v.string(),
  _rev: v.optional(v.string()),
  _revisions: v.optional(v.object({ start: v.number(), ids: v.array(v.string()) })),
  _conflicts: v.optional(v.array(v.string()))
}
const name = v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_NAME_LENGTH))
const listedName = v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_LISTED_NAME_LENGTH))
const tableName = v.pipe(v.string(), v.regex(TABLE_NAME, 'is not a table name'))
const record = v.pipe(v.string(), v.maxLength(MAX_RECORD_CHARACTERS, `is longer than ${MAX_RECORD_CHARACTERS} characters`))

const GameDocumentSchema = v.strictObject({ ...couchFields, type: v.literal('game'), table: tableName, record })
const LiveDocumentSchema = v.strictObject({
  ...couchFields,
  type: v.literal('live'),
  table: tableName,
  /** The record of the game on the table; null when the table has no game. */
  record: v.nullable(record),
  /** When the table wrote it (its clock, milliseconds). */
  updatedAt: v.number()
})
const PeopleDocumentSchema = v.strictObject({
  ...couchFields,
  type: v.literal('people'),
  table: tableName,
  people: v.pipe(
    v.array(v.strictObject({ name: listedName, colour: v.pipe(v.string(), v.maxLength(7)), aliases: v.pipe(v.array(listedName), v.maxLength(MAX_PEOPLE)) })),
    v.maxLength(MAX_PEOPLE)
  )
})
const MergeDocumentSchema = v.strictObject({
  ...couchFields,
  type: v.literal('merge'),
  /** Who wrote it (a table's name, or admin). */
  by: tableName,
  /** The name to make part of `into`... */
  from: name,
  /** ...on this table only, or on every table (null). */
  table: v.nullable(tableName),
  into: name,
  at: v.number()
})

export type GameDocument = v.InferOutput<typeof GameDocumentSchema>
export type LiveDocument = v.InferOutput<typeof LiveDocumentSchema>
export type PeopleDocument = v.InferOutput<typeof PeopleDocumentSchema>
export type MergeDocument = v.InferOutput<typeof MergeDocumentSchema>

/** A league document that passed every check, with what was learnt checking it. */
export type Accepted =
  | { kind: 'game'; id: string; table: string; game: Game; record: string }
  | { kind: 'live'; id: string; table: string; game: Game | null; updatedAt: number }
  | { kind: 'people'; id: string; table: string; people: PlayerList }
  | { kind: 'merge'; id: string; merge: LeagueMerge }

export interface LeagueMerge {
  id: string
  by: string
  from: string
  table: string | null
  into: string
  at: number
}

export type Checked = { ok: true; accepted: Accepted } | { ok: false; error: string }

/** What a valibot failure says, as one line: where and what. */
function issueText(issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0]
  const path = issue.path?.map((item) => String(item.key)).join('.')
  return path ? `${path}: ${issue.message}` : issue.message
}

/**
 * Checks a document of the league as parsed JSON. `hashOf` gives the SHA-256 (hex) of a record's
 * text: a game's id must carry the hash of the record it holds, so that a game is one document
 * however often and from wherever it is sent. Deleted documents are not checked here.
 */
export function checkLeagueDocument(document: unknown, hashOf: (text: string) => string): Checked {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) return { ok: false, error: 'a league document is a JSON object' }
  const id = (document as { _id?: unknown })._id
  if (typeof id !== 'string') return { ok: false, error: 'the document has no _id' }
  const parsedId = parseDocumentId(id)
  if (!parsedId) return { ok: false, error: `${JSON.stringify(id.slice(0, 80))} is not the id of a league document` }
  const { kind, owner } = parsedId
  switch (kind) {
    case 'game': {
      const parsed = v.safeParse(GameDocumentSchema, document)
      if (!parsed.success) return { ok: false, error: issueText(parsed.issues) }
      if (parsed.output.table !== owner) return { ok: false, error: `the game says table ${parsed.output.table} but its id says ${owner}` }
      const replayed = checkRecord(parsed.output.record)
      if (!replayed.ok) return replayed
      if (!summaryOf(replayed.game).finished) return { ok: false, error: 'the game is not finished (only finished games are league games)' }
      if (gameDocumentId(owner, hashOf(parsed.output.record)) !== id) return { ok: false, error: 'the id does not carry the hash of the record' }
      return { ok: true, accepted: { kind, id, table: owner, game: replayed.game, record: parsed.output.record } }
    }
    case 'live': {
      const parsed = v.safeParse(LiveDocumentSchema, document)
      if (!parsed.success) return { ok: false, error: issueText(parsed.issues) }
      if (parsed.output.table !== owner) return { ok: false, error: `the live game says table ${parsed.output.table} but its id says ${owner}` }
      if (parsed.output.record === null) return { ok: true, accepted: { kind, id, table: owner, game: null, updatedAt: parsed.output.updatedAt } }
      const replayed = checkRecord(parsed.output.record)
      if (!replayed.ok) return replayed
      return { ok: true, accepted: { kind, id, table: owner, game: replayed.game, updatedAt: parsed.output.updatedAt } }
    }
    case 'people': {
      const parsed = v.safeParse(PeopleDocumentSchema, document)
      if (!parsed.success) return { ok: false, error: issueText(parsed.issues) }
      if (parsed.output.table !== owner) return { ok: false, error: `the player list says table ${parsed.output.table} but its id says ${owner}` }
      return { ok: true, accepted: { kind, id, table: owner, people: checkPlayerList(parsed.output.people) } }
    }
    case 'merge': {
      const parsed = v.safeParse(MergeDocumentSchema, document)
      if (!parsed.success) return { ok: false, error: issueText(parsed.issues) }
      const { by, from, table, into, at } = parsed.output
      if (by !== owner) return { ok: false, error: `the merge says it is by ${by} but its id says ${owner}` }
      if (from === into) return { ok: false, error: 'a merge needs two different names' }
      return { ok: true, accepted: { kind, id, merge: { id, by, from, table, into, at } } }
    }
  }
}

/** A record as the rules engine reads it: every line allowed, nothing cut off. */
function checkRecord(text: string): { ok: true; game: Game } | { ok: false; error: string } {
  const replayed = replayText(text)
  if (!replayed.ok) return { ok: false, error: `record line ${replayed.line}: ${replayed.error}` }
  return { ok: true, game: replayed.game }
}

/** Whether JSON text nests deeper than a league document may (checked before it is parsed). */
export function nestsTooDeeply(text: string): boolean {
  return jsonNesting(text, MAX_DOCUMENT_NESTING) > MAX_DOCUMENT_NESTING
}
