// A league's address as a table joins it: `http://NAME:PW@HOST:PORT/DB`, the credentials in it as
// CouchDB takes them (NAME is the table's name in the league, PW the league password or the
// table's own key). Parsed once, so that the password is never logged or shown.
import { ADMIN_NAME, TABLE_NAME } from '../../shared/league'

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
