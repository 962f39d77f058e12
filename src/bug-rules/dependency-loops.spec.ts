import { checkDependencyLoops, checkStoredDependencyLoops, type Direction, type NeighbourLookup } from './dependency-loops.js';
import { REGRESSIONS } from '../bug/bug.types.js';
import type { Sql } from '../database/sql.js';
import { TrackerError } from '../common/errors/index.js';

/** A stored dependency graph: [blocked, dependsOn] pairs. */
function graph(edges: Array<[number, number]>): NeighbourLookup & { calls: number } {
  const lookup = async (ids: readonly number[], direction: Direction) => {
    lookup.calls++;
    const map = new Map<number, number[]>();
    for (const [blocked, dependsOn] of edges) {
      const [from, to] = direction === 'depends_on' || direction === 'regressed_by' ? [blocked, dependsOn] : [dependsOn, blocked];
      if (ids.includes(from)) map.set(from, [...(map.get(from) ?? []), to]);
    }
    return map;
  };
  lookup.calls = 0;
  return lookup;
}

const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof TrackerError) return [err.code, err.errorName];
    throw err;
  }
  return undefined;
};

describe('checkDependencyLoops', () => {
  it('refuses a bug on its own lists — 116 dependency_loop_single', async () => {
    expect(await codeOf(checkDependencyLoops(1, [1], [], graph([])))).toEqual([116, 'dependency_loop_single']);
    expect(await codeOf(checkDependencyLoops(1, [], [1], graph([])))).toEqual([116, 'dependency_loop_single']);
  });

  it('refuses a cycle through stored edges — 116 dependency_loop_multi', async () => {
    // 2 depends on 3; making 1 depend on 2 and block 3 closes 1 → 2 → 3 → 1.
    expect(await codeOf(checkDependencyLoops(1, [2], [3], graph([[2, 3]])))).toEqual([116, 'dependency_loop_multi']);
  });

  it('refuses the same bug on both lists', async () => {
    expect(await codeOf(checkDependencyLoops(1, [2], [2], graph([])))).toEqual([116, 'dependency_loop_multi']);
  });

  it('accepts a diamond and ignores the bug’s own current edges', async () => {
    // 1's current edges (1 blocks 5) are being replaced, so walking through 1 does not count.
    const lookup = graph([[2, 4], [3, 4], [5, 1]]);
    await expect(checkDependencyLoops(1, [2, 3], [5], lookup)).resolves.toBeUndefined();
    // One lookup per level and direction, not one per bug.
    expect(lookup.calls).toBeLessThanOrEqual(4);
  });

  it('walks nothing when the bug has no bug both below and above it', async () => {
    const lookup = graph([[2, 3], [3, 4]]);
    await expect(checkDependencyLoops(1, [2], [], lookup)).resolves.toBeUndefined();
    await expect(checkDependencyLoops(1, [], [2], lookup)).resolves.toBeUndefined();
    expect(lookup.calls).toBe(0);
  });
});

describe('checkDependencyLoops over BMO regressions (its validate_relationship)', () => {
  it('walks regressed_by and regressions, not dependencies, with the same errors', async () => {
    const walked: Direction[] = [];
    const lookup: NeighbourLookup = async (ids, direction) => {
      walked.push(direction);
      return graph([[2, 3]])(ids, direction);
    };
    expect(await codeOf(checkDependencyLoops(1, [1], [], lookup, REGRESSIONS))).toEqual([116, 'dependency_loop_single']);
    expect(await codeOf(checkDependencyLoops(1, [2], [3], lookup, REGRESSIONS))).toEqual([116, 'dependency_loop_multi']);
    expect(new Set(walked)).toEqual(new Set(['regressed_by', 'regressions']));
  });
});

describe('checkStoredDependencyLoops — the rule Create and Update Bug share', () => {
  it('reads the stored graph on the write\'s handle, with locking reads', async () => {
    const tx = { dialect: 'mysql' } as Sql;
    const calls: unknown[][] = [];
    const stored = graph([[2, 3]]);
    const repository = {
      dependencyNeighbours: (sql: Sql, ids: readonly number[], direction: 'depends_on' | 'blocks', options?: { lock?: boolean }) => {
        calls.push([sql, options]);
        return stored(ids, direction);
      },
    };
    expect(await codeOf(checkStoredDependencyLoops(tx, repository, 1, [2], [3]))).toEqual([116, 'dependency_loop_multi']);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call).toEqual([tx, { lock: true }]);
  });
});
