import type { Sql } from '../database/sql.js';
import type { AuditService } from '../audit/audit.service.js';
import { Errors, TrackerError } from '../common/errors/index.js';

export type ChangeValue = string | null;

/** One `changes` entry of an update response (updates.md): what the field held, and what it holds now. */
export interface FieldChange {
  removed: ChangeValue;
  added: ChangeValue;
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
  async audit(tx: Sql, audit: AuditService, entry: { userId: number | null; className: string; objectId: number; at: string; secret?: readonly string[] }): Promise<void> {
    for (const [field, change] of Object.entries(this.entries)) {
      const hidden = entry.secret?.includes(field);
      await audit.record(tx, {
        userId: entry.userId, className: entry.className, objectId: entry.objectId, field,
        removed: hidden ? '' : change.removed, added: hidden ? '' : change.added, at: entry.at,
      });
    }
  }
}
