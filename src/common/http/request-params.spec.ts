import { MAX_BODY_DEPTH, RequestParams, toBoolean } from './request-params.js';
import { errorCode } from '../errors/testing.js';


describe('RequestParams (clients.md, routes.md parameter merging)', () => {
  it('query values override the same keys of the body', () => {
    const params = RequestParams.merge({ summary: 'from query' }, { summary: 'from body', other: 1 });
    expect(params.string('summary')).toBe('from query');
    expect(params.int('other')).toBe(1);
  });
  it('repeated query keys are lists; comma lists split where asked', () => {
    const params = RequestParams.merge({ id: ['1', '2,3'] }, undefined);
    expect(params.list('id')).toEqual(['1', '2,3']);
    expect(params.intList('id')).toEqual([1, 2, 3]);
  });
  it('drops keys with illegal characters at every level', () => {
    const params = RequestParams.merge({}, { 'ok_key.1-x': 1, 'bad key': 2, nested: { 'a$b': 1, c: 2 } });
    expect(params.all()).toEqual({ 'ok_key.1-x': 1, nested: { c: 2 } });
  });
  it.each([
    ['True', true], ['False', false], ['1', true], ['0', false], ['true', true], ['false', false], [true, true], [0, false], ['', false],
  ])('boolean %p is %p', (raw, expected) => {
    expect(toBoolean(raw)).toBe(expected);
    expect(RequestParams.merge({ flag: raw }, undefined).bool('flag')).toBe(expected);
  });
  it('non-numeric ints are error 52', () => {
    expect(errorCode(() => RequestParams.merge({ limit: 'ten' }, undefined).int('limit'))).toBe(52);
    expect(errorCode(() => RequestParams.merge({ ids: ['1', 'x'] }, undefined).intList('ids'))).toBe(52);
  });
  it('objects inside id lists are error 58', () => {
    expect(errorCode(() => RequestParams.merge({}, { ids: [{ a: 1 }] }).list('ids'))).toBe(58);
  });
  it('the ids-or-names rule puts digits in ids and anything else in names, combined with query and body', () => {
    expect(RequestParams.merge({ ids: '7' }, { names: ['x'] }).idsAndNames('12')).toEqual({ ids: [12, 7], names: ['x'] });
    expect(RequestParams.merge({}, undefined).idsAndNames('TestProduct')).toEqual({ ids: [], names: ['TestProduct'] });
  });
  it('include_fields strings split on commas, spaces and +', () => {
    expect(RequestParams.merge({ include_fields: ['id,summary', 'status cc+tags'] }, undefined).fieldList('include_fields')).toEqual(['id', 'summary', 'status', 'cc', 'tags']);
  });
  it('parseBody: empty is nothing, bad JSON and non-objects are 32000', () => {
    const json = 'application/json';
    expect(RequestParams.parseBody('', undefined)).toBeUndefined();
    expect(errorCode(() => RequestParams.parseBody('{x', json))).toBe(32000);
    expect(errorCode(() => RequestParams.parseBody('[1]', json))).toBe(32000);
    expect(errorCode(() => RequestParams.parseBody('"s"', 'application/json; charset=utf-8'))).toBe(32000);
  });
  it('ids beyond the id column are invalid ids (52) echoed as sent, in lists and in the path', () => {
    const huge = '9223372036854775808';
    expect(() => RequestParams.merge({ ids: `1,${huge}` }, undefined).intList('ids')).toThrow(huge);
    expect(errorCode(() => RequestParams.merge({ ids: huge }, undefined).intList('ids'))).toBe(52);
    expect(errorCode(() => RequestParams.merge({}, undefined).idsAndNames(huge))).toBe(52);
    expect(RequestParams.merge({ ids: '2147483647' }, undefined).intList('ids')).toEqual([2147483647]);
  });

  it('parseBody: bodies nested deeper than MAX_BODY_DEPTH are 32000, walked without recursion', () => {
    const json = 'application/json';
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    expect(RequestParams.parseBody(nested(MAX_BODY_DEPTH), json)).toBeDefined();
    expect(errorCode(() => RequestParams.parseBody(nested(MAX_BODY_DEPTH + 1), json))).toBe(32000);
    expect(errorCode(() => RequestParams.parseBody(`{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, json))).toBe(32000);
  });

  it('parseBody: a body not declared as JSON is 32613 (the seed: Content-Type must be application/json)', () => {
    expect(errorCode(() => RequestParams.parseBody('{}', 'text/plain'))).toBe(32613);
    expect(errorCode(() => RequestParams.parseBody('{}', undefined))).toBe(32613);
    expect(errorCode(() => RequestParams.parseBody('a=b', 'application/x-www-form-urlencoded'))).toBe(32613);
    expect(RequestParams.parseBody('{"a":1}', 'application/vnd.api+json')).toEqual({ a: 1 });
  });
  it('data() leaves out credentials, callback and field selection', () => {
    const params = RequestParams.merge({ Bugzilla_api_key: 'k', callback: 'c' }, { summary: 's', include_fields: 'id' });
    expect(params.data()).toEqual({ summary: 's' });
  });

  describe('credentials in every spelling', () => {
    it('reads Tracker_, Bugzilla_ and plain names, and headers', () => {
      expect(RequestParams.merge({ Bugzilla_api_key: ' k ' }, undefined).credentials({}).apiKey).toBe('k');
      expect(RequestParams.merge({}, undefined).credentials({ authorization: 'Bearer abc' }).apiKey).toBe('abc');
      expect(RequestParams.merge({}, undefined).credentials({ 'x-bugzilla-token': '1-x' }).token).toBe('1-x');
      const pair = RequestParams.merge({ login: 'a', password: 'b' }, undefined).credentials({});
      expect([pair.login, pair.password]).toEqual(['a', 'b']);
    });
    it('plain login without password is not a credential (valid_login takes login alone)', () => {
      expect(RequestParams.merge({ login: 'a' }, undefined).credentials({}).login).toBeUndefined();
    });
    it('restrict_login in all spellings', () => {
      expect(RequestParams.merge({ Bugzilla_restrictlogin: 'True' }, undefined).credentials({}).restrictLogin).toBe(true);
      expect(RequestParams.merge({ restrict_login: '1' }, undefined).credentials({}).restrictLogin).toBe(true);
    });
  });
});
