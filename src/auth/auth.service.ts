import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import { AuditService } from '../audit/audit.service.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { checkTextLimit, freeText } from '../common/text-limits.js';
import { toApiDateTime, toDbDateTime } from '../common/time/datetime.js';
import { FieldChanges, flag, textParam } from '../common/changes.js';
import { UserService } from '../user/user.service.js';
import { digestSecret, randomSecret } from '../common/credentials.js';
import { TOKEN_LIFETIME_MS } from './store/caller-resolver.service.js';
import type { ApiKeyUpdateInput } from './dto/api-key.dto.js';
import { AuthRepository, type ApiKeyChanges } from './auth.repository.js';

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
  constructor(
    private readonly db: Db,
    private readonly credentials: AuthRepository,
    private readonly users: UserService,
    private readonly audit: AuditService,
  ) {}

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
      await this.credentials.deleteTokensUnusedSince(tx, toDbDateTime(new Date(now.getTime() - TOKEN_LIFETIME_MS)));
      await this.credentials.insertToken(tx, { userId, tokenHash: digestSecret(token), ipAddr: restrictToIp, lastUsed: toDbDateTime(now) });
    });
    return token;
  }

  /** Logout: the token of this request dies; any other token of the user lives on. */
  async endLoginToken(tokenId: number): Promise<void> {
    await this.db.transaction((tx) => this.credentials.deleteToken(tx, tokenId));
  }

  async endLoginTokens(tx: Sql, userId: number): Promise<void> {
    await this.credentials.deleteTokensOf(tx, userId);
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
      const keyId = await this.credentials.insertApiKey(tx, { userId, keyHash: digestSecret(apiKey), description: text, revoked: false, creationTs: at });
      await this.audit.recordCreate(tx, { userId: actor.userId, className: API_KEY_AUDIT_CLASS, objectId: keyId, added: text, at });
      return keyId;
    });
    return { id, apiKey };
  }

  /** A key given in clear by the install (TRACKER_ADMIN_API_KEY), inside its transaction, stored as its digest. */
  async installApiKey(tx: Sql, key: { userId: number; apiKey: string; description: string; at: string }): Promise<void> {
    await this.credentials.insertApiKey(tx, { userId: key.userId, keyHash: digestSecret(key.apiKey), description: key.description, revoked: false, creationTs: key.at });
  }

  /** The caller's own keys, never their secrets. */
  async listApiKeys(userId: number): Promise<PublicApiKey[]> {
    return (await this.credentials.apiKeysOf(this.db.read, userId)).map((key) => ({
      id: key.id,
      description: key.description,
      revoked: key.revoked,
      creation_time: toApiDateTime(key.creationTs),
      last_used: toApiDateTime(key.lastUsed),
    }));
  }

  /**
   * Revokes (or un-revokes) and describes one of the caller's keys. Another user's key is reported as missing
   * (51), so that key ids of others are not confirmed.
   */
  async updateApiKey(userId: number, keyId: number, values: ApiKeyUpdateInput, now: Date): Promise<{ id: number; changes: Record<string, unknown> }> {
    const at = toDbDateTime(now);
    return this.db.transaction(async (tx) => {
      const key = await this.credentials.apiKeyOf(tx, userId, keyId);
      if (!key) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'API key', id: keyId });
      const changes = new FieldChanges();
      const update: ApiKeyChanges = {};
      if (values.revoked !== undefined) {
        update.revoked = !!values.revoked;
        changes.note('revoked', flag(key.revoked), flag(update.revoked));
      }
      if (values.description !== undefined) {
        update.description = this.checkDescription(values.description);
        changes.note('description', key.description, update.description);
      }
      if (!changes.isEmpty) {
        await this.credentials.updateApiKey(tx, keyId, update);
        await changes.audit(tx, this.audit, { userId, className: API_KEY_AUDIT_CLASS, objectId: keyId, at });
      }
      return { id: keyId, changes: changes.toJSON() };
    });
  }

  private checkDescription(value: string | undefined): string {
    const text = textParam(value, 'description');
    checkTextLimit(text, freeText(DESCRIPTION_MAX), 'description');
    return text;
  }
}
