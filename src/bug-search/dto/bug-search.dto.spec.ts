import { toDto } from '../../common/http/dto.js';
import { RequestParams } from '../../common/http/request-params.js';
import { BugSearchInput } from './bug-search.dto.js';

const search = (query: Record<string, unknown>) => toDto(BugSearchInput, RequestParams.merge(query, undefined), 'Bug.search');
const coded = (code: number, param: string) => expect.objectContaining({ code, message: expect.stringContaining(param) });

describe('BugSearchInput (the query of GET /rest/bug as the search read it before)', () => {
  it('ids: repeated keys and comma lists, as numbers; a non-numeric one is 52 naming id', () => {
    expect(search({ id: ['1,2', '3'] }).id).toEqual([1, 2, 3]);
    expect(search({ id: '' }).id).toEqual([]);
    expect(() => search({ id: '1,x' })).toThrow(coded(52, 'id'));
  });
  it('select fields keep commas; aliases split them; an empty resolution stays (it finds open bugs)', () => {
    expect(search({ product: 'A,B', alias: 'a, b' })).toMatchObject({ product: ['A,B'], alias: ['a', 'b'] });
    expect(search({ resolution: '' }).resolution).toEqual(['']);
  });
  it('limit and offset: the first value, blank is not given, not a number is 52', () => {
    expect(search({ limit: ['5', '7'], offset: ' ' })).toMatchObject({ limit: 5, offset: undefined });
    expect(search({ limit: '-1' }).limit).toBe(-1);
    expect(() => search({ limit: 'x' })).toThrow(coded(52, 'limit'));
  });
  it('types the steering parameters; charts are left to the search (search-request.ts), which reads every parameter', () => {
    expect(search({ quicksearch: 'x', f1: 'bug_id', count_only: 'True', total_matches: '0' })).toMatchObject({ quicksearch: 'x', count_only: true, total_matches: false });
    expect(search({ f1: 'bug_id' })).not.toHaveProperty('f1');
  });
});
