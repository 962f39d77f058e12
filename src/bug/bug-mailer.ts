import type { Sql } from '../database/sql.js';
import type { BugRow } from './bug.types.js';

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

/** What the bug module tells the mail module after a bug was created or changed (inside the write's transaction). */
export interface BugMailEvent {
  bugId: number;
  summary: string;
  product: string;
  component: string;
  /** Who made the change: not mailed unless they asked to be. */
  changerId: number;
  isNew: boolean;
  /** The bug after the change, for the mail's headers. */
  state: BugMailState;
  /**
   * API field names with string values, as in Update Bug `changes`. For a new bug, the initial values to list in
   * the mail ("Field: value" lines, `removed` ''); summary, product and component are shown from the fields above.
   */
  changes: ReadonlyArray<{ field: string; removed: string; added: string }>;
  /** The comment added by this change, if any (its text goes into the mail). */
  comment?: { text: string; isPrivate: boolean };
  /** The people around the bug after the change, plus those the change removed (old assignee, removed cc …). */
  participants: { reporterId: number; assigneeId: number; qaContactId: number | null; ccIds: readonly number[]; formerIds: readonly number[] };
  /** The request's one timestamp, DB format. */
  at: string;
  /**
   * Which of these users may see the bug after the change: the bug module answers with its one visibility rule,
   * so nobody is mailed about a bug they cannot see.
   */
  canSee: (userIds: readonly number[]) => Promise<ReadonlySet<number>>;
}

/**
 * What the bug services need from outgoing mail. The bug module owns this port; the mail module (which sits above
 * bug) implements it and provides BUG_MAILER, so bug never imports mail.
 */
export interface BugMailer {
  /** Queues the mail for this event in the caller's transaction (the outbox); delivery happens after commit. */
  notify(tx: Sql, event: BugMailEvent): Promise<void>;
}

export const BUG_MAILER = Symbol('BugMailer');
