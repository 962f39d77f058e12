import { ADMIN_API_KEY, ADMIN_LOGIN, startTestApp, type TestApp } from '../support/test-app.js';
import { ChangeRecorderService } from '../../src/bug/change-recorder.service.js';
import type { ActivityEntry } from '../../src/bug/bug.types.js';
import { Attachment } from '../../src/attachment/entities/attachment.entity.js';
import { insertRows } from '../../src/database/entity-rows.js';
import { inProcessDescribe } from '../support/in-process.js';
import { expectSqlSnapshot, recordSql } from '../support/sql-snapshots.js';
import { inProcess, itWhen, needsFastPaths } from '../support/conditions.js';
import { expectError, fileBug } from './bug-fixtures.js';

describe('Bug history (GET /rest/bug/(id)/history) and the change recorder', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  itWhen(inProcess, needsFastPaths)('the bugs\' visibility rides with the caller\'s key: no statement of its own (records statements)', async () => {
    const id = await fileBug(t);
    expect((await t.put(`/bug/${id}`, { whiteboard: 'history' }, { key: ADMIN_API_KEY })).status).toBe(200);
    const history = () => t.get(`/bug/${id}/history`, { key: ADMIN_API_KEY });
    expect((await history()).body.bugs[0].history[0].changes).toEqual([{ field_name: 'whiteboard', removed: '', added: 'history' }]);
    expectSqlSnapshot('bug/sql/bug-history', 'A warm Bug History by API key', await recordSql(history));
  });

  it('an unknown bug is 101, an unknown alias 100', async () => {
    expectError(await t.get('/bug/987654/history'), 101, 404);
    expectError(await t.get('/bug/no-alias/history'), 100, 400);
  });

  // A history of fixed times and attachment ids, written through the change recorder and the attachments' entity.
  inProcessDescribe('of changes the change recorder wrote', () => {
    let dev: { id: number; login: string; apiKey: string };
    let bug: number;
    let other: number;

    const record = (entries: Array<Partial<ActivityEntry> & Pick<ActivityEntry, 'field' | 'removed' | 'added' | 'at'>>) =>
      t.db.transaction((tx) => t.app.get(ChangeRecorderService).record(tx, entries.map((e) => ({ bugId: bug, userId: 1, ...e }))));

    beforeAll(async () => {
      dev = await t.createUser('dev@example.com');
      bug = await fileBug(t, { alias: ['hist'] });
      other = await fileBug(t);
      // Two attachment rows through their entity (the history below names them by id), the second private.
      const attachment = (summary: string, fileName: string, isPrivate: boolean) => ({
        bugId: bug, creationTime: '2020-01-01 00:00:00', lastChangeTime: '2020-01-01 00:00:00', summary, contentType: 'text/plain',
        isPatch: false, fileName, creatorId: 1, isObsolete: false, isPrivate, size: 1,
      });
      await t.db.transaction((tx) => insertRows(tx.repository(Attachment), [attachment('public', 'a.txt', false), attachment('private', 'b.txt', true)]));
      await record([
        { at: '2021-01-01 10:00:00', field: 'priority', removed: '---', added: 'High' },
        { at: '2021-01-01 10:00:00', field: 'status', removed: 'CONFIRMED', added: 'IN_PROGRESS' },
        { at: '2021-01-01 10:00:00', userId: dev.id, field: 'cc', removed: '', added: dev.login },
        { at: '2021-01-02 09:30:00', field: 'remaining_time', removed: '5.00', added: '3' },
        { at: '2021-01-02 09:30:00', field: 'flagtypes.name', removed: '', added: 'review?', attachmentId: 1 },
        { at: '2021-01-02 09:30:00', field: 'attachments.isobsolete', removed: '0', added: '1', attachmentId: 2 },
        { at: '2021-01-03 08:00:00', field: 'longdescs.isprivate', removed: '0', added: '1', commentId: 1 },
        { at: '2021-01-03 08:00:00', field: 'bug_severity', removed: 'normal', added: 'major' },
      ]);
    });

    it('one item per change set (same time and person), oldest first, with API field names', async () => {
      await t.setParameters({ insidergroup: 'admin' });
      try {
        const res = await t.get(`/bug/${bug}/history`, { key: ADMIN_API_KEY });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ bugs: [{ id: bug, alias: ['hist'], history: [
          { when: '2021-01-01T10:00:00Z', who: ADMIN_LOGIN, changes: [
            { field_name: 'priority', removed: '---', added: 'High' },
            { field_name: 'status', removed: 'CONFIRMED', added: 'IN_PROGRESS' },
          ] },
          { when: '2021-01-01T10:00:00Z', who: dev.login, changes: [{ field_name: 'cc', removed: '', added: dev.login }] },
          { when: '2021-01-02T09:30:00Z', who: ADMIN_LOGIN, changes: [
            { field_name: 'remaining_time', removed: '5.00', added: '3' },
            { field_name: 'flagtypes.name', removed: '', added: 'review?', attachment_id: 1 },
            { field_name: 'attachments.isobsolete', removed: '0', added: '1', attachment_id: 2 },
          ] },
          // Within a second, the rows of no comment first (Bugzilla orders by time, then comment).
          { when: '2021-01-03T08:00:00Z', who: ADMIN_LOGIN, changes: [
            { field_name: 'severity', removed: 'normal', added: 'major' },
            { field_name: 'longdescs.isprivate', removed: '0', added: '1' },
          ] },
        ] }] });
      } finally {
        await t.setParameters({ insidergroup: '' });
      }
    });

    it('joins the rows of one field that follow each other in a change set into one change, as Bugzilla\'s join_activity_entries', async () => {
      const joined = await fileBug(t);
      const at = '2021-02-01 12:00:00';
      await record([
        { field: 'keywords', removed: '', added: 'crash' },
        { field: 'keywords', removed: '', added: 'hang' },
        { field: 'dependson', removed: '', added: '5' },
        { field: 'dependson', removed: '', added: '7' },
        { field: 'bug_file_loc', removed: '', added: 'https://example.com/a' },
        { field: 'bug_file_loc', removed: '', added: 'bc' },
        { field: 'cc', removed: '', added: 'a@example.com' },
        { field: 'cc', removed: 'b@example.com', added: ', c@example.com' },
        { field: 'whiteboard', removed: '', added: 'x' },
        { field: 'priority', removed: '---', added: 'High' },
        { field: 'whiteboard', removed: 'x', added: 'y' },
        { userId: dev.id, field: 'whiteboard', removed: 'y', added: 'z' },
      ].map((e) => ({ ...e, at, bugId: joined })));
      const { history } = (await t.get(`/bug/${joined}/history`, { key: ADMIN_API_KEY })).body.bugs[0];
      expect(history).toEqual([
        { when: '2021-02-01T12:00:00Z', who: ADMIN_LOGIN, changes: [
          { field_name: 'keywords', removed: '', added: 'crash hang' },
          { field_name: 'depends_on', removed: '', added: '5, 7' },
          { field_name: 'url', removed: '', added: 'https://example.com/abc' },
          { field_name: 'cc', removed: 'b@example.com', added: 'a@example.com, c@example.com' },
          // Not one after the other: separate changes.
          { field_name: 'whiteboard', removed: '', added: 'x' },
          { field_name: 'priority', removed: '---', added: 'High' },
          { field_name: 'whiteboard', removed: 'x', added: 'y' },
        ] },
        { when: '2021-02-01T12:00:00Z', who: dev.login, changes: [{ field_name: 'whiteboard', removed: 'y', added: 'z' }] },
      ]);
    });

    it('hides private-attachment changes and comments made private from non-insiders', async () => {
      const history = (await t.get(`/bug/${bug}/history`, { key: dev.apiKey })).body.bugs[0].history;
      const fields = history.flatMap((h: any) => h.changes.map((c: any) => c.field_name));
      expect(fields).not.toContain('attachments.isobsolete');
      expect(fields).not.toContain('longdescs.isprivate');
      expect(fields).toContain('flagtypes.name');
    });

    it('hides time-tracking fields from those outside the time-tracking group', async () => {
      const tracker = (await t.get(`/bug/${bug}/history`, { key: dev.apiKey })).body.bugs[0].history;
      expect(tracker.flatMap((h: any) => h.changes.map((c: any) => c.field_name))).toContain('remaining_time');
      const anonymous = (await t.get(`/bug/${bug}/history`)).body.bugs[0].history;
      expect(anonymous.flatMap((h: any) => h.changes.map((c: any) => c.field_name))).not.toContain('remaining_time');
    });

    it('new_since keeps only changes strictly after it; a bad date is 56', async () => {
      const res = await t.get(`/bug/${bug}/history`, { query: { new_since: '2021-01-02T09:30:00Z' } });
      expect(res.body.bugs[0].history.map((h: any) => h.when)).toEqual(['2021-01-03T08:00:00Z']);
      expectError(await t.get(`/bug/${bug}/history`, { query: { new_since: 'yesterday' } }), 56, 400);
    });

    it('takes an alias and more bugs through ids; a bug without changes has an empty history', async () => {
      const res = await t.get('/bug/hist/history', { query: { ids: [other] } });
      expect(res.body.bugs.map((b: any) => [b.id, b.alias, b.history.length])).toEqual([[bug, ['hist'], 4], [other, [], 0]]);
    });

    it('the history is the bugs\' audit trail: the recorder writes no audit_log rows (class Tracker::Bug)', async () => {
      expect(await t.auditOf('Tracker::Bug', bug)).toEqual([]);
    });
  });
});
