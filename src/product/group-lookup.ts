import type { Sql } from '../database/sql.js';

/** What the catalogue needs to know of a group it is told about by name. */
export interface GroupRef {
  id: number;
  name: string;
  isBugGroup: boolean;
  isActive: boolean;
}

/**
 * Groups by name (case-insensitive; key: lower-cased name). The group module's own lookup was being written at the
 * same time by its owner, so this reads the `groups` table directly; switch to GroupService once it has one.
 */
export async function findGroupsByNames(sql: Sql, names: readonly string[]): Promise<Map<string, GroupRef>> {
  const unique = [...new Set(names.map((n) => n.trim()).filter((n) => n !== ''))];
  if (!unique.length) return new Map();
  const rows = await sql.all(`SELECT id, name, is_bug_group, is_active FROM groups WHERE name IN ${sql.in(unique)}`, unique);
  return new Map(rows.map((r) => [String(r.name).toLowerCase(), {
    id: Number(r.id), name: r.name, isBugGroup: Number(r.is_bug_group) === 1, isActive: Number(r.is_active) === 1,
  }]));
}

/** Group names by id (for flag types' grant/request groups in `changes`). */
export async function groupNamesByIds(sql: Sql, ids: readonly number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await sql.all(`SELECT id, name FROM groups WHERE id IN ${sql.in(unique)}`, unique);
  return new Map(rows.map((r) => [Number(r.id), String(r.name)]));
}
