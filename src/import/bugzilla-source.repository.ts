import mysql from 'mysql2/promise';

/** A row as the source database answers it: mysql2 with date strings and decimal numbers. */
export type SourceRow = Record<string, unknown>;

/** The columns of `bugs` that are Bugzilla's own (the custom fields' columns are named from fielddefs). */
const BUG_COLUMNS = [
  'bug_id', 'assigned_to', 'bug_file_loc', 'bug_severity', 'bug_status', 'creation_ts', 'delta_ts', 'short_desc', 'op_sys',
  'priority', 'product_id', 'rep_platform', 'reporter', 'version', 'component_id', 'resolution', 'target_milestone',
  'qa_contact', 'status_whiteboard', 'everconfirmed', 'reporter_accessible', 'cclist_accessible', 'estimated_time',
  'remaining_time', 'deadline',
];

/** Tables Bugzilla 5.0 has and 4.4 has not, and columns 5.0 dropped (bugs.alias moved to bugs_aliases). */
const TABLES_OF_5_0 = ['bugs_aliases', 'user_api_keys', 'bug_user_last_visit', 'email_bug_ignore'];

/**
 * The Bugzilla database an import reads: one connection, in a read-only transaction with a consistent snapshot (the
 * source is only read, and a Bugzilla still in use is seen as of one moment). Reads go by pages of the primary key
 * or of bug ids, so memory stays bounded whatever the size of the installation.
 */
export class BugzillaSourceRepository {
  private constructor(private readonly connection: mysql.Connection, readonly database: string) {}

  static async open(url: string): Promise<BugzillaSourceRepository> {
    const location = new URL(url.replace(/^mariadb:/, 'mysql:'));
    const connection = await mysql.createConnection({
      uri: location.toString(),
      dateStrings: true,
      decimalNumbers: true,
      supportBigNumbers: true,
      charset: 'utf8mb4_general_ci',
      timezone: 'Z',
    });
    await connection.query('SET SESSION TRANSACTION READ ONLY');
    await connection.query('SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    await connection.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
    return new BugzillaSourceRepository(connection, decodeURIComponent(location.pathname.replace(/^\//, '')));
  }

  async close(): Promise<void> {
    await this.connection.query('ROLLBACK').catch(() => undefined);
    await this.connection.end();
  }

  private async rows(sql: string, params: unknown[] = []): Promise<SourceRow[]> {
    const [rows] = await this.connection.query(sql, params);
    return rows as SourceRow[];
  }

  /** The tables of the source database, and the columns of `bugs`. */
  async schema(): Promise<{ tables: Set<string>; bugColumns: Set<string>; schemaVersion: string | undefined }> {
    const tables = new Set((await this.rows('SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?', [this.database])).map((r) => String(r.name)));
    const bugColumns = new Set(
      (await this.rows('SELECT COLUMN_NAME AS name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?', [this.database, 'bugs'])).map((r) => String(r.name)),
    );
    const version = tables.has('bz_schema') ? (await this.rows('SELECT version FROM bz_schema'))[0]?.version : undefined;
    return { tables, bugColumns, schemaVersion: version === undefined ? undefined : Number(version).toFixed(2) };
  }

  static requiredTables(): readonly string[] {
    return TABLES_OF_5_0;
  }

  /** A whole small table (settings: groups, products, field values…), in primary key order. */
  async table(name: SmallTable): Promise<SourceRow[]> {
    return this.rows(SMALL_TABLES[name]);
  }

  /** The values of one select field (its own table, named as the field), in id order. */
  selectValues(field: string): Promise<SourceRow[]> {
    return this.rows(`SELECT * FROM ${mysql.escapeId(field)} ORDER BY id`);
  }

  /** When each user was created: the creation entry of profiles_activity. */
  userCreationTimes(): Promise<SourceRow[]> {
    return this.rows(
      "SELECT pa.userid, MIN(pa.profiles_when) AS created FROM profiles_activity pa JOIN fielddefs f ON f.id = pa.fieldid AND f.name = 'creation_ts' GROUP BY pa.userid",
    );
  }

  async counts(): Promise<Record<string, number>> {
    const [row] = await this.rows(
      'SELECT (SELECT COUNT(*) FROM profiles) AS users, (SELECT COUNT(*) FROM bugs) AS bugs, (SELECT COUNT(*) FROM longdescs) AS comments, ' +
        '(SELECT COUNT(*) FROM attachments) AS attachments, (SELECT COUNT(*) FROM bugs_activity) AS history, (SELECT COUNT(*) FROM flags) AS flags',
    );
    return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
  }

  /** The next page of bugs after `afterId` (custom columns included), at most `limit`. */
  bugsAfter(afterId: number, limit: number, customColumns: readonly string[]): Promise<SourceRow[]> {
    const columns = [...BUG_COLUMNS, ...customColumns].map((c) => mysql.escapeId(c)).join(', ');
    return this.rows(`SELECT ${columns} FROM bugs WHERE bug_id > ? ORDER BY bug_id LIMIT ?`, [afterId, limit]);
  }

  /** The rows of a table of bug relations of the given bugs (the relations named both ways: either bug). */
  bugRelations(name: BugTable, ids: readonly number[]): Promise<SourceRow[]> {
    const sql = BUG_TABLES[name];
    return this.rows(sql, sql.split('IN (?)').slice(1).map(() => ids));
  }

  /** A multi-select field's values of the given bugs (its table bug_<field>). */
  multiSelectValues(field: string, ids: readonly number[]): Promise<SourceRow[]> {
    return this.rows(`SELECT bug_id, value FROM ${mysql.escapeId(`bug_${field}`)} WHERE bug_id IN (?) ORDER BY bug_id, value`, [ids]);
  }

  /** The given bugs (custom columns included). */
  bugsByIds(ids: readonly number[], customColumns: readonly string[]): Promise<SourceRow[]> {
    const columns = [...BUG_COLUMNS, ...customColumns].map((c) => mysql.escapeId(c)).join(', ');
    return this.rows(`SELECT ${columns} FROM bugs WHERE bug_id IN (?) ORDER BY bug_id`, [ids]);
  }

  /** The source database's clock, read in the snapshot: what a later --since-last starts from. */
  async now(): Promise<string> {
    return String((await this.rows('SELECT NOW() AS now'))[0].now);
  }

  /** How far the source server's clock is ahead of UTC, in seconds (Bugzilla stores its server's local times). */
  async utcOffsetSeconds(): Promise<number> {
    return Number((await this.rows('SELECT TIMESTAMPDIFF(SECOND, UTC_TIMESTAMP(), NOW()) AS seconds'))[0].seconds);
  }

  /** The ids of the bugs changed at or after `since` (delta_ts moves with every change Bugzilla makes to a bug). */
  async bugIdsChangedSince(since: string): Promise<number[]> {
    return (await this.rows('SELECT bug_id FROM bugs WHERE delta_ts >= ? ORDER BY bug_id', [since])).map((r) => Number(r.bug_id));
  }

  /** Every bug id (a delta import deletes the bugs Bugzilla no longer has). */
  async allBugIds(): Promise<Set<number>> {
    return new Set((await this.rows('SELECT bug_id FROM bugs')).map((r) => Number(r.bug_id)));
  }

  /** The contents of the given attachments. */
  attachmentData(ids: readonly number[]): Promise<SourceRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.rows('SELECT id, thedata FROM attach_data WHERE id IN (?)', [ids]);
  }
}

const SMALL_TABLES = {
  profiles: 'SELECT userid, login_name, cryptpassword, realname, disabledtext, disable_mail, last_seen_date FROM profiles ORDER BY userid',
  user_api_keys: 'SELECT id, user_id, api_key, description, revoked, last_used FROM user_api_keys ORDER BY id',
  groups: 'SELECT id, name, description, isbuggroup, userregexp, isactive, icon_url FROM `groups` ORDER BY id',
  user_group_map: 'SELECT user_id, group_id, isbless, grant_type FROM user_group_map ORDER BY user_id, group_id',
  group_group_map: 'SELECT member_id, grantor_id, grant_type FROM group_group_map ORDER BY member_id, grantor_id',
  classifications: 'SELECT id, name, description, sortkey FROM classifications ORDER BY id',
  products: 'SELECT id, name, classification_id, description, isactive, defaultmilestone, allows_unconfirmed FROM products ORDER BY id',
  components: 'SELECT id, name, product_id, initialowner, initialqacontact, description, isactive FROM components ORDER BY id',
  component_cc: 'SELECT component_id, user_id FROM component_cc ORDER BY component_id, user_id',
  versions: 'SELECT id, value, product_id, isactive FROM versions ORDER BY id',
  milestones: 'SELECT id, value, product_id, sortkey, isactive FROM milestones ORDER BY id',
  group_control_map: 'SELECT group_id, product_id, entry, membercontrol, othercontrol, canedit, editcomponents, editbugs, canconfirm FROM group_control_map ORDER BY product_id, group_id',
  keyworddefs: 'SELECT id, name, description FROM keyworddefs ORDER BY id',
  fielddefs: 'SELECT id, name, type, custom, description, mailhead, sortkey, obsolete, enter_bug, buglist, visibility_field_id, value_field_id, reverse_desc, is_mandatory, is_numeric FROM fielddefs ORDER BY id',
  status_workflow: 'SELECT old_status, new_status, require_comment FROM status_workflow ORDER BY old_status, new_status',
  flagtypes: 'SELECT id, name, description, cc_list, target_type, is_active, is_requestable, is_requesteeble, is_multiplicable, sortkey, grant_group_id, request_group_id FROM flagtypes ORDER BY id',
  flaginclusions: 'SELECT type_id, product_id, component_id FROM flaginclusions ORDER BY type_id, product_id, component_id',
  flagexclusions: 'SELECT type_id, product_id, component_id FROM flagexclusions ORDER BY type_id, product_id, component_id',
  longdescs_tags_weights: 'SELECT tag, weight FROM longdescs_tags_weights ORDER BY tag',
  tag: 'SELECT id, name, user_id FROM tag ORDER BY id',
  namedqueries: 'SELECT id, userid, name, query FROM namedqueries ORDER BY id',
  reports: 'SELECT id, user_id, name, query FROM reports ORDER BY id',
} as const;
export type SmallTable = keyof typeof SMALL_TABLES;

const BUG_TABLES = {
  bugs_aliases: 'SELECT alias, bug_id FROM bugs_aliases WHERE bug_id IN (?) ORDER BY bug_id, alias',
  cc: 'SELECT bug_id, who FROM cc WHERE bug_id IN (?) ORDER BY bug_id, who',
  keywords: 'SELECT bug_id, keywordid FROM keywords WHERE bug_id IN (?) ORDER BY bug_id, keywordid',
  dependencies: 'SELECT blocked, dependson FROM dependencies WHERE blocked IN (?) ORDER BY blocked, dependson',
  dependencies_either_way: 'SELECT blocked, dependson FROM dependencies WHERE blocked IN (?) OR dependson IN (?) ORDER BY blocked, dependson',
  duplicates: 'SELECT dupe, dupe_of FROM duplicates WHERE dupe IN (?) ORDER BY dupe',
  duplicates_either_way: 'SELECT dupe, dupe_of FROM duplicates WHERE dupe IN (?) OR dupe_of IN (?) ORDER BY dupe',
  bug_see_also: 'SELECT id, bug_id, value FROM bug_see_also WHERE bug_id IN (?) ORDER BY id',
  bug_group_map: 'SELECT bug_id, group_id FROM bug_group_map WHERE bug_id IN (?) ORDER BY bug_id, group_id',
  longdescs: 'SELECT comment_id, bug_id, who, bug_when, work_time, thetext, isprivate, type, extra_data FROM longdescs WHERE bug_id IN (?) ORDER BY comment_id',
  longdescs_tags: 'SELECT t.id, t.comment_id, t.tag FROM longdescs_tags t JOIN longdescs c ON c.comment_id = t.comment_id WHERE c.bug_id IN (?) ORDER BY t.id',
  attachments: 'SELECT a.attach_id, a.bug_id, a.creation_ts, a.modification_time, a.description, a.mimetype, a.ispatch, a.filename, a.submitter_id, a.isobsolete, a.isprivate, ' +
    '(SELECT LENGTH(d.thedata) FROM attach_data d WHERE d.id = a.attach_id) AS size FROM attachments a WHERE a.bug_id IN (?) ORDER BY a.attach_id',
  flags: 'SELECT id, type_id, status, bug_id, attach_id, creation_date, modification_date, setter_id, requestee_id FROM flags WHERE bug_id IN (?) ORDER BY id',
  bugs_activity: 'SELECT a.id, a.bug_id, a.attach_id, a.who, a.bug_when, f.name AS field_name, a.added, a.removed, a.comment_id FROM bugs_activity a JOIN fielddefs f ON f.id = a.fieldid ' +
    'WHERE a.bug_id IN (?) ORDER BY a.id',
  bug_user_last_visit: 'SELECT id, user_id, bug_id, last_visit_ts FROM bug_user_last_visit WHERE bug_id IN (?) ORDER BY id',
  bug_tag: 'SELECT bug_id, tag_id FROM bug_tag WHERE bug_id IN (?) ORDER BY bug_id, tag_id',
} as const;
export type BugTable = keyof typeof BUG_TABLES;
