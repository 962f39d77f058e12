import { Injectable } from '@nestjs/common';
import { Errors, TrackerError } from '../common/errors/index.js';
import { SITE_SECRET_PARAMETER } from '../params/parameter-definitions.js';
import { BugVisibilityService, parseBugReference } from './bug-visibility.service.js';
import { isIdInRange } from '../common/ids.js';
import { BugLoaderService } from './store/bug-loader.service.js';
import { stampsKnownTo } from './store/bug-stamps.companion.js';
import type { RequestContext } from '../common/http/request-context.js';
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

/** Who reads, with the field selection, at the request's one timestamp; and what came with the caller (stampsKnownTo). */
export type ReadContext = Pick<RequestContext, 'caller' | 'selection' | 'now' | 'companion'>;

/** What a page of Search Bugs answers besides its bugs (each only when given). */
export interface SearchPageFields {
  total_matches?: number;
  /** The cursor of the next page (issue 44). */
  next?: string;
  /** Set when max_search_results cut the answer (issue 44). */
  truncated?: boolean;
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
    return this.loader.jsonOfBug(id, details.get(id), `answer|${variantOf(ctx)}`,
      async () => RawJson.tagged(getBugAnswer([], (await this.renderBugs([id], details, ctx, true)).map(bugJson))));
  }

  /**
   * A page of Search Bugs (`GET /rest/bug`, src/bug-search): `bugs` in the order of `ids`, then the fields `besides`
   * that are given (total_matches, the paging's next cursor and truncated, issue 44); unknown bugs are silently absent; update_token only `withUpdateToken` (BMO's Possible Duplicates gives
   * it, as Get Bug). The page's ETag is derived from its bugs' kept JSON and own fields, not hashed over the whole page.
   */
  async searchPage(ctx: ReadContext, ids: readonly number[], besides: SearchPageFields = {}, withUpdateToken = false): Promise<RawJson> {
    const details = await this.loader.details(ids);
    const bugs = await this.renderBugs(ids, details, ctx, withUpdateToken);
    const others = Object.entries(besides).filter(([, value]) => value !== undefined).map(([name, value]) => `,"${name}":${JSON.stringify(value)}`).join('');
    return RawJson.derived(`{"bugs":[${bugs.map(bugJson).join(',')}]${others}}`, ['Bug.search', others, ...bugs.flatMap((bug) => [bug.shared, bug.own])]);
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
    const view = { caller, siteSecret: caller.parameters.get(SITE_SECRET_PARAMETER), now: ctx.now, withUpdateToken };
    const ownFields = (detail: BugDetail, tags: readonly string[]) => JSON.stringify(selection.apply(presentCallerFields(detail.row, tags, view), BUG_FIELDS));
    // The caller's own fields of the bugs rendered now come with them; those of the others need the caller's tags.
    const renderedOwn = new Map<number, string>();
    const shared = await this.loader.jsonOfBugs(present, details, variantOf(ctx), async (missing) => {
      const page = await this.loader.complete(missing, details, caller, selection);
      return new Map(page.bugs.map((bug) => {
        renderedOwn.set(bug.row.id, ownFields(bug, bug.tags));
        return [bug.row.id, new RawJson(JSON.stringify(selection.apply(presentSharedFields(bug, { caller, customFields: page.customFields }), BUG_FIELDS)))];
      }));
    });
    const keptIds = [...shared.keys()].filter((id) => !renderedOwn.has(id));
    const tags = keptIds.length ? await this.loader.tagsOf(keptIds, caller, selection) : new Map<number, string[]>();
    return present.map((id) => ({ shared: shared.get(id)!, own: renderedOwn.get(id) ?? ownFields(details.get(id)!, tags.get(id) ?? []) }));
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
