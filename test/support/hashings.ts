import { jest } from '@jest/globals';
import { RawJson } from '../../src/common/http/raw-json.js';

/** How many answers the service hashed for their ETag (RawJson.tagged) while `work` ran: none for a kept one. */
export async function hashings(work: () => Promise<unknown>): Promise<number> {
  const tagged = jest.spyOn(RawJson, 'tagged');
  try {
    await work();
    return tagged.mock.calls.length;
  } finally {
    tagged.mockRestore();
  }
}
