import { bmoBug, bmoChanges, bmoPayload, bmoTime, type BmoPayloadInput } from './bmo-payload.js';
import { eventsInFormat } from './webhook-formats.js';

const admin = { id: 1, login: 'admin@example.com', real_name: 'Admin' };
const getBug = {
  id: 42, alias: ['boot'], summary: 'Crash', status: 'NEW', resolution: '', product: 'Firefox', component: 'General', classification: 'Client',
  priority: '---', severity: 'normal', op_sys: 'Linux', platform: 'PC', version: 'unspecified', target_milestone: '---', url: '', whiteboard: '',
  keywords: ['crash'], see_also: [], groups: [], creator: 'admin@example.com', creator_detail: { id: 1, name: 'admin@example.com', real_name: 'Admin', email: 'admin@example.com' },
  assigned_to: 'dev@example.com', assigned_to_detail: { id: 2, name: 'dev@example.com', real_name: 'Dev' }, qa_contact: '',
  creation_time: '2026-11-26T09:00:00Z', last_change_time: '2026-11-26T10:00:00Z', cc: ['x@example.com'], is_open: true, cf_team: '---',
  flags: [{ id: 3, name: 'needinfo', type_id: 1, status: '?', setter: 'admin@example.com', requestee: 'dev@example.com' }],
};
const requestees = new Map([['dev@example.com', { id: 2, login: 'dev@example.com', real_name: 'Dev' }]]);
const input = (extra: Partial<BmoPayloadInput>): BmoPayloadInput => ({
  webhook: { id: 3, name: 'jbi' }, message: 'bug.modify', time: '2026-11-26T10:00:00Z', user: admin,
  changes: [{ field: 'status', removed: 'NEW', added: 'ASSIGNED' }], bug: getBug, requestees, ...extra,
});

describe("BMO's webhook payload", () => {
  it("shapes Get Bug's bug as BMO's serialiser: its names, one alias, '' for no priority, flags as {id, name, value, requestee}", () => {
    const bug = bmoBug(getBug, requestees);
    expect(bug).toMatchObject({
      id: 42, alias: 'boot', is_private: false, priority: '', target_milestone: '---', operating_system: 'Linux', platform: 'PC',
      assigned_to_detail: { id: 2, login: 'dev@example.com', real_name: 'Dev' }, creator_detail: admin, qa_contact: '', cf_team: '',
      creation_time: '2026-11-26T09:00:00', flags: [{ id: 3, name: 'needinfo', value: '?', requestee: { id: 2, login: 'dev@example.com', real_name: 'Dev' } }],
    });
    for (const field of ['cc', 'is_open', 'op_sys', 'groups', 'qa_contact_detail', 'type']) expect(bug).not.toHaveProperty(field);
    expect(bmoBug({ ...getBug, type: 'defect' }, requestees).type).toBe('defect');
    expect(bmoBug({ ...getBug, groups: ['security'] }, requestees).is_private).toBe(true);
  });

  it('says changes as BMO: one per flag, no value chosen as empty, nothing-to-nothing dropped', () => {
    expect(bmoChanges([
      { field: 'flagtypes.name', removed: 'review?(a@example.com), feedback+', added: 'review+, needinfo?(b@example.com)' },
      { field: 'priority', removed: '---', added: 'P1' },
      { field: 'cf_team', removed: '', added: '' },
    ])).toEqual([
      { field: 'flag.review', removed: '? (a@example.com)', added: '+' },
      { field: 'flag.feedback', removed: '+', added: '' },
      { field: 'flag.needinfo', removed: '', added: '? (b@example.com)' },
      { field: 'priority', removed: '', added: 'P1' },
    ]);
  });

  it('routes as BMO: target.action, and the changed fields of a modification', () => {
    const modified = bmoPayload(input({}));
    expect(modified.event).toEqual({ action: 'modify', time: '2026-11-26T10:00:00', user: admin, changes: [{ field: 'status', removed: 'NEW', added: 'ASSIGNED' }], target: 'bug', routing_key: 'bug.modify:status' });
    const created = bmoPayload(input({ message: 'bug.create', changes: [] }));
    expect(created.event).toEqual({ action: 'create', time: '2026-11-26T10:00:00', user: admin, target: 'bug', routing_key: 'bug.create' });
  });

  it("sends a private bug, or a private comment or attachment, as their ids alone, and a private change without its changes", () => {
    const secret = { ...getBug, groups: ['security'] };
    expect(bmoPayload(input({ bug: secret }))).toEqual({
      webhook_id: 3, webhook_name: 'jbi', bug: { id: 42, is_private: true },
      event: { action: 'modify', time: '2026-11-26T10:00:00', user: admin, target: 'bug', routing_key: 'bug.modify:status' },
    });
    const comment = { id: 7, text: 'secret words', count: 2, is_private: true, creation_time: '2026-11-26T10:00:00Z' };
    expect(bmoPayload(input({ message: 'comment.create', changes: [], comment })).bug).toEqual({ id: 42, is_private: false, comment: { id: 7, is_private: true } });
    const open = bmoPayload(input({ message: 'comment.create', changes: [], comment: { ...comment, is_private: false } })).bug as Record<string, unknown>;
    expect(open.comment).toEqual({ id: 7, body: 'secret words', number: 2, is_private: false, creation_time: '2026-11-26T10:00:00' });
    const attachment = { id: 8, summary: 'fix', file_name: 'a.patch', content_type: 'text/plain', is_private: true, is_obsolete: false, is_patch: true, flags: [], creation_time: '2026-11-26T10:00:00Z', last_change_time: '2026-11-26T10:00:00Z' };
    expect(bmoPayload(input({ message: 'attachment.modify', attachment })).event).not.toHaveProperty('changes');
    expect(bmoPayload(input({ message: 'attachment.modify', attachment })).bug).toEqual({ id: 42, is_private: false, attachment: { id: 8, is_private: true } });
  });

  it('gives times without a zone, as BMO', () => {
    expect(bmoTime('2026-11-26T10:00:00Z')).toBe('2026-11-26T10:00:00');
    expect(bmoTime(null)).toBeNull();
  });

  it("says a webhook's events in the other format's words", () => {
    expect(eventsInFormat('create,modify,attachment', 'tracker', 'bmo')).toBe('create,change,attachment,attachment_change');
    expect(eventsInFormat('change,attachment_change,comment', 'bmo', 'tracker')).toBe('modify,comment,attachment');
    expect(eventsInFormat('comment', 'bmo', 'bmo')).toBe('comment');
  });
});
