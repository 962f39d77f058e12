import type { BugColumn } from '../bug/bug.types.js';
import type { AttachmentSearchField } from './bug-search-sources.js';

/** How a column's values are read: text, a number, a moment, a date or a 0/1 flag. */
export type ValueType = 'text' | 'number' | 'datetime' | 'date' | 'bool';

/** Where a user criterion looks for the user. */
export type UserRole = 'assigned_to' | 'reporter' | 'qa_contact' | 'cc' | 'commenter' | 'setter' | 'requestee' | 'submitter';

/** A searchable field of search.md by its internal name: where its values live and how they are compared. */
export type SearchField =
  | { kind: 'column'; column: BugColumn; type: ValueType; time?: true }
  | { kind: 'related'; relation: 'aliases' | 'tags' | 'see_also'; type: 'text' }
  | { kind: 'related'; relation: 'blocked' | 'dependson' | 'dup_id' | 'regressed_by' | 'regresses'; type: 'number' }
  | { kind: 'product' | 'component' | 'classification' | 'keyword' | 'group' }
  | { kind: 'user'; role: UserRole }
  | { kind: 'comment'; field: 'text' | 'work_time'; time?: true }
  | { kind: 'attachment'; field: AttachmentSearchField }
  | { kind: 'flag' }
  | { kind: 'custom'; name: string };

const column = (name: BugColumn, type: ValueType = 'text', time?: true): SearchField => ({ kind: 'column', column: name, type, ...(time ? { time } : {}) });

/** The fields of Bugzilla 5.0's search (Bugzilla/Search.pm), by internal name. Custom fields (`cf_*`) are looked up. */
export const SEARCH_FIELDS: Readonly<Record<string, SearchField>> = {
  bug_id: column('id', 'number'),
  alias: { kind: 'related', relation: 'aliases', type: 'text' },
  product: { kind: 'product' },
  component: { kind: 'component' },
  classification: { kind: 'classification' },
  version: column('version'),
  target_milestone: column('target_milestone'),
  bug_status: column('status'),
  resolution: column('resolution'),
  priority: column('priority'),
  bug_severity: column('severity'),
  op_sys: column('op_sys'),
  rep_platform: column('platform'),
  short_desc: column('summary'),
  status_whiteboard: column('whiteboard'),
  bug_file_loc: column('url'),
  keywords: { kind: 'keyword' },
  assigned_to: { kind: 'user', role: 'assigned_to' },
  reporter: { kind: 'user', role: 'reporter' },
  qa_contact: { kind: 'user', role: 'qa_contact' },
  cc: { kind: 'user', role: 'cc' },
  commenter: { kind: 'user', role: 'commenter' },
  tag: { kind: 'related', relation: 'tags', type: 'text' },
  creation_ts: column('creation_time', 'datetime'),
  delta_ts: column('last_change_time', 'datetime'),
  deadline: column('deadline', 'date', true),
  estimated_time: column('estimated_time', 'number', true),
  remaining_time: column('remaining_time', 'number', true),
  work_time: { kind: 'comment', field: 'work_time', time: true },
  longdesc: { kind: 'comment', field: 'text' },
  content: { kind: 'comment', field: 'text' },
  blocked: { kind: 'related', relation: 'blocked', type: 'number' },
  dependson: { kind: 'related', relation: 'dependson', type: 'number' },
  dup_id: { kind: 'related', relation: 'dup_id', type: 'number' },
  see_also: { kind: 'related', relation: 'see_also', type: 'text' },
  bug_group: { kind: 'group' },
  everconfirmed: column('is_confirmed', 'bool'),
  reporter_accessible: column('is_creator_accessible', 'bool'),
  cclist_accessible: column('is_cc_accessible', 'bool'),
  'flagtypes.name': { kind: 'flag' },
  'requestees.login_name': { kind: 'user', role: 'requestee' },
  'setters.login_name': { kind: 'user', role: 'setter' },
  'attachments.description': { kind: 'attachment', field: 'description' },
  'attachments.filename': { kind: 'attachment', field: 'filename' },
  'attachments.mimetype': { kind: 'attachment', field: 'mimetype' },
  'attachments.ispatch': { kind: 'attachment', field: 'ispatch' },
  'attachments.isobsolete': { kind: 'attachment', field: 'isobsolete' },
  'attachments.isprivate': { kind: 'attachment', field: 'isprivate' },
  'attachments.submitter': { kind: 'user', role: 'submitter' },
  'attach_data.thedata': { kind: 'attachment', field: 'data' },
  // BMO's (Bugzilla/Search.pm there), issue 43.
  bug_type: column('type'),
  filed_via: column('filed_via'),
  regressed_by: { kind: 'related', relation: 'regressed_by', type: 'number' },
  regresses: { kind: 'related', relation: 'regresses', type: 'number' },
};

/** API names (search.md "Field-name aliases", Bug.pm FIELD_MAP) → internal names; internal names are accepted as they are. */
export const API_NAMES: Readonly<Record<string, string>> = {
  id: 'bug_id', summary: 'short_desc', status: 'bug_status', severity: 'bug_severity', platform: 'rep_platform', url: 'bug_file_loc',
  whiteboard: 'status_whiteboard', creator: 'reporter', creation_time: 'creation_ts', last_change_time: 'delta_ts', blocks: 'blocked',
  depends_on: 'dependson', dupe_of: 'dup_id', is_confirmed: 'everconfirmed', is_cc_accessible: 'cclist_accessible',
  is_creator_accessible: 'reporter_accessible', groups: 'bug_group', tags: 'tag', flag: 'flagtypes.name',
  type: 'bug_type', regressions: 'regresses',
};

/** BMO's fields of SEARCH_FIELDS: known only to a search given them (the bmo_bug_fields parameter). */
export const BMO_SEARCH_FIELDS: ReadonlySet<string> = new Set(['bug_type', 'filed_via', 'regressed_by', 'regresses']);

/**
 * The internal name of a field given by its API or internal name (custom fields keep theirs); undefined if unknown.
 * `namedFields`: the custom fields' names, and BMO's fields when they are on.
 */
export function internalName(name: string, namedFields: ReadonlySet<string>): string | undefined {
  const internal = API_NAMES[name] ?? name;
  return (SEARCH_FIELDS[internal] && !BMO_SEARCH_FIELDS.has(internal)) || namedFields.has(internal) ? internal : undefined;
}

/** The field definition of an internal name (a custom field by name). */
export function fieldOf(internal: string): SearchField {
  return SEARCH_FIELDS[internal] ?? { kind: 'custom', name: internal };
}

/** Names `bug_activity` may record a field under (history writes some by their API name). */
export function activityNames(internal: string): string[] {
  const api = Object.entries(API_NAMES).filter(([, value]) => value === internal).map(([key]) => key);
  return [internal, ...api];
}
