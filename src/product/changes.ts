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
