import type { BugChangeEvent } from '../bug/bug-events.js';

/** What a change did to a bug, as the feed names it. */
export const CHANGE_KINDS = ['create', 'update', 'comment', 'attachment', 'flag', 'access'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** The fields whose change alters who may see the bug (the visibility rule: groups, and the people it lets in). */
const ACCESS_FIELDS = new Set(['groups', 'product', 'cc', 'assigned_to', 'qa_contact', 'is_cc_accessible', 'is_creator_accessible']);

/** The kinds of one bug change event, in CHANGE_KINDS order. */
export function kindsOf(event: Pick<BugChangeEvent, 'action' | 'changes' | 'comment'>): ChangeKind[] {
  const kinds = new Set<ChangeKind>();
  const fields = event.changes.map((c) => c.field);
  if (event.action === 'create') kinds.add('create');
  if (event.action === 'attachment') kinds.add('attachment');
  // A new bug's description is its comment 0: part of the create.
  if (event.action === 'comment' || (event.comment && event.action !== 'create')) kinds.add('comment');
  if (event.action === 'modify' && fields.length) kinds.add('update');
  if (fields.includes('flagtypes.name')) kinds.add('flag');
  if (event.action !== 'create' && fields.some((f) => ACCESS_FIELDS.has(f))) kinds.add('access');
  return CHANGE_KINDS.filter((kind) => kinds.has(kind));
}
