/**
 * Dependency loop detection (updates.md `blocks`/`depends_on`, errors.md 116), after Bugzilla 5.0's
 * ValidateDependencies: the bug may not be on its own lists (dependency_loop_single), and no bug may be reachable
 * both downwards through `depends_on` and upwards through `blocks` (dependency_loop_multi). The bug's own current
 * edges are ignored, because the request replaces them. BMO's regressions follow the same rule in their own graph
 * (its validate_relationship over `regressed_by`/`regressions`, with the same errors).
 */
import { Errors, TrackerError } from '../common/errors/index.js';
import type { Sql } from '../database/sql.js';
import { DEPENDENCIES, type BugGraph, type Direction } from '../bug/bug.types.js';

export type { Direction };

/** The neighbours of each bug in one direction, as stored now (one query per level of the walk). */
export type NeighbourLookup = (ids: readonly number[], direction: Direction) => Promise<Map<number, number[]>>;

/** Every bug reachable from `start` in one direction, `start` included, never walking through `bugId`. */
async function reachable(bugId: number, start: readonly number[], direction: Direction, neighbours: NeighbourLookup): Promise<Set<number>> {
  const seen = new Set(start);
  let frontier = [...seen];
  while (frontier.length) {
    const next: number[] = [];
    const edges = await neighbours(frontier, direction);
    for (const id of frontier) {
      for (const other of edges.get(id) ?? []) {
        if (other === bugId || seen.has(other)) continue;
        seen.add(other);
        next.push(other);
      }
    }
    frontier = next;
  }
  return seen;
}

/** `down` and `up` are the bug's lists after the request in `graph` (depends_on and blocks by default). */
export async function checkDependencyLoops(
  bugId: number,
  down: readonly number[],
  up: readonly number[],
  neighbours: NeighbourLookup,
  graph: BugGraph = DEPENDENCIES,
): Promise<void> {
  if (down.includes(bugId) || up.includes(bugId)) throw TrackerError.of(Errors.DEPENDENCY_LOOP_SINGLE);
  // A loop through the bug needs a bug both below and above it.
  if (!down.length || !up.length) return;
  const below = await reachable(bugId, down, graph.down, neighbours);
  const above = await reachable(bugId, up, graph.up, neighbours);
  const both = [...below].filter((id) => above.has(id)).sort((a, b) => a - b);
  if (both.length) throw TrackerError.of(Errors.DEPENDENCY_LOOP_MULTI, { deps: both });
}

/** The stored dependency graph, read on a handle; `lock` asks for locking reads (BugRepository implements it). */
export interface StoredDependencyGraph {
  dependencyNeighbours(sql: Sql, ids: readonly number[], direction: Direction, options: { lock?: boolean }): Promise<Map<number, number[]>>;
}

/**
 * The rule over the stored graph, for Create and Update Bug alike: inside the transaction that writes the edges, with
 * locking reads on MySQL, so that two concurrent writes cannot each pass the check and close a loop together.
 */
export function checkStoredDependencyLoops(
  tx: Sql,
  graph: StoredDependencyGraph,
  bugId: number,
  down: readonly number[],
  up: readonly number[],
  which: BugGraph = DEPENDENCIES,
): Promise<void> {
  return checkDependencyLoops(bugId, down, up, (ids, direction) => graph.dependencyNeighbours(tx, ids, direction, { lock: true }), which);
}
