import { ADMIN_API_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { Db } from '../../src/database/db.service.js';
import { SettingsMarkService } from '../../src/audit/store/settings-mark.service.js';
import { Parameter } from '../../src/params/entities/parameter.entity.js';
import { Bug } from '../../src/bug/entities/bug.entity.js';
import { BugCc } from '../../src/bug/entities/bug-cc.entity.js';
import { updateRows } from '../../src/database/entity-rows.js';
import { toDbDateTime } from '../../src/common/time/datetime.js';

/**
 * The settings mark moves with every committed write of a settings table, by construction (ChangeMarkSubscriber), and
 * a bug's revision with every write of its row: values kept under them (parameters, callers, the catalogue, loaded
 * bugs) can never outlive a change, even one whose writer did not think of them.
 */
describe('the settings mark moves with settings, a bug\'s revision with the bug (change-mark subscriber)', () => {
  let t: TestApp;
  let db: Db;
  let marks: SettingsMarkService;
  beforeAll(async () => {
    t = await startTestApp();
    db = t.app.get(Db);
    marks = t.app.get(SettingsMarkService);
  });
  afterAll(() => t.close());

  const settingsMark = async () => (await marks.settingsMark()).mark;
  const revisionOf = async (id: number) => (await db.read.repository(Bug).findOneByOrFail({ id })).revision;
  const fileBug = async (summary: string) => {
    const filed = await t.post('/bug', { product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary }, { key: ADMIN_API_KEY });
    expect(filed.status).toBe(200);
    return Number(filed.body.id);
  };

  it('a repository write in a transaction moves the mark', async () => {
    const before = await settingsMark();
    await db.transaction((tx) => tx.repository(Parameter).update({ name: 'maintainer' }, { value: 'marked@example.com' }));
    expect(await settingsMark()).toBe(before + 1);
  });

  it('a query-builder delete moves the mark too', async () => {
    await db.transaction((tx) => tx.repository(Parameter).insert({ name: 'mark_probe', value: 'x' }));
    const before = await settingsMark();
    await db.transaction((tx) => tx.repository(Parameter).createQueryBuilder().delete().where({ name: 'mark_probe' }).execute());
    expect(await settingsMark()).toBe(before + 1);
  });

  it('a read-only transaction leaves the mark alone', async () => {
    const before = await settingsMark();
    await db.transaction((tx) => tx.repository(Parameter).findOneBy({ name: 'maintainer' }));
    expect(await settingsMark()).toBe(before);
  });

  it('a rolled-back write leaves the mark alone, and its note does not leak into the next transaction', async () => {
    const before = await settingsMark();
    await expect(db.transaction(async (tx) => {
      await tx.repository(Parameter).update({ name: 'maintainer' }, { value: 'never@example.com' });
      throw new Error('abandoned');
    })).rejects.toThrow('abandoned');
    await db.transaction((tx) => tx.repository(Parameter).findOneBy({ name: 'maintainer' }));
    expect(await settingsMark()).toBe(before);
  });

  it('a kept parameter follows a write made behind the service\'s back at once', async () => {
    expect((await t.get('/parameters', { key: ADMIN_API_KEY })).body.parameters.maintainer).toBe('marked@example.com');
    await db.transaction((tx) => tx.repository(Parameter).update({ name: 'maintainer' }, { value: 'kept@example.com' }));
    expect((await t.get('/parameters', { key: ADMIN_API_KEY })).body.parameters.maintainer).toBe('kept@example.com');
  });

  it('a write of a bug row moves its revision, through TypeORM and through updateRows alike', async () => {
    const id = await fileBug('revision');
    const first = await revisionOf(id);
    await db.transaction((tx) => tx.repository(Bug).update({ id }, { whiteboard: 'typeorm' }));
    expect(await revisionOf(id)).toBe(first + 1);
    await db.transaction((tx) => updateRows(tx.repository(Bug), { id }, { whiteboard: 'rows' }));
    expect(await revisionOf(id)).toBe(first + 2);
    expect((await t.put(`/bug/${id}`, { whiteboard: 'api' }, { key: ADMIN_API_KEY })).status).toBe(200);
    expect(await revisionOf(id)).toBe(first + 3);
  });

  it('a row a bug shows, written without touching the bug, moves the settings mark; written with it, not', async () => {
    const id = await fileBug('part of a bug');
    const before = await settingsMark();
    await db.transaction((tx) => tx.repository(BugCc).insert({ bugId: id, userId: 1 }));
    expect(await settingsMark()).toBe(before + 1);
    await db.transaction(async (tx) => {
      await tx.repository(BugCc).delete({ bugId: id, userId: 1 });
      await tx.repository(Bug).update({ id }, { lastChangeTime: toDbDateTime(new Date()) });
    });
    expect(await settingsMark()).toBe(before + 1);
  });

  it('a settings write moves the settings mark; activity (filing a bug, a comment, a session) does not', async () => {
    const settingsBefore = await settingsMark();
    const id = await fileBug('activity');
    expect((await t.post(`/bug/${id}/comment`, { comment: 'more activity' }, { key: ADMIN_API_KEY })).status).toBe(200);
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
