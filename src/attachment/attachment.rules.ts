/**
 * The checks of an attachment's values (Bugzilla 5.0 Bugzilla::Attachment::_check_*, errors.md 600–606, 113),
 * shared by Create and Update Attachment. Pure: the caller passes the parameters and the caller's rights.
 */
import { Errors, TrackerError } from '../common/errors/index.js';
import { checkTextLimit, exceedsLimit, freeText } from '../common/text-limits.js';
import type { ParameterSnapshot } from '../common/caller.js';

/** defaults.md "legal MIME top-level types". */
export const LEGAL_CONTENT_TYPES = ['application', 'audio', 'image', 'message', 'model', 'multipart', 'text', 'video'] as const;
const CONTENT_TYPE = new RegExp(`^(${LEGAL_CONTENT_TYPES.join('|')})/.+$`);
const BASE64_ALPHABET = /^[A-Za-z0-9+/]*={0,2}$/;
/** Padded to whole quanta, or unpadded with a legal tail (a lone sixth bit group is never valid). */
const isBase64 = (text: string) => BASE64_ALPHABET.test(text) && (text.includes('=') ? text.length % 4 === 0 : text.length % 4 !== 1);
/** The columns' length: a longer summary is refused (104), a longer file name keeps its end (defaults.md). */
const MAX_TEXT = 255;

/** The largest attachment in bytes: the larger of `maxattachmentsize` KB and `maxlocalattachment` MB (errors.md 600). */
export function maxAttachmentBytes(parameters: ParameterSnapshot): number {
  return Math.max(parameters.int('maxattachmentsize') * 1024, parameters.int('maxlocalattachment') * 1024 * 1024);
}

/**
 * `data` as sent: a base64 string (line breaks allowed, as MIME encoders write them), decoded. Errors: 50 when
 * missing, 53 when not a string, invalid_base64 (53), 606 when empty, 600 when over the limit.
 */
export function decodeAttachmentData(raw: unknown, maxBytes: number, functionName: string): Buffer {
  if (raw === undefined || raw === null) throw TrackerError.of(Errors.PARAM_REQUIRED, { function: functionName, param: 'data' });
  if (typeof raw !== 'string') throw TrackerError.of(Errors.PARAM_INVALID, { function: functionName, param: 'data' });
  const text = raw.replace(/[\r\n\t ]+/g, '');
  if (!isBase64(text)) throw TrackerError.of(Errors.INVALID_BASE64, { function: functionName, param: 'data' });
  const data = Buffer.from(text, 'base64');
  if (!data.length) throw TrackerError.of(Errors.ZERO_LENGTH_FILE);
  if (data.length > maxBytes) {
    throw TrackerError.of(Errors.FILE_TOO_LARGE, { filesize: Math.round(data.length / 1024), max: Math.floor(maxBytes / 1024) });
  }
  return data;
}

/** A short description: trimmed, required (604), at most the column's length (104). */
export function checkSummary(raw: string | undefined): string {
  const summary = (raw ?? '').trim();
  if (summary === '') throw TrackerError.of(Errors.MISSING_ATTACHMENT_DESCRIPTION);
  checkTextLimit(summary, freeText(MAX_TEXT), 'summary');
  return summary;
}

/** A file name: a path is cut to its last part (browsers send `C:\dir\file`), required (603). */
export function checkFileName(raw: string | undefined): string {
  const name = (raw ?? '').trim().replace(/^.*[/\\]/, '');
  if (name === '') throw TrackerError.of(Errors.FILE_NOT_SPECIFIED);
  return exceedsLimit(name, MAX_TEXT) ? [...name].slice(-MAX_TEXT).join('') : name;
}

/** `type/subtype` with a legal top-level type (601); a patch is always text/plain. */
export function checkContentType(raw: string | undefined, isPatch: boolean): string {
  if (isPatch) return 'text/plain';
  const type = (raw ?? '').trim();
  if (!CONTENT_TYPE.test(type) || exceedsLimit(type, MAX_TEXT)) throw TrackerError.of(Errors.INVALID_CONTENT_TYPE, { contenttype: type });
  return type;
}

/** Only the insider group makes attachments private, or public again (113). */
export function checkPrivacyRight(isInsider: boolean): void {
  if (!isInsider) throw TrackerError.of(Errors.USER_NOT_INSIDER);
}
