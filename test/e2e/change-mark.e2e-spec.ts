import { ADMIN_API_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { Db } from '../../src/database/db.service.js';
import { AuditService, auditMarkSql } from '../../src/audit/audit.service.js';
import { AuditLogEntry } from '../../src/audit/entities/audit-log-entry.entity.js';
import { CHANGE_MARK_CLASS } from '../../src/audit/audit.repository.js';
import { Parameter } from '../../src/params/entities/parameter.entity.js';
import { toDbDateTime } from '../../src/common/time/datetime.js';

/**
 * The audit mark moves with every committed write, by construction (ChangeMarkSubscriber): values kept under it
 * (parameters, callers, loaded bugs) can never outlive a change, even one whose writer did not audit it.
 */
describe('the audit mark moves with every write, the settings mark with settings (change-mark subscriber)', () => {
  let t: TestApp;
  let db: Db;
  let audit: AuditService;
  beforeAll(async () => {
    t = await startTestApp();
    db = t.app.get(Db);
    audit = t.app.get(AuditService);
  });
  afterAll(() => t.close());

  const auditMark = async (sql = db.read) => Number((await sql.one<{ mark: number }>(`SELECT ${auditMarkSql(sql.quote)} AS ${sql.quote('mark')}`))?.mark);
  const settingsMark = async () => (await audit.settingsMark()).mark;

  /** The Tracker::Change rows, newest last: each names the tables its transaction wrote. */
  const changeMarks = () => db.read.repository(AuditLogEntry).find({ where: { class: CHANGE_MARK_CLASS }, order: { id: 'ASC' } });

  it('a repository write in a transaction moves the mark, with one Tracker::Change row naming the table', async () => {
    const before = await auditMark();
    const marksBefore = (await changeMarks()).length;
    await db.transaction((tx) => tx.repository(Parameter).update({ name: 'maintainer' }, { value: 'marked@example.com' }));
    expect(await auditMark()).not.toBe(before);
    const marks = await changeMarks();
    expect(marks).toHaveLength(marksBefore + 1);
    expect(marks.at(-1)).toMatchObject({ userId: null, objectId: 0, field: 'tables', added: 'parameters' });
  });

  it('a query-builder delete moves the mark too', async () => {
    await db.transaction((tx) => tx.repository(Parameter).insert({ name: 'mark_probe', value: 'x' }));
    const before = await auditMark();
    await db.transaction((tx) => tx.repository(Parameter).createQueryBuilder().delete().where({ name: 'mark_probe' }).execute());
    expect(await auditMark()).not.toBe(before);
  });

  it('a hand-written write (Sql.run) inside a transaction moves the mark', async () => {
    const before = await auditMark();
    await db.transaction((tx) => tx.run(`UPDATE ${tx.quote('parameters')} SET ${tx.quote('value')} = ? WHERE ${tx.quote('name')} = ?`, ['x', 'mark_probe']));
    expect(await auditMark()).not.toBe(before);
    expect((await changeMarks()).at(-1)!.added).toBe('parameters');
  });

  it('a read-only transaction leaves the mark alone', async () => {
    const before = await auditMark();
    await db.transaction(async (tx) => {
      await tx.repository(Parameter).findOneBy({ name: 'maintainer' });
      await auditMark(tx);
    });
    expect(await auditMark()).toBe(before);
  });

  it('a rolled-back write leaves the mark alone, and its note does not leak into the next transaction', async () => {
    const before = await auditMark();
    await expect(db.transaction(async (tx) => {
      await tx.repository(Parameter).update({ name: 'maintainer' }, { value: 'never@example.com' });
      throw new Error('abandoned');
    })).rejects.toThrow('abandoned');
    await db.transaction((tx) => tx.repository(Parameter).findOneBy({ name: 'maintainer' }));
    expect(await auditMark()).toBe(before);
  });

  it('a transaction that writes its own audit row gets no Tracker::Change row besides', async () => {
    const marksBefore = (await changeMarks()).length;
    const before = await auditMark();
    await db.transaction(async (tx) => {
      await tx.repository(Parameter).update({ name: 'maintainer' }, { value: 'audited@example.com' });
      await audit.record(tx, { userId: null, className: 'Tracker::Config', objectId: 0, field: 'maintainer', added: 'audited@example.com', at: toDbDateTime(new Date()) });
    });
    expect(await auditMark()).not.toBe(before);
    expect(await changeMarks()).toHaveLength(marksBefore);
  });

  it('a kept parameter follows an unaudited write at once, and last_audit_time does not count the marks', async () => {
    const lastAudit = (await t.get('/last_audit_time')).body.last_audit_time;
    expect((await t.get('/parameters', { key: ADMIN_API_KEY })).body.parameters.maintainer).toBe('audited@example.com');
    await db.transaction((tx) => tx.repository(Parameter).update({ name: 'maintainer' }, { value: 'kept@example.com' }));
    expect((await t.get('/parameters', { key: ADMIN_API_KEY })).body.parameters.maintainer).toBe('kept@example.com');
    expect((await t.get('/last_audit_time')).body.last_audit_time).toBe(lastAudit);
  });

  it('a settings write moves the settings mark; activity (filing a bug, a comment, a session) does not', async () => {
    const settingsBefore = await settingsMark();
    const auditBefore = await auditMark();
    const filed = await t.post('/bug', { product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'activity' }, { key: ADMIN_API_KEY });
    expect(filed.status).toBe(200);
    expect(await auditMark()).not.toBe(auditBefore);
    expect(await settingsMark()).toBe(settingsBefore);

    await db.transaction((tx) => tx.repository(Parameter).update({ name: 'maintainer' }, { value: 'settings@example.com' }));
    expect(await settingsMark()).toBe(settingsBefore + 1);
  });

  it('a raw write to a table without an entity counts as settings (a forgotten mark costs speed, never correctness)', async () => {
    const before = await settingsMark();
    await db.transaction((tx) => tx.run(`UPDATE ${tx.quote('parameters')} SET ${tx.quote('value')} = ? WHERE ${tx.quote('name')} = ?`, ['y', 'mark_probe']));
    expect(await settingsMark()).toBe(before + 1);
  });

  it('Create Bug sees a catalogue change at once, though it keeps catalogue reads under the settings mark', async () => {
    const bug = { product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'kept catalogue' };
    expect((await t.post('/bug', bug, { key: ADMIN_API_KEY })).status).toBe(200);
    const renamed = await t.put('/component/TestProduct/TestComponent', { name: 'RenamedComponent' }, { key: ADMIN_API_KEY });
    expect(renamed.status).toBe(200);
    const stale = await t.post('/bug', bug, { key: ADMIN_API_KEY });
    expect({ status: stale.status, code: stale.body.code }).toEqual({ status: 404, code: 51 });
    expect((await t.post('/bug', { ...bug, component: 'RenamedComponent' }, { key: ADMIN_API_KEY })).status).toBe(200);
  });
});
