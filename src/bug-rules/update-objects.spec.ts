import { errorCode } from '../common/errors/testing.js';
import {
  AddRemoveSet,
  applyAddRemoveSet,
  mapAddRemoveSet,
  normaliseAddRemoveSet,
  normaliseUpdateObject,
  sameId,
  sameIgnoringCase,
} from './update-objects.js';


const run = <T>(current: T[], op: AddRemoveSet<T>, eq?: (a: T, b: T) => boolean) => applyAddRemoveSet(current, op, eq);

describe('alias — plain string or array means set; set replaces; add then remove', () => {
  it('treats a plain string as {set: [string]}', () => {
    expect(normaliseUpdateObject('alias', 'foo')).toEqual({ steps: [{ action: 'set', values: ['foo'] }] });
  });

  it('treats an array as {set: array}', () => {
    expect(normaliseUpdateObject('alias', ['a', 'b'])).toEqual({ steps: [{ action: 'set', values: ['a', 'b'] }] });
  });

  it('set makes add and remove ignored', () => {
    const op = normaliseUpdateObject<string>('alias', { add: ['x'], remove: ['a'], set: ['a', 'b'] });
    expect(run(['a', 'c'], op)).toEqual({ result: ['a', 'b'], added: ['b'], removed: ['c'] });
  });

  it('set [] removes every alias', () => {
    expect(run(['a', 'c'], normaliseUpdateObject<string>('alias', { set: [] }))).toEqual({ result: [], added: [], removed: ['a', 'c'] });
  });

  it('a null or empty-string set is ignored and add/remove apply', () => {
    expect(normaliseUpdateObject('alias', { set: null, add: ['x'] })).toEqual({ steps: [{ action: 'add', values: ['x'] }] });
    expect(normaliseUpdateObject('alias', { set: '' })).toEqual({ steps: [] });
  });

  it('remove of an alias the bug does not have is ignored', () => {
    expect(run(['a'], normaliseUpdateObject<string>('alias', { remove: ['zzz'] }))).toEqual({ result: ['a'], added: [], removed: [] });
  });

  it('a value in both add and remove ends up removed (add runs first)', () => {
    expect(run(['a'], normaliseUpdateObject<string>('alias', { add: ['b'], remove: ['b'] })).result).toEqual(['a']);
  });

  it('refuses a set that is not an array with 53', () => {
    expect(errorCode(() => normaliseUpdateObject('alias', { set: 'foo' }))).toBe(53);
    expect(errorCode(() => normaliseUpdateObject('alias', true))).toBe(53);
  });
});

describe('keywords — add, remove, set in that order; other keys are set; bare strings refused', () => {
  it('applies add, remove, set in sorted order so set is final', () => {
    const op = normaliseUpdateObject<string>('keywords', { set: ['z'], remove: ['a'], add: ['b'] });
    expect(op.steps.map((s) => s.action)).toEqual(['add', 'remove', 'set']);
    expect(run(['a'], op)).toEqual({ result: ['z'], added: ['z'], removed: ['a'] });
  });

  it('remove wins over add of the same keyword', () => {
    expect(run([], normaliseUpdateObject<string>('keywords', { add: ['a'], remove: ['a'] })).result).toEqual([]);
  });

  it('treats an unknown key as set, at its alphabetical place', () => {
    const op = normaliseUpdateObject<string>('keywords', { add: ['a'], replace: ['b'] });
    expect(op.steps).toEqual([{ action: 'add', values: ['a'] }, { action: 'set', values: ['b'] }]);
    expect(run(['x'], op).result).toEqual(['b']);
    // "foo" sorts before "remove", so the remove still applies after it.
    expect(run(['x'], normaliseUpdateObject<string>('keywords', { foo: ['b', 'c'], remove: ['c'] })).result).toEqual(['b']);
  });

  it('splits string values on blanks and commas, as Bugzilla does inside the object', () => {
    expect(normaliseUpdateObject('keywords', { add: 'crash, regression  perf' })).toEqual({
      steps: [{ action: 'add', values: ['crash', 'regression', 'perf'] }],
    });
  });

  it('a null set empties the keywords', () => {
    expect(run(['a'], normaliseUpdateObject<string>('keywords', { set: null })).result).toEqual([]);
  });

  it('refuses a bare string or array with 53 (5.0 needs an object)', () => {
    expect(errorCode(() => normaliseUpdateObject('keywords', 'crash'))).toBe(53);
    expect(errorCode(() => normaliseUpdateObject('keywords', ['crash']))).toBe(53);
  });

  it('refuses a non-list value inside the object with 53', () => {
    expect(errorCode(() => normaliseUpdateObject('keywords', { add: { a: 1 } }))).toBe(53);
    expect(errorCode(() => normaliseUpdateObject('keywords', { add: 5 }))).toBe(53);
  });

  it('compares keywords case-insensitively when asked', () => {
    expect(run(['Crash'], normaliseUpdateObject<string>('keywords', { add: ['crash'] }), sameIgnoringCase).result).toEqual(['Crash']);
  });
});

describe('cc, groups, see_also — add and remove only', () => {
  it.each(['cc', 'groups', 'see_also'] as const)('%s ignores set', (key) => {
    expect(normaliseUpdateObject(key, { set: ['x'] })).toEqual({ steps: [] });
  });

  it('adding an existing CC or removing a non-CC is a no-op', () => {
    const op = normaliseUpdateObject<string>('cc', { add: ['a@x'], remove: ['nobody@x'] });
    expect(run(['a@x'], op)).toEqual({ result: ['a@x'], added: [], removed: [] });
  });

  it('collapses duplicates in the request', () => {
    expect(run([], normaliseUpdateObject<string>('cc', { add: ['a@x', 'a@x'] }))).toEqual({ result: ['a@x'], added: ['a@x'], removed: [] });
  });

  it('compares see_also case-insensitively and keeps the stored spelling', () => {
    const stored = ['https://github.com/o/r/issues/1'];
    expect(run(stored, normaliseUpdateObject<string>('see_also', { add: ['HTTPS://GITHUB.COM/o/r/issues/1'] }), sameIgnoringCase).result).toEqual(stored);
    expect(run(stored, normaliseUpdateObject<string>('see_also', { remove: ['https://GitHub.com/o/r/issues/1'] }), sameIgnoringCase).removed).toEqual(stored);
  });

  it('refuses a non-array add or remove with 53', () => {
    expect(errorCode(() => normaliseUpdateObject('cc', { add: 'a@x' }))).toBe(53);
    expect(errorCode(() => normaliseUpdateObject('groups', { remove: 'admin' }))).toBe(53);
    expect(errorCode(() => normaliseUpdateObject('see_also', { add: 'http://x/show_bug.cgi?id=1' }))).toBe(53);
  });

  it('refuses a value that is not an object with 53', () => {
    expect(errorCode(() => normaliseUpdateObject('cc', ['a@x']))).toBe(53);
    expect(errorCode(() => normaliseUpdateObject('groups', 'admin'))).toBe(53);
  });

  it('names the offending key in the 53 message', () => {
    expect(() => normaliseUpdateObject('groups', { add: 'admin' })).toThrow(
      "'groups.add' is not a valid parameter for the Bug.update function.",
    );
  });
});

describe('blocks, depends_on — set wins, add then remove', () => {
  it('set wins over add and remove', () => {
    const op = normaliseUpdateObject<number>('depends_on', { add: [9], remove: [1], set: [1, 2] });
    expect(run([1, 3], op)).toEqual({ result: [1, 2], added: [2], removed: [3] });
  });

  it('a null set empties the list (the key being present is enough)', () => {
    expect(run([1], normaliseUpdateObject<number>('blocks', { set: null }))).toEqual({ result: [], added: [], removed: [1] });
  });

  it('remove of absent IDs is ignored; remove wins over add', () => {
    expect(run([1], normaliseUpdateObject<number>('blocks', { add: [2, 3], remove: [3, 99] })).result).toEqual([1, 2]);
  });

  it('compares IDs given as numbers or strings with sameId', () => {
    const op = normaliseUpdateObject<unknown>('blocks', { add: ['1', 2] });
    expect(run<unknown>([1], op, sameId)).toEqual({ result: [1, 2], added: [2], removed: [] });
  });
});

describe('general behaviour', () => {
  it('null or undefined means no change', () => {
    expect(normaliseUpdateObject('cc', null)).toEqual({ steps: [] });
    expect(normaliseUpdateObject('alias', undefined)).toEqual({ steps: [] });
    expect(normaliseUpdateObject('cc', { add: null })).toEqual({ steps: [] });
  });

  it('drops null items of a list', () => {
    expect(normaliseUpdateObject('cc', { add: ['a', null] })).toEqual({ steps: [{ action: 'add', values: ['a'] }] });
  });

  it('mapAddRemoveSet transforms values and tells the action', () => {
    const op = normaliseUpdateObject<string>('see_also', { add: ['a'], remove: ['b'] });
    expect(mapAddRemoveSet(op, (v, action) => `${action}:${v}`)).toEqual({
      steps: [{ action: 'add', values: ['add:a'] }, { action: 'remove', values: ['remove:b'] }],
    });
  });

  it('custom options: no set, plain values refused', () => {
    expect(errorCode(() => normaliseAddRemoveSet('x', { field: 'thing', allowSet: false }))).toBe(53);
    expect(normaliseAddRemoveSet({ set: ['x'] }, { allowSet: false })).toEqual({ steps: [] });
  });

  it('collapses duplicates already in the current list', () => {
    expect(run(['a', 'a'], { steps: [] })).toEqual({ result: ['a'], added: [], removed: [] });
  });
});
