import { Injectable } from '@nestjs/common';
import { Errors, TrackerError } from '../../common/errors/index.js';
import { ProductService } from '../../product/product.service.js';
import { FieldService } from '../../field/field.service.js';
import { GroupService } from '../../group/group.service.js';
import { FieldType } from '../../field/field-type.js';
import { BugVisibilityService, parseBugReference } from '../../bug/bug-visibility.service.js';
import { applyAddRemoveSet, mapAddRemoveSet, sameIgnoringCase, type AddRemoveSet } from '../../bug-rules/update-objects.js';
import { validateAlias } from '../../bug-rules/alias.js';
import { formatList, mirroredDependencyChanges } from '../../bug/changes.js';
import { validateSeeAlso, sameSeeAlso } from '../../bug-rules/see-also.js';
import { BugWork, userNamed } from './bug-work.js';
import { applyGroupChanges } from '../../bug-rules/group-controls.js';
import { checkStoredDependencyLoops } from '../../bug-rules/dependency-loops.js';
import { BugStoreService } from '../../bug/store/bug-store.service.js';
import { customFieldValues, NO_SELECTION } from '../custom-values.js';
import { byText } from '../../bug/loaded-bug.js';
import { DEPENDENCIES, REGRESSIONS, type BugGraph } from '../../bug/bug.types.js';

const byNumber = (a: number, b: number) => a - b;

/**
 * The multi-valued parts of a bug on Update Bug: groups, dependencies (kept mirror images, loops refused), keywords,
 * See Also (with the reverse link on local bugs), custom fields, cc and aliases. Each step writes its rows as soon
 * as it has validated them; the request's transaction undoes them if a later step fails.
 */
@Injectable()
export class RelationSteps {
  constructor(
    private readonly products: ProductService,
    private readonly fields: FieldService,
    private readonly groups: GroupService,
    private readonly visibility: BugVisibilityService,
    private readonly bugs: BugStoreService,
  ) {}

  // ---- Groups ---------------------------------------------------------------------------------------------

  async applyGroups(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const r = run.request;
    if (w.keepsGroups) return;
    const add = r.groups?.steps.filter((s) => s.action === 'add').flatMap((s) => s.values.map(String)) ?? [];
    const remove = r.groups?.steps.filter((s) => s.action === 'remove').flatMap((s) => s.values.map(String)) ?? [];
    const [controls, current] = await Promise.all([
      run.products.groupControls([w.product.id]),
      this.groups.findByNames(bug.groups, run.tx),
    ]);
    const before = bug.groups.map((name) => ({ id: current.get(name.toLowerCase())!.id, name }));
    const after = applyGroupChanges({
      bugId: w.id, product: w.product.name, controls, current: before, productChanged: w.productChanged,
      add, remove, isMember: (id) => run.caller.inGroupId(id),
    });
    const added = after.filter((g) => !before.some((b) => b.id === g.id));
    const removed = before.filter((b) => !after.some((g) => g.id === b.id));
    if (!added.length && !removed.length) return;
    if (removed.length) await this.bugs.removeGroups(run.tx, w.id, removed.map((g) => g.id));
    await this.bugs.addGroups(run.tx, w.id, added.map((g) => g.id));
    w.changes.record('groups', removed.map((g) => g.name).sort(byText), added.map((g) => g.name).sort(byText));
  }

  // ---- Dependencies ---------------------------------------------------------------------------------------

  async applyDependencies(w: BugWork): Promise<void> {
    const r = w.run.request;
    await this.applyGraph(w, DEPENDENCIES, { down: r.dependsOn, up: r.blocks }, { down: w.bug.dependsOn, up: w.bug.blocks });
  }

  /** BMO's regressed_by / regressions (issue 43): dependencies' rules, in their own graph. */
  async applyRegressions(w: BugWork): Promise<void> {
    const r = w.run.request;
    await this.applyGraph(w, REGRESSIONS, { down: r.regressedBy, up: r.regressions }, { down: w.bug.regressedBy, up: w.bug.regressions });
  }

  /**
   * A graph's two lists of the bug (kept mirror images on the other bugs, loops refused): `ops` as requested, `current`
   * as the bug has them.
   */
  private async applyGraph(
    w: BugWork,
    graph: BugGraph,
    ops: { down?: AddRemoveSet<unknown>; up?: AddRemoveSet<unknown> },
    current: { down: number[]; up: number[] },
  ): Promise<void> {
    if (!ops.down && !ops.up) return;
    const downList = ops.down ? await this.resolveBugList(w, current.down, ops.down) : current.down;
    const upList = ops.up ? await this.resolveBugList(w, current.up, ops.up) : current.up;
    const diff = (before: number[], after: number[]) => ({
      added: after.filter((id) => !before.includes(id)).sort(byNumber),
      removed: before.filter((id) => !after.includes(id)).sort(byNumber),
    });
    const down = diff(current.down, downList);
    const up = diff(current.up, upList);
    if (!down.added.length && !down.removed.length && !up.added.length && !up.removed.length) return;
    if (down.added.length || down.removed.length) w.allow(graph.down, current.down, downList);
    if (up.added.length || up.removed.length) w.allow(graph.up, current.up, upList);

    const { tx } = w.run;
    await checkStoredDependencyLoops(tx, this.bugs, w.id, downList, upList, graph);

    for (const other of down.removed) await this.bugs.removeEdge(tx, graph.name, { upperId: w.id, lowerId: other });
    for (const other of up.removed) await this.bugs.removeEdge(tx, graph.name, { upperId: other, lowerId: w.id });
    await this.bugs.addEdges(tx, graph.name, [
      ...down.added.map((other) => ({ upperId: w.id, lowerId: other })),
      ...up.added.map((other) => ({ upperId: other, lowerId: w.id })),
    ]);
    w.changes.record(graph.down, formatList(down.removed), formatList(down.added));
    w.changes.record(graph.up, formatList(up.removed), formatList(up.added));
    for (const e of mirroredDependencyChanges(w.id, down, up, graph)) w.other(e.bugId, e.field, e.removed, e.added);
  }

  /**
   * Applies an add/remove/set of bug references (ids or aliases) to a list of ids. Added bugs must exist and be
   * visible (100/101/102); removing one the list does not hold is a no-op, removing one the caller cannot see is
   * refused as Bugzilla checks every bug whose list changes.
   */
  private async resolveBugList(w: BugWork, current: readonly number[], op: AddRemoveSet<unknown>): Promise<number[]> {
    const refs = op.steps.flatMap((s) => s.values);
    const lookups = await this.visibility.lookup(w.run.caller, refs, w.run.tx);
    const byInput = new Map(refs.map((ref, i) => [ref, lookups[i]]));
    const resolved = mapAddRemoveSet(op, (ref, action): number | null => {
      const lookup = byInput.get(ref)!;
      if (lookup.id !== undefined) return lookup.id;
      const reference = parseBugReference(ref);
      if (action === 'remove') {
        // Not there: nothing to remove. There but hidden: the caller may not touch it.
        if ('id' in reference && current.includes(reference.id)) throw lookup.error!;
        return null;
      }
      throw lookup.error!;
    });
    const cleaned = { steps: resolved.steps.map((s) => ({ action: s.action, values: s.values.filter((v): v is number => v !== null) })) };
    return applyAddRemoveSet([...current], cleaned).result;
  }

  // ---- Keywords -------------------------------------------------------------------------------------------

  async applyKeywords(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const op = run.request.keywords;
    if (!op) return;
    const named = op.steps.flatMap((s) => s.values.map((v) => String(v).trim())).filter((v) => v !== '');
    const known = await run.fields.keywordsByNames([...named, ...bug.keywords]);
    // Every keyword named, to add or to remove, must exist (Bugzilla checks the whole list).
    const canonical = mapAddRemoveSet(op, (value) => {
      const keyword = known.get(String(value).trim().toLowerCase());
      if (!keyword) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'keyword', name: String(value).trim() });
      return keyword.name;
    });
    const { result, added, removed } = applyAddRemoveSet(bug.keywords, canonical, sameIgnoringCase as (a: string, b: string) => boolean);
    if (!added.length && !removed.length) return;
    for (const name of added) {
      const keyword = known.get(name.toLowerCase())!;
      if (!keyword.isActive) throw TrackerError.of(Errors.VALUE_INACTIVE, { class: 'keyword', value: keyword.name });
    }
    w.allow('keywords', bug.keywords, result);
    const ids = (names: string[]) => names.map((n) => known.get(n.toLowerCase())!.id);
    if (removed.length) await this.bugs.removeKeywords(run.tx, w.id, ids(removed));
    await this.bugs.addKeywords(run.tx, w.id, ids(added));
    w.changes.record('keywords', removed, added);
    w.keywords = result;
  }

  // ---- See Also -------------------------------------------------------------------------------------------

  async applySeeAlso(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const op = run.request.seeAlso;
    if (!op) return;
    const urlBase = run.params.get('urlbase');
    const links = new Map<string, number>();
    const validated = mapAddRemoveSet(op, (value, action): string | null => {
      if (action === 'remove') return value === null || value === undefined ? null : String(value).trim();
      const link = validateSeeAlso(value, { urlBase });
      if (!link) return null;
      if (link.localBugId === w.id) throw TrackerError.of(Errors.BUG_URL_INVALID, { url: link.url, reason: 'a bug cannot link to itself' });
      if (link.localBugId !== undefined) links.set(link.url, link.localBugId);
      return link.url;
    });
    const cleaned = { steps: validated.steps.map((s) => ({ action: s.action, values: s.values.filter((v): v is string => !!v) })) };
    const { result, added, removed } = applyAddRemoveSet(bug.seeAlso, cleaned, sameSeeAlso);
    if (!added.length && !removed.length) return;
    w.allow('see_also', bug.seeAlso, result);
    // Links to bugs of this installation: the other bug must be visible, and gets the reverse link.
    const localAdded = added.filter((url) => links.has(url)).map((url) => links.get(url)!);
    if (localAdded.length) await this.visibility.resolveVisible(run.caller, localAdded.map(String), run.tx);

    const { tx } = run;
    for (const url of removed) await this.bugs.removeSeeAlso(tx, w.id, url);
    await this.bugs.addSeeAlso(tx, w.id, added);
    w.changes.record('see_also', removed, added);

    const selfUrl = `${urlBase.replace(/\/?$/, '/')}show_bug.cgi?id=${w.id}`;
    for (const other of localAdded) {
      if (await this.bugs.hasSeeAlso(tx, other, selfUrl)) continue;
      await this.bugs.addSeeAlso(tx, other, [selfUrl]);
      w.other(other, 'see_also', '', selfUrl);
    }
    for (const url of removed) {
      let local: number | undefined;
      try {
        local = validateSeeAlso(url, { urlBase })?.localBugId;
      } catch {
        local = undefined;
      }
      if (local === undefined || local === w.id) continue;
      if (await this.bugs.removeSeeAlso(tx, local, selfUrl)) w.other(local, 'see_also', selfUrl, '');
    }
  }

  // ---- Custom fields --------------------------------------------------------------------------------------

  async applyCustomFields(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const custom = run.request.custom;
    if (!custom.size) return;
    run.customFields ??= await run.fields.customFields();
    for (const [name, raw] of custom) {
      // An unknown cf_ key is ignored, like any key that is not a field (clients.md).
      const field = run.customFields.find((f) => f.name === name);
      if (!field) continue;
      const isSelect = field.type === FieldType.SINGLE_SELECT || field.type === FieldType.MULTI_SELECT;
      const legal = isSelect ? await run.fields.legalValues(name) : undefined;
      const current = bug.custom.get(field.id) ?? [];
      let values = customFieldValues({ field, legal, current }, raw);
      if (field.type === FieldType.BUG_ID && values.length) {
        values = (await this.visibility.resolveVisible(run.caller, values, run.tx)).map(String);
      }
      const same = values.length === current.length && values.every((v) => current.includes(v));
      if (same) continue;
      const shown = (list: string[]) => (field.type === FieldType.SINGLE_SELECT ? list[0] ?? NO_SELECTION : formatList(list));
      w.allow(name, field.type === FieldType.MULTI_SELECT ? current : shown(current), field.type === FieldType.MULTI_SELECT ? values : shown(values));
      await this.bugs.replaceCustomValues(run.tx, w.id, field.id, values);
      w.changes.record(name, shown(current), shown(values));
    }
  }

  // ---- CC -------------------------------------------------------------------------------------------------

  async applyCc(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const op = run.request.cc;
    if (!op) return;
    const users = mapAddRemoveSet(op, (login) => userNamed(run, String(login)));
    const current = bug.cc.map((u) => ({ id: u.id, login: u.login }));
    const { added, removed } = applyAddRemoveSet<{ id: number; login: string }>(current, users, (a, b) => a.id === b.id);
    // Bugzilla's remove_cc: only those who may edit every field (editbugs, assignee, QA contact) remove others.
    const canEditAll = w.fieldCaller.inEditbugs || w.fieldCaller.isAssignee || (run.params.bool('useqacontact') && w.fieldCaller.isQaContact);
    const other = removed.find((u) => u.id !== run.caller.id);
    if (other && !canEditAll) throw TrackerError.of(Errors.CC_REMOVE_DENIED, { login: other.login, bug_id: w.id });
    await this.changeCc(w, added, removed);
  }

  /** Adds and removes cc rows of the bug (the cc key, new flag requestees); one `cc` change is recorded at the end. */
  async changeCc(w: BugWork, added: ReadonlyArray<{ id: number; login: string }>, removed: ReadonlyArray<{ id: number; login: string }>): Promise<void> {
    await this.bugs.changeCc(w.run.tx, w.id, removed.map((u) => u.id), added.map((u) => u.id));
    w.noteCcChange(added, removed);
  }

  // ---- Aliases --------------------------------------------------------------------------------------------

  async applyAliases(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const op = run.request.alias;
    if (!op) return;
    const validated = mapAddRemoveSet(op, (value, action) => (action === 'remove' ? (value === null || value === undefined ? null : String(value).trim()) : validateAlias(value)));
    const cleaned = { steps: validated.steps.map((s) => ({ action: s.action, values: s.values.filter((v): v is string => !!v) })) };
    const { result, added, removed } = applyAddRemoveSet(bug.aliases, cleaned, sameIgnoringCase as (a: string, b: string) => boolean);
    if (!added.length && !removed.length) return;
    const taken = await this.visibility.idsOfAliasesToGive(added, run.tx);
    for (const alias of added) {
      const owner = taken.get(alias.toLowerCase());
      if (owner !== undefined && owner !== w.id) throw TrackerError.of(Errors.ALIAS_IN_USE, { alias, bug_id: owner });
    }
    w.allow('alias', bug.aliases, result);
    for (const alias of removed) await this.bugs.removeAlias(run.tx, w.id, alias);
    await this.bugs.addAliases(run.tx, w.id, added);
    w.changes.record('alias', removed, added);
    w.aliases = result;
  }
}
