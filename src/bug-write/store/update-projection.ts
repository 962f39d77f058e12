import type { LockedBug, WrittenBug } from '../../bug/store/bug-loader.service.js';
import { ccOrder, keywordOrder, type BugRelation, type BugRelations, type UserDetail } from '../../bug/loaded-bug.js';
import type { BugRow } from '../../bug/bug.types.js';
import type { BugWork } from '../update/bug-work.js';
import type { Sql } from '../../database/sql.js';

/**
 * How `stateAfter` follows a column of the bug's row (BugRow, as the loader reads it from `bugs`):
 * - `followed`: the history field an update records its change under (BugWork.set); the new value is in the update's
 *   columns, which the state takes over the row read under the lock;
 * - `readAgain`: the history field of a change it does not follow: the bug is read again by the next request;
 * - `everyUpdate`: every update writes it into its columns (why);
 * - `fixed`: no update changes it (why).
 */
export type RowFollowing = { followed: string } | { readAgain: string } | { everyUpdate: string } | { fixed: string };

/**
 * Every column of a loaded bug's row, and how an update's state follows it: a column added to BugRow must be added
 * here (the type says so), and one added to the Bug entity must reach BugRow or be excluded with its reason
 * (update-projection.spec.ts compares them with the entity's metadata in every test run).
 */
export const ROW_FOLLOWING: { readonly [K in keyof BugRow]-?: RowFollowing } = {
  id: { fixed: 'a bug keeps its id' },
  summary: { followed: 'summary' },
  status: { followed: 'status' },
  resolution: { followed: 'resolution' },
  productId: { readAgain: 'product' },
  componentId: { readAgain: 'component' },
  version: { followed: 'version' },
  targetMilestone: { followed: 'target_milestone' },
  opSys: { followed: 'op_sys' },
  platform: { followed: 'platform' },
  priority: { followed: 'priority' },
  severity: { followed: 'severity' },
  reporterId: { fixed: 'the reporter is who filed the bug' },
  assignedToId: { followed: 'assigned_to' },
  qaContactId: { followed: 'qa_contact' },
  url: { followed: 'url' },
  whiteboard: { followed: 'whiteboard' },
  isConfirmed: { followed: 'is_confirmed' },
  isCreatorAccessible: { followed: 'is_creator_accessible' },
  isCcAccessible: { followed: 'is_cc_accessible' },
  estimatedTime: { followed: 'estimated_time' },
  remainingTime: { followed: 'remaining_time' },
  deadline: { followed: 'deadline' },
  creationTime: { fixed: 'the time the bug was filed' },
  lastChangeTime: { everyUpdate: 'the update\'s time (BugUpdateService)' },
  type: { followed: 'type' },
  filedVia: { fixed: 'how the bug was filed' },
};

/**
 * The changes (by their history field) whose effect on a loaded bug `stateAfter` can follow: the row's followed
 * columns (ROW_FOLLOWING), cc and keywords — what most updates change. Any other change (product, groups,
 * dependencies, flags, aliases, see also, custom fields, duplicates) and the bug is read again by the next request
 * that wants it.
 */
const FOLLOWED_CHANGES = new Set([
  ...Object.values<RowFollowing>(ROW_FOLLOWING).flatMap((following) => ('followed' in following ? [following.followed] : [])),
  'cc', 'keywords',
]);

/** History rows `changes` does not show: comment privacy changes nothing a loaded bug holds, work time its actual time. */
const FOLLOWED_QUIET = new Set(['work_time', 'longdescs.isprivate']);

/**
 * The tables an update it follows writes: the bug's row, cc and keywords, its comments and history, the outboxes and
 * the change feed (a bug shows none of their rows). A write to any other may change what a loaded bug shows with no
 * change recorded to follow (a flag rewritten with its requestee's login in another case; custom values whose text
 * reads the same): then nothing is kept.
 */
const FOLLOWED_TABLES = new Set(['bugs', 'bug_cc', 'bug_keywords', 'comments', 'bug_activity', 'mail_queue', 'webhook_deliveries', 'bug_changes']);

/** Whether a transaction that wrote `tables` wrote only what `stateAfter` can follow. */
export function followsWrites(tables: ReadonlySet<string>): boolean {
  return [...tables].every((table) => FOLLOWED_TABLES.has(table));
}

/**
 * The states an update's transaction left its changed bugs in, for the loader to keep (BugLoaderService.keepAsWritten):
 * of each bug whose changes stateAfter follows, when the transaction so far wrote only what it follows; else none
 * (the bugs are read again by the next request that wants them).
 */
export function statesAfter(tx: Sql, works: ReadonlyArray<{ w: BugWork; basis: LockedBug }>): WrittenBug[] {
  if (!followsWrites(tx.writtenTables())) return [];
  return works.map(({ w, basis }) => stateAfter(w, basis)).filter((bug) => bug !== undefined);
}

/** `written` (a state statesAfter gave), if the transaction since wrote only what stateAfter follows; else none. */
export function stillFollowed(tx: Sql, written: WrittenBug | undefined): WrittenBug[] {
  return written && followsWrites(tx.writtenTables()) ? [written] : [];
}

/**
 * The text as the database stores it: both drivers write UTF-8, in which a lone UTF-16 surrogate (a JSON body may
 * carry one) becomes U+FFFD.
 */
const asStored = (text: string): string => (text as unknown as { toWellFormed(): string }).toWellFormed();

/**
 * The bug as the page loader will read it once this update's writes commit, when every change of the update is one
 * this can follow (else undefined): the state read under the lock (`basis`) with the update's columns, people, cc
 * and keywords applied, lists sorted as the loader sorts them. The write keeps it (BugLoaderService.keepAsWritten),
 * so that the next update of the bug needs only its stamp under the lock, and the next read nothing but its stamp.
 */
export function stateAfter(w: BugWork, basis: LockedBug): WrittenBug | undefined {
  const { run } = w;
  const settingsMark = run.caller.settingsMark;
  // Names the request brought (its users) were read under the caller's mark: the state's must be of the same.
  if (settingsMark === undefined || basis.stamp.settingsMark !== settingsMark) return undefined;
  if (w.productChanged || w.newDupeOf !== undefined || run.bumped.has(w.id) || run.reordered.has(w.id)) return undefined;
  if (!w.changes.entries().every((e) => FOLLOWED_CHANGES.has(e.field))) return undefined;
  if (!w.quiet.every((e) => FOLLOWED_QUIET.has(e.field))) return undefined;

  const before = basis.bug;
  const people = knownPeople(w);
  const row = { ...before.row, ...w.columns };
  for (const key of ['summary', 'url', 'whiteboard'] as const) row[key] = asStored(row[key]);
  const assignee = people.get(row.assignedToId);
  const qaContact = row.qaContactId === null ? null : people.get(row.qaContactId);
  const status = run.workflow?.statuses.find((s) => s.name === row.status);
  if (!assignee || qaContact === undefined || (row.status !== before.row.status && !status)) return undefined;

  const cc: UserDetail[] = [];
  for (const id of w.ccIds) {
    const user = people.get(id);
    if (!user) return undefined;
    cc.push(user);
  }
  cc.sort(ccOrder);
  const keywords = [...w.keywords].sort(keywordOrder);

  const wanted = new Set<BugRelation>(basis.relations);
  // The sum of the comments' work time is the database's to make (a decimal sum): read again when wanted.
  if (w.quiet.some((e) => e.field === 'work_time')) wanted.delete('actual_time');
  const relations: BugRelations = {
    aliases: before.aliases, cc, keywords, groups: before.groups, blocks: before.blocks, dependsOn: before.dependsOn, seeAlso: before.seeAlso,
    flags: before.flags, custom: before.custom, tags: [], actualTime: before.actualTime,
    regressedBy: before.regressedBy, regressions: before.regressions, duplicates: before.duplicates, commentCount: before.commentCount,
    triageOwner: before.triageOwner,
  };
  return {
    id: w.id,
    detail: {
      row,
      product: before.product,
      component: before.component,
      classification: before.classification,
      reporter: before.reporter,
      assignee,
      qaContact,
      dupeOf: before.dupeOf,
      isOpen: row.status === before.row.status ? before.isOpen : status!.isOpen,
    },
    relations,
    wanted,
    customFields: basis.customFields,
    settingsMark,
    movedElsewhere: basis.movedElsewhere,
  };
}

/** The users whose details the update knows: the bug's people and cc as read, and those the request named. */
function knownPeople(w: BugWork): Map<number, UserDetail> {
  const { bug } = w;
  const people = new Map<number, UserDetail>();
  for (const user of [bug.reporter, bug.assignee, bug.qaContact, ...bug.cc]) if (user) people.set(user.id, user);
  for (const user of w.run.namedUsers.values()) people.set(user.id, { id: user.id, login: user.login, realName: user.realName, email: user.email });
  return people;
}
