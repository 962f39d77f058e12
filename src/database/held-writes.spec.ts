import { combineHeldWrites, insertSql, updateSql, type CombinableStatement, type WriteShape } from './held-writes.js';

const head = (table: string) => `INSERT INTO \`${table}\` (\`a\`, \`b\`) VALUES `;

function insert(table: string, ...rows: Array<[unknown, unknown]>): CombinableStatement {
  const shape: WriteShape = { kind: 'insert', table, head: head(table), row: '(?, ?)', rows: rows.length };
  return { sql: insertSql(shape.head, shape.row, rows.length), params: rows.flat(), shape };
}

const bump = { column: '`revision`', expression: '`revision` + 1' };

function update(id: number, values: Record<string, unknown>): CombinableStatement {
  const shape: WriteShape = {
    kind: 'update', table: 'bugs', target: '`bugs`',
    assignments: [...Object.keys(values).map((column) => ({ column: `\`${column}\`` })), bump], where: '`id` = ?',
  };
  return { sql: updateSql(shape), params: [...Object.values(values), id], shape };
}

const plain = (sql: string, ...params: unknown[]): CombinableStatement => ({ sql, params });
const texts = (statements: CombinableStatement[]) => statements.map((s) => [s.sql, s.params]);

describe('combineHeldWrites', () => {
  it('combines the rows of INSERTs of one table and column list into the later one, past writes of other tables', () => {
    const combined = combineHeldWrites([insert('mail', [1, 2]), plain('INSERT INTO `cc` (`x`) VALUES (?)', 7), insert('mail', [3, 4], [5, 6])]);
    expect(texts(combined)).toEqual([
      ['INSERT INTO `cc` (`x`) VALUES (?)', [7]],
      ['INSERT INTO `mail` (`a`, `b`) VALUES (?, ?), (?, ?), (?, ?)', [1, 2, 3, 4, 5, 6]],
    ]);
    expect(combined[1].shape).toMatchObject({ rows: 3 });
  });

  it('combines UPDATEs of the same rows: a later value wins, a version moves once', () => {
    const combined = combineHeldWrites([update(1001, { status: 'A', whiteboard: 'w' }), insert('history', [1, 2]), update(1001, { status: 'B', summary: 's' })]);
    expect(texts(combined)).toEqual([
      ['INSERT INTO `history` (`a`, `b`) VALUES (?, ?)', [1, 2]],
      ['UPDATE `bugs` SET `status` = ?, `whiteboard` = ?, `revision` = `revision` + 1, `summary` = ? WHERE `id` = ?', ['B', 'w', 's', 1001]],
    ]);
  });

  it('leaves UPDATEs of different rows apart', () => {
    const statements = [update(1, { status: 'A' }), update(2, { status: 'B' })];
    expect(combineHeldWrites(statements)).toEqual(statements);
  });

  it('moves nothing past another statement touching the table: a DELETE between two INSERTs keeps all three', () => {
    const statements = [insert('cc', [1, 3]), plain('DELETE FROM `cc` WHERE `a` = ?', 1), insert('cc', [1, 3])];
    expect(combineHeldWrites(statements)).toEqual(statements);
  });

  it('moves nothing across a statement that is not a write (a savepoint, a lock, a held read)', () => {
    for (const barrier of ['SAVEPOINT tracker_step_1', 'SELECT `id` FROM `bugs` WHERE `id` IN (?) FOR UPDATE', 'ROLLBACK TO SAVEPOINT tracker_step_1']) {
      const statements = [insert('mail', [1, 2]), plain(barrier), insert('mail', [3, 4])];
      expect(combineHeldWrites(statements)).toEqual(statements);
    }
  });

  it('keeps a held row id beside its INSERT: a session variable SET is passed, never a target', () => {
    const comment = { ...plain('INSERT INTO `comments` (`t`) VALUES (?)', 'c'), answer: {} };
    const set = plain('SET @tracker_new_row_1 = LAST_INSERT_ID()');
    const combined = combineHeldWrites([insert('history', [1, 2]), comment, set, insert('history', [3, '@v'])]);
    expect(combined.map((s) => s.sql)).toEqual([comment.sql, set.sql, 'INSERT INTO `history` (`a`, `b`) VALUES (?, ?), (?, ?)']);
  });

  it('never combines a write whose answer someone waits for, nor INSERTs of other columns', () => {
    const answered = { ...insert('mail', [1, 2]), answer: {} };
    expect(combineHeldWrites([answered, insert('mail', [3, 4])])).toHaveLength(2);
    const other: CombinableStatement = { ...insert('mail', [5, 6]), shape: { kind: 'insert', table: 'mail', head: 'INSERT INTO `mail` (`a`, `c`) VALUES ', row: '(?, ?)', rows: 1 } };
    expect(combineHeldWrites([insert('mail', [3, 4]), other])).toHaveLength(2);
  });

  it('stops at 500 rows in one INSERT', () => {
    const many = Array.from({ length: 300 }, (_, i) => [i, i] as [number, number]);
    const combined = combineHeldWrites([insert('mail', ...many), insert('mail', ...many)]);
    expect(combined.map((s) => s.shape)).toEqual([expect.objectContaining({ rows: 300 }), expect.objectContaining({ rows: 300 })]);
  });
});
