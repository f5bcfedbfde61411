// pouchdb-node and express-pouchdb ship no types: the parts of their APIs this program uses
// (PouchDB's API reference: https://pouchdb.com/api.html).
declare module 'pouchdb-node' {
  export interface Document {
    _id: string
    _rev?: string
    _deleted?: boolean
    [field: string]: unknown
  }

  export interface WriteResult {
    ok?: boolean
    id: string
    rev?: string
    error?: string | boolean
    status?: number
    name?: string
    message?: string
    reason?: string
  }

  export interface ChangesResult {
    results: { id: string; seq: number | string; deleted?: boolean; changes: { rev: string }[] }[]
    last_seq: number | string
  }

  export interface ReplicationInfo {
    docs_read: number
    docs_written: number
    doc_write_failures: number
    last_seq?: number | string
    errors: unknown[]
  }

  export interface PouchError extends Error {
    status?: number
    name: string
    reason?: string
    message: string
    error?: string | boolean
  }

  export interface Replication {
    on(event: 'change', listener: (info: ReplicationInfo) => void): Replication
    on(event: 'paused', listener: (error?: PouchError) => void): Replication
    on(event: 'active', listener: () => void): Replication
    on(event: 'denied', listener: (error: PouchError & { id?: string }) => void): Replication
    on(event: 'error', listener: (error: PouchError) => void): Replication
    on(event: 'complete', listener: (info: ReplicationInfo) => void): Replication
    on(event: 'checkpoint', listener: (info: { checkpoint?: number | string; [key: string]: unknown }) => void): Replication
    cancel(): void
  }

  export interface ReplicationOptions {
    live?: boolean
    retry?: boolean
    batch_size?: number
    batches_limit?: number
    back_off_function?: (delay: number) => number
    checkpoint?: 'source' | 'target' | false
  }

  export interface DatabaseOptions {
    auth?: { username: string; password: string }
    skip_setup?: boolean
    auto_compaction?: boolean
    revs_limit?: number
    prefix?: string
    adapter?: string
  }

  export default class PouchDB {
    constructor(name: string, options?: DatabaseOptions)
    static defaults(options: DatabaseOptions): typeof PouchDB
    readonly name: string
    put(document: Document): Promise<WriteResult>
    get(id: string, options?: { revs?: boolean; open_revs?: 'all' | string[] }): Promise<Document>
    bulkDocs(documents: Document[], options?: { new_edits?: boolean }): Promise<WriteResult[]>
    allDocs(options?: { keys?: string[]; include_docs?: boolean; startkey?: string; endkey?: string; limit?: number }): Promise<{
      total_rows: number
      rows: { id: string; key: string; value: { rev: string; deleted?: boolean }; doc?: Document; error?: string }[]
    }>
    changes(options: { since?: number | string; limit?: number; style?: 'main_only' | 'all_docs'; return_docs?: boolean }): Promise<ChangesResult>
    info(): Promise<{ db_name: string; doc_count: number; update_seq: number | string }>
    revsDiff(revisions: Record<string, string[]>): Promise<Record<string, { missing: string[] } | undefined>>
    compact(): Promise<unknown>
    close(): Promise<void>
    replicate: { to(target: PouchDB | string, options?: ReplicationOptions): Replication }
  }
}

declare module 'express-pouchdb' {
  import type { IncomingMessage, ServerResponse } from 'node:http'
  import type PouchDB from 'pouchdb-node'

  interface ExpressPouchDbOptions {
    mode?: 'fullCouchDB' | 'minimumForPouchDB' | 'custom'
    overrideMode?: { include?: string[]; exclude?: string[] }
    inMemoryConfig?: boolean
    logPath?: string
    configPath?: string
  }

  type App = ((request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void) => void) & {
    setPouchDB(pouch: typeof PouchDB): Promise<void>
  }

  export default function expressPouchDb(pouch: typeof PouchDB, options?: ExpressPouchDbOptions): App
}
