import { customFieldsOf, parseTimeValue, parseUpdateRequest as parseInput } from './update-request.js';
import { MAX_COMMENT_LENGTH } from '../../bug/bug-comments.js';
import { errorCode } from '../../common/errors/testing.js';
import { toDto } from '../../common/http/dto.js';
import { RequestParams } from '../../common/http/request-params.js';
import { BugUpdateInput } from '../dto/bug-update.dto.js';

/** A body read as the controller reads it: its DTO, then its custom fields. */
const parseUpdateRequest = (data: Record<string, unknown>) =>
  parseInput(toDto(BugUpdateInput, RequestParams.merge({}, data), 'Bug.update'), customFieldsOf(data));

const codeOf = errorCode;

describe('parseUpdateRequest (through BugUpdateInput)', () => {
  it('reads plain string fields, taking the first element of an array as Bugzilla does', () => {
    const r = parseUpdateRequest({ summary: 'new', priority: ['High', 'Low'], rep_platform: 'PC', url: null });
    expect(r.summary).toBe('new');
    expect(r.priority).toBe('High');
    expect(r.platform).toBe('PC');
    expect(r.url).toBe('');
    expect(r.version).toBeUndefined();
  });

  it('refuses an object where a string is expected — 53', () => {
    expect(codeOf(() => parseUpdateRequest({ summary: { a: 1 } }))).toBe(53);
  });

  it('keeps a present resolution even when null, and leaves an absent one out (rule 1 needs the difference)', () => {
    expect(parseUpdateRequest({ resolution: null }).statusChange).toEqual({ resolution: null });
    expect(parseUpdateRequest({ resolution: '' }).statusChange).toEqual({ resolution: '' });
    expect(parseUpdateRequest({ status: 'RESOLVED' }).statusChange).toEqual({ status: 'RESOLVED' });
    expect(parseUpdateRequest({}).statusChange).toEqual({});
    expect(parseUpdateRequest({ dupe_of: 12 }).statusChange).toEqual({ dupeOf: '12' });
  });

  it('reads comment objects with body or comment, and a plain string as the body', () => {
    expect(parseUpdateRequest({ comment: { body: 'hi  \r\n', is_private: true } }).comment).toEqual({ body: 'hi', isPrivate: true });
    expect(parseUpdateRequest({ comment: { comment: 'via comment' } }).comment).toEqual({ body: 'via comment', isPrivate: false });
    expect(parseUpdateRequest({ comment: 'plain' }).comment).toEqual({ body: 'plain', isPrivate: false });
    expect(codeOf(() => parseUpdateRequest({ comment: ['x'] }))).toBe(53);
  });

  it('refuses a comment over 65535 characters — 114', () => {
    expect(codeOf(() => parseUpdateRequest({ comment: { body: 'x'.repeat(MAX_COMMENT_LENGTH + 1) } }))).toBe(114);
    expect(parseUpdateRequest({ comment: 'x'.repeat(MAX_COMMENT_LENGTH) + '   ' }).comment!.body).toHaveLength(MAX_COMMENT_LENGTH);
  });

  it('reads comment_is_private as id → boolean pairs, and refuses a non-object — 53', () => {
    expect(parseUpdateRequest({ comment_is_private: { '5': true, '6': 0 } }).commentIsPrivate).toEqual([
      { id: '5', isPrivate: true },
      { id: '6', isPrivate: false },
    ]);
    expect(codeOf(() => parseUpdateRequest({ comment_is_private: [5] }))).toBe(53);
  });

  it('normalises the add/remove/set objects with the rules of each key', () => {
    const r = parseUpdateRequest({ alias: 'one', cc: { add: ['a@x.org'] }, keywords: { set: 'k1, k2' }, blocks: { set: [1], add: [2] } });
    expect(r.alias).toEqual({ steps: [{ action: 'set', values: ['one'] }] });
    expect(r.cc).toEqual({ steps: [{ action: 'add', values: ['a@x.org'] }] });
    expect(r.keywords).toEqual({ steps: [{ action: 'set', values: ['k1', 'k2'] }] });
    expect(r.blocks).toEqual({ steps: [{ action: 'set', values: [1] }] });
    expect(codeOf(() => parseUpdateRequest({ cc: 'a@x.org' }))).toBe(53);
  });

  it('requires a status on every flag change — 50 — and an array of objects — 53', () => {
    expect(codeOf(() => parseUpdateRequest({ flags: [{ name: 'review' }] }))).toBe(50);
    expect(codeOf(() => parseUpdateRequest({ flags: { name: 'review', status: '+' } }))).toBe(53);
    expect(codeOf(() => parseUpdateRequest({ flags: ['review+'] }))).toBe(53);
    expect(parseUpdateRequest({ flags: [{ name: 'review', status: '?' }] }).flags).toEqual([{ name: 'review', status: '?' }]);
  });

  it('parses the deadline (56 on a bad date) and booleans the way clients send them', () => {
    expect(parseUpdateRequest({ deadline: '2030-1-5' }).deadline).toBe('2030-01-05');
    expect(parseUpdateRequest({ deadline: '' }).deadline).toBeNull();
    expect(codeOf(() => parseUpdateRequest({ deadline: '2030-02-30' }))).toBe(56);
    const r = parseUpdateRequest({ is_cc_accessible: 'False', is_creator_accessible: 1, reset_assigned_to: true });
    expect(r.isCcAccessible).toBe(false);
    expect(r.isCreatorAccessible).toBe(true);
    expect(r.resetAssignedTo).toBe(true);
    expect(r.resetQaContact).toBe(false);
  });

  it('collects cf_* keys and ignores unknown keys', () => {
    const r = parseUpdateRequest({ cf_colour: 'red', minor_update: true, ids: [1, 2] });
    expect([...r.custom.entries()]).toEqual([['cf_colour', 'red']]);
  });
});

describe('parseTimeValue (Bugzilla ValidateTime)', () => {
  it('keeps the value as sent for the added side of changes', () => {
    expect(parseTimeValue('estimated_time', 10.5)).toEqual({ hours: 10.5, asSent: '10.5' });
    expect(parseTimeValue('estimated_time', '6')).toEqual({ hours: 6, asSent: '6' });
    expect(parseTimeValue('estimated_time', '')).toEqual({ hours: 0, asSent: '0' });
    expect(parseTimeValue('estimated_time', '.5')).toEqual({ hours: 0.5, asSent: '.5' });
  });

  it('refuses non-numbers (52), negatives outside work_time (55) and values above 99999.99 (54)', () => {
    expect(codeOf(() => parseTimeValue('estimated_time', 'abc'))).toBe(52);
    expect(codeOf(() => parseTimeValue('estimated_time', '1e3'))).toBe(52);
    expect(codeOf(() => parseTimeValue('remaining_time', -1))).toBe(55);
    expect(parseTimeValue('work_time', -1.5, true).hours).toBe(-1.5);
    expect(codeOf(() => parseTimeValue('estimated_time', 100000))).toBe(54);
    expect(parseTimeValue('estimated_time', 99999.99).hours).toBe(99999.99);
  });
});
