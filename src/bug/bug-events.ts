import type { Sql } from '../database/sql.js';
import type { NewRowValue } from '../database/entity-rows.js';
import type { BugRow } from './bug.types.js';

/**
 * The time-tracking fields (Bugzilla's TIMETRACKING_FIELDS): a change to one is told only to members of the
 * time-tracking group. The one list the field rules use, handed to the listeners with the events they receive.
 */
export { TIME_TRACKING_FIELDS } from './bug.fields.js';

/** The bug's values after the change that Bugzilla 5.0's X-Bugzilla-* mail headers show (users' filters match them). */
export interface BugMailState {
  classification: string;
  version: string;
  /** Keyword names, as the bug lists them. */
  keywords: readonly string[];
  severity: string;
  priority: string;
  status: string;
  resolution: string;
  targetMilestone: string;
}

/** The mail state of a bug row (as stored, or as an update leaves it), with what lies outside the row. */
export function bugMailState(
  row: Pick<BugRow, 'version' | 'severity' | 'priority' | 'status' | 'resolution' | 'targetMilestone'>,
  classification: string,
  keywords: readonly string[],
): BugMailState {
  const { version, severity, priority, status, resolution, targetMilestone } = row;
  return { classification, version, keywords, severity, priority, status, resolution, targetMilestone };
}

/**
 * What changed a bug: created (Create Bug), changed (Update Bug, and bugs it touched through dependencies or
 * duplicates), a comment added on its own (Create Comment), an attachment added or changed.
 */
export type BugAction = 'create' | 'modify' | 'comment' | 'attachment';

/**
 * What the bug module tells the modules that react to changes (mail, webhooks) after a bug was created or changed,
 * inside the write's transaction.
 */
export interface BugChangeEvent {
  action: BugAction;
  /** A new bug's id may be pending (Create Bug keeps it in the database): a listener with work to do asks (knownBug). */
  bugId: NewRowId;
  /**
   * Create Bug's new bug id as a row a listener inserts may name it while the database still holds it (as the new
   * bug's description does): the change feed's row then asks nothing and travels with the COMMIT.
   */
  newBugId?: NewRowValue<number>;
  summary: string;
  product: string;
  component: string;
  productId: number;
  componentId: number;
  /** Who made the change: not mailed unless they asked to be. */
  changerId: number;
  /** The bug after the change, for the mail's headers. */
  state: BugMailState;
  /**
   * API field names with string values, as in Update Bug `changes`. For a new bug, the initial values to list in
   * the mail ("Field: value" lines, `removed` ''); summary, product and component are shown from the fields above.
   * A change of an attachment names it.
   */
  changes: ReadonlyArray<{ field: string; removed: string; added: string; attachmentId?: number | null }>;
  /** The attachments this change added (isNew) or changed (action `attachment`), each with the comment it added. */
  attachments?: ReadonlyArray<{ id: number; isNew: boolean; commentId?: NewRowId }>;
  /**
   * The comment added by this change, if any: its text goes into the mail, webhooks read it by id as their owner.
   * A pending id (BugComments.addLater) is asked for only by a listener that needs it (idOf).
   */
  comment?: { id: NewRowId; text: string; isPrivate: boolean };
  /** The people around the bug after the change, plus those the change removed (old assignee, removed cc …). */
  participants: { reporterId: number; assigneeId: number; qaContactId: number | null; ccIds: readonly number[]; formerIds: readonly number[] };
  /** The request's one timestamp, DB format. */
  at: string;
  /** The settings mark the request read (Caller.settingsMark): listeners keep their settings under it. */
  settingsMark: number | undefined;
  /**
   * Which of these users may see the bug after the change: the bug module answers with its one visibility rule,
   * so nobody is mailed about a bug they cannot see.
   */
  canSee: (userIds: readonly number[]) => Promise<ReadonlySet<number>>;
}

/**
 * What reacts to bug changes: outgoing mail (BUG_MAILER), webhooks (BUG_WEBHOOKS) and the change feed (BUG_CHANGE_FEED). The bug module owns these
 * ports; the modules above it implement them, so bug never imports mail or webhook. Writers publish through
 * BugEventsService, which tells each.
 */
export interface BugChangeListener {
  /** Queues what this event causes in the caller's transaction (an outbox); delivery happens after commit. */
  notify(tx: Sql, event: BugChangeEvent): Promise<void>;
}

export const BUG_MAILER = Symbol('BugMailer');
export const BUG_WEBHOOKS = Symbol('BugWebhooks');
/**
 * The change feed (issue 44, src/change-feed): numbers every bug change in the change's own transaction, so a
 * mirror reading GET /rest/changes misses none. Every writer's event reaches it through BugEventsService.publish.
 */
export const BUG_CHANGE_FEED = Symbol('BugChangeFeed');

/** What the change feed (BUG_CHANGE_FEED) is told: every event, and the bugs a change altered with no event of their own. */
export interface BugChangeFeed extends BugChangeListener {
  /** Numbers a change of these bugs (an `update`): the bugs a new bug blocks or depends on. */
  touched(tx: Sql, bugIds: readonly number[], at: string): Promise<void>;
}

/** A generated id a reader asks for when it needs it (idOf): the write that makes it may still be on its way. */
export type IdToAsk = () => Promise<number>;

/** The id of a row the change wrote, as an event names it: known, or to ask for. */
export type NewRowId = number | IdToAsk;

/** An id an event names (its bug's, its comment's, an attachment's); one to ask for is asked for here, by the listener that needs it. */
export function idOf(id: NewRowId): Promise<number> {
  return typeof id === 'function' ? id() : Promise.resolve(id);
}

/** An event whose bug's id is known: what a listener composes its rows from. */
export type KnownBugChangeEvent = Omit<BugChangeEvent, 'bugId'> & { bugId: number };

/** The event with its bug's id asked for: a listener does so once it knows it has rows to write. */
export async function knownBug(event: BugChangeEvent): Promise<KnownBugChangeEvent> {
  return { ...event, bugId: await idOf(event.bugId) };
}
