import type { EntityManager } from 'typeorm';
import { Sql } from '../database/sql.js';
import { AuthRepository } from './auth.repository.js';

describe('AuthRepository credential statements', () => {
  it('quote every name of their own tables on MySQL', async () => {
    const sent: string[] = [];
    const mysql = new Sql({} as EntityManager, 'mysql', async (text) => {
      sent.push(text);
      return [];
    });
    const repository = new AuthRepository();
    expect(await repository.tokenByDigest(mysql, 'digest')).toBeUndefined();
    expect(await repository.apiKeyByDigest(mysql, 'digest')).toBeUndefined();
    for (const statement of sent) {
      // The audit mark is the audit module's expression; what is left must name nothing unquoted.
      const own = statement.replace(/\(SELECT COALESCE.*FROM audit_log\)\)/, '').replace(/`[^`]+`/g, '');
      expect(own).not.toMatch(/\b(login_tokens|api_keys|id|user_id|ip_addr|last_used|revoked|token_hash|key_hash|mark)\b/);
    }
  });
});
