import { etagOf, JSON_TYPE } from './output-format.js';
import { joinJsonObjects, RawJson } from './raw-json.js';

describe('joinJsonObjects', () => {
  it('joins the second object\'s fields after the first\'s, in order, as JSON.stringify of the whole would write them', () => {
    const shared = { id: 1, summary: 'a "quoted" one' };
    const own = { tags: ['x'], update_token: 't' };
    expect(joinJsonObjects(JSON.stringify(shared), JSON.stringify(own))).toBe(JSON.stringify({ ...shared, ...own }));
  });

  it('leaves an object alone when the other is empty', () => {
    expect(joinJsonObjects('{"id":1}', '{}')).toBe('{"id":1}');
    expect(joinJsonObjects('{}', '{"tags":[]}')).toBe('{"tags":[]}');
    expect(joinJsonObjects('{}', '{}')).toBe('{}');
  });
});

describe('RawJson', () => {
  it('tags a kept answer with the ETag of its text sent as JSON', () => {
    expect(RawJson.tagged('{"a":1}').etag).toBe(etagOf('{"a":1}', JSON_TYPE));
  });

  it('derives an answer\'s ETag from its inputs: the same inputs give the same tag, any different input another', () => {
    const kept = new RawJson('{"id":1,"summary":"s"}');
    const tag = (inputs: Array<string | RawJson>) => RawJson.derived('text', inputs).etag;
    expect(tag(['Bug.get one', kept, '{"update_token":"1-a"}'])).toBe(tag(['Bug.get one', new RawJson(kept.text), '{"update_token":"1-a"}']));
    const others = [
      tag(['Bug.get one', kept, '{"update_token":"2-b"}']),
      tag(['Bug.get one', new RawJson('{"id":1,"summary":"t"}'), '{"update_token":"1-a"}']),
      tag(['Bug.search', kept, '{"update_token":"1-a"}']),
      // A kept text in place of the same text given as is: a digest is never taken for text.
      tag(['Bug.get one', kept.text, '{"update_token":"1-a"}']),
      // The same characters split differently between two inputs.
      tag(['Bug.get one', kept, '{"update_token":', '"1-a"}']),
    ];
    expect(new Set([tag(['Bug.get one', kept, '{"update_token":"1-a"}']), ...others]).size).toBe(others.length + 1);
  });

  it('digests a kept text by its content: the same text the same digest, another text another', () => {
    const kept = new RawJson('{"id":1}');
    expect(kept.digest()).toBe(new RawJson('{"id":1}').digest());
    expect(kept.digest()).not.toBe(new RawJson('{"id":2}').digest());
  });
});
