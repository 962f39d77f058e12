import type { TestApp } from '../support/test-app.js';
import { ok } from '../support/catalogue-fixtures.js';

/** What a mirror keeps of a bug: a few of its fields and how many comments it has. */
export interface MirroredBug {
  id: number;
  summary: string;
  whiteboard: string;
  status: string;
  last_change_time: string;
  comments: number;
}

export interface MirrorUser {
  id: number;
  apiKey: string;
}

const FIELDS = 'id,summary,whiteboard,status,last_change_time';

/**
 * Every bug of `product` the user sees, by Search Bugs paged with its `next` cursor (issue 44), each once: a bug
 * named twice fails the test.
 */
export async function searchAll(t: TestApp, user: MirrorUser, product: string, pageSize = 5): Promise<Array<Omit<MirroredBug, 'comments'>>> {
  const bugs: Array<Omit<MirroredBug, 'comments'>> = [];
  let cursor: string | undefined;
  for (;;) {
    const query = { product, include_fields: FIELDS, order: 'bug_id', limit: pageSize, ...(cursor ? { cursor } : {}) };
    const page = ok(await t.get('/bug', { key: user.apiKey, query }));
    bugs.push(...page.bugs);
    if (!page.next) break;
    cursor = page.next;
  }
  const ids = bugs.map((b) => b.id);
  expect(new Set(ids).size).toBe(ids.length);
  return bugs;
}

/** How many comments each visible bug has (Get Comments, one request per bug); an invisible bug is left out. */
async function commentCounts(t: TestApp, user: MirrorUser, ids: readonly number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  for (const id of ids) {
    const res = await t.get(`/bug/${id}/comment`, { key: user.apiKey });
    if (res.status === 200) counts.set(id, res.body.bugs[id].comments.length);
  }
  return counts;
}

/** The bugs of `product` the user sees, with their comments, by id: what a mirror must hold at the end. */
export async function serviceView(t: TestApp, user: MirrorUser, product: string): Promise<MirroredBug[]> {
  const bugs = ok(await t.get('/bug', { key: user.apiKey, query: { product, include_fields: FIELDS } })).bugs as Array<Omit<MirroredBug, 'comments'>>;
  const counts = await commentCounts(t, user, bugs.map((b) => b.id));
  return bugs.map((b) => ({ ...b, comments: counts.get(b.id)! })).sort((a, b) => a.id - b.id);
}

/**
 * A mirror as a sync script keeps one (docs/mirror.md): the feed's cursor taken first, one cursor search, then the
 * feed from that cursor; a bug the feed names is fetched again (or dropped when gone or no longer visible).
 */
export class Mirror {
  readonly bugs = new Map<number, MirroredBug>();
  goneSeen = 0;

  constructor(
    private readonly user: MirrorUser,
    private readonly product: string,
    private cursor: string,
  ) {}

  /** Reads the feed to its end on `t` and brings the named bugs up to date. */
  async sync(t: TestApp): Promise<void> {
    for (;;) {
      const page = ok(await t.get('/changes', { key: this.user.apiKey, query: { since: this.cursor, limit: 20 } }));
      const named: number[] = [];
      for (const entry of page.changes as Array<{ id: number; gone?: true }>) {
        if (entry.gone) {
          this.goneSeen++;
          this.bugs.delete(entry.id);
        } else named.push(entry.id);
      }
      await this.refresh(t, named);
      this.cursor = page.cursor;
      if (!page.more) return;
    }
  }

  async refresh(t: TestApp, ids: readonly number[]): Promise<void> {
    if (!ids.length) return;
    const found = ok(await t.get('/bug', { key: this.user.apiKey, query: { id: ids.join(','), product: this.product, include_fields: FIELDS } })).bugs as Array<Omit<MirroredBug, 'comments'>>;
    const counts = await commentCounts(t, this.user, found.map((b) => b.id));
    for (const id of ids) this.bugs.delete(id);
    for (const bug of found) if (counts.has(bug.id)) this.bugs.set(bug.id, { ...bug, comments: counts.get(bug.id)! });
  }

  snapshot(): MirroredBug[] {
    return [...this.bugs.values()].sort((a, b) => a.id - b.id);
  }
}

/** A mirror started on `instances[0]`: the feed's cursor of now, then one search of everything (its second page on the other instance). */
export async function mirrorOf(instances: readonly TestApp[], user: MirrorUser, product: string): Promise<Mirror> {
  const { cursor } = ok(await instances[0].get('/changes', { key: user.apiKey }));
  const mirror = new Mirror(user, product, cursor);
  const bugs = await searchAll(instances[instances.length - 1], user, product);
  await mirror.refresh(instances[0], bugs.map((b) => b.id));
  return mirror;
}
