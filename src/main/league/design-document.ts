// Who may write what in a league database, as CouchDB's own `validate_doc_update` function: a
// real CouchDB 3.x runs it on every write (docs/league.md says how to install it there), and the
// league host runs the very same function on every document a table sends (league-host.ts). It
// is kept as source text because CouchDB stores it as text; the host compiles that text once.
//
// The rules: a table writes only documents named after it (its user name: `game:NAME:…`,
// `live:NAME`, `people:NAME`, `merge:NAME:…`); a finished game and a merge are written once and
// never changed; a game is deleted by the organiser only; design documents are the organiser's.
import { ADMIN_NAME, MAX_RECORD_CHARACTERS } from '@shared/league'

/** The role a table's CouchDB user has (the league host gives it to every table it admits). */
export const TABLE_ROLE = 'league-table'
/** The organiser's role besides CouchDB's own `_admin`. */
export const ORGANISER_ROLE = 'league-admin'

export const VALIDATE_DOC_UPDATE = `function (newDoc, oldDoc, userCtx) {
  var roles = (userCtx && userCtx.roles) || [];
  var organiser = roles.indexOf('_admin') !== -1 || roles.indexOf('${ORGANISER_ROLE}') !== -1;
  var id = String(newDoc._id);
  if (id.indexOf('_design/') === 0) {
    if (!organiser) throw ({ forbidden: 'only the league organiser changes design documents' });
    return;
  }
  var parts = /^(game|live|people|merge):([A-Za-z0-9][A-Za-z0-9_.-]{0,39})(?::([A-Za-z0-9_-]{1,64}))?$/.exec(id);
  if (!parts) throw ({ forbidden: id.slice(0, 80) + ' is not the id of a league document (game:, live:, people: or merge:)' });
  var kind = parts[1];
  var owner = parts[2];
  var once = kind === 'game' || kind === 'merge';
  if (once !== Boolean(parts[3])) throw ({ forbidden: id + ' is not the id of a league document' });
  if (!organiser && (roles.indexOf('${TABLE_ROLE}') === -1 || userCtx.name !== owner)) {
    throw ({ forbidden: 'table ' + userCtx.name + ' may not write the documents of ' + owner });
  }
  if (newDoc._deleted) {
    if (kind === 'game' && !organiser) throw ({ forbidden: 'a league game is never deleted by a table' });
    return;
  }
  if (once && oldDoc && !oldDoc._deleted) throw ({ forbidden: (kind === 'game' ? 'a finished game' : 'a merge') + ' never changes once written' });
  if (newDoc.type !== kind) throw ({ forbidden: 'a document ' + kind + ':… has type "' + kind + '"' });
  if (kind === 'merge') {
    if (newDoc.by !== owner) throw ({ forbidden: 'a merge names its author as in its id' });
    return;
  }
  if (newDoc.table !== owner) throw ({ forbidden: 'a document names its table as in its id' });
  if (kind === 'game' || kind === 'live') {
    var record = newDoc.record;
    if (kind === 'game' ? typeof record !== 'string' : record !== null && typeof record !== 'string') throw ({ forbidden: 'the record must be the text of a game record' });
    if (record && record.length > ${MAX_RECORD_CHARACTERS}) throw ({ forbidden: 'the record is longer than ${MAX_RECORD_CHARACTERS} characters' });
  }
}`

/** The design document a league database holds (the league host writes it at its first start). */
export function leagueDesignDocument(): { _id: string; language: string; validate_doc_update: string } {
  return { _id: '_design/league', language: 'javascript', validate_doc_update: VALIDATE_DOC_UPDATE }
}

export interface UserContext {
  name: string | null
  roles: string[]
}

export type Validate = (newDoc: Record<string, unknown>, oldDoc: Record<string, unknown> | null, userCtx: UserContext) => void

/** The function above, compiled: throws `{ forbidden }` as CouchDB's would. */
export function compileValidation(): Validate {
  // The text is this file's own constant, never anything received.
  return new Function(`return (${VALIDATE_DOC_UPDATE})`)() as Validate
}

/** What a refusal of the function says. */
export function refusalReason(thrown: unknown): string {
  if (thrown && typeof thrown === 'object' && 'forbidden' in thrown) return String((thrown as { forbidden: unknown }).forbidden)
  if (thrown && typeof thrown === 'object' && 'unauthorized' in thrown) return String((thrown as { unauthorized: unknown }).unauthorized)
  return thrown instanceof Error ? thrown.message : String(thrown)
}

export { ADMIN_NAME }
