import { writeTarget } from './written-tables.js';

/** `column = ?` — its value is the statement's next bound parameter — or `column = expression` (a version's move). */
export interface Assignment {
  /** The column's escaped name. */
  column: string;
  expression?: string;
}

/**
 * What a held write is, so that it can be combined with a later one of its kind (combineHeldWrites): an INSERT of
 * rows with one column list (`head` is its text up to VALUES, `row` one row's placeholders), or an UPDATE setting
 * `assignments` on the rows `where` names, its bound values first and the condition's after.
 */
export type WriteShape =
  | { kind: 'insert'; table: string; head: string; row: string; rows: number }
  | { kind: 'update'; table: string; target: string; assignments: readonly Assignment[]; where: string };

/** A held statement as combineHeldWrites sees it: one with an answer someone waits for is never combined. */
export interface CombinableStatement {
  sql: string;
  params: readonly unknown[];
  shape?: WriteShape;
  answer?: unknown;
}

/** The INSERT of `rows` rows of `head`'s columns. */
export function insertSql(head: string, row: string, rows: number): string {
  return `${head}${Array.from({ length: rows }, () => row).join(', ')}`;
}

/** At most this many rows in one combined INSERT: its bound parameters stay well under MySQL's 65,535. */
const MOST_ROWS = 500;

/** Statements that change no table and stay where they are: a held row id's session variable (runInsertHeld). */
const SESSION_VARIABLE = /^\s*SET\s+@/i;

/**
 * The held writes of a transaction as fewer statements, for the query that carries them (issue 13): a write is
 * combined with the last earlier one of its table when both are of one shape — the rows of INSERTs with one column
 * list, the assignments of UPDATEs of the rows one condition names (a later value of a column wins; a version moved
 * by both moves once) — and no statement between them touches that table. The combined statement takes the later
 * one's place: the earlier write moves later, past writes of other tables only, so whatever its rows name (a row id
 * in a session variable, a parent row) is still written before it. Nothing moves across a statement that is neither
 * a write nor a session variable's SET: a savepoint, a lock, a read. A shared Update Bug transaction so writes the
 * bug's row, its history and its outbox once for all its requests.
 */
export function combineHeldWrites<T extends CombinableStatement>(statements: readonly T[]): T[] {
  const out: Array<T | undefined> = [];
  /** Per table, where in `out` the last statement touching it is. */
  const lastOfTable = new Map<string, number>();
  let barrier = -1;
  for (const statement of statements) {
    if (SESSION_VARIABLE.test(statement.sql)) {
      out.push(statement);
      continue;
    }
    const table = statement.shape?.table ?? writeTarget(statement.sql);
    if (table === undefined) {
      barrier = out.push(statement) - 1;
      continue;
    }
    const at = lastOfTable.get(table);
    const earlier = at !== undefined && at > barrier ? out[at] : undefined;
    const combined = earlier ? combinedPair(earlier, statement) : undefined;
    if (combined) out[at!] = undefined;
    lastOfTable.set(table, out.push(combined ?? statement) - 1);
  }
  return out.filter((statement): statement is T => statement !== undefined);
}

/** `earlier` and `later` as one statement, or undefined when they cannot be. */
function combinedPair<T extends CombinableStatement>(earlier: T, later: T): T | undefined {
  const [a, b] = [earlier.shape, later.shape];
  if (!a || !b || earlier.answer || later.answer) return undefined;
  if (a.kind === 'insert' && b.kind === 'insert') {
    if (a.head !== b.head || a.row !== b.row || a.rows + b.rows > MOST_ROWS) return undefined;
    const rows = a.rows + b.rows;
    return { ...later, sql: insertSql(a.head, a.row, rows), params: [...earlier.params, ...later.params], shape: { ...a, rows } };
  }
  if (a.kind === 'update' && b.kind === 'update') return combinedUpdate(earlier, a, later, b);
  return undefined;
}

function combinedUpdate<T extends CombinableStatement>(earlier: T, a: Extract<WriteShape, { kind: 'update' }>, later: T, b: Extract<WriteShape, { kind: 'update' }>): T | undefined {
  const [setA, whereA] = splitUpdateParams(a, earlier.params);
  const [setB, whereB] = splitUpdateParams(b, later.params);
  if (a.where !== b.where || whereA.length !== whereB.length || whereA.some((value, i) => value !== whereB[i])) return undefined;
  const values = new Map<string, { assignment: Assignment; value?: unknown }>();
  const put = (assignments: readonly Assignment[], bound: readonly unknown[]) => {
    let next = 0;
    for (const assignment of assignments) values.set(assignment.column, { assignment, ...(assignment.expression === undefined ? { value: bound[next++] } : {}) });
  };
  put(a.assignments, setA);
  put(b.assignments, setB);
  const assignments = [...values.values()].map(({ assignment }) => assignment);
  const bound = [...values.values()].filter(({ assignment }) => assignment.expression === undefined).map(({ value }) => value);
  const shape = { ...a, assignments };
  return { ...later, sql: updateSql(shape), params: [...bound, ...whereA], shape };
}

function splitUpdateParams(shape: Extract<WriteShape, { kind: 'update' }>, params: readonly unknown[]): [unknown[], unknown[]] {
  const bound = shape.assignments.filter((assignment) => assignment.expression === undefined).length;
  return [params.slice(0, bound), params.slice(bound)];
}

/** The UPDATE `shape` describes. */
export function updateSql(shape: Pick<Extract<WriteShape, { kind: 'update' }>, 'target' | 'assignments' | 'where'>): string {
  const set = shape.assignments.map(({ column, expression }) => `${column} = ${expression ?? '?'}`);
  return `UPDATE ${shape.target} SET ${set.join(', ')} WHERE ${shape.where}`;
}
