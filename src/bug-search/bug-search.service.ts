import { Inject, Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { SqlValue, ReadSql } from '../database/sql.js';
import type { Caller } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { parseDateInput, toApiDate, toDbDateTime } from '../common/time/datetime.js';
import { ProductService, type ComponentRecord, type ProductRecord } from '../product/product.service.js';
import { UserService } from '../user/user.service.js';
import { FieldService } from '../field/field.service.js';
import { GroupService } from '../group/group.service.js';
import { FlagSearchService } from '../flag/flag-search.service.js';
import { BugVisibilityService } from '../bug/bug-visibility.service.js';
import { BugService, type ReadContext } from '../bug/bug.service.js';
import { BUG_CRITERIA, type BugCriteria, type BugIdColumn, type SearchWindow, type SqlCondition } from '../bug/bug.types.js';
import type { RawJson } from '../common/http/raw-json.js';
import { BUG_ATTACHMENT_SEARCH, BUG_COMMENT_SEARCH, type BugAttachmentSearch, type BugCommentSearch, type ColumnMatcher } from './bug-search-sources.js';
import type { BugSearchInput } from './dto/bug-search.dto.js';
import { idsMatcher, matcher } from './search-matchers.js';
import type { RequestParams } from '../common/http/request-params.js';
import { hasTerms, matchesText, testOf, type BaseTest, type Criterion, type Test } from './search-criteria.js';
import { activityNames, BMO_SEARCH_FIELDS, fieldOf, type SearchField, type ValueType } from './search-fields.js';
import { searchCriteria, sortKeys } from './search-request.js';
import { quicksearch } from './quicksearch.js';
import { SITE_SECRET_PARAMETER } from '../params/parameter-definitions.js';
import { searchCursorOf, searchCursorPosition, searchDigest } from './search-cursor.js';

/**
 * What a search answers: a page of ids (with the number of all matches when asked, the cursor of the next page when
 * there is one and the request paged, and whether max_search_results cut it), or only that number.
 */
export type SearchOutcome = { ids: number[]; total?: number; next?: string; truncated?: boolean } | { count: number };

const FALSE: SqlCondition = { sql: '1 = 0', params: [] };
const ANY_ROW: ColumnMatcher = () => ({ sql: '1 = 1', params: [] });
const USER_COLUMNS: Partial<Record<string, BugIdColumn>> = { assigned_to: 'assigned_to_id', reporter: 'reporter_id', qa_contact: 'qa_contact_id' };

const DUPLICATES_FUNCTION = 'Bug.possible_duplicates';
/** BMO's MAX_POSSIBLE_DUPLICATES: the most bugs an answer holds, whatever `limit` asks. */
const MAX_POSSIBLE_DUPLICATES = 25;
/** The parameters BMO's Bug.possible_duplicates takes (its strict Dict): any other is param_invalid. */
const DUPLICATES_PARAMETERS = new Set(['id', 'summary', 'product', 'limit']);

/** A summary's words as BMO takes them: split at white space, punctuation trimmed off each end, over 2 characters. */
function summaryWords(summary: string): string[] {
  return summary.split(/\s+/u).map((word) => word.replace(/^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu, '')).filter((word) => word.length > 2);
}

/**
 * Search Bugs (`GET /rest/bug`, search.md): every criterion of the spec's table, its aliases, the advanced-search
 * charts and quicksearch become one criteria tree, compiled into one WHERE with the visibility rule, so a caller
 * never sees, counts or pages over a bug they may not see. Names of other modules' things (products, components,
 * classifications, users, keywords, groups) are resolved to ids through their services; comment, attachment and
 * flag criteria come from the modules owning those tables. Private comments and attachments never match for
 * outsiders; time-tracking fields never match for non-time-trackers. BMO's Possible Duplicates is a ranked search
 * of summaries under the same visibility rule.
 */
@Injectable()
export class BugSearchService {
  constructor(
    private readonly db: Db,
    private readonly visibility: BugVisibilityService,
    private readonly bugs: BugService,
    @Inject(BUG_CRITERIA) private readonly criteria: BugCriteria,
    private readonly products: ProductService,
    private readonly users: UserService,
    private readonly fields: FieldService,
    private readonly groups: GroupService,
    private readonly flags: FlagSearchService,
    @Inject(BUG_COMMENT_SEARCH) private readonly comments: BugCommentSearch,
    @Inject(BUG_ATTACHMENT_SEARCH) private readonly attachments: BugAttachmentSearch,
  ) {}

  /**
   * Search Bugs' answer: `{bug_count}` with count_only, else the page of bugs as BugService presents it (with
   * `total_matches` when asked); hidden and unknown bugs are silently absent.
   */
  async answer(ctx: ReadContext, input: BugSearchInput, params: Readonly<Record<string, unknown>>): Promise<{ answer: Record<string, unknown> | RawJson; next?: string; truncated?: boolean }> {
    const outcome = await this.search(ctx.caller, input, params);
    if ('count' in outcome) return { answer: { bug_count: outcome.count } };
    const { next, truncated } = outcome;
    return { answer: await this.bugs.searchPage(ctx, outcome.ids, { total_matches: outcome.total, next, truncated }), next, truncated };
  }

  /** Runs a search: `params` are the request's parameters (the criteria), `input` the typed steering ones. */
  async search(caller: Caller, input: BugSearchInput, params: Readonly<Record<string, unknown>>): Promise<SearchOutcome> {
    const sql = this.db.read;
    const customFields = await this.fields.catalogueAt(caller.settingsMark).customFields();
    const customNames = new Set(customFields.map((f) => f.name));
    const namedFields = caller.parameters.bool('bmo_bug_fields') ? new Set([...customNames, ...BMO_SEARCH_FIELDS]) : customNames;
    // Every parameter is checked, also beside a quicksearch (which then replaces the other criteria).
    let criterion = searchCriteria(params, namedFields);
    if (input.quicksearch !== undefined) criterion = quicksearch(input.quicksearch, await this.quicksearchCatalogue(namedFields));
    const window = this.window(caller, input);
    if (!hasTerms(criterion) && !caller.parameters.bool('search_allow_no_criteria')) throw TrackerError.of(Errors.BUGLIST_PARAMETERS_REQUIRED);
    const order = sortKeys(input.order, namedFields);
    if (!caller.isTimeTracker) {
      const hidden = order.find((k) => k.time);
      if (hidden) throw TrackerError.of(Errors.INVALID_FIELD_NAME, { field: hidden.name });
    }

    const compiler = new Compiler(sql, caller, this.sources(), new Map(customFields.map((f) => [f.name, f.id])));
    const matched = await compiler.compile(criterion);
    const visible = this.visibility.predicate(caller);
    const where = { sql: `${matched.sql} AND ${visible.sql}`, params: [...matched.params, ...visible.params] };
    if (input.count_only) return { count: await this.criteria.count(sql, where) };
    const secret = caller.parameters.get(SITE_SECRET_PARAMETER);
    const search = searchDigest(where, order);
    if (input.cursor !== undefined) {
      const after = searchCursorPosition(input.cursor, search, secret);
      if (!after) throw TrackerError.of(Errors.CURSOR_INVALID, { param: 'Search Bugs' });
      window.after = after;
      window.offset = 0;
    }
    // One row past the page says whether there is a next one.
    const found = await this.criteria.findIds(sql, where, order, { ...window, limit: window.limit + 1 });
    const page = found.slice(0, window.limit);
    const more = found.length > window.limit;
    const paging = {
      ...(more && (window.paged || window.capped) ? { next: searchCursorOf(page[page.length - 1], search, secret) } : {}),
      ...(more && window.capped ? { truncated: true } : {}),
    };
    const ids = page.map((bug) => bug.id);
    if (!input.total_matches) return { ids, ...paging };
    // A short first page is all there is: no second query needed.
    const total = window.offset === 0 && !window.after && !more ? ids.length : await this.criteria.count(sql, where);
    return { ids, total, ...paging };
  }

  /**
   * limit/offset of search.md: capped by max_search_results; 0 (or none) means "all", still capped; offset needs limit
   * (50). `capped`: the cap, not the client's limit, bounds the page; `paged`: the client asked for pages.
   */
  private window(caller: Caller, { limit, offset, cursor }: BugSearchInput): SearchWindow & { capped: boolean; paged: boolean } {
    const max = caller.parameters.int('max_search_results') || 10000;
    if (offset !== undefined && limit === undefined) throw TrackerError.of(Errors.PARAM_REQUIRED, { function: 'Bug.search', param: 'limit' });
    const paged = cursor !== undefined || (limit !== undefined && limit > 0);
    if (limit === undefined || limit <= 0) return { limit: max, offset: limit === 0 ? 0 : Math.max(offset ?? 0, 0), capped: true, paged };
    return { limit: Math.min(limit, max), offset: Math.max(offset ?? 0, 0), capped: limit > max, paged };
  }

  /**
   * BMO's Possible Duplicates (`GET /rest/bug/possible_duplicates`, beyond Bugzilla 5.0): the bugs whose summaries
   * share most words with `summary` (or with bug `id`'s summary, that bug left out), newest first among equals, in the
   * caller's enterable `product`s if named; a duplicate counts as the bug it ultimately duplicates. A caller never
   * sees a bug they may not see: the visibility rule is in the statement, and a duplicate's hidden original is left
   * out. Bugs are presented as Get Bug presents them, update_token included (include_fields as Get Bug).
   */
  async possibleDuplicates(ctx: ReadContext, params: RequestParams): Promise<RawJson> {
    const { caller } = ctx;
    const unknown = [...Object.keys(params.data()), ...(params.has('exclude_fields') ? ['exclude_fields'] : [])].find((key) => !DUPLICATES_PARAMETERS.has(key));
    if (unknown !== undefined) throw TrackerError.of(Errors.PARAM_INVALID, { function: DUPLICATES_FUNCTION, param: unknown });
    const id = params.int('id');
    const limit = params.int('limit');
    if (limit !== undefined && limit < 0) throw TrackerError.of(Errors.PARAM_MUST_BE_NUMERIC, { function: DUPLICATES_FUNCTION, param: 'limit' });
    const sql = this.db.read;
    let summary = params.string('summary');
    if (id) {
      await this.visibility.resolveVisible(caller, [String(id)], sql);
      summary = await this.criteria.summaryOf(sql, id);
    }
    if (!summary) throw TrackerError.of(Errors.PARAM_REQUIRED, { function: DUPLICATES_FUNCTION, param: 'id or summary' });
    const productIds = await this.enterableProductIds(ctx, params.list('product'));
    const words = summaryWords(summary);
    const max = !limit || limit > MAX_POSSIBLE_DUPLICATES ? MAX_POSSIBLE_DUPLICATES : limit;
    const ids = words.length ? await this.rankedIds(ctx, words, productIds, max) : [];
    return this.bugs.searchPage(ctx, ids.filter((found) => found !== id), {}, true);
  }

  /** The ranked matches, each duplicate replaced by its ultimate original, hidden originals left out, at most `max`. */
  private async rankedIds(ctx: ReadContext, words: readonly string[], productIds: readonly number[], max: number): Promise<number[]> {
    const sql = this.db.read;
    const ranks = words.map((word) => this.criteria.onBug(sql, 'summary', matcher(sql, 'substring', [word], 'text', 'summary')));
    const conditions: SqlCondition[] = [{ sql: `(${ranks.map((r) => r.sql).join(' OR ')})`, params: ranks.flatMap((r) => r.params) }];
    if (productIds.length) conditions.push(this.criteria.onBug(sql, 'product_id', idsMatcher(sql, productIds)));
    conditions.push(this.visibility.predicate(ctx.caller));
    const where = { sql: conditions.map((c) => c.sql).join(' AND '), params: conditions.flatMap((c) => c.params) };
    // BMO asks for 5 more, as duplicates collapse into their originals.
    const rows = await this.criteria.ranked(sql, where, ranks, max + 5);
    const originals = await this.ultimateOriginals(rows);
    const ids = [...new Set(rows.map((row) => originals.get(row.id) ?? row.id))].slice(0, max);
    const lookups = await this.visibility.lookup(ctx.caller, ids.map(String), sql);
    return lookups.flatMap((lookup) => (lookup.error || lookup.id === undefined ? [] : [lookup.id]));
  }

  /** Each duplicate's ultimate original, reading chains of duplicates one level per statement (a cycle stops). */
  private async ultimateOriginals(rows: ReadonlyArray<{ id: number; dupeOf: number | null }>): Promise<Map<number, number>> {
    const dupeOf = new Map(rows.flatMap((row) => (row.dupeOf === null ? [] : [[row.id, row.dupeOf] as [number, number]])));
    const checked = new Set(rows.map((row) => row.id));
    let pending = [...new Set(dupeOf.values())].filter((target) => !checked.has(target));
    while (pending.length) {
      pending.forEach((target) => checked.add(target));
      const next = await this.criteria.dupeTargets(this.db.read, pending);
      next.forEach((original, dupe) => dupeOf.set(dupe, original));
      pending = [...new Set(next.values())].filter((target) => !checked.has(target));
    }
    const originals = new Map<number, number>();
    for (const id of dupeOf.keys()) {
      let original = id;
      const path = new Set([id]);
      while (dupeOf.has(original) && !path.has(dupeOf.get(original)!)) path.add((original = dupeOf.get(original)!));
      originals.set(id, original);
    }
    return originals;
  }

  /** `product` names: each one the caller may file bugs in (BMO: can_enter_product), else 106. */
  private async enterableProductIds(ctx: ReadContext, names: readonly string[]): Promise<number[]> {
    const catalogue = this.products.catalogueAt(ctx.caller.settingsMark);
    return Promise.all(names.map(async (name) => {
      const product = await catalogue.findByName(name);
      if (!product || !(await catalogue.canEnter(ctx.caller, product))) throw TrackerError.of(Errors.ENTRY_ACCESS_DENIED, { product: name });
      return product.id;
    }));
  }

  private async quicksearchCatalogue(customFields: ReadonlySet<string>) {
    const [values, keywords] = await Promise.all([this.fields.legalValuesOfFields(['bug_status', 'resolution', 'priority']), this.fields.allKeywords()]);
    return {
      statuses: (values.get('bug_status') ?? []).map((v) => ({ name: v.value, isOpen: v.isOpen !== false })),
      resolutions: (values.get('resolution') ?? []).map((v) => v.value),
      priorities: (values.get('priority') ?? []).map((v) => v.value),
      keywords: new Set(keywords.map((k) => k.name)),
      customFields,
    };
  }

  private sources(): SearchSources {
    return { criteria: this.criteria, products: this.products, users: this.users, fields: this.fields, groups: this.groups, flags: this.flags, comments: this.comments, attachments: this.attachments };
  }
}

/** What a compiler reads: the search's own SQL and the services and ports that resolve other modules' criteria. */
interface SearchSources {
  criteria: BugCriteria;
  products: ProductService;
  users: UserService;
  fields: FieldService;
  groups: GroupService;
  flags: FlagSearchService;
  comments: BugCommentSearch;
  attachments: BugAttachmentSearch;
}

/** One request's translation of the criteria tree into SQL, with the names it resolved kept for the request. */
class Compiler {
  private productList?: Promise<ProductRecord[]>;
  private componentList?: Promise<ComponentRecord[]>;
  constructor(private readonly sql: ReadSql, private readonly caller: Caller, private readonly s: SearchSources, private readonly customIds: ReadonlyMap<string, number>) {}

  async compile(criterion: Criterion): Promise<SqlCondition> {
    switch (criterion.kind) {
      case 'and':
      case 'or': {
        if (!criterion.items.length) return { sql: criterion.kind === 'and' ? '1 = 1' : '1 = 0', params: [] };
        const parts = await Promise.all(criterion.items.map((item) => this.compile(item)));
        return { sql: `(${parts.map((p) => p.sql).join(criterion.kind === 'and' ? ' AND ' : ' OR ')})`, params: parts.flatMap((p) => p.params) };
      }
      case 'not':
        return negate(await this.compile(criterion.item));
      case 'term':
        return this.term(criterion.field, criterion.op, criterion.value);
    }
  }

  private async term(name: string, op: Extract<Criterion, { kind: 'term' }>['op'], value: string | string[]): Promise<SqlCondition> {
    const field = fieldOf(name);
    // Time-tracking data is never matched for those who may not read it, whatever the operator.
    if ('time' in field && field.time && !this.caller.isTimeTracker) return FALSE;
    if (op.startsWith('changed')) return this.changed(name, op, Array.isArray(value) ? value.join(',') : value);
    const test = testOf(op as Parameters<typeof testOf>[0], value);
    let condition: SqlCondition;
    if (test.all && test.values.length > 1) {
      const parts = await Promise.all(test.values.map((v) => this.positive(name, field, { ...test, values: [v] })));
      condition = { sql: `(${parts.map((p) => p.sql).join(' AND ')})`, params: parts.flatMap((p) => p.params) };
    } else {
      condition = await this.positive(name, field, test);
    }
    return test.negate ? negate(condition) : condition;
  }

  /** The condition of a test without its negation. */
  private async positive(name: string, field: SearchField, test: Test): Promise<SqlCondition> {
    const { sql } = this;
    const { criteria } = this.s;
    const bugId = sql.quote('b.id');
    const { base } = test;
    const text = (type: ValueType = 'text') => matcher(sql, base, this.values(name, type, base, test.values), type, name);
    const access = { includePrivate: this.caller.isInsider };
    switch (field.kind) {
      case 'column':
        if (name === 'bug_status' && base === 'in') return criteria.onBug(sql, 'status', matcher(sql, 'in', await this.statuses(test.values), 'text', name));
        if (name === 'bug_status' && test.values.includes('__all__')) return { sql: '1 = 1', params: [] };
        return criteria.onBug(sql, field.column, text(field.type));
      case 'related':
        if (base === 'isempty') return negate(criteria.related(sql, field.relation, ANY_ROW, this.caller.id));
        return criteria.related(sql, field.relation, text(field.type), this.caller.id);
      case 'custom':
        if (base === 'isempty') return negate(criteria.custom(sql, this.customIds.get(name)!, ANY_ROW));
        return criteria.custom(sql, this.customIds.get(name)!, text());
      case 'product':
        return criteria.onBug(sql, 'product_id', idsMatcher(sql, await this.productIds(base, test.values)));
      case 'classification': {
        const products = await this.allProducts();
        return criteria.onBug(sql, 'product_id', idsMatcher(sql, products.filter((p) => matchesText(base, test.values, p.classification)).map((p) => p.id)));
      }
      case 'component': {
        const components = await this.allComponents();
        return criteria.onBug(sql, 'component_id', idsMatcher(sql, components.filter((c) => matchesText(base, test.values, c.name)).map((c) => c.id)));
      }
      case 'keyword': {
        if (base === 'isempty') return negate(criteria.related(sql, 'keywords', ANY_ROW));
        const keywords = await this.s.fields.allKeywords(sql);
        return criteria.related(sql, 'keywords', idsMatcher(sql, keywords.filter((k) => matchesText(base, test.values, k.name)).map((k) => k.id)));
      }
      case 'group': {
        if (base === 'isempty') return negate(criteria.related(sql, 'groups', ANY_ROW));
        const groups = await this.s.groups.findAll(sql);
        return criteria.related(sql, 'groups', idsMatcher(sql, groups.filter((g) => matchesText(base, test.values, g.name)).map((g) => g.id)));
      }
      case 'user':
        return this.user(field.role, base, base === 'isempty' ? ANY_ROW : idsMatcher(sql, await this.userIds(base, test.values)));
      case 'comment': {
        const match = base === 'isempty' ? ANY_ROW : text(field.field === 'work_time' ? 'number' : 'text');
        const found = this.s.comments.bugsWithComment(sql, bugId, field.field, match, access);
        return base === 'isempty' ? negate(found) : found;
      }
      case 'attachment': {
        const flagLike = ['ispatch', 'isobsolete', 'isprivate'].includes(field.field);
        const match = base === 'isempty' ? ANY_ROW : text(flagLike ? 'bool' : 'text');
        const found = this.s.attachments.bugsWithAttachment(sql, bugId, field.field, match, access);
        return base === 'isempty' ? negate(found) : found;
      }
      case 'flag': {
        const found = this.s.flags.bugsWithFlag(sql, bugId, 'name', base === 'isempty' ? ANY_ROW : text(), this.visibleAttachments());
        return base === 'isempty' ? negate(found) : found;
      }
    }
  }

  /** A user criterion placed where the role keeps the user (a column of the bug, cc, comments, flags, attachments). */
  private user(role: string, base: BaseTest, match: ColumnMatcher): SqlCondition {
    const { sql } = this;
    const { criteria } = this.s;
    const bugId = sql.quote('b.id');
    const column = USER_COLUMNS[role];
    if (column) {
      if (base !== 'isempty') return criteria.onBug(sql, column, match);
      // Only the QA contact can be empty.
      return column === 'qa_contact_id' ? criteria.onBug(sql, column, matcher(sql, 'isempty', [], 'number', role)) : FALSE;
    }
    const found = role === 'cc' ? criteria.related(sql, 'cc', match)
      : role === 'commenter' ? this.s.comments.bugsWithComment(sql, bugId, 'author', match, { includePrivate: this.caller.isInsider })
        : role === 'submitter' ? this.s.attachments.bugsWithAttachment(sql, bugId, 'submitter', match, { includePrivate: this.caller.isInsider })
          : this.s.flags.bugsWithFlag(sql, bugId, role === 'setter' ? 'setter' : 'requestee', match, this.visibleAttachments());
    return base === 'isempty' ? negate(found) : found;
  }

  /** For outsiders, flags count only on the bug itself or on public attachments. */
  private visibleAttachments(): ColumnMatcher | undefined {
    return this.caller.isInsider ? undefined : (column) => this.s.attachments.noneOrPublic(this.sql, column);
  }

  /** `changedbefore`/`changedafter` (a moment), `changedfrom`/`changedto` (a value), `changedby` (a login) over the history. */
  private async changed(name: string, op: string, value: string): Promise<SqlCondition> {
    const { sql } = this;
    const { criteria } = this.s;
    const names = activityNames(name);
    switch (op) {
      case 'changedbefore': return criteria.changed(sql, names, { before: toDbDateTime(parseDateInput(value.trim(), name)) });
      case 'changedafter': return criteria.changed(sql, names, { after: toDbDateTime(parseDateInput(value.trim(), name)) });
      case 'changedfrom': return criteria.changed(sql, names, { from: matcher(sql, 'in', [value], 'text', name) });
      case 'changedto': return criteria.changed(sql, names, { to: matcher(sql, 'in', [value], 'text', name) });
      default: return criteria.changed(sql, names, { by: idsMatcher(sql, await this.userIds('in', [value])) });
    }
  }

  /** Values as the column stores them: numbers checked (52), moments and dates parsed (56), booleans as 0/1. */
  private values(name: string, type: ValueType, base: BaseTest, values: readonly string[]): SqlValue[] {
    const textual = base === 'substring' || base === 'casesubstring' || base === 'regexp' || base === 'word';
    if (textual) return [...values];
    switch (type) {
      case 'number':
        return values.map((v) => {
          if (!/^-?\d+(\.\d+)?$/.test(v.trim())) throw TrackerError.of(Errors.NUMBER_NOT_NUMERIC, { num: v, field: name });
          return Number(v);
        });
      case 'bool': return values.map((v) => (['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase()) ? 1 : 0));
      case 'datetime': return values.map((v) => toDbDateTime(parseDateInput(v.trim(), name)));
      case 'date': return values.map((v) => toApiDate(parseDateInput(v.trim(), name)));
      case 'text': return name === 'resolution' ? values.map((v) => (v.trim() === '---' ? '' : v)) : [...values];
    }
  }

  /** Status names with the pseudo-values `__open__` / `__closed__` expanded (search.md). */
  private async statuses(values: readonly string[]): Promise<string[]> {
    const plain = values.filter((v) => !v.startsWith('__'));
    if (plain.length === values.length) return plain;
    const all = await this.s.fields.statuses(this.sql);
    return [
      ...plain,
      ...(values.includes('__open__') ? all.filter((s) => s.isOpen).map((s) => s.name) : []),
      ...(values.includes('__closed__') ? all.filter((s) => !s.isOpen).map((s) => s.name) : []),
      ...(values.includes('__all__') ? all.map((s) => s.name) : []),
    ];
  }

  /** Ids of the users a test picks: exact logins through one lookup, other tests over every login. `%user%` is the caller. */
  private async userIds(base: BaseTest, values: readonly string[]): Promise<number[]> {
    const logins = values.map((v) => (v === '%user%' ? this.caller.user?.login ?? '' : v));
    if (base === 'in') return [...(await this.s.users.findByLogins(logins, this.sql)).values()].map((u) => u.id);
    return (await this.s.users.allLogins(this.sql)).filter((u) => matchesText(base, logins, u.login)).map((u) => u.id);
  }

  /** Product ids by name: exact names through the kept catalogue (the common case), other tests over the products. */
  private async productIds(base: BaseTest, values: readonly string[]): Promise<number[]> {
    if (base === 'in') {
      const catalogue = this.s.products.catalogueAt(this.caller.settingsMark);
      const found = await Promise.all(values.map((v) => catalogue.findByName(v)));
      return found.flatMap((p) => (p ? [p.id] : []));
    }
    return (await this.allProducts()).filter((p) => matchesText(base, values, p.name)).map((p) => p.id);
  }

  /** The products whose bugs the caller could see (accessible products); read once per request. */
  private allProducts(): Promise<ProductRecord[]> {
    this.productList ??= this.s.products.accessibleProductIds(this.caller, this.sql)
      .then((ids) => this.s.products.findByIds(ids, this.sql))
      .then((map) => [...map.values()]);
    return this.productList;
  }

  private allComponents(): Promise<ComponentRecord[]> {
    this.componentList ??= this.allProducts().then((products) => this.s.products.componentsOfProducts(products.map((p) => p.id), this.sql));
    return this.componentList;
  }
}

/** NOT of a condition that may be NULL (a NULL column): NULL counts as "does not match", so its negation matches. */
function negate(condition: SqlCondition): SqlCondition {
  return { sql: `NOT COALESCE(${condition.sql}, 0)`, params: condition.params };
}
