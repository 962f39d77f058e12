import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Row, Sql, SqlValue } from '../database/sql.js';
import type { Caller } from '../common/caller.js';
import type { FieldSelection } from '../common/fields/field-selection.js';
import { BugVisibilityService } from './bug-visibility.service.js';
import { BUG_FIELDS } from './bug.fields.js';
import type { BugRow } from './bug.types.js';
import { LoadedBugCache, type BugStamp } from './loaded-bug-cache.js';
import { AUDIT_MARK_SQL } from '../audit/audit.service.js';

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
}

export type LoadedBug = BugDetail & BugRelations;

export const BUG_RELATIONS = ['alias', 'cc', 'keywords', 'groups', 'blocks', 'depends_on', 'see_also', 'flags', 'custom', 'tags', 'actual_time'] as const;
export type BugRelation = (typeof BUG_RELATIONS)[number];

export interface BugPage {
  /** The bugs in the order asked for (ids that do not exist are absent). */
  bugs: LoadedBug[];
  /** The installation's custom fields, when `custom` was loaded. */
  customFields: CustomFieldDef[];
}

export function toBugRow(r: Row): BugRow {
  return {
    id: Number(r.id),
    summary: r.summary,
    status: r.status,
    resolution: r.resolution ?? '',
    productId: Number(r.product_id),
    componentId: Number(r.component_id),
    version: r.version,
    targetMilestone: r.target_milestone,
    opSys: r.op_sys,
    platform: r.platform,
    priority: r.priority,
    severity: r.severity,
    reporterId: Number(r.reporter_id),
    assignedToId: Number(r.assigned_to_id),
    qaContactId: r.qa_contact_id == null ? null : Number(r.qa_contact_id),
    url: r.url ?? '',
    whiteboard: r.whiteboard ?? '',
    isConfirmed: Number(r.is_confirmed) === 1,
    isCreatorAccessible: Number(r.is_creator_accessible) === 1,
    isCcAccessible: Number(r.is_cc_accessible) === 1,
    estimatedTime: Number(r.estimated_time ?? 0),
    remainingTime: Number(r.remaining_time ?? 0),
    deadline: r.deadline == null || r.deadline === '' ? null : String(r.deadline).slice(0, 10),
    creationTime: String(r.creation_time),
    lastChangeTime: String(r.last_change_time),
  };
}

const userOf = (r: Row, prefix: string): UserDetail => ({
  id: Number(r[`${prefix}_id`]),
  login: r[`${prefix}_login`],
  realName: r[`${prefix}_realname`] ?? '',
  email: r[`${prefix}_email`],
});

const emptyRelations = (): BugRelations => ({
  aliases: [], cc: [], keywords: [], groups: [], blocks: [], dependsOn: [], seeAlso: [], flags: [], custom: new Map(), tags: [], actualTime: 0,
});

// Kinds of the rows of the relations query (numbers, so the UNION's first column has one type on both dialects).
const K = { alias: 1, cc: 2, keyword: 3, group: 4, blocks: 5, dependsOn: 6, seeAlso: 7, flag: 8, custom: 9, tag: 10, actualTime: 11, customDef: 12 } as const;

/** The columns every part of the relations query selects: ints n1/n2, a decimal x, strings s1…s6. */
const COLUMNS = ['n1', 'n2', 'x', 's1', 's2', 's3', 's4', 's5', 's6'] as const;
type Column = (typeof COLUMNS)[number];

function part(kind: number, bugId: string, values: Partial<Record<Column, string>>, rest: string): string {
  return `SELECT ${kind} AS k, ${bugId} AS bug_id, ${COLUMNS.map((c) => `${values[c] ?? 'NULL'} AS ${c}`).join(', ')} ${rest}`;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Bugs per query: keeps the bound parameters of the relations query (one id list per relation) under SQLite's limit. */
const CHUNK = 500;

/** The distinct ids in slices of CHUNK (none for an empty list). */
function chunks(ids: readonly number[]): number[][] {
  const unique = [...new Set(ids)];
  const slices: number[][] = [];
  for (let i = 0; i < unique.length; i += CHUNK) slices.push(unique.slice(i, i + CHUNK));
  return slices;
}

/**
 * Loads bugs for presentation with a constant number of queries whatever the page size (design.md: one query per
 * relation per page, never one per bug): one for the rows with their product/component/classification names and
 * people, and one UNION ALL that brings every wanted relation (cc, keywords, flags, groups, dependencies, aliases,
 * see also, custom values, tags, actual time) in a single round trip. Relations the field selection leaves out are
 * not queried at all.
 */
@Injectable()
export class BugLoaderService {
  private readonly cache = new LoadedBugCache();

  constructor(private readonly db: Db, private readonly visibility: BugVisibilityService) {}

  /** Plain bug rows by id (`forUpdate` locks them on MySQL for the rest of the transaction). */
  async rows(ids: readonly number[], sql: Sql = this.db.read, options: { forUpdate?: boolean } = {}): Promise<Map<number, BugRow>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const lock = options.forUpdate && sql.dialect === 'mysql' ? ' FOR UPDATE' : '';
    const rows = await sql.all(`SELECT * FROM bugs WHERE id IN ${sql.in(unique)}${lock}`, unique);
    return new Map(rows.map((r) => [Number(r.id), toBugRow(r)]));
  }

  /**
   * Rows with names and people (one query per 500 bugs); with `visibleTo`, each says whether that caller may see
   * it. Outside a transaction, bugs the cache holds current cost only their stamp (see LoadedBugCache).
   */
  async details(ids: readonly number[], options: { visibleTo?: Caller; sql?: Sql } = {}): Promise<Map<number, BugDetail>> {
    const result = new Map<number, BugDetail>();
    const cached = !options.sql || options.sql === this.db.read;
    for (const chunk of chunks(ids)) {
      const part = cached ? await this.detailsThroughCache(chunk, options.visibleTo) : await this.detailsOf(chunk, options);
      for (const [id, detail] of part) result.set(id, detail);
    }
    return result;
  }

  /** One cheap statement for the stamps; the heavy one only for bugs the cache does not hold current. */
  private async detailsThroughCache(unique: readonly number[], visibleTo: Caller | undefined): Promise<Map<number, BugDetail>> {
    const stamps = await this.stampsOf(unique, visibleTo);
    const stale = unique.filter((id) => stamps.has(id) && !this.cache.detail(id, stamps.get(id)!));
    const loaded = stale.length ? await this.detailsOf(stale, {}) : new Map<number, BugDetail>();
    const result = new Map<number, BugDetail>();
    for (const id of unique) {
      const stamp = stamps.get(id);
      if (!stamp) continue;
      const fresh = loaded.get(id);
      if (fresh) this.cache.storeDetail(id, stamp, fresh);
      const detail = fresh ?? this.cache.detail(id, stamp);
      if (detail) result.set(id, { ...detail, visible: stamp.visible });
    }
    return result;
  }

  private async stampsOf(unique: readonly number[], visibleTo: Caller | undefined): Promise<Map<number, BugStamp>> {
    const sql = this.db.read;
    const visible = visibleTo ? this.visibility.visibleColumn(visibleTo) : { sql: '1', params: [] as SqlValue[] };
    const rows = await sql.all(
      `SELECT b.id, b.last_change_time, ${AUDIT_MARK_SQL} AS audit_mark, ${visible.sql} AS visible
         FROM bugs b WHERE b.id IN ${sql.in(unique)}`,
      [...visible.params, ...unique],
    );
    return new Map(rows.map((r) => [Number(r.id), {
      lastChangeTime: String(r.last_change_time),
      auditMark: Number(r.audit_mark ?? 0),
      visible: Number(r.visible) === 1,
    }]));
  }

  private async detailsOf(unique: readonly number[], options: { visibleTo?: Caller; sql?: Sql }): Promise<Map<number, BugDetail>> {
    const sql = options.sql ?? this.db.read;
    const visible = options.visibleTo ? this.visibility.visibleColumn(options.visibleTo) : { sql: '1', params: [] as SqlValue[] };
    const person = (alias: string) =>
      `${alias}.id AS ${alias}_id, ${alias}.login_name AS ${alias}_login, ${alias}.realname AS ${alias}_realname, ${alias}.email AS ${alias}_email`;
    const rows = await sql.all(
      `SELECT b.*, p.name AS product_name, c.name AS component_name, cl.name AS classification_name,
              ${person('r')}, ${person('a')}, ${person('q')}, d.dupe_of_id, sv.is_open, ${visible.sql} AS visible
         FROM bugs b
         JOIN products p ON p.id = b.product_id
         JOIN components c ON c.id = b.component_id
         LEFT JOIN classifications cl ON cl.id = p.classification_id
         JOIN users r ON r.id = b.reporter_id
         JOIN users a ON a.id = b.assigned_to_id
         LEFT JOIN users q ON q.id = b.qa_contact_id
         LEFT JOIN bug_duplicates d ON d.dupe_id = b.id
         LEFT JOIN fielddefs sf ON sf.name = 'bug_status'
         LEFT JOIN field_values sv ON sv.field_id = sf.id AND sv.value = b.status
        WHERE b.id IN ${sql.in(unique)}`,
      [...visible.params, ...unique],
    );
    return new Map(rows.map((r) => [Number(r.id), {
      row: toBugRow(r),
      product: r.product_name,
      component: r.component_name,
      classification: r.classification_name ?? '',
      reporter: userOf(r, 'r'),
      assignee: userOf(r, 'a'),
      qaContact: r.q_id == null ? null : userOf(r, 'q'),
      dupeOf: r.dupe_of_id == null ? null : Number(r.dupe_of_id),
      isOpen: r.is_open == null || Number(r.is_open) === 1,
      visible: Number(r.visible) === 1,
    }]));
  }

  /** The relations a response will show: the field selection decides, and the caller (tags, time tracking). */
  wantedRelations(caller: Caller, selection: FieldSelection): Set<BugRelation> {
    const wants = (field: string) => selection.wants(field, BUG_FIELDS);
    const wanted = new Set<BugRelation>();
    for (const relation of ['alias', 'cc', 'keywords', 'groups', 'blocks', 'depends_on', 'see_also', 'flags'] as const) {
      if (wants(relation)) wanted.add(relation);
    }
    // Custom fields are named only once their definitions are loaded: probe the class, or a cf_ name asked for.
    if (wants('cf_') || selection.includesPrefix('cf_')) wanted.add('custom');
    if (caller.isLoggedIn && wants('tags')) wanted.add('tags');
    if (caller.isTimeTracker && wants('actual_time')) wanted.add('actual_time');
    return wanted;
  }

  /** The wanted relations of the bugs, in one query per 500 bugs. Lists come sorted as Bugzilla lists them. */
  async relations(
    ids: readonly number[],
    wanted: ReadonlySet<BugRelation>,
    options: { tagOwnerId?: number; sql?: Sql } = {},
  ): Promise<{ byBug: Map<number, BugRelations>; customFields: CustomFieldDef[] }> {
    const byBug = new Map<number, BugRelations>();
    let customFields: CustomFieldDef[] = [];
    for (const chunk of chunks(ids)) {
      const part = await this.relationsOf(chunk, wanted, options);
      for (const [id, relations] of part.byBug) byBug.set(id, relations);
      customFields = part.customFields;
    }
    return { byBug, customFields };
  }

  private async relationsOf(
    unique: readonly number[],
    wanted: ReadonlySet<BugRelation>,
    options: { tagOwnerId?: number; sql?: Sql },
  ): Promise<{ byBug: Map<number, BugRelations>; customFields: CustomFieldDef[] }> {
    const sql = options.sql ?? this.db.read;
    const byBug = new Map<number, BugRelations>(unique.map((id) => [id, emptyRelations()]));
    const customFields: CustomFieldDef[] = [];
    if (!unique.length || !wanted.size) return { byBug, customFields };

    const inIds = sql.in(unique);
    const parts: string[] = [];
    const params: SqlValue[] = [];
    const add = (text: string, extra: SqlValue[] = []) => {
      parts.push(text);
      params.push(...extra, ...unique);
    };
    if (wanted.has('alias')) add(part(K.alias, 'bug_id', { s1: 'alias' }, `FROM bug_aliases WHERE bug_id IN ${inIds}`));
    if (wanted.has('cc')) {
      add(part(K.cc, 'x.bug_id', { n1: 'u.id', s1: 'u.login_name', s2: 'u.realname', s3: 'u.email' },
        `FROM bug_cc x JOIN users u ON u.id = x.user_id WHERE x.bug_id IN ${inIds}`));
    }
    if (wanted.has('keywords')) {
      add(part(K.keyword, 'x.bug_id', { s1: 'k.name' }, `FROM bug_keywords x JOIN keywords k ON k.id = x.keyword_id WHERE x.bug_id IN ${inIds}`));
    }
    if (wanted.has('groups')) {
      add(part(K.group, 'x.bug_id', { s1: 'g.name' }, `FROM bug_groups x JOIN ${sql.quote('groups')} g ON g.id = x.group_id WHERE x.bug_id IN ${inIds}`));
    }
    // A dependency row says: blocked_id cannot be fixed before depends_on_id.
    if (wanted.has('blocks')) add(part(K.blocks, 'depends_on_id', { n1: 'blocked_id' }, `FROM bug_dependencies WHERE depends_on_id IN ${inIds}`));
    if (wanted.has('depends_on')) add(part(K.dependsOn, 'blocked_id', { n1: 'depends_on_id' }, `FROM bug_dependencies WHERE blocked_id IN ${inIds}`));
    if (wanted.has('see_also')) add(part(K.seeAlso, 'bug_id', { n1: 'id', s1: 'url' }, `FROM bug_see_also WHERE bug_id IN ${inIds}`));
    if (wanted.has('flags')) {
      add(part(K.flag, 'f.bug_id', { n1: 'f.id', n2: 'f.type_id', s1: 't.name', s2: 'f.status', s3: 'st.login_name', s4: 'rq.login_name', s5: 'f.creation_date', s6: 'f.modification_date' },
        `FROM flags f JOIN flag_types t ON t.id = f.type_id JOIN users st ON st.id = f.setter_id LEFT JOIN users rq ON rq.id = f.requestee_id
          WHERE f.attachment_id IS NULL AND f.bug_id IN ${inIds}`));
    }
    if (wanted.has('custom')) {
      add(part(K.custom, 'bug_id', { n1: 'id', n2: 'field_id', s1: 'value' }, `FROM bug_custom_values WHERE bug_id IN ${inIds}`));
      parts.push(part(K.customDef, '0', { n1: 'id', n2: 'type', s1: 'name', x: 'sortkey' }, 'FROM fielddefs WHERE custom = 1 AND obsolete = 0'));
    }
    if (wanted.has('tags') && options.tagOwnerId) {
      add(part(K.tag, 'x.bug_id', { s1: 't.name' }, `FROM bug_tags x JOIN tags t ON t.id = x.tag_id AND t.user_id = ? WHERE x.bug_id IN ${inIds}`), [options.tagOwnerId]);
    }
    if (wanted.has('actual_time')) add(part(K.actualTime, 'bug_id', { x: 'SUM(work_time)' }, `FROM comments WHERE bug_id IN ${inIds} GROUP BY bug_id`));
    if (!parts.length) return { byBug, customFields };

    const rows = await sql.all(parts.join(' UNION ALL '), params);
    const seeAlsoOrder = new Map<string, number>();
    const customOrder = new Map<number, number>();
    for (const r of rows) {
      const kind = Number(r.k);
      if (kind === K.customDef) {
        customFields.push({ id: Number(r.n1), name: r.s1, type: Number(r.n2) });
        customOrder.set(Number(r.n1), Number(r.x));
        continue;
      }
      const bug = byBug.get(Number(r.bug_id));
      if (!bug) continue;
      switch (kind) {
        case K.alias: bug.aliases.push(r.s1); break;
        case K.cc: bug.cc.push({ id: Number(r.n1), login: r.s1, realName: r.s2 ?? '', email: r.s3 }); break;
        case K.keyword: bug.keywords.push(r.s1); break;
        case K.group: bug.groups.push(r.s1); break;
        case K.blocks: bug.blocks.push(Number(r.n1)); break;
        case K.dependsOn: bug.dependsOn.push(Number(r.n1)); break;
        case K.seeAlso: bug.seeAlso.push(r.s1); seeAlsoOrder.set(`${r.bug_id}:${r.s1}`, Number(r.n1)); break;
        case K.flag:
          bug.flags.push({
            id: Number(r.n1), typeId: Number(r.n2), name: r.s1, status: r.s2, setter: r.s3, requestee: r.s4 ?? null,
            creationDate: String(r.s5), modificationDate: String(r.s6),
          });
          break;
        case K.custom: {
          const values = bug.custom.get(Number(r.n2)) ?? [];
          values.push(r.s1);
          bug.custom.set(Number(r.n2), values);
          break;
        }
        case K.tag: bug.tags.push(r.s1); break;
        case K.actualTime: bug.actualTime = Number(r.x ?? 0); break;
      }
    }
    for (const [id, bug] of byBug) {
      bug.aliases.sort(byText);
      bug.cc.sort((a, b) => byText(a.login, b.login));
      bug.keywords.sort((a, b) => byText(a.toLowerCase(), b.toLowerCase()));
      bug.groups.sort(byText);
      bug.blocks.sort((a, b) => a - b);
      bug.dependsOn.sort((a, b) => a - b);
      bug.seeAlso.sort((a, b) => seeAlsoOrder.get(`${id}:${a}`)! - seeAlsoOrder.get(`${id}:${b}`)!);
      bug.flags.sort((a, b) => a.id - b.id);
      bug.tags.sort(byText);
    }
    customFields.sort((a, b) => customOrder.get(a.id)! - customOrder.get(b.id)! || byText(a.name, b.name));
    return { byBug, customFields };
  }

  /**
   * A page of bugs ready for the presenter, in the order of `ids` (unknown ids skipped): two queries in all.
   * Visibility is the caller's business here: pass ids that were checked, or search with the visibility predicate.
   */
  async page(ids: readonly number[], caller: Caller, selection: FieldSelection, sql: Sql = this.db.read): Promise<BugPage> {
    const details = await this.details(ids, { sql });
    return this.complete(ids, details, caller, selection, sql);
  }

  /** Adds the wanted relations to details already loaded (the Get route loads details with visibility first). */
  async complete(
    ids: readonly number[],
    details: ReadonlyMap<number, BugDetail>,
    caller: Caller,
    selection: FieldSelection,
    sql: Sql = this.db.read,
  ): Promise<BugPage> {
    const present = [...new Set(ids)].filter((id) => details.has(id));
    const wanted = this.wantedRelations(caller, selection);
    if (sql !== this.db.read) {
      const { byBug, customFields } = await this.relations(present, wanted, { tagOwnerId: caller.id, sql });
      return { bugs: present.map((id) => ({ ...details.get(id)!, ...byBug.get(id)! })), customFields };
    }
    // Outside a transaction the details were just validated against the database: their kept relations are
    // current. Personal tags are the caller's and always read.
    const shared = new Set([...wanted].filter((relation) => relation !== 'tags'));
    const missing = present.filter((id) => !this.cache.relations(id, shared));
    const loaded = await this.relations(missing, shared, { sql });
    for (const [id, value] of loaded.byBug) this.cache.storeRelations(id, shared, value, loaded.customFields);
    const tags = wanted.has('tags') ? (await this.relations(present, new Set(['tags'] as const), { tagOwnerId: caller.id, sql })).byBug : undefined;
    const bugs = present.map((id) => ({ ...details.get(id)!, ...(loaded.byBug.get(id) ?? this.cache.relations(id, shared)!.value), tags: tags?.get(id)?.tags ?? [] }));
    const customFields = missing.length || !present.length ? loaded.customFields : this.cache.relations(present[0], shared)!.customFields;
    return { bugs, customFields };
  }
}
