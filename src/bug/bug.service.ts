import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import type { FieldSelection } from '../common/fields/field-selection.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { SITE_SECRET_PARAMETER } from '../params/parameter-definitions.js';
import { BugVisibilityService, parseBugReference } from './bug-visibility.service.js';
import { isIdInRange } from '../common/ids.js';
import { BugLoaderService } from './bug-loader.service.js';
import type { BugPage } from './loaded-bug.js';
import { presentBug } from './bug.presenter.js';
import { BugSearchService } from './search/bug-search.service.js';
import type { BugSearchInput } from './dto/bug-search.dto.js';

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
}

/** Get Bug and Search Bugs: resolve, check visibility, load a page with constant queries, present. */
@Injectable()
export class BugService {
  constructor(
    private readonly visibility: BugVisibilityService,
    private readonly loader: BugLoaderService,
    private readonly search: BugSearchService,
  ) {}

  /**
   * Get Bug (`GET /rest/bug/(id_or_alias)`, `ids`): each reference is an id or an alias. Without `permissive` the
   * first failing one (100 / 101 / 102, in request order) fails the call; with it, each becomes a fault.
   * Two queries for ids (rows with visibility, then relations), one more when aliases are named.
   */
  async get(ctx: ReadContext, references: readonly string[], permissive: boolean): Promise<{ faults: BugFault[]; bugs: Record<string, unknown>[] }> {
    if (!references.length) throw TrackerError.of(Errors.PARAM_REQUIRED, { function: 'Bug.get', param: 'ids' });
    const parsed = references.map(parseBugReference);
    const aliasIds = await this.visibility.idsOfAliases(parsed.flatMap((r) => ('alias' in r ? [r.alias] : [])));
    const candidateIds = parsed.flatMap((r) =>
      'id' in r ? [r.id] : 'alias' in r && aliasIds.has(r.alias.toLowerCase()) ? [aliasIds.get(r.alias.toLowerCase())!] : []);
    const details = await this.loader.details(candidateIds, { visibleTo: ctx.caller });
    const visible = new Map([...details].map(([id, d]) => [id, d.visible]));

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
    const page = await this.loader.complete(ids, details, ctx.caller, ctx.selection);
    return { faults, bugs: this.present(page, ctx, true) };
  }

  /**
   * Search Bugs (`GET /rest/bug`): only `bugs` (with `total_matches` when asked), or `{bug_count}` with count_only;
   * hidden and unknown bugs are silently absent; no update_token. `params` are the request's parameters (criteria).
   */
  async searchBugs(ctx: ReadContext, input: BugSearchInput, params: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>> {
    const outcome = await this.search.search(ctx.caller, input, params);
    if ('count' in outcome) return { bug_count: outcome.count };
    const page = await this.loader.page(outcome.ids, ctx.caller, ctx.selection);
    return { bugs: this.present(page, ctx, false), ...(outcome.total !== undefined ? { total_matches: outcome.total } : {}) };
  }

  private present(page: BugPage, ctx: ReadContext, withUpdateToken: boolean): Record<string, unknown>[] {
    const siteSecret = ctx.caller.parameters.get(SITE_SECRET_PARAMETER);
    return page.bugs.map((bug) =>
      presentBug(bug, { caller: ctx.caller, customFields: page.customFields, siteSecret, now: ctx.now, withUpdateToken }));
  }
}
