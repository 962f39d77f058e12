import type { Repository } from 'typeorm';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { inProcessDescribe } from '../support/in-process.js';
import { SettingsMarkService } from '../../src/audit/store/settings-mark.service.js';
import { Parameter } from '../../src/params/entities/parameter.entity.js';
import { WriteOutsideTransaction } from '../../src/database/written-tables.js';

/**
 * A write outside a transaction would move no settings mark, and every instance would keep serving the settings it
 * changed. The read handle's types refuse writes (src/database/read-sql.spec.ts); these show that one forced past
 * them (a cast, the query builder a read repository hands out) is refused at run time too, and writes nothing.
 */
inProcessDescribe('a write outside a transaction is refused', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const settingsMark = async () => (await t.app.get(SettingsMarkService).settingsMark()).mark;
  const maintainer = async () => (await t.db.read.repository(Parameter).findOneBy({ name: 'maintainer' }))?.value;
  /** The read handle's repository with its write methods, as a cast would give it. */
  const forced = () => t.db.read.repository(Parameter) as Repository<Parameter>;

  it.each([
    ['an entity update', () => forced().update({ name: 'maintainer' }, { value: 'outside@example.com' })],
    ['an entity insert', () => forced().insert({ name: 'outside_probe', value: 'x' })],
    ['an entity delete', () => forced().delete({ name: 'maintainer' })],
    ['an increment', () => forced().increment({ name: 'maintainer' }, 'value', 1)],
    ['a query-builder update', () => t.db.read.repository(Parameter).createQueryBuilder().update().set({ value: 'qb@example.com' }).where({ name: 'maintainer' }).execute()],
  ])('%s through the read handle', async (_write, write) => {
    const [mark, before] = [await settingsMark(), await maintainer()];
    await expect(write()).rejects.toThrow(WriteOutsideTransaction);
    expect(await maintainer()).toBe(before);
    expect(await t.db.read.repository(Parameter).existsBy({ name: 'outside_probe' })).toBe(false);
    expect(await settingsMark()).toBe(mark);
  });

  it('the same write in a transaction runs, and moves the mark', async () => {
    const mark = await settingsMark();
    await t.db.transaction((tx) => tx.repository(Parameter).update({ name: 'maintainer' }, { value: 'inside@example.com' }));
    expect(await maintainer()).toBe('inside@example.com');
    expect(await settingsMark()).toBe(mark + 1);
  });
});
