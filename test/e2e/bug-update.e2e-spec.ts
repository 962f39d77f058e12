import { ADMIN_API_KEY, ADMIN_LOGIN, startTestApp, withoutKeptWriteChecks, type TestApp } from '../support/test-app.js';
import { inProcessIt, loginNamed, named } from '../support/in-process.js';
import { expectSqlSnapshot, recordSql } from '../support/sql-snapshots.js';
import { describeWhen, inProcess, itWhen, needsFastPaths } from '../support/conditions.js';
import type { Logger } from 'typeorm';
import { CountingLogger, queryCounter } from '../../src/database/counting-logger.js';
import { clearMailQueue, expectError, fileBug, letSecondPass, productGroup, queuedMail, restrictBugs, setProductControl } from './bug-fixtures.js';
import { FieldDefinition } from '../../src/field/entities/field-definition.entity.js';
import { FieldValue } from '../../src/field/entities/field-value.entity.js';
import {
  addCustomField, addFlagType, addKeyword, commentsOf, customFieldNamed, expectUncoded, getBug, historyOf, plainUser, presentedComments, update, updated,
} from './bug-update-fixtures.js';

const DATETIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

describe('Update Bug (PUT /rest/bug/(id_or_alias)): fields, object shapes, response, history', () => {
  let t: TestApp;
  let dev: { id: number; login: string; apiKey: string };
  let other: { id: number; login: string; apiKey: string };
  beforeAll(async () => {
    t = await startTestApp();
    dev = await t.createUser(loginNamed('dev'));
    other = await t.createUser(loginNamed('other'));
  });
  afterAll(() => t.close());

  describe('naming the bugs', () => {
    it('answers {bugs: [{id, alias, last_change_time, changes}]} for the bug of the path', async () => {
      const id = await fileBug(t);
      const res = await update(t, id, { summary: 'Changed summary' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        bugs: [{ id, alias: [], last_change_time: expect.stringMatching(DATETIME), changes: { summary: { removed: 'A bug', added: 'Changed summary' } } }],
      });
    });

    it('refuses an anonymous caller — 410', async () => {
      const id = await fileBug(t);
      expectError(await t.put(`/bug/${id}`, { summary: 'x' }), 410, 401);
    });

    it('an unknown id is 101/404, an unknown alias 100/400', async () => {
      expectError(await update(t, 999999, { summary: 'x' }), 101, 404);
      expectError(await update(t, 'no-such-alias', { summary: 'x' }), 100, 400);
      // The bugs are checked before the body, as in Bugzilla.
      expectError(await update(t, 999999, { summary: { not: 'a string' } }), 101, 404);
    });

    it('combines the path with body ids, answers in request order, and accepts an alias in the path', async () => {
      const pathAlias = named('path-alias');
      const a = await fileBug(t, { alias: [pathAlias] });
      const b = await fileBug(t);
      const res = await t.put(`/bug/${pathAlias}`, { ids: [b, a], whiteboard: 'both' }, { key: ADMIN_API_KEY });
      expect(res.status).toBe(200);
      expect(res.body.bugs.map((x: any) => x.id)).toEqual([a, b]);
      expect(res.body.bugs[0].alias).toEqual([pathAlias]);
      for (const bug of res.body.bugs) expect(bug.changes).toEqual({ whiteboard: { removed: '', added: 'both' } });
    });

    it('a query-string value overrides the body (protocol rule 4)', async () => {
      const id = await fileBug(t);
      const res = await t.put(`/bug/${id}`, { whiteboard: 'from body' }, { key: ADMIN_API_KEY, query: { whiteboard: 'from query' } });
      expect(updated(res).changes.whiteboard.added).toBe('from query');
    });
  });

  describe('last_change_time', () => {
    it('stays the previous time when nothing changed, moves when something did (a comment counts)', async () => {
      const id = await fileBug(t);
      const before = (await getBug(t, id)).last_change_time;
      await letSecondPass(t);
      const same = updated(await update(t, id, { summary: 'A bug', priority: (await getBug(t, id)).priority }));
      expect(same).toEqual({ id, alias: [], last_change_time: before, changes: {} });
      const commented = updated(await update(t, id, { comment: { body: 'just a comment' } }));
      expect(commented.changes).toEqual({});
      expect(commented.last_change_time).not.toBe(before);
      expect((await getBug(t, id)).last_change_time).toBe(commented.last_change_time);
    });
  });

  describe('plain fields', () => {
    it('select fields take legal values; unknown is 51/404, empty is 50/400', async () => {
      const id = await fileBug(t);
      const res = updated(await update(t, id, { op_sys: 'linux', platform: 'PC', priority: 'High', severity: 'major' }));
      expect(res.changes).toMatchObject({ op_sys: { added: 'Linux' }, platform: { added: 'PC' }, priority: { added: 'High' }, severity: { added: 'major' } });
      expectError(await update(t, id, { op_sys: 'Plan9' }), 51, 404);
      expectError(await update(t, id, { priority: '' }), 50, 400);
      expectError(await update(t, id, { severity: 'huge' }), 51, 404);
    });

    // No route deactivates a value of a standard field: the test does it in the database.
    inProcessIt('an inactive value cannot be chosen — value_inactive 32000 (writes a field value)', async () => {
      const opSys = await t.db.read.repository(FieldDefinition).findOneByOrFail({ name: 'op_sys' });
      await t.db.transaction((tx) => tx.repository(FieldValue).update({ fieldId: opSys.id, value: 'Other' }, { isActive: false }));
      const id = await fileBug(t);
      expectUncoded(await update(t, id, { op_sys: 'Other' }), /value 'Other' is not active/);
      await t.db.transaction((tx) => tx.repository(FieldValue).update({ fieldId: opSys.id, value: 'Other' }, { isActive: true }));
    });

    it('summary must not be empty (107) nor over 255 characters (104)', async () => {
      const id = await fileBug(t);
      expectError(await update(t, id, { summary: '   ' }), 107, 400);
      expectError(await update(t, id, { summary: 'x'.repeat(256) }), 104, 400);
      expect(updated(await update(t, id, { summary: '  trimmed  ' })).changes.summary.added).toBe('trimmed');
    });

    it('url, whiteboard and the accessibility booleans ("0"/"1")', async () => {
      const id = await fileBug(t);
      const res = updated(await update(t, id, { url: 'http://example.com/x', whiteboard: 'wb', is_cc_accessible: false, is_creator_accessible: 'False' }));
      expect(res.changes).toEqual({
        url: { removed: '', added: 'http://example.com/x' },
        whiteboard: { removed: '', added: 'wb' },
        is_cc_accessible: { removed: '1', added: '0' },
        is_creator_accessible: { removed: '1', added: '0' },
      });
      const bug = await getBug(t, id);
      expect(bug).toMatchObject({ url: 'http://example.com/x', whiteboard: 'wb', is_cc_accessible: false, is_creator_accessible: false });
    });

    it('a value of the wrong shape is 53', async () => {
      const id = await fileBug(t);
      expectError(await update(t, id, { summary: { text: 'x' } }), 53, 400);
      expectError(await update(t, id, { cc: 'someone@example.com' }), 53, 400);
    });
  });

  describe('assignee and QA contact', () => {
    it('assigned_to takes a login; unknown is 51/404, empty is reassign_to_empty 50/400', async () => {
      const id = await fileBug(t);
      expect(updated(await update(t, id, { assigned_to: dev.login })).changes.assigned_to).toEqual({ removed: ADMIN_LOGIN, added: dev.login });
      expect((await getBug(t, id)).assigned_to).toBe(dev.login);
      expectError(await update(t, id, { assigned_to: 'nobody@example.com' }), 51, 404);
      expectError(await update(t, id, { assigned_to: '' }), 50, 400);
    });

    it('reset_assigned_to goes back to the component default', async () => {
      const id = await fileBug(t, { assigned_to: dev.login });
      expect(updated(await update(t, id, { reset_assigned_to: true })).changes.assigned_to).toEqual({ removed: dev.login, added: ADMIN_LOGIN });
    });

    it('qa_contact is set by login, cleared by an empty value, reset to the component default (none)', async () => {
      await t.setParameters({ useqacontact: '1' });
      const id = await fileBug(t);
      expect(updated(await update(t, id, { qa_contact: dev.login })).changes.qa_contact).toEqual({ removed: '', added: dev.login });
      expect(updated(await update(t, id, { qa_contact: '' })).changes.qa_contact).toEqual({ removed: dev.login, added: '' });
      await update(t, id, { qa_contact: dev.login });
      expect(updated(await update(t, id, { reset_qa_contact: true })).changes.qa_contact).toEqual({ removed: dev.login, added: '' });
      expectError(await update(t, id, { qa_contact: 'ghost@example.com' }), 51, 404);
      await t.setParameters({ useqacontact: '0' });
    });
  });

  describe('cc {add, remove}', () => {
    it('adds and removes logins; re-adding or removing a stranger is a no-op', async () => {
      const id = await fileBug(t);
      expect(updated(await update(t, id, { cc: { add: [dev.login, other.login] } })).changes.cc).toEqual({ removed: '', added: `${dev.login}, ${other.login}` });
      expect(updated(await update(t, id, { cc: { add: [dev.login], remove: ['admin@example.com'] } })).changes).toEqual({});
      expect(updated(await update(t, id, { cc: { remove: [dev.login] } })).changes.cc).toEqual({ removed: dev.login, added: '' });
      expect((await getBug(t, id)).cc).toEqual([other.login]);
    });

    it('an unknown login is 51/404 and nothing is stored', async () => {
      const id = await fileBug(t);
      expectError(await update(t, id, { cc: { add: [dev.login, 'ghost@example.com'] } }), 51, 404);
      expect((await getBug(t, id)).cc).toEqual([]);
    });

    inProcessIt('only editbugs, the assignee or the QA contact remove others — cc_remove_denied 32000; anyone removes themselves (a caller outside editbugs)', async () => {
      const plain = await plainUser(t, 'cc-plain@example.com');
      const id = await fileBug(t, { cc: [plain.login, dev.login] });
      expectUncoded(await update(t, id, { cc: { remove: [dev.login] } }, plain.apiKey), /may not remove dev@example.com from the CC list/);
      expect(updated(await update(t, id, { cc: { remove: [plain.login] } }, plain.apiKey)).changes.cc).toEqual({ removed: plain.login, added: '' });
    });
  });

  describe('keywords {add, remove, set}', () => {
    const [crash, regression, perf, retired] = [named('crash'), named('regression'), named('perf'), named('retired')];
    beforeAll(async () => {
      for (const name of [crash, regression, perf]) await addKeyword(t, name);
      await addKeyword(t, retired, false);
    });

    it('add, remove and set, listed alphabetically in changes', async () => {
      const id = await fileBug(t);
      expect(updated(await update(t, id, { keywords: { add: [regression, crash] } })).changes.keywords).toEqual({ removed: '', added: `${crash}, ${regression}` });
      expect(updated(await update(t, id, { keywords: { remove: [crash] } })).changes.keywords).toEqual({ removed: crash, added: '' });
      expect(updated(await update(t, id, { keywords: { set: [perf, crash.toUpperCase()] } })).changes.keywords).toEqual({ removed: regression, added: `${crash}, ${perf}` });
      expect((await getBug(t, id)).keywords).toEqual([crash, perf]);
    });

    it('an unknown keyword is 51/404; an inactive one cannot be added (32000)', async () => {
      const id = await fileBug(t);
      expectError(await update(t, id, { keywords: { add: ['nope'] } }), 51, 404);
      expectUncoded(await update(t, id, { keywords: { add: [retired] } }), new RegExp(`keyword value '${retired}' is not active`));
    });
  });

  describe('alias {add, remove, set} (a plain string is set)', () => {
    it('sets, adds and removes aliases; the response lists the aliases after the change', async () => {
      const [first, second] = [named('first-alias'), named('second-alias')];
      const id = await fileBug(t);
      const set = updated(await update(t, id, { alias: first }));
      expect(set).toMatchObject({ alias: [first], changes: { alias: { removed: '', added: first } } });
      const added = updated(await update(t, id, { alias: { add: [second], remove: [first] } }));
      expect(added).toMatchObject({ alias: [second], changes: { alias: { removed: first, added: second } } });
      expect((await getBug(t, id)).alias).toEqual([second]);
    });

    it('refuses an alias in use, a numeric one, one with a space, one over 40 characters — 103', async () => {
      const taken = named('taken-alias');
      await fileBug(t, { alias: [taken] });
      const id = await fileBug(t);
      for (const alias of [taken, '12345', 'has space', 'x'.repeat(41)]) {
        expectError(await update(t, id, { alias: { add: [alias] } }), 103, 400);
      }
    });

    it('concurrent updates giving one alias to different bugs: one wins, the others get 103 naming its bug, never a 500', async () => {
      const raced = named('raced-alias');
      const ids = [await fileBug(t), await fileBug(t), await fileBug(t), await fileBug(t)];
      const results = await Promise.all(ids.map((id) => update(t, id, { alias: { add: [raced] } })));
      const won = ids.filter((_, i) => results[i].status === 200);
      expect(won).toHaveLength(1);
      for (const res of results.filter((r) => r.status !== 200)) {
        expectError(res, 103, 400);
        expect(res.body.message).toBe(`${raced} has already been taken as an alias by bug ${won[0]}.`);
      }
    });

    it('refuses any alias while updating several bugs — 103', async () => {
      const a = await fileBug(t);
      const b = await fileBug(t);
      expectError(await update(t, a, { ids: [b], alias: { add: ['multi-alias'] } }), 103, 400);
    });
  });

  describe('see_also {add, remove}', () => {
    it('adds a recognised bug URL, removes case-insensitively; a URL that names no bug is 112', async () => {
      const id = await fileBug(t);
      const url = 'https://bugzilla.mozilla.org/show_bug.cgi?id=123';
      expect(updated(await update(t, id, { see_also: { add: [url] } })).changes.see_also).toEqual({ removed: '', added: url });
      expectError(await update(t, id, { see_also: { add: ['https://example.com/'] } }), 112, 400);
      expect(updated(await update(t, id, { see_also: { remove: [url.toUpperCase()] } })).changes.see_also).toEqual({ removed: url, added: '' });
    });

    it('a link to another bug of this installation adds the reverse link there', async () => {
      await t.setParameters({ urlbase: 'http://tracker.example.com/' });
      const a = await fileBug(t);
      const b = await fileBug(t);
      updated(await update(t, a, { see_also: { add: [`http://tracker.example.com/show_bug.cgi?id=${b}`] } }));
      expect((await getBug(t, b)).see_also).toEqual([`http://tracker.example.com/show_bug.cgi?id=${a}`]);
      const last = (await historyOf(t, b)).pop()!;
      expect(last.changes).toEqual([{ field_name: 'see_also', removed: '', added: `http://tracker.example.com/show_bug.cgi?id=${a}` }]);
      // Another second: within the same one, the history would join the two rows of see_also into one change.
      await letSecondPass(t);
      updated(await update(t, a, { see_also: { remove: [`http://tracker.example.com/show_bug.cgi?id=${b}`] } }));
      expect((await getBug(t, b)).see_also).toEqual([]);
      // The reverse link's removal is history of the other bug too.
      expect((await historyOf(t, b)).pop()!.changes).toContainEqual({ field_name: 'see_also', removed: `http://tracker.example.com/show_bug.cgi?id=${a}`, added: '' });
      expectError(await update(t, a, { see_also: { add: [`http://tracker.example.com/show_bug.cgi?id=${a}`] } }), 112, 400);
      await t.setParameters({ urlbase: '' });
    });
  });

  describe('comments', () => {
    it('comment {body} or {comment} adds one comment; an empty body adds nothing; comment is not in changes', async () => {
      const id = await fileBug(t);
      expect(updated(await update(t, id, { comment: { body: 'first' } })).changes).toEqual({});
      await update(t, id, { comment: { comment: 'second' } });
      await update(t, id, { comment: { body: '   ' } });
      expect((await presentedComments(t, id)).map((c) => c.text)).toEqual(['', 'first', 'second']);
    });

    it('a private comment needs the insider group — 113', async () => {
      const id = await fileBug(t);
      expectError(await update(t, id, { comment: { body: 'secret', is_private: true } }), 113, 401);
      await t.setParameters({ insidergroup: 'admin' });
      updated(await update(t, id, { comment: { body: 'secret', is_private: true } }));
      expect((await presentedComments(t, id)).pop()).toMatchObject({ text: 'secret', is_private: true });
      await t.setParameters({ insidergroup: '' });
    });

    it('comment_is_private flips privacy for insiders (history longdescs.isprivate), 117 for another bug’s comment, 113 otherwise', async () => {
      const id = await fileBug(t);
      const elsewhere = await fileBug(t);
      const [description] = await presentedComments(t, id);
      const [foreign] = await presentedComments(t, elsewhere);
      expectError(await update(t, id, { comment_is_private: { [description.id]: true } }), 113, 401);
      await t.setParameters({ insidergroup: 'admin' });
      expectError(await update(t, id, { comment_is_private: { [foreign.id]: true } }), 117, 400);
      const res = updated(await update(t, id, { comment_is_private: { [description.id]: true } }));
      expect(res.changes).toEqual({});
      expect((await presentedComments(t, id))[0].is_private).toBe(true);
      const last = (await historyOf(t, id)).pop()!;
      expect(last.changes).toEqual([{ field_name: 'longdescs.isprivate', removed: '0', added: '1' }]);
      // An unchanged value is ignored, even for a non-insider.
      await t.setParameters({ insidergroup: '' });
      expect(updated(await update(t, id, { comment_is_private: { [description.id]: true } }))).toMatchObject({ changes: {} });
    });
  });

  describe('time tracking', () => {
    it('estimated_time / remaining_time / deadline: removed with two decimals, added as sent', async () => {
      const id = await fileBug(t);
      const res = updated(await update(t, id, { estimated_time: 10.5, remaining_time: '6', deadline: '2030-05-01' }));
      expect(res.changes).toEqual({
        estimated_time: { removed: '0.00', added: '10.5' },
        remaining_time: { removed: '0.00', added: '6' },
        deadline: { removed: '', added: '2030-05-01' },
      });
      expect(await getBug(t, id)).toMatchObject({ estimated_time: 10.5, remaining_time: 6, deadline: '2030-05-01' });
    });

    inProcessIt('work_time adds hours on a comment, lowers remaining_time, and is not in changes (reads the hours stored on each comment)', async () => {
      const id = await fileBug(t, { estimated_time: 5, remaining_time: 5 });
      const res = updated(await update(t, id, { work_time: 2.5, comment: { body: 'worked' } }));
      expect(res.changes).toEqual({ remaining_time: { removed: '5.00', added: '2.5' } });
      expect((await commentsOf(t, id)).pop()).toMatchObject({ text: 'worked', work_time: 2.5 });
      expect(await getBug(t, id)).toMatchObject({ actual_time: 2.5, remaining_time: 2.5 });
      // Without a comment an empty one carries the hours; remaining_time does not go below 0.
      updated(await update(t, id, { work_time: 4 }));
      expect((await commentsOf(t, id)).pop()).toMatchObject({ text: '', work_time: 4 });
      expect((await getBug(t, id)).remaining_time).toBe(0);
      const history = (await historyOf(t, id)).pop()!;
      expect(history.changes).toEqual(expect.arrayContaining([{ field_name: 'work_time', removed: '', added: '4.00' }]));
    });

    it('time values are checked: 52 not a number, 55 negative, 54 too large, 56 bad deadline', async () => {
      const id = await fileBug(t);
      expectError(await update(t, id, { estimated_time: 'lots' }), 52, 400);
      expectError(await update(t, id, { remaining_time: -1 }), 55, 400);
      expectError(await update(t, id, { estimated_time: 100000 }), 54, 400);
      expectError(await update(t, id, { deadline: '2030-13-01' }), 56, 400);
    });

    it('outside the time-tracking group the fields are refused — 115', async () => {
      const tracker = await t.createUser(loginNamed('not-a-tracker'));
      await t.setParameters({ timetrackinggroup: 'admin' });
      const id = await fileBug(t, {}, tracker.apiKey);
      expectError(await update(t, id, { estimated_time: 3 }, tracker.apiKey), 115, 401);
      expectError(await update(t, id, { work_time: 1 }, tracker.apiKey), 115, 401);
      expectError(await update(t, id, { deadline: '2031-01-01' }, tracker.apiKey), 115, 401);
      await t.setParameters({ timetrackinggroup: 'editbugs' });
    });
  });

  describe('custom fields', () => {
    const cf = {
      note: customFieldNamed('cf_note'), colour: customFieldNamed('cf_colour'), osList: customFieldNamed('cf_os_list'),
      count: customFieldNamed('cf_count'), due: customFieldNamed('cf_due'), related: customFieldNamed('cf_related'),
    };
    beforeAll(async () => {
      await addCustomField(t, cf.note, 1);
      await addCustomField(t, cf.colour, 2, ['red', 'green']);
      await addCustomField(t, cf.osList, 3, ['linux', 'bsd', 'mac']);
      await addCustomField(t, cf.count, 10);
      await addCustomField(t, cf.due, 9);
      await addCustomField(t, cf.related, 6);
    });

    it('free text, single select, multi select (an array) and integer; values as strings in changes', async () => {
      const id = await fileBug(t);
      const res = updated(await update(t, id, { [cf.note]: 'hello', [cf.colour]: 'red', [cf.osList]: ['linux', 'bsd'], [cf.count]: '7' }));
      expect(res.changes).toEqual({
        [cf.note]: { removed: '', added: 'hello' },
        [cf.colour]: { removed: '---', added: 'red' },
        [cf.osList]: { removed: '', added: 'linux, bsd' },
        [cf.count]: { removed: '', added: '7' },
      });
      expect(await getBug(t, id)).toMatchObject({ [cf.note]: 'hello', [cf.colour]: 'red', [cf.osList]: ['linux', 'bsd'], [cf.count]: 7 });
      expect(updated(await update(t, id, { [cf.osList]: ['mac'], [cf.colour]: '---' })).changes).toEqual({
        [cf.osList]: { removed: 'linux, bsd', added: 'mac' },
        [cf.colour]: { removed: 'red', added: '---' },
      });
    });

    it('an illegal select value is 51/404, a non-integer 52, an unknown cf_ key is ignored', async () => {
      const id = await fileBug(t);
      expectError(await update(t, id, { [cf.colour]: 'purple' }), 51, 404);
      expectError(await update(t, id, { [cf.osList]: ['linux', 'plan9'] }), 51, 404);
      expectError(await update(t, id, { [cf.count]: 'seven' }), 52, 400);
      expect(updated(await update(t, id, { cf_nonexistent: 'x' })).changes).toEqual({});
    });

    it('a date field takes YYYY-MM-DD (56 otherwise); a bug-ID field takes a visible bug, by id or alias (101/102)', async () => {
      const relatedAlias = named('cf-related');
      const id = await fileBug(t);
      const related = await fileBug(t, { alias: [relatedAlias] });
      const res = updated(await update(t, id, { [cf.due]: '2030-01-02', [cf.related]: relatedAlias }));
      expect(res.changes).toEqual({ [cf.due]: { removed: '', added: '2030-01-02' }, [cf.related]: { removed: '', added: String(related) } });
      expect(await getBug(t, id)).toMatchObject({ [cf.related]: related });
      expectError(await update(t, id, { [cf.due]: 'soon' }), 56, 400);
      expectError(await update(t, id, { [cf.related]: 999999 }), 101, 404);
      const hidden = await fileBug(t);
      await restrictBugs(t, named('cf-secret'), [hidden]);
      expectError(await update(t, id, { [cf.related]: hidden }, dev.apiKey), 102, 401);
      expect(updated(await update(t, id, { [cf.related]: '' })).changes[cf.related]).toEqual({ removed: String(related), added: '' });
    });
  });

  describe('flags', () => {
    const [review, approval] = [named('review'), named('approval')];
    beforeAll(async () => {
      await addFlagType(t, review);
      await addFlagType(t, approval, { grantGroup: 'admin', requesteeble: false });
    });

    it('requests a flag of a person (flagtypes.name), who joins the cc list; grants; clears with X', async () => {
      const id = await fileBug(t);
      const asked = updated(await update(t, id, { flags: [{ name: review, status: '?', requestee: dev.login }] }));
      expect(asked.changes).toEqual({
        'flagtypes.name': { removed: '', added: `${review}?(${dev.login})` },
        cc: { removed: '', added: dev.login },
      });
      const flag = (await getBug(t, id)).flags[0];
      expect(flag).toMatchObject({ name: review, status: '?', requestee: dev.login, setter: ADMIN_LOGIN });
      // The requestee may answer it.
      const granted = updated(await update(t, id, { flags: [{ id: flag.id, status: '+' }] }, dev.apiKey));
      expect(granted.changes).toEqual({ 'flagtypes.name': { removed: `${review}?(${dev.login})`, added: `${review}+` } });
      const cleared = updated(await update(t, id, { flags: [{ name: review, status: 'X' }] }));
      expect(cleared.changes).toEqual({ 'flagtypes.name': { removed: `${review}+`, added: '' } });
      expect((await getBug(t, id)).flags).toEqual([]);
    });

    it('granting needs the grant group — 130; a requestee on a type that takes none is 131', async () => {
      const id = await fileBug(t);
      expectError(await update(t, id, { flags: [{ name: approval, status: '+' }] }, dev.apiKey), 130, 400);
      expectError(await update(t, id, { flags: [{ name: approval, status: '?', requestee: dev.login }] }), 131, 400);
      expect(updated(await update(t, id, { flags: [{ name: approval, status: '+' }] })).changes).toEqual({ 'flagtypes.name': { removed: '', added: `${approval}+` } });
    });

    it('an unknown flag type is 51, a bad status 129, a missing status 50, a second flag of a single type 32000', async () => {
      const id = await fileBug(t);
      expectError(await update(t, id, { flags: [{ name: 'nope', status: '+' }] }), 51, 404);
      expectError(await update(t, id, { flags: [{ name: review, status: '!' }] }), 129, 400);
      expectError(await update(t, id, { flags: [{ name: review }] }), 50, 400);
      expectUncoded(await update(t, id, { flags: [{ name: review, status: '+' }, { name: review, status: '-', new: true }] }), new RegExp(`second '${review}' flag`));
    });

    it('a requestee who cannot see the bug is refused — flag_requestee_unauthorized 32000', async () => {
      const id = await fileBug(t);
      await restrictBugs(t, named('flag-secret'), [id], [1]);
      expectUncoded(await update(t, id, { flags: [{ name: review, status: '?', requestee: other.login }] }), /cannot see the bug/);
    });
  });

  describe('multi-bug updates are all or nothing', () => {
    it('an error on the second bug leaves the first unchanged', async () => {
      const a = await fileBug(t, { summary: 'first' });
      const b = await fileBug(t, { summary: 'second' });
      updated(await update(t, b, { status: 'RESOLVED', resolution: 'FIXED' }));
      updated(await update(t, b, { status: 'VERIFIED' }));
      // CONFIRMED → IN_PROGRESS is fine for a; VERIFIED → IN_PROGRESS is not in the workflow (123) for b.
      expectError(await update(t, a, { ids: [b], whiteboard: 'batch', status: 'IN_PROGRESS' }), 123, 400);
      expect(await getBug(t, a)).toMatchObject({ whiteboard: '', status: 'CONFIRMED' });
      expect(await getBug(t, b)).toMatchObject({ whiteboard: '', status: 'VERIFIED' });
      expect(await historyOf(t, a)).toEqual([]);
      const ok = await update(t, a, { ids: [b], whiteboard: 'batch' });
      expect(ok.body.bugs.map((x: any) => x.changes)).toEqual([{ whiteboard: { removed: '', added: 'batch' } }, { whiteboard: { removed: '', added: 'batch' } }]);
    });
  });

  describe('history and audit', () => {
    it('every change is a history row (who, when, field, removed, added)', async () => {
      const id = await fileBug(t);
      const { priority } = await getBug(t, id);
      const res = updated(await update(t, id, { summary: 'audited', priority: 'Low' }, dev.apiKey));
      const last = (await historyOf(t, id)).pop()!;
      expect(last.when).toBe(res.last_change_time);
      expect(last.who).toBe(dev.login);
      expect(last.changes).toEqual(expect.arrayContaining([
        { field_name: 'summary', removed: 'A bug', added: 'audited' },
        { field_name: 'priority', removed: priority, added: 'Low' },
      ]));
      expect(last.changes).toHaveLength(2);
    });

    inProcessIt('changes are history, not audit_log rows, and leave last_audit_time where it was (Bugzilla 5.0: bugs are audited in bugs_activity)', async () => {
      const id = await fileBug(t);
      const before = (await t.get('/last_audit_time')).body.last_audit_time;
      updated(await update(t, id, { summary: 'audited', priority: 'Low' }, dev.apiKey));
      expect(await t.auditOf('Tracker::Bug', id)).toEqual([]);
      expect((await t.get('/last_audit_time')).body.last_audit_time).toBe(before);
      const history = (await t.get(`/bug/${id}/history`, { key: dev.apiKey })).body.bugs[0].history;
      expect(history.at(-1).changes).toEqual(expect.arrayContaining([{ field_name: 'summary', removed: 'A bug', added: 'audited' }]));
    });
  });

  describe('bug mail', () => {
    inProcessIt('queues mail describing the change for the people of the bug, not for the changer (reads the mail outbox)', async () => {
      const id = await fileBug(t, { cc: [other.login] });
      await clearMailQueue(t);
      updated(await update(t, id, { summary: 'mail me', comment: { body: 'see the new summary' } }, dev.apiKey));
      const mails = await queuedMail(t);
      const to = mails.map((m) => m.toAddress).sort();
      expect(to).toEqual([ADMIN_LOGIN, other.login].sort());
      expect(mails[0].body).toContain('mail me');
    });

    inProcessIt('a change putting a bug in no group into one mails only who may see it afterwards (reads the mail outbox)', async () => {
      const group = named('mail-hidden');
      await productGroup(t, group, { membercontrol: 1, othercontrol: 0 });
      try {
        const id = await fileBug(t, { cc: [other.login] });
        await clearMailQueue(t);
        updated(await update(t, id, { groups: { add: [group] }, is_cc_accessible: false, comment: { body: 'now hidden' } }));
        expect((await queuedMail(t)).map((m) => m.toAddress)).not.toContain(other.login);
        updated(await update(t, id, { groups: { remove: [group] }, comment: { body: 'shown again' } }));
        expect((await queuedMail(t)).filter((m) => m.body.includes('shown again')).map((m) => m.toAddress)).toEqual([other.login]);
      } finally {
        await setProductControl(t, group, { membercontrol: 0, othercontrol: 0 });
      }
    });
  });

  describe('batching', () => {
    /**
     * Statements sent while `work` runs, leaving out the mail worker's (it delivers after commit, one row at a time,
     * on its own schedule): what the request itself costs.
     */
    async function requestStatements(work: () => Promise<unknown>): Promise<number> {
      let excluded = 0;
      const original = CountingLogger.prototype.logQuery;
      const counted = (text: string) => !/mail_queue/.test(text) || /^\s*INSERT/i.test(text);
      (CountingLogger.prototype as Logger).logQuery = function (this: CountingLogger, text: string) {
        if (!counted(text)) excluded++;
        original.call(this);
      };
      const before = queryCounter.count;
      try {
        await work();
      } finally {
        CountingLogger.prototype.logQuery = original;
      }
      return queryCounter.count - before - excluded;
    }

    let round = 0;
    const statusCcComment = (id: number, cc: string) => update(t, id, { status: ++round % 2 ? 'IN_PROGRESS' : 'CONFIRMED', cc: { add: [cc] }, comment: { body: `round ${round}` } });

    inProcessIt('a status + cc + comment update costs the same statements whatever the size of the bug (counts statements)', async () => {
      const users = await Promise.all(Array.from({ length: 6 }, (_, i) => t.createUser(`batch${i}@example.com`)));
      const [first, small] = [await fileBug(t), await fileBug(t)];
      const large = await fileBug(t, { cc: users.slice(1).map((u) => u.login) });
      const put = (id: number) => statusCcComment(id, users[0].login);
      await put(first);
      const smallCount = await requestStatements(() => put(small));
      const largeCount = await requestStatements(() => put(large));
      expect(largeCount).toBe(smallCount);
      // Several bugs in one request share the loading: two bugs cost far less than two requests.
      const both = await requestStatements(() => update(t, small, { ids: [large], whiteboard: `both ${round}` }));
      const one = await requestStatements(() => update(t, small, { whiteboard: `one ${round}` }));
      expect(both).toBeLessThan(2 * one);
    });

    itWhen(inProcess, needsFastPaths)('the first update after a settings change reads the catalogue; later ones find it kept: 9 to 20 statements (counts statements)', async () => {
      const cc = (await t.createUser('batch-kept@example.com')).login;
      const [first, second] = [await fileBug(t), await fileBug(t)];
      // The catalogue (product, controls, workflow, field values) is kept under the settings mark, which filing and
      // updating bugs do not move.
      await t.forgetKeptValues();
      const cold = await requestStatements(() => statusCcComment(first, cc));
      const warm = await requestStatements(() => statusCcComment(second, cc));
      expect(warm).toBeLessThan(cold);
      expect(warm).toBeGreaterThan(8);
      expect(warm).toBeLessThanOrEqual(20);
    });
  });

  describeWhen(inProcess, needsFastPaths)('round trips (SQL snapshots src/bug/sql/update-bug*)', () => {
    let checking: { restore(): void } | undefined;
    beforeAll(() => {
      checking = withoutKeptWriteChecks(t);
    });
    afterAll(() => checking?.restore());

    it('a warm status + cc + comment update of a bug in no group: on MySQL two round trips, both under its lock (records statements)', async () => {
      const id = await fileBug(t);
      let round = 0;
      const put = () => update(t, id, { status: ++round % 2 ? 'IN_PROGRESS' : 'CONFIRMED', cc: { add: [other.login] }, comment: { body: `round ${round}` } });
      await put();
      await put();
      const sent = await recordSql(put);
      // The caller is presumed (presumesCaller, src/fast-paths.ts): no statement before the transaction. The lock, then the API key's
      // check (the commit condition) and the bug's stamp (Sql.gathering): the previous update kept the bug as it left
      // it, so its state is not read, and the bug is in no group, so it is visible to the caller. Then everything else
      // with the COMMIT: the comment (no webhook asks for its id; the cc list is as asked), the row, history and mail —
      // everyone on the bug may read the mail — and the stamp the bug is kept under from now on.
      expectSqlSnapshot('bug/sql/update-bug', 'A warm one-bug Update Bug (status, cc, comment) by API key, of a kept bug in no group', sent);
      if (t.db.dialect === 'mysql') expect(sent).toHaveLength(2);
    });

    it('an update of a bug this instance does not keep reads its state with the lock, in the same round trip (records statements)', async () => {
      const [warm, cold] = [await fileBug(t), await fileBug(t)];
      const put = (id: number) => update(t, id, { status: 'IN_PROGRESS', cc: { add: [other.login] }, comment: { body: 'cold' } });
      await put(warm);
      const sent = await recordSql(() => put(cold));
      expectSqlSnapshot('bug/sql/update-bug-not-kept', 'A one-bug Update Bug (status, cc, comment) by API key, of a bug this instance does not keep', sent);
      if (t.db.dialect === 'mysql') expect(sent).toHaveLength(2);
    });

    it('an update after Add Comment and Add Attachment on a kept bug sends what an update of a bug not kept sends: those writes forgot it (records statements)', async () => {
      const [id, fresh] = [await fileBug(t), await fileBug(t)];
      let round = 0;
      const putOn = (bug: number) => update(t, bug, { status: ++round % 2 ? 'IN_PROGRESS' : 'CONFIRMED', comment: { body: `round ${round}` } });
      const put = () => putOn(id);
      const notKept = await recordSql(() => putOn(fresh));
      const elsewhere = [
        () => t.post(`/bug/${id}/comment`, { comment: 'between two updates' }, { key: ADMIN_API_KEY }),
        () => t.post(`/bug/${id}/attachment`, { data: Buffer.from('x').toString('base64'), file_name: 'x.txt', summary: 'x', content_type: 'text/plain' }, { key: ADMIN_API_KEY }),
      ];
      for (const write of elsewhere) {
        await put();
        // Kept by the update: the next one sends less than an update of a bug not kept.
        expect(await recordSql(put)).not.toEqual(notKept);
        expect((await write()).body.error).toBeUndefined();
        // The kept bug is gone: the update sends what it sends for a bug not kept.
        expect(await recordSql(put)).toEqual(notKept);
      }
    });
  });

  describe('OpenAPI', () => {
    it('documents the body of Update Bug with every field of the spec table, and ids', async () => {
      const { paths, components } = (await t.get('/openapi.json')).body;
      const put = paths['/rest/bug/{id_or_alias}'].put;
      const ref = put.requestBody.content['application/json'].schema.$ref;
      const properties = components.schemas[ref.split('/').pop()].properties;
      expect(Object.keys(properties)).toEqual(expect.arrayContaining([
        'alias', 'assigned_to', 'blocks', 'depends_on', 'cc', 'is_cc_accessible', 'comment', 'comment_is_private', 'component',
        'deadline', 'dupe_of', 'estimated_time', 'flags', 'groups', 'keywords', 'op_sys', 'platform', 'priority', 'severity',
        'summary', 'target_milestone', 'url', 'version', 'whiteboard', 'product', 'qa_contact', 'is_creator_accessible',
        'remaining_time', 'reset_assigned_to', 'reset_qa_contact', 'resolution', 'see_also', 'status', 'work_time', 'ids',
      ]));
      expect(properties.comment_is_private).toMatchObject({ type: 'object', additionalProperties: { type: 'boolean' } });
      expect(put.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['id_or_alias', 'ids']));
    });
  });
});
