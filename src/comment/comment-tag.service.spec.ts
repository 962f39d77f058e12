import { errorCode } from '../common/errors/testing.js';
import { checkTag } from './comment-tag.service.js';

describe('checkTag (defaults.md "comment tag length")', () => {
  it('takes 3 to 24 letters, digits, dots, underscores and dashes', () => {
    expect(checkTag('abc')).toBe('abc');
    expect(checkTag('A.b_c-9')).toBe('A.b_c-9');
    expect(checkTag('x'.repeat(24))).toBe('x'.repeat(24));
  });

  it('refuses a short tag (128) before a long one (127) before other characters (126)', () => {
    expect(errorCode(() => checkTag('ab'))).toBe(128);
    expect(errorCode(() => checkTag('a '))).toBe(128);
    expect(errorCode(() => checkTag('x'.repeat(25)))).toBe(127);
    expect(errorCode(() => checkTag('two words'))).toBe(126);
    expect(errorCode(() => checkTag('ünïcode'))).toBe(126);
    expect(errorCode(() => checkTag('semi;colon'))).toBe(126);
  });
});
