import { digestSecret, randomSecret } from '../common/credentials.js';
import { toDbDateTime } from '../common/time/datetime.js';
import { FieldType } from '../field/field-type.js';
import { CommentType } from '../bug/bug-comments.js';
import { commentText } from '../comment/comment.presenter.js';
import { PARAMETER_DEFINITIONS, PARAMETERS_BY_NAME, SITE_SECRET_PARAMETER } from '../params/parameter-definitions.js';
import { Attachment } from '../attachment/entities/attachment.entity.js';
import { AttachmentData } from '../attachment/entities/attachment-data.entity.js';
import { ApiKey } from '../auth/entities/api-key.entity.js';
import { Bug } from '../bug/entities/bug.entity.js';
import { BugActivity } from '../bug/entities/bug-activity.entity.js';
import { BugAlias } from '../bug/entities/bug-alias.entity.js';
import { BugCc } from '../bug/entities/bug-cc.entity.js';
import { BugCustomValue } from '../bug/entities/bug-custom-value.entity.js';
import { BugDependency } from '../bug/entities/bug-dependency.entity.js';
import { BugDuplicate } from '../bug/entities/bug-duplicate.entity.js';
import { BugGroup } from '../bug/entities/bug-group.entity.js';
import { BugKeyword } from '../bug/entities/bug-keyword.entity.js';
import { BugLastVisit } from '../bug/entities/bug-last-visit.entity.js';
import { BugSeeAlso } from '../bug/entities/bug-see-also.entity.js';
import { BugTag } from '../bug/entities/bug-tag.entity.js';
import { Tag } from '../bug/entities/tag.entity.js';
import { Comment } from '../comment/entities/comment.entity.js';
import { CommentTag } from '../comment/entities/comment-tag.entity.js';
import { CommentTagWeight } from '../comment/entities/comment-tag-weight.entity.js';
import { FieldDefinition } from '../field/entities/field-definition.entity.js';
import { FieldValue } from '../field/entities/field-value.entity.js';
import { Keyword } from '../field/entities/keyword.entity.js';
import { StatusTransition } from '../field/entities/status-transition.entity.js';
import { Flag } from '../flag/entities/flag.entity.js';
import { FlagExclusion } from '../flag/entities/flag-exclusion.entity.js';
import { FlagInclusion } from '../flag/entities/flag-inclusion.entity.js';
import { FlagType } from '../flag/entities/flag-type.entity.js';
import { Group } from '../group/entities/group.entity.js';
import { GroupGrant } from '../group/entities/group-grant.entity.js';
import { Membership } from '../group/entities/membership.entity.js';
import { Parameter } from '../params/entities/parameter.entity.js';
import { Classification } from '../product/entities/classification.entity.js';
import { Component } from '../product/entities/component.entity.js';
import { ComponentCc } from '../product/entities/component-cc.entity.js';
import { GroupControl } from '../product/entities/group-control.entity.js';
import { Milestone } from '../product/entities/milestone.entity.js';
import { Product } from '../product/entities/product.entity.js';
import { Version } from '../product/entities/version.entity.js';
import { SavedReport } from '../user/entities/saved-report.entity.js';
import { SavedSearch } from '../user/entities/saved-search.entity.js';
import { User } from '../user/entities/user.entity.js';
import { BugzillaSourceRepository, type SourceRow } from './bugzilla-source.repository.js';
import { IMPORTED_AT, IMPORTED_FROM, IMPORTED_LAST_BUG, ImportTargetRepository, type TargetState, type TargetWriter } from './import-target.repository.js';

/** Why an import refuses to run (the command line prints the message, exit code 1). */
export class ImportRefused extends Error {}

/** Thrown inside the transaction of a dry run, so that it rolls back. */
class DryRunDone extends Error {}

export interface ImportOptions {
  /** Bugzilla's database: mysql://user:pass@host/db (or mariadb://). */
  from: string;
  /** Tracker's database (DATABASE_URL). */
  to: string;
  /** Bugzilla's data/params.json, parsed. */
  params: Record<string, unknown>;
  /** Run the whole import, then roll it back: what would be imported, and whether it can be. */
  check?: boolean;
  /**
   * Continue an earlier import from the same Bugzilla: the settings written again, the bugs changed since (and a
   * minute before, for the changes Bugzilla was committing then) written again whole, the bugs Bugzilla no longer has
   * deleted. Refused once Tracker changed a bug itself.
   */
  sinceLast?: boolean;
  /** Bugs per page read from the source (bounded memory). */
  pageSize?: number;
  progress?: (stage: string, done: number, total: number) => void;
}

/** What an import wrote (or, with --check, would write): rows per kind, and what it left out. */
export interface ImportSummary {
  checked: boolean;
  sinceLast: boolean;
  counts: Record<string, number>;
  skippedParameters: string[];
  /** What the import could not do right and the operator should know. */
  warnings: string[];
  seconds: number;
}

const BUGS_PER_PAGE = 500;
/** What a delta import writes again whole: every table but the bugs' (and Tracker's own: audit, tokens, mail …). */
const SETTINGS = [
  User, ApiKey, Group, Membership, GroupGrant, FieldDefinition, FieldValue, StatusTransition, Keyword, CommentTagWeight, Classification,
  Product, Component, ComponentCc, Version, Milestone, GroupControl, FlagType, FlagInclusion, FlagExclusion, Parameter, Tag, SavedSearch,
  SavedReport,
];
const ATTACHMENTS_PER_READ = 20;
/** The select fields whose values are Tracker's field_values, besides the custom single and multi selects. */
const STANDARD_SELECTS = ['bug_status', 'resolution', 'priority', 'bug_severity', 'op_sys', 'rep_platform'];
/** The oldest creation time a user can have when profiles_activity does not say (Bugzilla 2.x accounts). */
const UNKNOWN_TIME = '1970-01-01 00:00:00';

const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const str = (v: unknown): string => (v === null || v === undefined ? '' : Buffer.isBuffer(v) ? v.toString('utf8') : String(v));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : str(v));
const bool = (v: unknown): boolean => Number(v) !== 0;

/**
 * Brings a Bugzilla 5.0.x installation into an empty or freshly installed Tracker database (docs/import.md): reads
 * the source in a read-only snapshot, page by page, and writes every row in one transaction of the target, ids kept.
 */
export async function importBugzilla(options: ImportOptions): Promise<ImportSummary> {
  const started = Date.now();
  const source = await BugzillaSourceRepository.open(options.from);
  try {
    await checkSource(source);
    const target = await ImportTargetRepository.open(options.to);
    try {
      const state = await target.state();
      const since = options.sinceLast ? continuedFrom(state, options.from) : undefined;
      if (!options.sinceLast) refuseUnlessFresh(state);
      const run = new ImportRun(source, options);
      try {
        const targetBugIds = since === undefined ? [] : await target.bugIds();
        await target.write(async (writer) => {
          if (since === undefined) await run.write(writer);
          else await run.writeDelta(writer, since, targetBugIds);
          if (options.check) throw new DryRunDone();
        });
      } catch (err) {
        if (!(err instanceof DryRunDone)) throw err;
      }
      const offset = await source.utcOffsetSeconds();
      const warnings = offset === 0 ? [] : [
        `Bugzilla's database server runs ${offset / 3600} h from UTC: its times were copied as they are and Tracker shows them as UTC (docs/import.md)`,
      ];
      return { checked: !!options.check, sinceLast: !!options.sinceLast, counts: run.counts, skippedParameters: run.skippedParameters, warnings, seconds: (Date.now() - started) / 1000 };
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

/** Refuses a target that holds anything but a fresh install, or an earlier import. */
function refuseUnlessFresh(state: TargetState): void {
  if (state.importedFrom !== undefined) throw new ImportRefused(`this database already holds an import (from ${state.importedFrom}): an import runs once, into an empty database (--since-last continues it)`);
  if (state.bugs > 0 || state.users > 1 || state.products > 1) {
    throw new ImportRefused(`the target database is in use (${state.users} users, ${state.bugs} bugs, ${state.products} products): import into an empty or freshly installed database`);
  }
}

/** Seconds before the last import's reading that --since-last reads again: changes Bugzilla was committing then. */
const DELTA_MARGIN_MS = 60_000;

/** Where --since-last starts, after checking that the target holds an import of this source that Tracker left alone. */
function continuedFrom(state: TargetState, from: string): string {
  if (state.importedFrom === undefined || state.importedAt === undefined) {
    throw new ImportRefused('this database holds no earlier import to continue: run import-bugzilla without --since-last first');
  }
  if (state.importedFrom !== redactedUrl(from)) throw new ImportRefused(`the earlier import came from ${state.importedFrom}, not from ${redactedUrl(from)}`);
  if (state.bugsOfTracker > 0) {
    throw new ImportRefused(`bugs were changed or filed in Tracker since the import (${state.bugsOfTracker}): --since-last would overwrite or delete them`);
  }
  return toDbDateTime(new Date(Date.parse(`${state.importedAt.replace(' ', 'T')}Z`) - DELTA_MARGIN_MS));
}

/** Refuses a source that is not Bugzilla 5.0's schema (bz_schema 3.00 with the tables 5.0 added). */
async function checkSource(source: BugzillaSourceRepository): Promise<void> {
  const { tables, bugColumns, schemaVersion } = await source.schema();
  if (!tables.has('bz_schema') || !tables.has('bugs') || !tables.has('profiles')) {
    throw new ImportRefused(`${source.database} is not a Bugzilla database (no bz_schema, bugs or profiles table)`);
  }
  const missing = BugzillaSourceRepository.requiredTables().filter((t) => !tables.has(t));
  if (schemaVersion !== '3.00' || missing.length || bugColumns.has('alias')) {
    throw new ImportRefused(
      `${source.database} is not a Bugzilla 5.0.x database (schema ${schemaVersion ?? 'unknown'}${missing.length ? `, without ${missing.join(', ')}` : ''}${bugColumns.has('alias') ? ', bugs.alias still present' : ''}): ` +
        'upgrade it with Bugzilla 5.0\'s checksetup.pl first',
    );
  }
  if (tables.has('profile_mfa') || tables.has('oauth2_client')) {
    throw new ImportRefused(`${source.database} is a later Bugzilla than 5.0.x (harmony/BMO tables): only 5.0.x is supported`);
  }
}

class ImportRun {
  readonly counts: Record<string, number> = {};
  readonly skippedParameters: string[] = [];
  /** Bugzilla's value ids of each select field → Tracker's field_values ids. */
  private readonly valueIds = new Map<string, Map<number, number>>();
  private customFields: Array<{ id: number; name: string; type: number }> = [];

  constructor(private readonly source: BugzillaSourceRepository, private readonly options: ImportOptions) {}

  private count(kind: string, n: number): void {
    this.counts[kind] = (this.counts[kind] ?? 0) + n;
  }

  private async put<T extends object>(writer: TargetWriter, kind: string, entity: new () => T, rows: ReadonlyArray<Partial<T>>, large = false): Promise<void> {
    await writer.insert(entity, rows, { large });
    this.count(kind, rows.length);
  }

  private get progress(): (stage: string, done: number, total: number) => void {
    return this.options.progress ?? (() => undefined);
  }

  async write(writer: TargetWriter): Promise<void> {
    await writer.clearInstall();
    await this.writeSettings(writer);
    await this.writeLastBug(writer, await this.writeBugs(writer));
  }

  private async writeLastBug(writer: TargetWriter, lastBugId: number): Promise<void> {
    await writer.insert(Parameter, [{ name: IMPORTED_LAST_BUG, value: String(lastBugId) }]);
  }

  /** --since-last: the settings again, the bugs Bugzilla no longer has deleted, the bugs changed since written again. */
  async writeDelta(writer: TargetWriter, since: string, targetBugIds: readonly number[]): Promise<void> {
    await writer.clear(SETTINGS);
    await this.writeSettings(writer);
    const kept = await this.source.allBugIds();
    const gone = targetBugIds.filter((id) => !kept.has(id));
    await writer.deleteBugs(gone);
    this.count('bugs deleted', gone.length);
    let lastBugId = 0;
    for (const id of kept) lastBugId = Math.max(lastBugId, id);
    await this.writeLastBug(writer, lastBugId);
    const changed = await this.source.bugIdsChangedSince(since);
    const pageSize = this.options.pageSize ?? BUGS_PER_PAGE;
    this.progress('bugs', 0, changed.length);
    for (let i = 0; i < changed.length; i += pageSize) {
      const ids = changed.slice(i, i + pageSize);
      await writer.deleteBugs(ids);
      await this.writeBugPage(writer, await this.source.bugsByIds(ids, this.columnFields().map((f) => f.name)), ids, true);
      this.progress('bugs', Math.min(i + pageSize, changed.length), changed.length);
    }
  }

  /** Everything but the bugs (users, groups, fields, products, flag types, parameters, personal tags, saved searches). */
  private async writeSettings(writer: TargetWriter): Promise<void> {
    const importedAt = await this.source.now();
    this.progress('settings', 0, 1);
    await this.writeAccounts(writer);
    await this.writeFields(writer);
    await this.writeProducts(writer);
    await this.writeParameters(writer, importedAt);
    await this.writeUserQueries(writer);
    this.progress('settings', 1, 1);
  }

  /** The custom fields kept in a column of `bugs`. */
  private columnFields(): Array<{ id: number; name: string; type: number }> {
    return this.customFields.filter((f) => this.isColumnField(f.type));
  }

  private async writeAccounts(writer: TargetWriter): Promise<void> {
    const created = new Map((await this.source.userCreationTimes()).map((r) => [num(r.userid), str(r.created)]));
    const profiles = await this.source.table('profiles');
    await this.put(writer, 'users', User, profiles.map((r) => ({
      id: num(r.userid),
      loginName: str(r.login_name),
      email: str(r.login_name),
      realname: str(r.realname),
      cryptpassword: strOrNull(r.cryptpassword),
      loginDeniedText: str(r.disabledtext),
      emailEnabled: !bool(r.disable_mail),
      creationTs: created.get(num(r.userid)) ?? UNKNOWN_TIME,
      lastSeenDate: strOrNull(r.last_seen_date),
    })));
    const keys = await this.source.table('user_api_keys');
    await this.put(writer, 'API keys', ApiKey, keys.map((r) => ({
      id: num(r.id),
      userId: num(r.user_id),
      keyHash: digestSecret(str(r.api_key)),
      description: str(r.description),
      revoked: bool(r.revoked),
      // Bugzilla does not record when a key was made; its last use is the earliest time known.
      creationTs: strOrNull(r.last_used) ?? toDbDateTime(new Date()),
      lastUsed: strOrNull(r.last_used),
    })));
    await this.put(writer, 'groups', Group, (await this.source.table('groups')).map((r) => ({
      id: num(r.id),
      name: str(r.name),
      description: str(r.description),
      isBugGroup: bool(r.isbuggroup),
      userRegexp: str(r.userregexp),
      isActive: bool(r.isactive),
      iconUrl: strOrNull(r.icon_url),
    })));
    await this.put(writer, 'group memberships', Membership, (await this.source.table('user_group_map')).map((r) => ({
      userId: num(r.user_id), groupId: num(r.group_id), isBless: num(r.isbless), grantType: num(r.grant_type),
    })));
    await this.put(writer, 'group grants', GroupGrant, (await this.source.table('group_group_map')).map((r) => ({
      memberId: num(r.member_id), grantorId: num(r.grantor_id), grantType: num(r.grant_type),
    })));
  }

  private async writeFields(writer: TargetWriter): Promise<void> {
    const fields = await this.source.table('fielddefs');
    await this.put(writer, 'fields', FieldDefinition, fields.map((r) => ({
      id: num(r.id),
      name: str(r.name),
      description: str(r.description),
      type: num(r.type),
      custom: bool(r.custom),
      obsolete: bool(r.obsolete),
      mailhead: bool(r.mailhead),
      sortkey: num(r.sortkey),
      enterBug: bool(r.enter_bug),
      buglist: bool(r.buglist),
      isMandatory: bool(r.is_mandatory),
      isNumeric: bool(r.is_numeric),
      visibilityFieldId: numOrNull(r.visibility_field_id),
      valueFieldId: numOrNull(r.value_field_id),
      reverseDesc: strOrNull(r.reverse_desc),
    })));
    this.customFields = fields.filter((r) => bool(r.custom)).map((r) => ({ id: num(r.id), name: str(r.name), type: num(r.type) }));
    const selects = fields.filter((r) => STANDARD_SELECTS.includes(str(r.name)) || (bool(r.custom) && [FieldType.SINGLE_SELECT, FieldType.MULTI_SELECT].includes(num(r.type) as 2 | 3)));
    const fieldIdOf = new Map(fields.map((r) => [num(r.id), str(r.name)]));
    let nextId = 1;
    const values: Array<Partial<FieldValue> & { visibilityOf?: { field: string; id: number } }> = [];
    for (const field of selects) {
      const ids = new Map<number, number>();
      this.valueIds.set(str(field.name), ids);
      for (const r of await this.source.selectValues(str(field.name))) {
        const id = nextId++;
        ids.set(num(r.id), id);
        const valueField = numOrNull(field.value_field_id);
        values.push({
          id,
          fieldId: num(field.id),
          value: str(r.value),
          sortkey: num(r.sortkey),
          isActive: bool(r.isactive),
          isOpen: 'is_open' in r ? numOrNull(r.is_open) : null,
          visibilityOf: r.visibility_value_id != null && valueField !== null ? { field: fieldIdOf.get(valueField) ?? '', id: num(r.visibility_value_id) } : undefined,
        });
      }
    }
    await this.put(writer, 'field values', FieldValue, values.map(({ visibilityOf, ...value }) => ({
      ...value,
      visibilityValueId: visibilityOf ? this.valueIds.get(visibilityOf.field)?.get(visibilityOf.id) ?? null : null,
    })));
    const statuses = this.valueIds.get('bug_status') ?? new Map<number, number>();
    await this.put(writer, 'workflow transitions', StatusTransition, (await this.source.table('status_workflow')).map((r) => ({
      fromStatusId: r.old_status == null ? null : statuses.get(num(r.old_status)) ?? null,
      toStatusId: statuses.get(num(r.new_status))!,
      requireComment: bool(r.require_comment),
    })));
    await this.put(writer, 'keywords', Keyword, (await this.source.table('keyworddefs')).map((r) => ({
      id: num(r.id), name: str(r.name), description: str(r.description), isActive: true,
    })));
    await this.put(writer, 'comment tag weights', CommentTagWeight, (await this.source.table('longdescs_tags_weights')).map((r) => ({
      tag: str(r.tag), weight: num(r.weight),
    })));
  }

  private async writeProducts(writer: TargetWriter): Promise<void> {
    await this.put(writer, 'classifications', Classification, (await this.source.table('classifications')).map((r) => ({
      id: num(r.id), name: str(r.name), description: str(r.description), sortkey: num(r.sortkey),
    })));
    await this.put(writer, 'products', Product, (await this.source.table('products')).map((r) => ({
      id: num(r.id),
      name: str(r.name),
      classificationId: num(r.classification_id),
      description: str(r.description),
      isActive: bool(r.isactive),
      defaultMilestone: str(r.defaultmilestone),
      hasUnconfirmed: bool(r.allows_unconfirmed),
    })));
    await this.put(writer, 'components', Component, (await this.source.table('components')).map((r) => ({
      id: num(r.id),
      name: str(r.name),
      productId: num(r.product_id),
      defaultAssigneeId: num(r.initialowner),
      defaultQaContactId: numOrNull(r.initialqacontact),
      description: str(r.description),
      isActive: bool(r.isactive),
    })));
    await this.put(writer, 'component CC', ComponentCc, (await this.source.table('component_cc')).map((r) => ({
      componentId: num(r.component_id), userId: num(r.user_id),
    })));
    await this.put(writer, 'versions', Version, (await this.source.table('versions')).map((r) => ({
      id: num(r.id), value: str(r.value), productId: num(r.product_id), isActive: bool(r.isactive),
    })));
    await this.put(writer, 'milestones', Milestone, (await this.source.table('milestones')).map((r) => ({
      id: num(r.id), value: str(r.value), productId: num(r.product_id), sortkey: num(r.sortkey), isActive: bool(r.isactive),
    })));
    await this.put(writer, 'group controls', GroupControl, (await this.source.table('group_control_map')).map((r) => ({
      productId: num(r.product_id),
      groupId: num(r.group_id),
      entry: bool(r.entry),
      membercontrol: num(r.membercontrol),
      othercontrol: num(r.othercontrol),
      canedit: bool(r.canedit),
      editcomponents: bool(r.editcomponents),
      editbugs: bool(r.editbugs),
      canconfirm: bool(r.canconfirm),
    })));
    await this.put(writer, 'flag types', FlagType, (await this.source.table('flagtypes')).map((r) => ({
      id: num(r.id),
      name: str(r.name),
      description: str(r.description),
      ccList: str(r.cc_list),
      targetType: str(r.target_type) === 'a' ? 'attachment' : 'bug',
      isActive: bool(r.is_active),
      isRequestable: bool(r.is_requestable),
      isRequesteeble: bool(r.is_requesteeble),
      isMultiplicable: bool(r.is_multiplicable),
      sortkey: num(r.sortkey),
      grantGroupId: numOrNull(r.grant_group_id),
      requestGroupId: numOrNull(r.request_group_id),
    })));
    const scope = (r: SourceRow) => ({ typeId: num(r.type_id), productId: numOrNull(r.product_id), componentId: numOrNull(r.component_id) });
    await this.put(writer, 'flag inclusions', FlagInclusion, (await this.source.table('flaginclusions')).map(scope));
    await this.put(writer, 'flag exclusions', FlagExclusion, (await this.source.table('flagexclusions')).map(scope));
  }

  /**
   * The parameters Tracker knows: Bugzilla's value where params.json has one, Tracker's default otherwise. The site
   * secret (the key of update_token) is in Bugzilla's localconfig, not in params.json: a new one unless the file was
   * given it.
   */
  private async writeParameters(writer: TargetWriter, importedAt: string): Promise<void> {
    const values = new Map(PARAMETER_DEFINITIONS.map((d) => [d.name, d.default]));
    values.set(SITE_SECRET_PARAMETER, randomSecret(48));
    for (const [name, value] of Object.entries(this.options.params)) {
      if (!PARAMETERS_BY_NAME.has(name) && name !== SITE_SECRET_PARAMETER) {
        this.skippedParameters.push(name);
        continue;
      }
      values.set(name, typeof value === 'string' ? value : JSON.stringify(value));
    }
    values.set(IMPORTED_FROM, redactedUrl(this.options.from));
    values.set(IMPORTED_AT, importedAt);
    await this.put(writer, 'parameters', Parameter, [...values].map(([name, value]) => ({ name, value })));
  }

  /** Every bug, page by page; answers the highest id. */
  private async writeBugs(writer: TargetWriter): Promise<number> {
    const total = (await this.source.counts()).bugs;
    const pageSize = this.options.pageSize ?? BUGS_PER_PAGE;
    let after = 0;
    let done = 0;
    this.progress('bugs', 0, total);
    for (;;) {
      const bugs = await this.source.bugsAfter(after, pageSize, this.columnFields().map((f) => f.name));
      if (!bugs.length) break;
      const ids = bugs.map((r) => num(r.bug_id));
      await this.writeBugPage(writer, bugs, ids, false);
      after = ids[ids.length - 1];
      done += bugs.length;
      this.progress('bugs', done, total);
    }
    return after;
  }

  /** Custom fields kept in a column of `bugs` (multi-selects have a table of their own). */
  private isColumnField(type: number): boolean {
    return type !== FieldType.MULTI_SELECT && type !== FieldType.UNKNOWN && type !== FieldType.KEYWORDS && type !== FieldType.BUG_URLS;
  }

  /**
   * One page of bugs with everything that is theirs. `eitherWay` (a delta import): dependencies and duplicates are
   * read by either of their bugs, as the target's rows were deleted.
   */
  private async writeBugPage(writer: TargetWriter, bugs: SourceRow[], ids: readonly number[], eitherWay: boolean): Promise<void> {
    const rel = (name: Parameters<BugzillaSourceRepository['bugRelations']>[0]) => this.source.bugRelations(name, ids);
    const singleColumns = this.columnFields();
    const multi = this.customFields.filter((f) => f.type === FieldType.MULTI_SELECT);
    await this.put(writer, 'bugs', Bug, bugs.map((r) => ({
      id: num(r.bug_id),
      summary: str(r.short_desc),
      status: str(r.bug_status),
      resolution: str(r.resolution),
      productId: num(r.product_id),
      componentId: num(r.component_id),
      version: str(r.version),
      targetMilestone: str(r.target_milestone),
      opSys: str(r.op_sys),
      platform: str(r.rep_platform),
      priority: str(r.priority),
      severity: str(r.bug_severity),
      reporterId: num(r.reporter),
      assignedToId: num(r.assigned_to),
      qaContactId: numOrNull(r.qa_contact),
      url: str(r.bug_file_loc),
      whiteboard: str(r.status_whiteboard),
      isConfirmed: bool(r.everconfirmed),
      isCreatorAccessible: bool(r.reporter_accessible),
      isCcAccessible: bool(r.cclist_accessible),
      estimatedTime: Number(r.estimated_time),
      remainingTime: Number(r.remaining_time),
      deadline: r.deadline == null ? null : str(r.deadline).slice(0, 10),
      creationTime: str(r.creation_ts ?? r.delta_ts),
      lastChangeTime: str(r.delta_ts),
    })));
    const custom: Array<Partial<BugCustomValue>> = [];
    for (const r of bugs) {
      for (const field of singleColumns) {
        const value = r[field.name];
        if (value === null || value === undefined || value === '') continue;
        if (field.type === FieldType.SINGLE_SELECT && value === '---') continue;
        custom.push({ bugId: num(r.bug_id), fieldId: field.id, value: str(value) });
      }
    }
    for (const field of multi) {
      for (const r of await this.source.multiSelectValues(field.name, ids)) custom.push({ bugId: num(r.bug_id), fieldId: field.id, value: str(r.value) });
    }
    await this.put(writer, 'custom field values', BugCustomValue, custom);
    await this.put(writer, 'aliases', BugAlias, (await rel('bugs_aliases')).map((r) => ({ alias: str(r.alias), bugId: num(r.bug_id) })));
    await this.put(writer, 'CC', BugCc, (await rel('cc')).map((r) => ({ bugId: num(r.bug_id), userId: num(r.who) })));
    await this.put(writer, 'bug keywords', BugKeyword, (await rel('keywords')).map((r) => ({ bugId: num(r.bug_id), keywordId: num(r.keywordid) })));
    await this.put(writer, 'dependencies', BugDependency, (await rel(eitherWay ? 'dependencies_either_way' : 'dependencies')).map((r) => ({ blockedId: num(r.blocked), dependsOnId: num(r.dependson) })));
    await this.put(writer, 'duplicates', BugDuplicate, (await rel(eitherWay ? 'duplicates_either_way' : 'duplicates')).map((r) => ({ dupeId: num(r.dupe), dupeOfId: num(r.dupe_of) })));
    await this.put(writer, 'see also', BugSeeAlso, (await rel('bug_see_also')).map((r) => ({ id: num(r.id), bugId: num(r.bug_id), url: str(r.value) })));
    await this.put(writer, 'bug groups', BugGroup, (await rel('bug_group_map')).map((r) => ({ bugId: num(r.bug_id), groupId: num(r.group_id) })));
    const attachments = await rel('attachments');
    await this.put(writer, 'attachments', Attachment, attachments.map((r) => ({
      id: num(r.attach_id),
      bugId: num(r.bug_id),
      creationTime: str(r.creation_ts),
      lastChangeTime: str(r.modification_time),
      summary: str(r.description),
      contentType: str(r.mimetype),
      isPatch: bool(r.ispatch),
      fileName: str(r.filename),
      creatorId: num(r.submitter_id),
      isObsolete: bool(r.isobsolete),
      isPrivate: bool(r.isprivate),
      size: Number(r.size ?? 0),
    })));
    const descriptions = new Map(attachments.map((r) => [num(r.attach_id), str(r.description)]));
    await this.put(writer, 'comments', Comment, (await rel('longdescs')).map((r) => importedComment(r, descriptions)));
    await this.put(writer, 'comment tags', CommentTag, (await rel('longdescs_tags')).map((r) => ({ id: num(r.id), commentId: num(r.comment_id), tag: str(r.tag) })));
    for (let i = 0; i < attachments.length; i += ATTACHMENTS_PER_READ) {
      const data = await this.source.attachmentData(attachments.slice(i, i + ATTACHMENTS_PER_READ).map((r) => num(r.attach_id)));
      await this.put(writer, 'attachment contents', AttachmentData, data.map((r) => ({ attachmentId: num(r.id), data: r.thedata as Buffer })), true);
    }
    await this.put(writer, 'flags', Flag, (await rel('flags')).map((r) => ({
      id: num(r.id),
      typeId: num(r.type_id),
      status: str(r.status),
      bugId: num(r.bug_id),
      attachmentId: numOrNull(r.attach_id),
      creationDate: str(r.creation_date),
      modificationDate: str(r.modification_date),
      setterId: num(r.setter_id),
      requesteeId: numOrNull(r.requestee_id),
    })));
    await this.put(writer, 'history entries', BugActivity, (await rel('bugs_activity')).map((r) => ({
      id: num(r.id),
      bugId: num(r.bug_id),
      attachmentId: numOrNull(r.attach_id),
      commentId: numOrNull(r.comment_id),
      userId: num(r.who),
      changedAt: str(r.bug_when),
      fieldName: str(r.field_name),
      removed: str(r.removed),
      added: str(r.added),
    })));
    await this.put(writer, 'last visits', BugLastVisit, (await rel('bug_user_last_visit')).map((r) => ({
      id: num(r.id), userId: num(r.user_id), bugId: num(r.bug_id), lastVisitTs: str(r.last_visit_ts),
    })));
    await this.put(writer, 'personal tags on bugs', BugTag, (await rel('bug_tag')).map((r) => ({ bugId: num(r.bug_id), tagId: num(r.tag_id) })));
  }

  private async writeUserQueries(writer: TargetWriter): Promise<void> {
    await this.put(writer, 'personal tags', Tag, (await this.source.table('tag')).map((r) => ({ id: num(r.id), userId: num(r.user_id), name: str(r.name) })));
    await this.put(writer, 'saved searches', SavedSearch, (await this.source.table('namedqueries')).map((r) => ({
      id: num(r.id), userId: num(r.userid), name: str(r.name), query: str(r.query),
    })));
    await this.put(writer, 'saved reports', SavedReport, (await this.source.table('reports')).map((r) => ({
      id: num(r.id), userId: num(r.user_id), name: str(r.name), query: str(r.query),
    })));
  }
}

/** Bugzilla's comment types (Bugzilla::Constants CMT_*): its 1 and 2 are Tracker's 2 and 1. */
const BZ_DUPE_OF = 1;
const BZ_HAS_DUPE = 2;
const TRACKER_TYPE: Readonly<Record<number, number>> = {
  [BZ_DUPE_OF]: CommentType.DUPE_OF,
  [BZ_HAS_DUPE]: CommentType.HAS_DUPE,
  [CommentType.ATTACHMENT_CREATED]: CommentType.ATTACHMENT_CREATED,
  [CommentType.ATTACHMENT_UPDATED]: CommentType.ATTACHMENT_UPDATED,
};

/** A comment's text as Bugzilla 5.0 shows it (Bugzilla::Comment::body_full), the attachment's description included. */
export function bugzillaCommentText(type: number, body: string, extra: string | null, description: string | undefined): string {
  const after = body === '' ? '' : `\n\n${body}`;
  switch (type) {
    case BZ_DUPE_OF:
      return `${body}\n\n*** This bug has been marked as a duplicate of bug ${extra} ***`;
    case BZ_HAS_DUPE:
      return `*** Bug ${extra} has been marked as a duplicate of this bug. ***${after}`;
    case CommentType.ATTACHMENT_CREATED:
      return `Created attachment ${extra}\n${description ?? ''}${after}`;
    case CommentType.ATTACHMENT_UPDATED:
      return `Comment on attachment ${extra}\n${description ?? ''}${after}`;
    default:
      return body;
  }
}

/**
 * A comment row for Tracker. A comment of a special type keeps its type when Tracker shows it as Bugzilla did;
 * otherwise (Bugzilla adds the attachment's description after "Created attachment N", and a line break before a
 * duplicate notice on an empty comment) it becomes a normal comment with the text Bugzilla showed: the text stays
 * exactly as it was, and the attachment it names stays linked (attachment_id).
 */
function importedComment(r: SourceRow, descriptions: ReadonlyMap<number, string>): Partial<Comment> {
  const bzType = num(r.type);
  const extraData = strOrNull(r.extra_data);
  const body = str(r.thetext);
  const attached = bzType === CommentType.ATTACHMENT_CREATED || bzType === CommentType.ATTACHMENT_UPDATED;
  const attachmentId = attached && extraData !== null ? Number(extraData) : null;
  const shown = bugzillaCommentText(bzType, body, extraData, attachmentId === null ? undefined : descriptions.get(attachmentId));
  const type = TRACKER_TYPE[bzType] ?? CommentType.NORMAL;
  const typed = type !== CommentType.NORMAL && commentText({ type, text: body, extraData }) === shown;
  return {
    id: num(r.comment_id),
    bugId: num(r.bug_id),
    userId: num(r.who),
    creationTime: str(r.bug_when),
    text: typed ? body : shown,
    workTime: Number(r.work_time),
    isPrivate: bool(r.isprivate),
    type: typed ? type : CommentType.NORMAL,
    extraData: typed ? extraData : null,
    attachmentId,
  };
}

/** The source's URL without its password (kept in the target, printed). */
export function redactedUrl(url: string): string {
  const location = new URL(url);
  if (location.password) location.password = '***';
  return location.toString();
}
