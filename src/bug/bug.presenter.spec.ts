import { createHmac } from 'node:crypto';
import { Caller } from '../common/caller.js';
import { Parameters } from '../params/parameters.service.js';
import { emailFilter, presentBug, updateToken } from './bug.presenter.js';
import type { LoadedBug } from './loaded-bug.js';

const parameters = (values: Record<string, string> = {}) => new Parameters(new Map(Object.entries(values)));
const anonymous = (values: Record<string, string> = {}) => Caller.anonymous(parameters(values));
const user = (groups: string[] = [], values: Record<string, string> = {}) =>
  new Caller({ id: 7, login: 'me@example.com', realName: 'Me', email: 'me@example.com' },
    { memberOf: new Map(groups.map((g, i) => [i + 1, g])), canBless: new Set(), canSee: new Set() }, parameters(values));

const person = (id: number, login: string) => ({ id, login, realName: login.split('@')[0], email: login });
const bug: LoadedBug = {
  row: {
    id: 5, summary: 's', status: 'CONFIRMED', resolution: '', productId: 1, componentId: 1, version: '1', targetMilestone: '---',
    opSys: 'All', platform: 'All', priority: '---', severity: 'normal', reporterId: 1, assignedToId: 2, qaContactId: null,
    url: '', whiteboard: '', isConfirmed: true, isCreatorAccessible: true, isCcAccessible: true, estimatedTime: 2.5,
    remainingTime: 1, deadline: '2030-01-02', creationTime: '2020-01-01 00:00:00', lastChangeTime: '2020-01-02 03:04:05',
    type: 'task', filedVia: 'api',
  },
  product: 'P', component: 'C', classification: 'Unclassified', reporter: person(1, 'rep@example.com'),
  assignee: person(2, 'dev@example.com'), qaContact: null, dupeOf: null, isOpen: true, visible: true,
  aliases: [], cc: [person(3, 'cc@example.com')], keywords: [], groups: [], blocks: [], dependsOn: [], seeAlso: [],
  flags: [{ id: 1, typeId: 2, name: 'review', status: '?', setter: 'rep@example.com', requestee: null, creationDate: '2020-01-01 00:00:00', modificationDate: '2020-01-01 00:00:00' }],
  custom: new Map([[11, ['a', 'b']], [12, ['5']]]), tags: [], actualTime: 4,
  regressedBy: [3], regressions: [], duplicates: [8, 9], commentCount: 2, triageOwner: person(4, 'triage@example.com'),
};
const customFields = [{ id: 11, name: 'cf_multi', type: 3 }, { id: 12, name: 'cf_bug', type: 6 }, { id: 13, name: 'cf_select', type: 2 }];
const now = new Date('2024-05-06T07:08:09Z');

describe('bug presenter', () => {
  it('update_token is <unix time>-<HMAC-SHA256 base64url> of time*user*bug*last_change_time (updates.md)', () => {
    const token = updateToken('secret', now, 7, 5, '2020-01-02 03:04:05');
    const time = Math.floor(now.getTime() / 1000);
    expect(token).toBe(`${time}-${createHmac('sha256', 'secret').update(`${time}*7*5*2020-01-02 03:04:05`).digest('base64url')}`);
    expect(token).not.toMatch(/[+/=]/);
    // Made once a second per message (kept for the second): the same again, another secret or second another token.
    expect(updateToken('secret', now, 7, 5, '2020-01-02 03:04:05')).toBe(token);
    expect(updateToken('other secret', now, 7, 5, '2020-01-02 03:04:05')).toBe(`${time}-${createHmac('sha256', 'other secret').update(`${time}*7*5*2020-01-02 03:04:05`).digest('base64url')}`);
    expect(updateToken('secret', new Date(now.getTime() + 1000), 7, 5, '2020-01-02 03:04:05')).toMatch(new RegExp(`^${time + 1}-`));
    expect(updateToken('secret', now, 7, 5, '2020-01-02 03:04:05')).toBe(token);
  });

  it('filters addresses for anonymous callers only, and only with webservice_email_filter', () => {
    expect(emailFilter(anonymous())('a@example.com')).toBe('a@example.com');
    expect(emailFilter(anonymous({ webservice_email_filter: '1' }))('a@example.com')).toBe('a');
    expect(emailFilter(user([], { webservice_email_filter: '1' }))('a@example.com')).toBe('a@example.com');
  });

  it('shows time-tracking fields and update_token by caller; custom fields typed; qa_contact ""', () => {
    const view = { customFields, siteSecret: 'secret', now, withUpdateToken: true };
    const forAnonymous = presentBug(bug, { ...view, caller: anonymous({ timetrackinggroup: 'editbugs' }) });
    expect(forAnonymous).not.toHaveProperty('estimated_time');
    expect(forAnonymous.deadline).toBeNull();
    expect(forAnonymous).not.toHaveProperty('update_token');
    expect(forAnonymous).toMatchObject({ qa_contact: '', cf_multi: ['a', 'b'], cf_bug: 5, cf_select: '---', creation_time: '2020-01-01T00:00:00Z' });
    expect(forAnonymous).not.toHaveProperty('qa_contact_detail');
    expect(forAnonymous.flags).toEqual([{ id: 1, name: 'review', type_id: 2, status: '?', setter: 'rep@example.com', creation_date: '2020-01-01T00:00:00Z', modification_date: '2020-01-01T00:00:00Z' }]);

    const forTracker = presentBug(bug, { ...view, caller: user(['editbugs'], { timetrackinggroup: 'editbugs' }) });
    expect(forTracker).toMatchObject({ estimated_time: 2.5, remaining_time: 1, actual_time: 4, deadline: '2030-01-02' });
    expect(forTracker.update_token).toBe(updateToken('secret', now, 7, 5, '2020-01-02 03:04:05'));
    expect(presentBug(bug, { ...view, withUpdateToken: false, caller: user() })).not.toHaveProperty('update_token');
  });

  it("shows BMO's fields only with bmo_bug_fields on: its Bug.get names and values", () => {
    const view = { customFields: [], siteSecret: 'secret', now, withUpdateToken: false };
    const off = presentBug(bug, { ...view, caller: user() });
    for (const field of ['type', 'regressed_by', 'regressions', 'duplicates', 'comment_count', 'filed_via', 'triage_owner', 'last_change_time_non_bot']) {
      expect(off).not.toHaveProperty(field);
    }
    const on = presentBug(bug, { ...view, caller: user([], { bmo_bug_fields: '1' }) });
    expect(on).toMatchObject({
      type: 'task', regressed_by: [3], regressions: [], duplicates: [8, 9], comment_count: 2, filed_via: 'api',
      triage_owner: 'triage@example.com', triage_owner_detail: { id: 4, real_name: 'triage', name: 'triage@example.com', email: 'triage@example.com' },
      last_change_time_non_bot: '2020-01-02T03:04:05Z',
    });
    const noOwner = presentBug({ ...bug, triageOwner: null }, { ...view, caller: user([], { bmo_bug_fields: '1' }) });
    expect(noOwner.triage_owner).toBe('');
    expect(noOwner).not.toHaveProperty('triage_owner_detail');
  });
});
