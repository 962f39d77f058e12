/**
 * The field module's public types of statuses and the status workflow, which the field module owns (bug_status,
 * status_workflow) and the bug rules read (`src/bug-rules/workflow.ts`), and of the fields of a fresh install. Field type numbers are in `field-type.ts`.
 */

/** One bug status (bug_status), as the workflow rules read it. */
export interface StatusDef {
  name: string;
  isOpen: boolean;
  isActive: boolean;
  sortKey: number;
}

/** One row of status_workflow; `from` null is the "(new bug)" pseudo-status. */
export interface Transition {
  from: string | null;
  to: string;
  requireComment: boolean;
}

/** A standard field of a fresh install (Bugzilla's DEFAULT_FIELDS); `type` defaults to 0 (unknown). */
export interface StandardField {
  name: string;
  description: string;
  type?: number;
  mailhead?: boolean;
  buglist?: boolean;
  numeric?: boolean;
  enterBug?: boolean;
  /** Get Fields' is_mandatory: a bug cannot be filed without it (Bugzilla's DEFAULT_FIELDS). */
  mandatory?: boolean;
}

/** The fields, their values and the status workflow of a fresh install. */
export interface FieldInstall {
  /** In sort order (sort keys 50, 100, …). */
  fields: readonly StandardField[];
  /** bug_status's values, in sort order (100, 200, …). */
  statuses: ReadonlyArray<{ value: string; isOpen: boolean }>;
  /** The other select fields' values by field name, each list in sort order (100, 200, …). */
  selectValues: Readonly<Record<string, readonly string[]>>;
  /** [from (null: a bug being filed), to], by status; no transition requires a comment. */
  workflow: ReadonlyArray<readonly [string | null, string]>;
}
