import { executeBatch, NamedStatements, type SqlText } from './named-statements.js';

/** Escaping as the driver does it, enough for these statements. */
const text: SqlText = {
  escape: (value) => (typeof value === 'string' ? `'${value.replace(/'/g, "\\'")}'` : String(value)),
  format: (sql, params) => {
    let next = 0;
    return sql.replace(/\?/g, () => text.escape(params[next++]));
  },
};

describe('NamedStatements', () => {
  it('prepares a statement once, then names it', () => {
    const named = new NamedStatements(2);
    expect(named.nameOf(text, 'SELECT ?')).toEqual({ name: 'tracker_held_1', prepare: "PREPARE tracker_held_1 FROM 'SELECT ?'" });
    expect(named.nameOf(text, 'SELECT ?')).toEqual({ name: 'tracker_held_1' });
  });

  it('once every name is taken, prepares the least recently used name anew: never more names than its capacity', () => {
    const named = new NamedStatements(2);
    named.nameOf(text, 'A ?');
    named.nameOf(text, 'B ?');
    named.nameOf(text, 'A ?');
    expect(named.nameOf(text, 'C ?')).toEqual({ name: 'tracker_held_2', prepare: "PREPARE tracker_held_2 FROM 'C ?'" });
    expect(named.nameOf(text, 'A ?')).toEqual({ name: 'tracker_held_1' });
    expect(named.nameOf(text, 'B ?').prepare).toBe("PREPARE tracker_held_2 FROM 'B ?'");
  });

  it('forgets names whose PREPARE may not have run: their statements are prepared again', () => {
    const named = new NamedStatements(4);
    named.nameOf(text, 'A ?');
    named.nameOf(text, 'B ?');
    named.forget(new Set(['tracker_held_2']));
    expect(named.nameOf(text, 'A ?').prepare).toBeUndefined();
    expect(named.nameOf(text, 'B ?').prepare).toBe("PREPARE tracker_held_2 FROM 'B ?'");
  });
});

describe('executeBatch', () => {
  it('sends statements with values as EXECUTEs, the others as they are, and points at each one\'s answer', () => {
    const connection = { ...text };
    const statements = [
      { sql: 'START TRANSACTION', params: [] },
      { sql: 'INSERT INTO t (a, b) VALUES (?, ?)', params: ['x', 1] },
      { sql: 'COMMIT', params: [] },
    ];
    const first = executeBatch(connection, statements);
    expect(first.sql).toEqual([
      'START TRANSACTION',
      "PREPARE tracker_held_1 FROM 'INSERT INTO t (a, b) VALUES (?, ?)'",
      "EXECUTE tracker_held_1 USING 'x', 1",
      'COMMIT',
    ]);
    expect(first.positions).toEqual([0, 2, 3]);
    // The connection holds it now; a failed query that prepared nothing leaves it so.
    expect(executeBatch(connection, statements).sql).toEqual(['START TRANSACTION', "EXECUTE tracker_held_1 USING 'x', 1", 'COMMIT']);
    executeBatch(connection, statements).failed();
    expect(executeBatch(connection, statements).sql).toEqual(['START TRANSACTION', "EXECUTE tracker_held_1 USING 'x', 1", 'COMMIT']);
  });

  it('writes the values into a statement with values that cannot be prepared: the query binds none', () => {
    const batch = executeBatch({ ...text }, [{ sql: 'SET @mark = ?', params: ['x'] }, { sql: 'COMMIT', params: [] }]);
    expect(batch.sql).toEqual(["SET @mark = 'x'", 'COMMIT']);
    expect(batch.positions).toEqual([0, 1]);
  });

  it('prepares again, on the next query, what a failed query was to prepare; each connection has its own names', () => {
    const connection = { ...text };
    const statements = [{ sql: 'UPDATE t SET a = ?', params: [1] }];
    executeBatch(connection, statements).failed();
    expect(executeBatch(connection, statements).sql).toEqual(["PREPARE tracker_held_1 FROM 'UPDATE t SET a = ?'", 'EXECUTE tracker_held_1 USING 1']);
    expect(executeBatch({ ...text }, statements).sql[0]).toBe("PREPARE tracker_held_1 FROM 'UPDATE t SET a = ?'");
  });
});
