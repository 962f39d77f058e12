import { TrackerError } from '../common/errors/index.js';
import type { ParameterSnapshot } from '../common/caller.js';
import { checkContentType, checkFileName, checkSummary, decodeAttachmentData, maxAttachmentBytes } from './attachment.rules.js';

const codeOf = (fn: () => unknown): number | undefined => {
  try {
    fn();
  } catch (err) {
    return err instanceof TrackerError ? err.code : undefined;
  }
  return undefined;
};

const params = (values: Record<string, number>): ParameterSnapshot =>
  ({ get: (n: string) => String(values[n] ?? ''), bool: () => false, int: (n: string) => values[n] ?? 0, all: () => ({}) });

describe('attachment values (Bugzilla::Attachment::_check_*)', () => {
  it('the limit is the larger of maxattachmentsize KB and maxlocalattachment MB', () => {
    expect(maxAttachmentBytes(params({ maxattachmentsize: 1000, maxlocalattachment: 0 }))).toBe(1_024_000);
    expect(maxAttachmentBytes(params({ maxattachmentsize: 1000, maxlocalattachment: 2 }))).toBe(2 * 1024 * 1024);
  });

  it('decodes base64 (MIME line breaks allowed, padding optional) and refuses what is not: 50, 53, 606, 600', () => {
    expect(decodeAttachmentData('AAEC\r\n/w==', 10, 'f')).toEqual(Buffer.from([0, 1, 2, 255]));
    expect(decodeAttachmentData('QUJD', 10, 'f').toString()).toBe('ABC');
    expect(decodeAttachmentData('QUI', 10, 'f').toString()).toBe('AB');
    expect(codeOf(() => decodeAttachmentData(undefined, 10, 'f'))).toBe(50);
    expect(codeOf(() => decodeAttachmentData(5, 10, 'f'))).toBe(53);
    expect(codeOf(() => decodeAttachmentData('a*b=', 10, 'f'))).toBe(53);
    expect(codeOf(() => decodeAttachmentData('QUJDR', 10, 'f'))).toBe(53);
    expect(codeOf(() => decodeAttachmentData('QQ=', 10, 'f'))).toBe(53);
    expect(codeOf(() => decodeAttachmentData('', 10, 'f'))).toBe(606);
    expect(decodeAttachmentData(Buffer.alloc(10).toString('base64'), 10, 'f')).toHaveLength(10);
    expect(codeOf(() => decodeAttachmentData(Buffer.alloc(11).toString('base64'), 10, 'f'))).toBe(600);
  });

  it('content type: a legal top-level type and a subtype (601); a patch is text/plain', () => {
    expect(checkContentType(' image/png ', false)).toBe('image/png');
    expect(checkContentType('junk', true)).toBe('text/plain');
    for (const bad of ['', 'text', 'foo/bar', 'text/', 'Text/plain']) expect(codeOf(() => checkContentType(bad, false))).toBe(601);
  });

  it('summary (604) and file name (603) are required; a path keeps its last part', () => {
    expect(codeOf(() => checkSummary('  '))).toBe(604);
    expect(codeOf(() => checkFileName(undefined))).toBe(603);
    expect(checkFileName('C:\\Users\\me\\shot.png')).toBe('shot.png');
    expect(checkFileName('/tmp/a/log.txt')).toBe('log.txt');
    expect(codeOf(() => checkFileName('dir/'))).toBe(603);
  });
});
