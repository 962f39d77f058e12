import { Injectable } from '@nestjs/common';
import type { Sql, SqlValue, ReadSql } from '../../database/sql.js';
import type { CompanionStatement } from '../../common/http/companion-read.js';
import { settingsMarkSql } from '../../audit/store/settings-mark.service.js';
import type { BugRow } from '../bug.types.js';
import type { SqlCondition } from './bug-visibility.repository.js';
import { byText, ccOrder, keywordOrder, type BugDetail, type BugRelation, type BugRelations, type CustomFieldDef, type UserDetail } from '../loaded-bug.js';
import type { BugStamp } from './loaded-bug-cache.js';

/** The columns of a `bugs` row as the driver returns them (numbers may come as strings, flags as 0/1). */
interface BugColumns {
  id: number;
  summary: string;
  status: string;
  resolution: string | null;
  product_id: number;
  component_id: number;
  version: string;
  target_milestone: string;
  op_sys: string;
  platform: string;
  priority: string;
  severity: string;
  reporter_id: number;
  assigned_to_id: number;
  qa_contact_id: number | null;
  url: string | null;
  whiteboard: string | null;
  is_confirmed: number;
  is_creator_accessible: number;
  is_cc_accessible: number;
  estimated_time: number | string | null;
  remaining_time: number | string | null;
  deadline: string | null;
  creation_time: string;
  last_change_time: string;
  type: string;
  filed_via: string;
}

/** A person joined under a prefix (`r_id`, `r_login` …) of the details query (`q_id` is null without a QA contact). */
type PersonColumns<P extends string> = Record<`${P}_id`, number | null> & Record<`${P}_login` | `${P}_email`, string> & Record<`${P}_realname`, string | null>;

/** One row of the details query: the bug, the names one join away, its people, its duplicate and open-ness. */
type DetailRow = BugColumns & PersonColumns<'r'> & PersonColumns<'a'> & PersonColumns<'q'> & {
  product_name: string;
  component_name: string;
  classification_name: string | null;
  dupe_of_id: number | null;
  is_open: number | null;
  visible: number;
};

/** One row of the stamps query (its columns are named `c_…`, so it can also be a companion read). */
interface StampRow {
  c_id: number;
  c_revision: number;
  /** Absent when the statement left the visibility rule out. */
  c_visible?: number;
}

/** One row of the relations query: its kind `k`, the bug, and the kind's values in generic columns. */
interface RelationRow {
  k: number;
  bug_id: number;
  n1: number | null;
  n2: number | null;
  x: number | string | null;
  s1: string;
  s2: string | null;
  s3: string | null;
  s4: string | null;
  s5: string | null;
  s6: string | null;
}

/** The stamps by bug id, from the rows of stampsStatement and the settings mark read with them. */
export function stampsOfRows(rows: ReadonlyArray<Partial<StampRow>>, settingsMark: number): Map<number, BugStamp> {
  return new Map(rows.filter((r) => r.c_id != null).map((r) => [Number(r.c_id), {
    revision: Number(r.c_revision),
    settingsMark,
    visible: Number(r.c_visible) === 1,
  }]));
}

export function toBugRow(r: BugColumns): BugRow {
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
    type: r.type,
    filedVia: r.filed_via,
  };
}

function userOf<P extends 'r' | 'a' | 'q'>(r: PersonColumns<P>, prefix: P): UserDetail {
  return { id: Number(r[`${prefix}_id`]), login: r[`${prefix}_login`], realName: r[`${prefix}_realname`] ?? '', email: r[`${prefix}_email`] };
}

const emptyRelations = (): BugRelations => ({
  aliases: [], cc: [], keywords: [], groups: [], blocks: [], dependsOn: [], seeAlso: [], flags: [], custom: new Map(), tags: [], actualTime: 0,
  regressedBy: [], regressions: [], duplicates: [], commentCount: 0, triageOwner: null,
});

// Kinds of the rows of the relations query (numbers, so the UNION's first column has one type on both dialects).
const K = {
  alias: 1, cc: 2, keyword: 3, group: 4, blocks: 5, dependsOn: 6, seeAlso: 7, flag: 8, custom: 9, tag: 10, actualTime: 11, customDef: 12,
  regressedBy: 13, regressions: 14, duplicate: 15, commentCount: 16, triageOwner: 17,
} as const;

/** The columns every part of the relations query selects: ints n1/n2, a decimal x, strings s1…s6. */
const COLUMNS = ['n1', 'n2', 'x', 's1', 's2', 's3', 's4', 's5', 's6'] as const;
type Column = (typeof COLUMNS)[number];

/**
 * The hand-written statements of the bug loader (the hot path bench/ measures: a page of bugs costs a constant
 * number of statements). They join other modules' tables (users, products, components, classifications, keywords,
 * groups, flags, field definitions, comments) for speed, the documented exception to "only the owner names its
 * tables"; every identifier is quoted in the handle's dialect.
 */
@Injectable()
export class BugLoaderRepository {
  /** Each bug's version (its revision and the settings mark) and whether the caller may see it. */
  async stamps(sql: ReadSql, ids: readonly number[], visible: SqlCondition): Promise<Map<number, BugStamp>> {
    const statement = this.stampsStatement(sql, ids, visible);
    const rows = await sql.all<StampRow & { c_settings_mark: number }>(
      `SELECT ${statement.columns}, ${settingsMarkSql(sql.quote)} AS ${sql.quote('c_settings_mark')} FROM ${statement.table} WHERE ${statement.on}`,
      [...statement.columnParams, ...statement.onParams],
    );
    return stampsOfRows(rows, Number(rows[0]?.c_settings_mark));
  }

  /**
   * The stamps statement, on its own or as a companion read of the credential's statement (BugStampsCompanion, whose
   * statement reads the settings mark for the caller); with `visible`, each row says whether the caller may see the
   * bug (c_visible), else it has no such column.
   */
  stampsStatement(sql: Pick<Sql, 'quote' | 'in'>, ids: readonly number[], visible?: SqlCondition): CompanionStatement {
    const q = sql.quote;
    const visibleColumn = visible ? `, ${visible.sql} AS ${q('c_visible')}` : '';
    return {
      columns: `${q('b.id')} AS ${q('c_id')}, ${q('b.revision')} AS ${q('c_revision')}${visibleColumn}`,
      columnParams: visible?.params ?? [],
      table: `${q('bugs')} b`,
      on: `${q('b.id')} IN ${sql.in(ids)}`,
      onParams: [...ids],
    };
  }

  /** Rows with their product/component/classification names, people, duplicate and open-ness, in one statement. */
  async details(sql: ReadSql, ids: readonly number[], visible: SqlCondition): Promise<Map<number, BugDetail>> {
    const q = sql.quote;
    const person = (alias: string) =>
      `${q(`${alias}.id`)} AS ${q(`${alias}_id`)}, ${q(`${alias}.login_name`)} AS ${q(`${alias}_login`)}, ` +
      `${q(`${alias}.realname`)} AS ${q(`${alias}_realname`)}, ${q(`${alias}.email`)} AS ${q(`${alias}_email`)}`;
    const rows = await sql.all<DetailRow>(
      `SELECT b.*, ${q('p.name')} AS ${q('product_name')}, ${q('c.name')} AS ${q('component_name')}, ${q('cl.name')} AS ${q('classification_name')},
              ${person('r')}, ${person('a')}, ${person('q')}, ${q('d.dupe_of_id')}, ${q('sv.is_open')}, ${visible.sql} AS ${q('visible')}
         FROM ${q('bugs')} b
         JOIN ${q('products')} p ON ${q('p.id')} = ${q('b.product_id')}
         JOIN ${q('components')} c ON ${q('c.id')} = ${q('b.component_id')}
         LEFT JOIN ${q('classifications')} cl ON ${q('cl.id')} = ${q('p.classification_id')}
         JOIN ${q('users')} r ON ${q('r.id')} = ${q('b.reporter_id')}
         JOIN ${q('users')} a ON ${q('a.id')} = ${q('b.assigned_to_id')}
         LEFT JOIN ${q('users')} q ON ${q('q.id')} = ${q('b.qa_contact_id')}
         LEFT JOIN ${q('bug_duplicates')} d ON ${q('d.dupe_id')} = ${q('b.id')}
         LEFT JOIN ${q('fielddefs')} sf ON ${q('sf.name')} = 'bug_status'
         LEFT JOIN ${q('field_values')} sv ON ${q('sv.field_id')} = ${q('sf.id')} AND ${q('sv.value')} = ${q('b.status')}
        WHERE ${q('b.id')} IN ${sql.in(ids)}`,
      [...visible.params, ...ids],
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

  /**
   * The wanted relations of the bugs in one UNION ALL statement (none when nothing is wanted), lists sorted as
   * Bugzilla lists them; with `custom`, the installation's custom field definitions too.
   */
  async relations(
    sql: ReadSql,
    ids: readonly number[],
    wanted: ReadonlySet<BugRelation>,
    tagOwnerId: number | undefined,
  ): Promise<{ byBug: Map<number, BugRelations>; customFields: CustomFieldDef[] }> {
    const q = sql.quote;
    const byBug = new Map<number, BugRelations>(ids.map((id) => [id, emptyRelations()]));
    const customFields: CustomFieldDef[] = [];
    if (!ids.length || !wanted.size) return { byBug, customFields };

    const part = (kind: number, bugId: string, values: Partial<Record<Column, string>>, rest: string) =>
      `SELECT ${kind} AS ${q('k')}, ${bugId} AS ${q('bug_id')}, ${COLUMNS.map((c) => `${values[c] ?? 'NULL'} AS ${q(c)}`).join(', ')} ${rest}`;
    const inIds = sql.in(ids);
    const parts: string[] = [];
    const params: SqlValue[] = [];
    const add = (text: string, extra: SqlValue[] = []) => {
      parts.push(text);
      params.push(...extra, ...ids);
    };
    if (wanted.has('alias')) add(part(K.alias, q('bug_id'), { s1: q('alias') }, `FROM ${q('bug_aliases')} WHERE ${q('bug_id')} IN ${inIds}`));
    if (wanted.has('cc')) {
      add(part(K.cc, q('x.bug_id'), { n1: q('u.id'), s1: q('u.login_name'), s2: q('u.realname'), s3: q('u.email') },
        `FROM ${q('bug_cc')} x JOIN ${q('users')} u ON ${q('u.id')} = ${q('x.user_id')} WHERE ${q('x.bug_id')} IN ${inIds}`));
    }
    if (wanted.has('keywords')) {
      add(part(K.keyword, q('x.bug_id'), { s1: q('k.name') },
        `FROM ${q('bug_keywords')} x JOIN ${q('keywords')} k ON ${q('k.id')} = ${q('x.keyword_id')} WHERE ${q('x.bug_id')} IN ${inIds}`));
    }
    if (wanted.has('groups')) {
      add(part(K.group, q('x.bug_id'), { s1: q('g.name') },
        `FROM ${q('bug_groups')} x JOIN ${q('groups')} g ON ${q('g.id')} = ${q('x.group_id')} WHERE ${q('x.bug_id')} IN ${inIds}`));
    }
    // A dependency row says: blocked_id cannot be fixed before depends_on_id. Each lists the open bugs first, then
    // the closed ones, each by id (Bugzilla's EmitDependList: ORDER BY is_open DESC); a status no field value
    // describes counts as open, as the bug's own is_open.
    const statusOf = (id: string) => `JOIN ${q('bugs')} ob ON ${q('ob.id')} = ${q(id)}
         LEFT JOIN ${q('fielddefs')} sf ON ${q('sf.name')} = 'bug_status'
         LEFT JOIN ${q('field_values')} sv ON ${q('sv.field_id')} = ${q('sf.id')} AND ${q('sv.value')} = ${q('ob.status')}`;
    const isOpen = `COALESCE(${q('sv.is_open')}, 1)`;
    if (wanted.has('blocks')) {
      add(part(K.blocks, q('x.depends_on_id'), { n1: q('x.blocked_id'), n2: isOpen }, `FROM ${q('bug_dependencies')} x ${statusOf('x.blocked_id')} WHERE ${q('x.depends_on_id')} IN ${inIds}`));
    }
    if (wanted.has('depends_on')) {
      add(part(K.dependsOn, q('x.blocked_id'), { n1: q('x.depends_on_id'), n2: isOpen }, `FROM ${q('bug_dependencies')} x ${statusOf('x.depends_on_id')} WHERE ${q('x.blocked_id')} IN ${inIds}`));
    }
    // BMO's regressions list as dependencies do (its list_relationship): open bugs first.
    if (wanted.has('regressed_by')) {
      add(part(K.regressedBy, q('x.regression_id'), { n1: q('x.regressed_by_id'), n2: isOpen }, `FROM ${q('bug_regressions')} x ${statusOf('x.regressed_by_id')} WHERE ${q('x.regression_id')} IN ${inIds}`));
    }
    if (wanted.has('regressions')) {
      add(part(K.regressions, q('x.regressed_by_id'), { n1: q('x.regression_id'), n2: isOpen }, `FROM ${q('bug_regressions')} x ${statusOf('x.regression_id')} WHERE ${q('x.regressed_by_id')} IN ${inIds}`));
    }
    if (wanted.has('duplicates')) add(part(K.duplicate, q('dupe_of_id'), { n1: q('dupe_id') }, `FROM ${q('bug_duplicates')} WHERE ${q('dupe_of_id')} IN ${inIds}`));
    if (wanted.has('comment_count')) {
      add(part(K.commentCount, q('bug_id'), { n1: 'COUNT(*)' }, `FROM ${q('comments')} WHERE ${q('bug_id')} IN ${inIds} GROUP BY ${q('bug_id')}`));
    }
    if (wanted.has('triage_owner')) {
      add(part(K.triageOwner, q('x.id'), { n1: q('u.id'), s1: q('u.login_name'), s2: q('u.realname'), s3: q('u.email') },
        `FROM ${q('bugs')} x JOIN ${q('components')} c ON ${q('c.id')} = ${q('x.component_id')} JOIN ${q('users')} u ON ${q('u.id')} = ${q('c.triage_owner_id')}
          WHERE ${q('x.id')} IN ${inIds}`));
    }
    if (wanted.has('see_also')) add(part(K.seeAlso, q('bug_id'), { n1: q('id'), s1: q('url') }, `FROM ${q('bug_see_also')} WHERE ${q('bug_id')} IN ${inIds}`));
    if (wanted.has('flags')) {
      add(part(K.flag, q('f.bug_id'), {
        n1: q('f.id'), n2: q('f.type_id'), s1: q('t.name'), s2: q('f.status'), s3: q('st.login_name'), s4: q('rq.login_name'),
        s5: q('f.creation_date'), s6: q('f.modification_date'),
      }, `FROM ${q('flags')} f JOIN ${q('flag_types')} t ON ${q('t.id')} = ${q('f.type_id')} JOIN ${q('users')} st ON ${q('st.id')} = ${q('f.setter_id')}
          LEFT JOIN ${q('users')} rq ON ${q('rq.id')} = ${q('f.requestee_id')}
          WHERE ${q('f.attachment_id')} IS NULL AND ${q('f.bug_id')} IN ${inIds}`));
    }
    if (wanted.has('custom')) {
      add(part(K.custom, q('bug_id'), { n1: q('id'), n2: q('field_id'), s1: q('value') }, `FROM ${q('bug_custom_values')} WHERE ${q('bug_id')} IN ${inIds}`));
      parts.push(part(K.customDef, '0', { n1: q('id'), n2: q('type'), s1: q('name'), x: q('sortkey') },
        `FROM ${q('fielddefs')} WHERE ${q('custom')} = 1 AND ${q('obsolete')} = 0`));
    }
    if (wanted.has('tags') && tagOwnerId) {
      add(part(K.tag, q('x.bug_id'), { s1: q('t.name') },
        `FROM ${q('bug_tags')} x JOIN ${q('tags')} t ON ${q('t.id')} = ${q('x.tag_id')} AND ${q('t.user_id')} = ? WHERE ${q('x.bug_id')} IN ${inIds}`), [tagOwnerId]);
    }
    if (wanted.has('actual_time')) {
      add(part(K.actualTime, q('bug_id'), { x: `SUM(${q('work_time')})` }, `FROM ${q('comments')} WHERE ${q('bug_id')} IN ${inIds} GROUP BY ${q('bug_id')}`));
    }
    if (!parts.length) return { byBug, customFields };

    const rows = await sql.all<RelationRow>(parts.join(' UNION ALL '), params);
    const seeAlsoOrder = new Map<string, number>();
    /** `bug:b<id>` / `bug:d<id>` / `bug:r<id>` / `bug:i<id>`: a bug it blocks / depends on / was regressed by / regressed, closed. */
    const closed = new Set<string>();
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
        case K.cc: bug.cc.push({ id: Number(r.n1), login: r.s1, realName: r.s2 ?? '', email: r.s3 as string }); break;
        case K.keyword: bug.keywords.push(r.s1); break;
        case K.group: bug.groups.push(r.s1); break;
        case K.blocks: bug.blocks.push(Number(r.n1)); if (Number(r.n2) === 0) closed.add(`${r.bug_id}:b${r.n1}`); break;
        case K.dependsOn: bug.dependsOn.push(Number(r.n1)); if (Number(r.n2) === 0) closed.add(`${r.bug_id}:d${r.n1}`); break;
        case K.seeAlso: bug.seeAlso.push(r.s1); seeAlsoOrder.set(`${r.bug_id}:${r.s1}`, Number(r.n1)); break;
        case K.flag:
          bug.flags.push({
            id: Number(r.n1), typeId: Number(r.n2), name: r.s1, status: r.s2 as string, setter: r.s3 as string, requestee: r.s4 ?? null,
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
        case K.regressedBy: bug.regressedBy.push(Number(r.n1)); if (Number(r.n2) === 0) closed.add(`${r.bug_id}:r${r.n1}`); break;
        case K.regressions: bug.regressions.push(Number(r.n1)); if (Number(r.n2) === 0) closed.add(`${r.bug_id}:i${r.n1}`); break;
        case K.duplicate: bug.duplicates.push(Number(r.n1)); break;
        case K.commentCount: bug.commentCount = Number(r.n1); break;
        case K.triageOwner: bug.triageOwner = { id: Number(r.n1), login: r.s1, realName: r.s2 ?? '', email: r.s3 as string }; break;
      }
    }
    for (const [id, bug] of byBug) {
      bug.aliases.sort(byText);
      bug.cc.sort(ccOrder);
      bug.keywords.sort(keywordOrder);
      bug.groups.sort(byText);
      const openFirst = (side: 'b' | 'd' | 'r' | 'i') => (a: number, b: number) => Number(closed.has(`${id}:${side}${a}`)) - Number(closed.has(`${id}:${side}${b}`)) || a - b;
      bug.blocks.sort(openFirst('b'));
      bug.dependsOn.sort(openFirst('d'));
      bug.regressedBy.sort(openFirst('r'));
      bug.regressions.sort(openFirst('i'));
      bug.duplicates.sort((a, b) => a - b);
      bug.seeAlso.sort((a, b) => seeAlsoOrder.get(`${id}:${a}`)! - seeAlsoOrder.get(`${id}:${b}`)!);
      bug.flags.sort((a, b) => a.id - b.id);
      bug.tags.sort(byText);
    }
    customFields.sort((a, b) => customOrder.get(a.id)! - customOrder.get(b.id)! || byText(a.name, b.name));
    return { byBug, customFields };
  }
}
