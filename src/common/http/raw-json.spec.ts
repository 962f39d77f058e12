import { appendJsonFields } from './raw-json.js';

describe('appendJsonFields', () => {
  it('appends fields after the object\'s own, in order, as JSON.stringify of the whole would write them', () => {
    const shared = { id: 1, summary: 'a "quoted" one' };
    const own = { tags: ['x'], update_token: 't' };
    expect(appendJsonFields(JSON.stringify(shared), own)).toBe(JSON.stringify({ ...shared, ...own }));
  });

  it('leaves the object alone when nothing is appended, and copes with an empty object', () => {
    expect(appendJsonFields('{"id":1}', {})).toBe('{"id":1}');
    expect(appendJsonFields('{}', { tags: [] })).toBe('{"tags":[]}');
    expect(appendJsonFields('{}', {})).toBe('{}');
  });
});
