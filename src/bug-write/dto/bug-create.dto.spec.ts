import { toDto } from '../../common/http/dto.js';
import { RequestParams } from '../../common/http/request-params.js';
import { BugCreateInput, CREATE_KEYS } from './bug-create.dto.js';

const input = (body: Record<string, unknown>) => toDto(BugCreateInput, RequestParams.merge({}, body), 'Bug.create');
const coded = (code: number, param: string) => expect.objectContaining({ code, message: expect.stringContaining(`'${param}'`) });

describe('BugCreateInput (the Create Bug body as the service read it before)', () => {
  it('declares every key Create Bug takes, so that none is dropped before the service folds the spellings', () => {
    const taken = Object.entries(CREATE_KEYS).filter(([, name]) => name !== '').map(([key]) => key);
    const body = Object.fromEntries(taken.map((key) => [key, key === 'flags' ? [] : 'x']));
    const dto = input(body) as unknown as Record<string, unknown>;
    expect(taken.filter((key) => dto[key] === undefined)).toEqual([]);
  });
  it('texts: an array gives its first element, numbers and booleans their string, null the empty text', () => {
    expect(input({ summary: ['a', 'b'], version: 2, url: true, whiteboard: null, status: [] }))
      .toMatchObject({ summary: 'a', version: '2', url: 'true', whiteboard: '', status: '' });
  });
  it('lists: one value or an array, numbers as text; comma lists where the field takes them; blanks dropped; null is empty', () => {
    expect(input({ cc: 'a@x', blocks: [1, '2, 3'], keywords: 'k1,k2', groups: null, see_also: [' u ', ''] }))
      .toMatchObject({ cc: ['a@x'], blocks: ['1', '2', '3'], keywords: ['k1', 'k2'], groups: [], see_also: ['u'] });
    expect(input({ cc: 'a,b' }).cc).toEqual(['a,b']);
  });
  it('an object where a text or a list item is meant is 53 naming the key; flags must be a list', () => {
    expect(() => input({ summary: { a: 1 } })).toThrow(coded(53, 'summary'));
    expect(() => input({ short_desc: [{ a: 1 }] })).toThrow(coded(53, 'short_desc'));
    expect(() => input({ cc: [['a']] })).toThrow(coded(53, 'cc'));
    expect(() => input({ flags: { name: 'x' } })).toThrow(coded(53, 'flags'));
  });
  it('time values, the deadline and aliases are kept as sent for their own rules (52–56, 103)', () => {
    expect(input({ estimated_time: 'lots', deadline: ['2030-01-01'], alias: { a: 1 } }))
      .toMatchObject({ estimated_time: 'lots', deadline: ['2030-01-01'], alias: { a: 1 } });
  });
});
