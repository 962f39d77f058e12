import { LoadedBugCache, keptRelations } from './loaded-bug-cache.js';
import { RawJson } from '../../common/http/raw-json.js';
import type { BugDetail, BugRelations } from '../loaded-bug.js';
import type { BugRow } from '../bug.types.js';

const user = { id: 1, login: 'a@example.com', realName: 'A', email: 'a@example.com' };
const detail = (summary: string): Omit<BugDetail, 'visible'> => ({
  row: { id: 7, summary } as BugRow, product: 'P', component: 'C', classification: 'U', reporter: user, assignee: user,
  qaContact: null, dupeOf: null, isOpen: true,
});
const relations = (cc: string): BugRelations => ({
  aliases: [], cc: [{ ...user, login: cc }], keywords: ['k'], groups: [], blocks: [], dependsOn: [], seeAlso: [], flags: [],
  custom: new Map(), tags: ['mine'], actualTime: 0, regressedBy: [], regressions: [], duplicates: [], commentCount: 0, triageOwner: null,
});
const stamp = (revision: number, settingsMark = 1) => ({ revision, settingsMark, visible: true });
const wanted = new Set(['cc', 'keywords'] as const);
/** Bounds no test here reaches unless it means to. */
const ROOMY = { entries: 1000, bytes: 1e9 };

describe('LoadedBugCache', () => {
  it('keeps frozen snapshots: what a request holds stays whole while another request replaces the bug', () => {
    const cache = new LoadedBugCache(ROOMY);
    const first = cache.storeDetail(7, stamp(1), detail('old'));
    cache.storeRelations(7, first, wanted, relations('old@example.com'), []);
    const held = cache.entryOf(7, first.detail)!;
    expect(keptRelations(held, wanted)?.value.cc[0].login).toBe('old@example.com');

    cache.storeDetail(7, stamp(2), detail('new'));
    // The request that took `held` before the replacement still has its relations and detail.
    expect(keptRelations(held, wanted)?.value.cc[0].login).toBe('old@example.com');
    expect(held.detail.row.summary).toBe('old');
    expect(Object.isFrozen(held) && Object.isFrozen(held.relations) && Object.isFrozen(held.detail.row) && Object.isFrozen(held.relations!.value.cc)).toBe(true);
    expect(() => held.relations!.value.keywords.push('x')).toThrow(TypeError);
    // Personal tags are never kept.
    expect(held.relations!.value.tags).toEqual([]);
  });

  it('never joins relations to a detail of another version stored meanwhile', () => {
    const cache = new LoadedBugCache(ROOMY);
    const first = cache.storeDetail(7, stamp(1), detail('old'));
    const second = cache.storeDetail(7, stamp(2), detail('new'));
    cache.storeRelations(7, first, wanted, relations('old@example.com'), []);
    expect(cache.entryOf(7, second.detail)?.relations).toBeUndefined();
    expect(cache.entryOf(7, first.detail)).toBeUndefined();
    cache.storeRelations(7, second, wanted, relations('new@example.com'), []);
    expect(keptRelations(cache.entryOf(7, second.detail), wanted)?.value.cc[0].login).toBe('new@example.com');
  });

  it('serves an entry only for the stamp it was stored under, and relations only when they cover what is wanted', () => {
    const cache = new LoadedBugCache(ROOMY);
    const entry = cache.storeDetail(7, stamp(1), detail('old'));
    cache.storeRelations(7, entry, new Set(['cc'] as const), relations('a@example.com'), []);
    expect(keptRelations(cache.current(7, stamp(1)), wanted)).toBeUndefined();
    expect(cache.current(7, stamp(2))).toBeUndefined();
    expect(cache.current(7, stamp(1))).toBeUndefined();
  });

  it('serves an entry only under the settings mark it was stored under (names the bug shows)', () => {
    const cache = new LoadedBugCache(ROOMY);
    cache.storeDetail(7, stamp(1, 5), detail('old'));
    expect(cache.current(7, stamp(1, 5))).toBeDefined();
    expect(cache.current(7, stamp(1, 6))).toBeUndefined();
  });
});

describe('LoadedBugCache JSON variants', () => {
  const stamp = { revision: 1, settingsMark: 1, visible: true };
  const detailOf = (summary: string) => ({ row: { id: 1, summary } }) as unknown as Parameters<LoadedBugCache['storeDetail']>[2];

  it('keeps JSON per variant for the kept detail only, and forgets it with the entry', () => {
    const cache = new LoadedBugCache(ROOMY);
    const kept = cache.storeDetail(1, stamp, detailOf('first')).detail;
    cache.storeJson(1, kept, 'a', new RawJson('{"id":1}'));
    expect(cache.jsonOf(1, kept, 'a')?.text).toBe('{"id":1}');
    expect(cache.jsonOf(1, kept, 'b')).toBeUndefined();

    const newer = cache.storeDetail(1, { ...stamp, revision: 2 }, detailOf('second')).detail;
    expect(cache.jsonOf(1, newer, 'a')).toBeUndefined();
    expect(cache.jsonOf(1, kept, 'a')).toBeUndefined();
    cache.storeJson(1, kept, 'a', new RawJson('{"stale":true}'));
    expect(cache.jsonOf(1, newer, 'a')).toBeUndefined();
  });
});

describe('LoadedBugCache remembered visibility', () => {
  it('holds per caller for the version of the bug it was read with, and goes with that version', () => {
    const cache = new LoadedBugCache(ROOMY);
    const [member, outsider] = [{}, {}];
    const first = cache.storeDetail(7, stamp(1), detail('old'));
    cache.rememberVisibility(7, first.detail, member, true);
    cache.rememberVisibility(7, first.detail, outsider, false);
    expect(cache.rememberedVisibility(cache.current(7, stamp(1)), member)).toBe(true);
    expect(cache.rememberedVisibility(cache.current(7, stamp(1)), outsider)).toBe(false);
    expect(cache.rememberedVisibility(cache.peek(7), {})).toBeUndefined();

    // A new version of the bug knows nobody's visibility, and an answer read with the old one is not taken for it.
    const second = cache.storeDetail(7, stamp(2), detail('new'));
    expect(cache.rememberedVisibility(cache.peek(7), member)).toBeUndefined();
    cache.rememberVisibility(7, first.detail, member, true);
    expect(cache.rememberedVisibility(cache.peek(7), member)).toBeUndefined();
    cache.rememberVisibility(7, second.detail, member, false);
    expect(cache.rememberedVisibility(cache.current(7, stamp(2)), member)).toBe(false);
  });
});

describe('LoadedBugCache bounds', () => {
  const bug = (id: number) => ({ ...detail(`bug ${id}`), row: { id, summary: `bug ${id}` } as BugRow });

  it('keeps at most `entries` bugs, dropping the least recently stored', () => {
    const cache = new LoadedBugCache({ entries: 2, bytes: 1e9 });
    for (const id of [1, 2, 3]) cache.storeDetail(id, stamp(1), bug(id));
    expect([1, 2, 3].map((id) => cache.current(id, stamp(1)) !== undefined)).toEqual([false, true, true]);
  });

  it('keeps about `bytes` of bugs and their JSON, counting what is dropped back out', () => {
    const cache = new LoadedBugCache({ entries: 1000, bytes: 20_000 });
    const first = cache.storeDetail(1, stamp(1), bug(1));
    const one = cache.keptBytes;
    expect(one).toBeGreaterThan(0);
    cache.storeJson(1, first.detail, 'v', new RawJson('x'.repeat(4000)));
    expect(cache.keptBytes).toBe(one + 8000);
    for (let id = 2; id <= 60; id++) cache.storeDetail(id, stamp(1), bug(id));
    expect(cache.keptBytes).toBeLessThanOrEqual(20_000);
    expect(cache.current(1, stamp(1))).toBeUndefined();
    expect(cache.current(60, stamp(1))).toBeDefined();
    // A stale bug is dropped with its bytes.
    const before = cache.keptBytes;
    expect(cache.current(60, stamp(2))).toBeUndefined();
    expect(cache.keptBytes).toBeLessThan(before);
  });
});
