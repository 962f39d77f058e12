import { Errors, TrackerError } from './errors/index.js';

/*
 * The `changes` of an update response and the audit rows written beside them, shared by the modules that update
 * administrative objects: the catalogue (Update Product, Component, Flag Type, Keyword, versions …) and the
 * accounts (Update User, Group, the caller's own account).
 */

/**
 * The `changes` object of the catalogue's update calls (Update Product, Component, Flag Type, versions …):
 * field name → {removed, added} as strings, booleans as '0'/'1', only fields whose value really changed.
 */
export type Changes = Record<string, { removed: string; added: string }>;

export function asChangeValue(value: string | number | boolean | null | undefined): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  return value === null || value === undefined ? '' : String(value);
}

/** Adds `field` to `changes` when the two values differ once rendered as change strings; true if it did. */
export function noteChange(changes: Changes, field: string, before: string | number | boolean | null | undefined, after: string | number | boolean | null | undefined): boolean {
  const removed = asChangeValue(before);
  const added = asChangeValue(after);
  if (removed === added) return false;
  changes[field] = { removed, added };
  return true;
}

/** The audit rows of a set of changes (one per field), for AuditService.record. */
export function auditRowsOf(changes: Changes, base: { userId: number; className: string; objectId: number; at: string }) {
  return Object.entries(changes).map(([field, change]) => ({ ...base, field, removed: change.removed, added: change.added }));
}

export type ChangeValue = string | null;

/** One `changes` entry of an update response (updates.md): what the field held, and what it holds now. */
export interface FieldChange {
  removed: ChangeValue;
  added: ChangeValue;
}

/** One audit row as FieldChanges hands it over (the shape of the audit module's AuditEntry). */
export interface ChangeAuditRow {
  userId: number | null;
  className: string;
  objectId: number;
  field: string;
  removed: ChangeValue;
  added: ChangeValue;
  at: string;
}

/**
 * Where FieldChanges writes its audit rows: the audit module's AuditService, inside the write's transaction `tx`.
 * Declared here so that common knows no resource module.
 */
export interface ChangeAuditLog<Tx> {
  record(tx: Tx, row: ChangeAuditRow): Promise<void>;
}

/** A text value of a create/update body, trimmed; absent is ''; a list or object is 53 (never '[object Object]'). */
export function textParam(value: unknown, param: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') throw TrackerError.of(Errors.PARAM_INVALID, { param });
  return String(value).trim();
}


/** Booleans in `changes` and the audit log are the strings "0" and "1". */
export const flag = (value: boolean): string => (value ? '1' : '0');

/**
 * The changes of one administrative object (user, group) in one update: the `changes` object of the response and
 * the audit rows, from one list so that they never disagree.
 */
export class FieldChanges {
  private readonly entries: Record<string, FieldChange> = {};

  /** Records a change if the value really changed. */
  note(field: string, removed: ChangeValue, added: ChangeValue): void {
    if (removed !== added) this.entries[field] = { removed, added };
  }

  /** A secret changed (a password): the key is reported, its values never are. */
  noteSecret(field: string): void {
    this.entries[field] = { removed: '', added: '' };
  }

  has(field: string): boolean {
    return field in this.entries;
  }

  get isEmpty(): boolean {
    return Object.keys(this.entries).length === 0;
  }

  toJSON(): Record<string, FieldChange> {
    return { ...this.entries };
  }

  /** Writes one audit row per changed field, at the request's time. Secrets are audited without their values. */
  async audit<Tx>(tx: Tx, audit: ChangeAuditLog<Tx>, entry: { userId: number | null; className: string; objectId: number; at: string; secret?: readonly string[] }): Promise<void> {
    for (const [field, change] of Object.entries(this.entries)) {
      const hidden = entry.secret?.includes(field);
      await audit.record(tx, {
        userId: entry.userId, className: entry.className, objectId: entry.objectId, field,
        removed: hidden ? '' : change.removed, added: hidden ? '' : change.added, at: entry.at,
      });
    }
  }
}
