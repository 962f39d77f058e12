import type { EntityTarget, ObjectLiteral } from 'typeorm';
import { BugDependency } from '../entities/bug-dependency.entity.js';
import { BugRegression } from '../entities/bug-regression.entity.js';
import type { BugGraph, Direction, GraphEdge } from '../bug.types.js';

/** Where each graph between bugs keeps its edges: the table, and the columns of an edge's upper and lower bug. */
export const GRAPH_TABLES = {
  dependencies: { entity: BugDependency, upper: 'blockedId', lower: 'dependsOnId' },
  regressions: { entity: BugRegression, upper: 'regressionId', lower: 'regressedById' },
} as const;

/** A graph's table, its rows read as plain objects keyed by property. */
export function edgeTable(graph: BugGraph['name']): EntityTarget<ObjectLiteral> {
  return GRAPH_TABLES[graph].entity;
}

/** An edge as a row of its graph's table. */
export function edgeRow(graph: BugGraph['name'], edge: GraphEdge): ObjectLiteral {
  const table = GRAPH_TABLES[graph];
  return { [table.upper]: edge.upperId, [table.lower]: edge.lowerId };
}

/** The graph of a direction, and the properties a walk in that direction goes from and to. */
export function walkOf(direction: Direction): { graph: BugGraph['name']; from: string; to: string } {
  const graph = direction === 'depends_on' || direction === 'blocks' ? 'dependencies' : 'regressions';
  const { upper, lower } = GRAPH_TABLES[graph];
  const downwards = direction === 'depends_on' || direction === 'regressed_by';
  return { graph, from: downwards ? upper : lower, to: downwards ? lower : upper };
}
