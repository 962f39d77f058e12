import { ADMIN_API_KEY, type ApiResponse, type TestApp } from '../support/test-app.js';

/** A PNG-like binary: the PNG signature, then every byte value (NUL, high bytes, invalid UTF-8). */
export const PNG_LIKE = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(Array.from({ length: 256 }, (_, i) => i))]);

/** Create Attachment's body for some contents, with the fields a client always sends. */
export function attachmentBody(data: Buffer | string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  return { data: bytes.toString('base64'), file_name: 'file.bin', summary: 'An attachment', content_type: 'application/octet-stream', ...fields };
}

/** POST /rest/bug/(id)/attachment. */
export function postAttachment(t: TestApp, bugId: number | string, body: Record<string, unknown>, key = ADMIN_API_KEY): Promise<ApiResponse> {
  return t.post(`/bug/${bugId}/attachment`, body, { key });
}

/** Attaches and answers the one new id (throws with the answer when refused). */
export async function attach(t: TestApp, bugId: number, data: Buffer | string, fields: Record<string, unknown> = {}, key = ADMIN_API_KEY): Promise<number> {
  const res = await postAttachment(t, bugId, attachmentBody(data, fields), key);
  if (res.status !== 200) throw new Error(`Create Attachment failed: ${res.status} ${res.text}`);
  return res.body.ids[0];
}
