// The league page and the league TV over HTTP, for the league host and for a table that joined a
// league (its own server mounts these routes): `/_league/` is the page, `/_league/tv` the TV,
// `/_league/view` what they show (JSON), `/_league/events` tells them when it changed (server-sent
// events), `/_league/head-to-head` two people's games, `/_league/merge` makes two names one person.
// The paths start with an underscore, which no CouchDB database name can: they never hide one.
import { existsSync, readFileSync, statSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'
import * as v from 'valibot'
import type { Outcome } from '@shared/api'
import { HEADER_CONTENT_SECURITY_POLICY } from '@shared/content-security-policy'
import { TABLE_NAME, type LeagueView } from '@shared/league'
import { CONTENT_TYPES } from '../core/screens/content-types'
import type { LeagueFeed } from './league-feed'

export const LEAGUE_PAGE = 'league.html'
const NIGHT = /^\d{4}-\d{2}-\d{2}$/
const MAX_MERGE_BYTES = 4096
const name = v.pipe(v.string(), v.trim(), v.minLength(1, 'a name is needed'), v.maxLength(40, 'a name has at most 40 characters'))
const MergeRequestSchema = v.strictObject({
  from: name,
  into: name,
  table: v.nullable(v.pipe(v.string(), v.regex(TABLE_NAME, 'is not a table name'))),
  password: v.optional(v.pipe(v.string(), v.maxLength(200)))
})
export type MergeRequest = v.InferOutput<typeof MergeRequestSchema>

export interface LeagueRoutesOptions {
  feed: LeagueFeed
  /** The built renderer (league.html and its assets). */
  rendererDir: string
  /** Whether a request may see the league (a private league host asks for credentials). */
  mayWatch(request: IncomingMessage): boolean
  /** Whether the page that asked may merge people: yes, with the league password, or not at all. */
  mergeAccess(request: IncomingMessage): LeagueView['canMerge']
  /** Writes a merge to the league (after `mergeAccess`; with the password the page sent, if it asks for one). */
  merge(request: IncomingMessage, merge: MergeRequest): Promise<Outcome>
  /** More answers under /_league/ (the league host's keys and status); true when answered. */
  more?(request: IncomingMessage, response: ServerResponse, path: string): boolean
}

/** Answers a request when it is the league's (returns true), else leaves it to the caller. */
export function leagueRoutes(options: LeagueRoutesOptions): (request: IncomingMessage, response: ServerResponse) => boolean {
  const events = new Set<ServerResponse>()
  options.feed.onChange(() => {
    for (const response of events) response.write(`event: view\ndata: ${options.feed.version}\n\n`)
  })
  return (request, response) => {
    let url: URL
    try {
      url = new URL(request.url ?? '/', 'http://host')
    } catch {
      return false
    }
    const path = url.pathname
    // The page's scripts and styles: the renderer's build names them from the root (/assets/...).
    if (path.startsWith('/assets/') || path.startsWith('/_league/assets/')) return sendAsset(options.rendererDir, path.slice(path.indexOf('/assets/') + 1), response)
    if (path !== '/_league' && !path.startsWith('/_league/')) return false
    if (options.more?.(request, response, path)) return true
    if (!options.mayWatch(request)) {
      response.writeHead(401, { 'www-authenticate': 'Basic realm="league", charset="UTF-8"', 'content-type': 'text/plain; charset=utf-8' })
      response.end('This league is private: its name and password are needed')
      return true
    }
    options.feed.start()
    if (request.method === 'POST' && path === '/_league/merge') {
      void answerMerge(options, request, response)
      return true
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      sendJson(response, 405, { ok: false, error: 'only GET here' })
      return true
    }
    const night = url.searchParams.get('night')
    if (night !== null && night !== '' && !NIGHT.test(night)) {
      sendJson(response, 400, { ok: false, error: 'a night is a date, YYYY-MM-DD' })
      return true
    }
    switch (path) {
      case '/_league':
        // The page's files are relative to /_league/.
        response.writeHead(302, { location: '/_league/' })
        response.end()
        return true
      case '/_league/':
      case '/_league/tv':
        sendFile(response, join(options.rendererDir, LEAGUE_PAGE), 'no-cache')
        return true
      case '/_league/view':
        sendJson(response, 200, options.feed.view(night || null, options.mergeAccess(request)))
        return true
      case '/_league/head-to-head': {
        const first = url.searchParams.get('a')
        const second = url.searchParams.get('b')
        if (!first || !second) sendJson(response, 400, { ok: false, error: 'head-to-head needs two people, a and b' })
        else sendJson(response, 200, options.feed.headToHead(first, second, night || null))
        return true
      }
      case '/_league/events':
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
        response.write(`event: view\ndata: ${options.feed.version}\n\n`)
        events.add(response)
        request.on('close', () => events.delete(response))
        return true
    }
    sendJson(response, 404, { ok: false, error: 'not found' })
    return true
  }
}

/** Sends a file of the renderer's assets folder (`assets/NAME`); anything outside it is not found. */
function sendAsset(rendererDir: string, relativePath: string, response: ServerResponse): true {
  const file = join(rendererDir, normalize(relativePath))
  if (file.startsWith(join(rendererDir, 'assets') + sep)) sendFile(response, file, 'max-age=3600')
  else sendJson(response, 404, { ok: false, error: 'not found' })
  return true
}

async function answerMerge(options: LeagueRoutesOptions, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const access = options.mergeAccess(request)
  if (access === 'no') return sendJson(response, 403, { ok: false, error: 'People are merged on the league host or on a table’s own screens' })
  let text = ''
  try {
    text = await readBody(request, MAX_MERGE_BYTES)
  } catch (error) {
    return sendJson(response, 413, { ok: false, error: (error as Error).message })
  }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return sendJson(response, 400, { ok: false, error: 'not JSON' })
  }
  const parsed = v.safeParse(MergeRequestSchema, body)
  if (!parsed.success) {
    const issue = parsed.issues[0]
    const where = issue.path?.map((item) => String(item.key)).join('.')
    return sendJson(response, 400, { ok: false, error: where ? `${where}: ${issue.message}` : issue.message })
  }
  if (parsed.output.from === parsed.output.into) return sendJson(response, 400, { ok: false, error: 'choose two different names to merge' })
  const outcome = await options.merge(request, parsed.output)
  sendJson(response, outcome.ok ? 200 : 403, outcome)
}

export function readBody(request: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        reject(new Error(`the request is larger than ${limit} bytes`))
        request.destroy()
        return
      }
      chunks.push(chunk)
    })
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    request.on('error', reject)
  })
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-cache', 'content-length': Buffer.byteLength(text) })
  response.end(text)
}

function sendFile(response: ServerResponse, path: string, cache: string): void {
  if (!existsSync(path) || !statSync(path).isFile()) {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
    response.end('Not found (the league page is built with the screens: npm run build)')
    return
  }
  response.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
    'content-security-policy': HEADER_CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'cache-control': cache
  })
  response.end(readFileSync(path))
}
