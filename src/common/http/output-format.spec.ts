import { etagMatches, etagOf, htmlBody, jsonpBody, negotiate, validateCallback } from './output-format.js';
import { TrackerError } from '../errors/index.js';

describe('negotiate (misc.md, response format selection)', () => {
  it.each([
    [undefined, 'application/json'],
    ['*/*', 'application/json'],
    ['text/html', 'text/html'],
    ['text/html;q=0.5, application/json', 'application/json'],
    ['application/javascript, text/html', 'application/javascript'],
    ['image/png', 'application/json'],
    ['text/html, application/json;q=0.9', 'text/html'],
  ])('Accept %s gives %s', (accept, expected) => {
    expect(negotiate(accept)).toBe(expected);
  });
});

describe('JSONP callback validation', () => {
  it('accepts letters, digits and []._ after trimming', () => {
    expect(validateCallback(' jQuery.cb[0]_1 ')).toBe('jQuery.cb[0]_1');
  });
  it.each(['alert(1)', 'a b', '', 'x;y', '<script>'])('refuses %p with 32611', (callback) => {
    expect(() => validateCallback(callback)).toThrow(TrackerError);
    try {
      validateCallback(callback);
    } catch (err) {
      expect((err as TrackerError).code).toBe(32611);
    }
  });
  it('wraps with the /**/ prefix', () => {
    expect(jsonpBody('cb', '{"a":1}')).toBe('/**/cb({"a":1})');
  });
});

describe('HTML output and ETags', () => {
  it('escapes and indents with sorted keys', () => {
    expect(htmlBody('{"b":"<x>","a":1}')).toContain('{\n  &quot;a&quot;: 1,\n  &quot;b&quot;: &quot;&lt;x&gt;&quot;\n}');
    expect(htmlBody('{"m":"a@b & \'c\'"}')).toContain('&quot;m&quot;: &quot;a&#64;b &amp; \'c\'&quot;');
  });
  it('matches If-None-Match with or without quotes, in lists, and *', () => {
    const etag = etagOf('{}', 'application/json');
    expect(etagMatches(etag, etag)).toBe(true);
    expect(etagMatches(etag.replace(/"/g, ''), etag)).toBe(true);
    expect(etagMatches(`"other", ${etag}`, etag)).toBe(true);
    expect(etagMatches('*', etag)).toBe(true);
    expect(etagMatches('"other"', etag)).toBe(false);
    expect(etagMatches(undefined, etag)).toBe(false);
  });
});
