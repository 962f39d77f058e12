import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import { AuditService } from '../audit/audit.service.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { toApiDateTime, toDbDateTime } from '../common/time/datetime.js';
import { FieldChanges, flag, textParam } from '../group/field-changes.js';
import { UserService } from '../user/user.service.js';
import { digestSecret, randomSecret } from './credentials.js';
import { TOKEN_LIFETIME_MS } from './caller-resolver.service.js';
import type { ApiKeyUpdateInput } from './dto/api-key.dto.js';

export const API_KEY_AUDIT_CLASS = 'Tracker::User::APIKey';
/** Bugzilla's API keys are 40 characters; the description column holds 255. */
const API_KEY_LENGTH = 40;
const DESCRIPTION_MAX = 255;

export interface PublicApiKey {
  id: number;
  description: string;
  revoked: boolean;
  creation_time: string | null;
  last_used: string | null;
}

/**
 * Login tokens and API keys (misc.md "Authentication"). Secrets are returned once, at creation, and stored only
 * as digests. Checking them on each request is the CallerResolverService's job.
 */
@Injectable()
export class AuthService implements OnModuleInit {
  constructor(private readonly db: Db, private readonly users: UserService, private readonly audit: AuditService) {}

  /** A changed login, password or disable text ends every login token of the account (updates.md). */
  onModuleInit(): void {
    this.users.onCredentialsChanged((tx, userId) => this.endLoginTokens(tx, userId));
  }

  /**
   * A new login token `<user id>-<random>` (GET /rest/login); with `restrictToIp` it is honoured only from that
   * address. Tokens unused for 30 days are purged on the way.
   */
  async createLoginToken(userId: number, restrictToIp: string | null, now: Date): Promise<string> {
    const token = `${userId}-${randomSecret(32)}`;
    await this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM login_tokens WHERE last_used < ?', [toDbDateTime(new Date(now.getTime() - TOKEN_LIFETIME_MS))]);
      await tx.insert('login_tokens', { user_id: userId, token_hash: digestSecret(token), ip_addr: restrictToIp, last_used: toDbDateTime(now) });
    });
    return token;
  }

  /** Logout: the token of this request dies; any other token of the user lives on. */
  async endLoginToken(tokenId: number): Promise<void> {
    await this.db.transaction((tx) => tx.run('DELETE FROM login_tokens WHERE id = ?', [tokenId]));
  }

  async endLoginTokens(tx: Sql, userId: number): Promise<void> {
    await tx.run('DELETE FROM login_tokens WHERE user_id = ?', [userId]);
  }

  /** For the admin command line: a new key for a user; returns the key in clear (the only time it is seen). */
  async createApiKey(userId: number, description: string, now: Date): Promise<string> {
    return (await this.addApiKey(userId, description, { userId, now })).apiKey;
  }

  /** Beyond Bugzilla 5.0: a key created over REST by its owner (POST /rest/api_key). */
  async addApiKey(userId: number, description: string | undefined, actor: { userId: number | null; now: Date }): Promise<{ id: number; apiKey: string }> {
    const text = this.checkDescription(description);
    if (!(await this.users.findById(userId))) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'user', id: userId });
    const apiKey = randomSecret(API_KEY_LENGTH);
    const at = toDbDateTime(actor.now);
    const id = await this.db.transaction(async (tx) => {
      const keyId = await tx.insert('api_keys', { user_id: userId, key_hash: digestSecret(apiKey), description: text, revoked: 0, creation_ts: at });
      await this.audit.recordCreate(tx, { userId: actor.userId, className: API_KEY_AUDIT_CLASS, objectId: keyId, added: text, at });
      return keyId;
    });
    return { id, apiKey };
  }

  /** The caller's own keys, never their secrets. */
  async listApiKeys(userId: number): Promise<PublicApiKey[]> {
    const rows = await this.db.read.all('SELECT id, description, revoked, creation_ts, last_used FROM api_keys WHERE user_id = ? ORDER BY id', [userId]);
    return rows.map((r) => ({
      id: Number(r.id),
      description: r.description ?? '',
      revoked: Number(r.revoked) === 1,
      creation_time: toApiDateTime(r.creation_ts),
      last_used: toApiDateTime(r.last_used),
    }));
  }

  /**
   * Revokes (or un-revokes) and describes one of the caller's keys. Another user's key is reported as missing
   * (51), so that key ids of others are not confirmed.
   */
  async updateApiKey(userId: number, keyId: number, values: ApiKeyUpdateInput, now: Date): Promise<{ id: number; changes: Record<string, unknown> }> {
    const at = toDbDateTime(now);
    return this.db.transaction(async (tx) => {
      const row = await tx.one('SELECT id, description, revoked FROM api_keys WHERE id = ? AND user_id = ?', [keyId, userId]);
      if (!row) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'API key', id: keyId });
      const changes = new FieldChanges();
      const update: Record<string, string | number> = {};
      if (values.revoked !== undefined) {
        const revoked = !!values.revoked;
        update.revoked = revoked ? 1 : 0;
        changes.note('revoked', flag(Number(row.revoked) === 1), flag(revoked));
      }
      if (values.description !== undefined) {
        update.description = this.checkDescription(values.description);
        changes.note('description', row.description ?? '', update.description);
      }
      if (!changes.isEmpty) {
        await tx.update('api_keys', update, { id: keyId });
        await changes.audit(tx, this.audit, { userId, className: API_KEY_AUDIT_CLASS, objectId: keyId, at });
      }
      return { id: keyId, changes: changes.toJSON() };
    });
  }

  private checkDescription(value: string | undefined): string {
    const text = textParam(value, 'description');
    if (text.length > DESCRIPTION_MAX) throw TrackerError.of(Errors.FREETEXT_TOO_LONG, { field: 'description', length: text.length, max: DESCRIPTION_MAX });
    return text;
  }
}
