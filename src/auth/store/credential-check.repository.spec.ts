import type { EntityManager } from 'typeorm';
import { Sql } from '../../database/sql.js';
import { CredentialCheckRepository } from './credential-check.repository.js';

describe('CredentialCheckRepository credential statements', () => {
  it('quote every name of their own tables on MySQL', async () => {
    const sent: string[] = [];
    const mysql = new Sql({} as EntityManager, 'mysql', async (text) => {
      sent.push(text);
      return [];
    });
    const repository = new CredentialCheckRepository();
    expect(await repository.tokenByDigest(mysql, 'digest')).toEqual({ token: undefined, companionRows: [] });
    expect(await repository.apiKeyByDigest(mysql, 'digest')).toEqual({ key: undefined, companionRows: [] });
    for (const statement of sent) {
      const own = statement.replace(/`[^`]+`/g, '');
      expect(own).not.toMatch(/\b(login_tokens|api_keys|id|user_id|ip_addr|last_used|revoked|token_hash|key_hash|mark)\b/);
    }
  });

  it('bring a companion read in the same statement, its parameters before the key digest', async () => {
    const sent: Array<{ text: string; params: unknown[] }> = [];
    const mysql = new Sql({} as EntityManager, 'mysql', async (text, params) => {
      sent.push({ text, params });
      return [
        { id: 7, user_id: 3, revoked: 0, last_used: null, settings_mark: 12, c_id: 5, c_seen: 1 },
        { id: 7, user_id: 3, revoked: 0, last_used: null, settings_mark: 12, c_id: 6, c_seen: 0 },
      ];
    });
    const companion = { columns: 'b.id AS c_id, b.x = ? AS c_seen', columnParams: ['a'], table: 'bugs b', on: 'b.id IN (?)', onParams: [5] };
    const found = await new CredentialCheckRepository().apiKeyByDigest(mysql, 'digest', companion);
    expect(sent).toHaveLength(1);
    expect(sent[0].text).toMatch(/^SELECT b\.id AS c_id, b\.x = \? AS c_seen, .* LEFT JOIN bugs b ON b\.id IN \(\?\) WHERE/s);
    expect(sent[0].params).toEqual(['a', 5, 'digest']);
    expect(found).toEqual({
      key: { id: 7, userId: 3, revoked: false, lastUsed: null, settingsMark: 12 },
      companionRows: [{ c_id: 5, c_seen: 1 }, { c_id: 6, c_seen: 0 }],
    });
  });
});
