import { ADMIN_API_KEY, ADMIN_LOGIN, startTestApp, type TestApp } from '../support/test-app.js';
import { inProcessIt, loginNamed, named } from '../support/in-process.js';
import { clearMailQueue, expectError, fileBug, letSecondPass, queuedMail, restrictBugs } from './bug-fixtures.js';
import { expectUncoded, getBug, historyOf, presentedComments, update, updated } from './bug-update-fixtures.js';

describe('Update Bug: marking duplicates (dupe_of, rule 3, workflow.md "Duplicates")', () => {
  let t: TestApp;
  let reporter: { id: number; login: string; apiKey: string };
  beforeAll(async () => {
    t = await startTestApp();
    reporter = await t.createUser(loginNamed('dupe-reporter'));
  });
  afterAll(() => t.close());

  /** A group only the admin is in, holding the given bugs. */
  async function hide(name: string, ...bugIds: number[]): Promise<void> {
    await restrictBugs(t, name, bugIds, [1]);
  }

  it('dupe_of alone resolves the bug as DUPLICATE, comments on both bugs and adds the reporter to the target’s cc', async () => {
    const target = await fileBug(t);
    const dupe = await fileBug(t, {}, reporter.apiKey);
    const targetBefore = (await getBug(t, target)).last_change_time;
    await letSecondPass(t);
    const res = updated(await update(t, dupe, { dupe_of: target, comment: { body: 'same crash' } }));
    expect(res.changes).toEqual({
      status: { removed: 'CONFIRMED', added: 'RESOLVED' },
      resolution: { removed: '', added: 'DUPLICATE' },
      dupe_of: { removed: '', added: String(target) },
    });
    expect(await getBug(t, dupe)).toMatchObject({ status: 'RESOLVED', resolution: 'DUPLICATE', dupe_of: target });
    // The request's comment became the "duplicate of" comment (type 2); the target got "has duplicate" (type 1): each
    // shows its notice.
    expect((await presentedComments(t, dupe)).pop()!.text).toBe(`same crash\n\n*** This bug has been marked as a duplicate of bug ${target} ***`);
    expect((await presentedComments(t, target)).pop()!.text).toBe(`*** Bug ${dupe} has been marked as a duplicate of this bug. ***`);
    const targetAfter = await getBug(t, target);
    expect(targetAfter.cc).toEqual([reporter.login]);
    expect(targetAfter.last_change_time).toBe(res.last_change_time);
    expect(targetAfter.last_change_time).not.toBe(targetBefore);
    expect((await historyOf(t, target)).pop()!.changes).toEqual([{ field_name: 'cc', removed: '', added: reporter.login }]);
  });

  it('without a comment an empty "duplicate of" comment is added; a VERIFIED bug goes back to RESOLVED', async () => {
    const target = await fileBug(t);
    const dupe = await fileBug(t);
    updated(await update(t, dupe, { status: 'RESOLVED', resolution: 'FIXED' }));
    updated(await update(t, dupe, { status: 'VERIFIED' }));
    const res = updated(await update(t, dupe, { dupe_of: target }));
    expect(res.changes).toMatchObject({ status: { removed: 'VERIFIED', added: 'RESOLVED' }, resolution: { removed: 'FIXED', added: 'DUPLICATE' } });
    // Nothing but the notice of the "duplicate of" comment (type 2).
    expect((await presentedComments(t, dupe)).pop()!.text).toBe(`*** This bug has been marked as a duplicate of bug ${target} ***`);
    // The admin reported both: the reporter is the target's reporter, so the cc stays as it was.
    expect((await getBug(t, target)).cc).toEqual([]);
  });

  it('dupe_of accepts an alias; duplicate_or_move_bug_status names the status', async () => {
    await t.setParameters({ duplicate_or_move_bug_status: 'VERIFIED' });
    const targetAlias = named('dupe-target');
    const target = await fileBug(t, { alias: [targetAlias] });
    const dupe = await fileBug(t);
    const res = updated(await update(t, dupe, { dupe_of: targetAlias }));
    expect(res.changes).toMatchObject({ status: { added: 'VERIFIED' }, dupe_of: { removed: '', added: String(target) } });
    await t.setParameters({ duplicate_or_move_bug_status: 'RESOLVED' });
  });

  it('a bug cannot duplicate itself (118), nor close a duplicate loop (118)', async () => {
    const selfAlias = named('self-dupe');
    const a = await fileBug(t, { alias: [selfAlias] });
    const b = await fileBug(t);
    expectError(await update(t, a, { dupe_of: a }), 118, 400);
    expectError(await update(t, a, { dupe_of: selfAlias }), 118, 400);
    updated(await update(t, a, { dupe_of: b }));
    const c = await fileBug(t);
    updated(await update(t, b, { dupe_of: c }));
    // c → a would come back: a is a duplicate of b, which is a duplicate of c.
    expectError(await update(t, c, { dupe_of: a }), 118, 400);
  });

  it('two concurrent updates marking two bugs duplicates of each other: one succeeds, the other is 118', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await fileBug(t);
      const b = await fileBug(t);
      const results = await Promise.all([update(t, a, { dupe_of: b }), update(t, b, { dupe_of: a })]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
      expect(results.find((r) => r.status === 400)!.body.code).toBe(118);
    }
  });

  it('…and cannot close a longer chain together either (b → c stored; a → b and c → a at once)', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b, c] = [await fileBug(t), await fileBug(t), await fileBug(t)];
      updated(await update(t, b, { dupe_of: c }));
      const results = await Promise.all([update(t, a, { dupe_of: b }), update(t, c, { dupe_of: a })]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
      expect(results.find((r) => r.status === 400)!.body.code).toBe(118);
    }
  });

  it('resolution DUPLICATE without dupe_of is 119', async () => {
    const id = await fileBug(t);
    expectError(await update(t, id, { status: 'RESOLVED', resolution: 'DUPLICATE' }), 119, 400);
  });

  it('an empty dupe_of is 50, an unknown one 101, a hidden one 102', async () => {
    const dev = await t.createUser(loginNamed('dupe-dev'));
    const id = await fileBug(t, {}, dev.apiKey);
    const hidden = await fileBug(t);
    await hide(named('dupe-hidden'), hidden);
    expectError(await update(t, id, { dupe_of: '' }, dev.apiKey), 50, 400);
    expectError(await update(t, id, { dupe_of: 999999 }, dev.apiKey), 101, 404);
    expectError(await update(t, id, { dupe_of: hidden }, dev.apiKey), 102, 401);
    expect((await getBug(t, id)).status).toBe('CONFIRMED');
  });

  it('dupe_of while updating several bugs is dupe_not_allowed 32000', async () => {
    const a = await fileBug(t);
    const b = await fileBug(t);
    const c = await fileBug(t);
    expectUncoded(await update(t, a, { ids: [b], dupe_of: c }), /several bugs at once/);
  });

  it('reopening, or another resolution, clears dupe_of', async () => {
    const target = await fileBug(t);
    const a = await fileBug(t);
    const b = await fileBug(t);
    await update(t, a, { dupe_of: target });
    await update(t, b, { dupe_of: target });
    expect(updated(await update(t, a, { status: 'CONFIRMED' })).changes.dupe_of).toEqual({ removed: String(target), added: '' });
    expect((await getBug(t, a)).dupe_of).toBeNull();
    expect(updated(await update(t, b, { resolution: 'FIXED' })).changes.dupe_of).toEqual({ removed: String(target), added: '' });
    expect((await getBug(t, b)).dupe_of).toBeNull();
  });

  it('the reporter joins the target’s cc only if they can see the target', async () => {
    const target = await fileBug(t);
    await hide(named('dupe-private'), target);
    // Against a running instance hiding the target is a change in its history.
    const historyBefore = (await historyOf(t, target)).length;
    const dupe = await fileBug(t, {}, reporter.apiKey);
    updated(await update(t, dupe, { dupe_of: target }, ADMIN_API_KEY));
    expect((await getBug(t, target)).cc).toEqual([]);
    expect((await historyOf(t, target)).length).toBe(historyBefore);
  });

  it('commentonduplicate: marking a duplicate needs a comment — comment_required 32000', async () => {
    await t.setParameters({ commentonduplicate: '1' });
    const target = await fileBug(t);
    const dupe = await fileBug(t);
    expectUncoded(await update(t, dupe, { dupe_of: target }), /specify a comment/);
    updated(await update(t, dupe, { dupe_of: target, comment: { body: `dupe of ${target}` } }));
    await t.setParameters({ commentonduplicate: '0' });
  });

  inProcessIt('the duplicate mail goes to the target’s people as well (reads the mail outbox)', async () => {
    const watcher = await t.createUser('dupe-watcher@example.com');
    const target = await fileBug(t, { cc: [watcher.login] });
    const dupe = await fileBug(t);
    await clearMailQueue(t);
    updated(await update(t, dupe, { dupe_of: target }, reporter.apiKey));
    const mails = await queuedMail(t);
    expect(mails.map((r) => r.toAddress)).toEqual(expect.arrayContaining([ADMIN_LOGIN, watcher.login]));
    const watcherMail = mails.find((r) => r.toAddress === watcher.login)!;
    expect(watcherMail.body).toContain(`*** Bug ${dupe} has been marked as a duplicate of this bug. ***`);
  });
});
