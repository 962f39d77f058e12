/**
 * A bug as the loader (bug-loader.service.ts) gives it to presenters: its row, what one join away names (product,
 * people …) and the multi-valued relations a response asks for.
 */
import type { BugRow } from './bug.types.js';

export interface UserDetail {
  id: number;
  login: string;
  realName: string;
  email: string;
}

export interface BugFlag {
  id: number;
  typeId: number;
  name: string;
  status: string;
  setter: string;
  requestee: string | null;
  creationDate: string;
  modificationDate: string;
}

export interface CustomFieldDef {
  id: number;
  name: string;
  /** Bugzilla's field type number (see FieldType in the install data). */
  type: number;
}

/** A bug row with what one join away gives: names of its product, component, classification, its people, dupe_of. */
export interface BugDetail {
  row: BugRow;
  product: string;
  component: string;
  classification: string;
  reporter: UserDetail;
  assignee: UserDetail;
  qaContact: UserDetail | null;
  dupeOf: number | null;
  /** Whether its status is an open one (field_values.is_open of bug_status). */
  isOpen: boolean;
  /** Whether the caller given to `details` may see it (true when no caller was given). */
  visible: boolean;
}

/** The multi-valued parts of a bug; a relation that was not loaded stays empty. */
export interface BugRelations {
  aliases: string[];
  cc: UserDetail[];
  keywords: string[];
  groups: string[];
  blocks: number[];
  dependsOn: number[];
  seeAlso: string[];
  flags: BugFlag[];
  /** Custom field values by field id (several for a multi-select field). */
  custom: Map<number, string[]>;
  /** The caller's personal tags on the bug. */
  tags: string[];
  /** Sum of the work time of the bug's comments. */
  actualTime: number;
  /** BMO's fields (issue 43): the bugs that introduced this one, those it introduced, its duplicates. */
  regressedBy: number[];
  regressions: number[];
  duplicates: number[];
  /** Its comments, private ones too (BMO's comment_count). */
  commentCount: number;
  /** The triage owner of its component, if any. */
  triageOwner: UserDetail | null;
}

export type LoadedBug = BugDetail & BugRelations;

/** The relations only BMO's fields show (the `bmo_bug_fields` parameter). */
export const BMO_RELATIONS = ['regressed_by', 'regressions', 'duplicates', 'comment_count', 'triage_owner'] as const;

export const BUG_RELATIONS = [
  'alias', 'cc', 'keywords', 'groups', 'blocks', 'depends_on', 'see_also', 'flags', 'custom', 'tags', 'actual_time',
  ...BMO_RELATIONS,
] as const;
export type BugRelation = (typeof BUG_RELATIONS)[number];

export interface BugPage {
  /** The bugs in the order asked for (ids that do not exist are absent). */
  bugs: LoadedBug[];
  /** The installation's custom fields, when `custom` was loaded. */
  customFields: CustomFieldDef[];
}

/**
 * How the loader orders a bug's lists, compared here rather than by the database so that both dialects agree; whoever
 * builds a bug's lists itself (an update keeping the bug as it leaves it) sorts with these.
 */
export const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
export const ccOrder = (a: UserDetail, b: UserDetail) => byText(a.login, b.login);
export const keywordOrder = (a: string, b: string) => byText(a.toLowerCase(), b.toLowerCase());
