// A league's address as a table joins it: `http://NAME:PW@HOST:PORT/DB`, the credentials in it as
// CouchDB takes them (NAME is the table's name in the league, PW the league password or the
// table's own key). Parsed once, so that the password is never logged or shown.
import { ADMIN_NAME, TABLE_NAME } from '@shared/league/documents'

export interface LeagueAddress {
  /** The database's address without credentials (ends with the database's name, no slash). */
  database: string
  /** The database's name. */
  name: string
  /** The address as shown to people and logged: no password. */
  shown: string
  credentials: { username: string; password: string } | null
}

export type ParsedLeagueUrl = { ok: true; address: LeagueAddress } | { ok: false; error: string }

/** CouchDB database names: a lowercase letter first, then lowercase letters, digits and _$()+-/. */
const DATABASE_NAME = /^[a-z][a-z0-9_$()+-]{0,237}$/

export function parseLeagueUrl(text: string, options: { needsCredentials: boolean } = { needsCredentials: true }): ParsedLeagueUrl {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { ok: false, error: `${JSON.stringify(text.replace(/\/\/[^@/]*@/, '//…@'))} is not an address (http://NAME:PASSWORD@HOST:PORT/DB)` }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, error: 'a league address starts with http:// or https://' }
  const segments = url.pathname.split('/').filter((segment) => segment !== '')
  if (segments.length !== 1) return { ok: false, error: 'a league address names one database after the host: http://NAME:PASSWORD@HOST:PORT/DB' }
  const name = decodeURIComponent(segments[0])
  if (!DATABASE_NAME.test(name)) return { ok: false, error: `${JSON.stringify(name)} is not a CouchDB database name (lowercase letters, digits and _$()+-, a letter first)` }
  const username = decodeURIComponent(url.username)
  const password = decodeURIComponent(url.password)
  if (options.needsCredentials) {
    if (username === '' || password === '') return { ok: false, error: 'the league address needs the table’s name and the password: http://NAME:PASSWORD@HOST:PORT/DB' }
    if (!TABLE_NAME.test(username)) return { ok: false, error: `${JSON.stringify(username)} cannot be a table’s name (letters, digits, _ . -; at most 40)` }
  }
  const base = `${url.protocol}//${url.host}`
  return {
    ok: true,
    address: {
      database: `${base}/${encodeURIComponent(name)}`,
      name,
      shown: `${url.protocol}//${username ? `${username}@` : ''}${url.host}/${name}`,
      credentials: username !== '' ? { username, password } : null
    }
  }
}

/** Whether a name may be a table's in a league (not the organiser's). */
export function isTableName(name: string): boolean {
  return TABLE_NAME.test(name) && name !== ADMIN_NAME
}

/** The Authorization header for Basic credentials (CouchDB's and the league host's). */
export function basicAuthorization(credentials: { username: string; password: string }): string {
  return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`, 'utf8').toString('base64')}`
}

/** An answer larger than the reader's limit (it was not read further). */
export class TooLarge extends Error {}

/**
 * GETs (or POSTs `body` to) an address of a league: the answer's text, read up to `limit` bytes
 * (past that it stops reading and throws TooLarge: a huge document never lands in memory whole);
 * null when not found. Any other refusal throws with the league's reason.
 */
export async function readLeague(
  credentials: { username: string; password: string } | null,
  signal: AbortSignal | undefined,
  url: string,
  limit: number,
  body?: string
): Promise<string | null> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (credentials) headers.authorization = basicAuthorization(credentials)
  if (body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(url, { method: body === undefined ? 'GET' : 'POST', headers, body, signal })
  if (!response.ok && response.status !== 404) {
    const reason = await response.text().catch(() => '')
    throw new Error(`${response.status} ${reasonOf(reason)}`)
  }
  const declared = Number(response.headers.get('content-length') ?? 'NaN')
  if (declared > limit) {
    await response.body?.cancel()
    throw new TooLarge()
  }
  const reader = response.body!.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.length
    if (size > limit) {
      await reader.cancel()
      throw new TooLarge()
    }
    chunks.push(value)
  }
  return response.status === 404 ? null : Buffer.concat(chunks).toString('utf8')
}

function reasonOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as { reason?: unknown; error?: unknown }
    return String(parsed.reason ?? parsed.error ?? '').slice(0, 200)
  } catch {
    return text.slice(0, 200)
  }
}
