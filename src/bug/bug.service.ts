import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import type { FieldSelection } from '../common/fields/field-selection.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { SITE_SECRET_PARAMETER } from '../params/parameter-definitions.js';
import { BugVisibilityService, parseBugReference } from './bug-visibility.service.js';
import { isIdInRange } from '../common/ids.js';
import { BugLoaderService } from './store/bug-loader.service.js';
import { stampsKnownTo } from './store/bug-stamps.companion.js';
import type { CompanionFound } from '../common/http/companion-read.js';
import type { BugDetail } from './loaded-bug.js';
import { presentCallerFields, presentSharedFields, seesWholeAddresses, showsCallerFields } from './bug.presenter.js';
import { BUG_FIELDS } from './bug.fields.js';
import { joinJsonObjects, RawJson } from '../common/http/raw-json.js';

/** An element of `faults` (updates.md "Get Bug faults"): the reference as the client gave it, and why it failed. */
export interface BugFault {
  id: number | string;
  faultString: string;
  faultCode: number;
}

export interface ReadContext {
  caller: Caller;
  selection: FieldSelection;
  now: Date;
  /** What the route's companion read brought with the caller (Get Bug: BugStampsCompanion). */
  companion?: CompanionFound;
}

/** Get Bug and the pages of Search Bugs: resolve, check visibility, load a page with constant queries, present. */
@Injectable()
export class BugService {
  constructor(
    private readonly visibility: BugVisibilityService,
    private readonly loader: BugLoaderService,
  ) {}

  /**
   * Get Bug (`GET /rest/bug/(id_or_alias)`, `ids`): each reference is an id or an alias. Without `permissive` the
   * first failing one (100 / 101 / 102, in request order) fails the call; with it, each becomes a fault.
   * Two queries for ids (rows with visibility, then relations), one more when aliases are named; none for the
   * stamps of kept bugs when they came with the caller's credential (`known`, BugStampsCompanion).
   */
  async get(ctx: ReadContext, references: readonly string[], permissive: boolean): Promise<RawJson> {
    if (!references.length) throw TrackerError.of(Errors.PARAM_REQUIRED, { function: 'Bug.get', param: 'ids' });
    const parsed = references.map(parseBugReference);
    const aliasIds = await this.visibility.idsOfAliases(parsed.flatMap((r) => ('alias' in r ? [r.alias] : [])));
    const candidateIds = parsed.flatMap((r) =>
      'id' in r ? [r.id] : 'alias' in r && aliasIds.has(r.alias.toLowerCase()) ? [aliasIds.get(r.alias.toLowerCase())!] : []);
    const details = await this.loader.details(candidateIds, { visibleTo: ctx.caller, known: stampsKnownTo(ctx) });
    const visible = { get: (id: number) => details.get(id)?.visible };

    const faults: BugFault[] = [];
    const ids: number[] = [];
    for (const reference of parsed) {
      const outcome = this.visibility.outcome(ctx.caller, reference, aliasIds, visible);
      if (outcome.error) {
        if (!permissive) throw outcome.error;
        const input = outcome.input.trim();
        faults.push({ id: /^\d+$/.test(input) && isIdInRange(input) ? Number(input) : outcome.input, faultString: outcome.error.message, faultCode: outcome.error.code });
      } else {
        ids.push(outcome.id!);
      }
    }
    if (!faults.length && ids.length === 1) return this.oneBugAnswer(ids[0], details, ctx);
    return new RawJson(getBugAnswer(faults, (await this.renderBugs(ids, details, ctx, true)).map(bugJson)));
  }

  /**
   * The answer naming one visible bug. When nothing in it is the caller's own (no tags, no update_token asked or
   * given), it is the same text for every caller of the class, so it is kept whole, with its ETag, beside the kept
   * bug's JSON (and as long as it): a warm read then costs the bug's stamp and no hashing of the body. Otherwise
   * its ETag is derived from the kept JSON's digest and the caller's own fields.
   */
  private async oneBugAnswer(id: number, details: ReadonlyMap<number, BugDetail>, ctx: ReadContext): Promise<RawJson> {
    const { caller, selection } = ctx;
    const personal = showsCallerFields(selection, { caller, siteSecret: caller.parameters.get(SITE_SECRET_PARAMETER), withUpdateToken: true });
    if (personal) {
      const [bug] = await this.renderBugs([id], details, ctx, true);
      return RawJson.derived(getBugAnswer([], [bugJson(bug)]), ['Bug.get one', bug.shared, bug.own]);
    }
    const detail = details.get(id)!;
    const variant = `answer|${variantOf(ctx)}`;
    const kept = this.loader.keptJson(id, detail, variant);
    if (kept) return kept;
    const answer = RawJson.tagged(getBugAnswer([], (await this.renderBugs([id], details, ctx, true)).map(bugJson)));
    this.loader.keepJson(id, detail, variant, answer);
    return answer;
  }

  /**
   * A page of Search Bugs (`GET /rest/bug`, src/bug-search): `bugs` in the order of `ids` (with `total_matches` when
   * given); unknown bugs are silently absent; no update_token. The page's ETag is derived from its bugs' kept JSON and
   * own fields, not hashed over the whole page.
   */
  async searchPage(ctx: ReadContext, ids: readonly number[], totalMatches: number | undefined): Promise<RawJson> {
    const details = await this.loader.details(ids);
    const bugs = await this.renderBugs(ids, details, ctx, false);
    const total = totalMatches !== undefined ? `,"total_matches":${totalMatches}` : '';
    return RawJson.derived(`{"bugs":[${bugs.map(bugJson).join(',')}]${total}}`, ['Bug.search', total, ...bugs.flatMap((bug) => [bug.shared, bug.own])]);
  }

  /**
   * Each bug in the order of `ids` (unknown ids skipped), the field selection applied. All of a bug but the
   * caller's own fields depends only on the bug, the selection and the caller's class (time tracker, sees whole
   * addresses), so that part is kept beside the kept bug per such variant and is valid exactly as long as the bug
   * is (its stamp): a page of kept bugs costs their stamps, the caller's tags if asked, and string joins.
   */
  private async renderBugs(ids: readonly number[], details: ReadonlyMap<number, BugDetail>, ctx: ReadContext, withUpdateToken: boolean): Promise<RenderedBug[]> {
    const { caller, selection } = ctx;
    const present = [...new Set(ids)].filter((id) => details.has(id));
    const variant = variantOf(ctx);
    const kept = new Map<number, RawJson>();
    for (const id of present) {
      const json = this.loader.keptJson(id, details.get(id)!, variant);
      if (json !== undefined) kept.set(id, json);
    }
    const view = { caller, siteSecret: caller.parameters.get(SITE_SECRET_PARAMETER), now: ctx.now, withUpdateToken };
    const ownFields = (detail: BugDetail, tags: readonly string[]) => JSON.stringify(selection.apply(presentCallerFields(detail.row, tags, view), BUG_FIELDS));
    const rendered = new Map<number, RenderedBug>();

    const missing = present.filter((id) => !kept.has(id));
    if (missing.length) {
      const page = await this.loader.complete(missing, details, caller, selection);
      for (const bug of page.bugs) {
        const shared = new RawJson(JSON.stringify(selection.apply(presentSharedFields(bug, { caller, customFields: page.customFields }), BUG_FIELDS)));
        this.loader.keepJson(bug.row.id, details.get(bug.row.id)!, variant, shared);
        rendered.set(bug.row.id, { shared, own: ownFields(bug, bug.tags) });
      }
    }
    if (kept.size) {
      const tags = await this.loader.tagsOf([...kept.keys()], caller, selection);
      for (const [id, shared] of kept) rendered.set(id, { shared, own: ownFields(details.get(id)!, tags.get(id) ?? []) });
    }
    return present.map((id) => rendered.get(id)!);
  }
}

/** One bug's JSON in two parts: what is kept for its variant, and the caller's own fields (`{}` when none). */
interface RenderedBug {
  readonly shared: RawJson;
  readonly own: string;
}

const bugJson = ({ shared, own }: RenderedBug) => joinJsonObjects(shared.text, own);

/** What a bug's kept JSON is made for: the field selection and the caller's class (time tracker, whole addresses). */
function variantOf({ caller, selection }: ReadContext): string {
  return `${selection.key}|${caller.isTimeTracker ? 'time' : ''}|${seesWholeAddresses(caller) ? 'whole' : ''}`;
}

function getBugAnswer(faults: readonly BugFault[], bugs: readonly string[]): string {
  return `{"faults":${JSON.stringify(faults)},"bugs":[${bugs.join(',')}]}`;
}
