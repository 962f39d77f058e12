import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../src/app.factory.js';
import { loadConfig, type AppConfig } from '../../src/config/app-config.js';
import { Db } from '../../src/database/db.service.js';
import { digestSecret, hashPassword } from '../../src/auth/credentials.js';
import { toDbDateTime } from '../../src/common/time/datetime.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { queryCounter, type Sql } from '../../src/database/sql.js';

export const ADMIN_LOGIN = 'admin@example.com';
export const ADMIN_PASSWORD = 'admin-password-1';
export const ADMIN_API_KEY = 'adminkeyadminkeyadminkeyadminkey0000';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | Array<string | number>>;
  body?: unknown;
  headers?: Record<string, string>;
  /** An API key sent as Tracker_api_key in the query string (as clients do). */
  key?: string;
  /** A raw body string (sent as is). */
  rawBody?: string;
}

/** A running Tracker on its own database, spoken to over real HTTP. */
export class TestApp {
  constructor(
    readonly app: NestFastifyApplication,
    readonly baseUrl: string,
    readonly database: TestDatabase,
    readonly config: AppConfig,
  ) {}

  /**
   * The app's database, for test setup. Every transaction run through it also writes an audit row: the service
   * keeps values read from the database while the audit log's newest id is unchanged (MarkedCache,
   * LoadedBugCache), and data written by hand must move it as the service's own writes do.
   */
  get db(): Db {
    const db = this.app.get(Db);
    return new Proxy(db, {
      get: (target, property, receiver) =>
        property === 'transaction'
          ? async <T>(work: (tx: Sql) => Promise<T>): Promise<T> => {
              const result = await target.transaction(work);
              await target.transaction((tx) => tx.insert('audit_log', {
                user_id: null, class: 'Tracker::Test', object_id: 0, field: 'written by hand', at_time: toDbDateTime(new Date()),
              }));
              return result;
            }
          : Reflect.get(target, property, receiver),
    });
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(path.startsWith('/rest') ? path : `/rest${path}`, this.baseUrl);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(item));
    }
    if (options.key) url.searchParams.append('Tracker_api_key', options.key);
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let parsed: any = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = any>(path: string, body: unknown, options: RequestOptions = {}) {
    return this.request<T>('POST', path, { ...options, body });
  }
  put<T = any>(path: string, body: unknown, options: RequestOptions = {}) {
    return this.request<T>('PUT', path, { ...options, body });
  }

  /**
   * Test setup shortcut: a user (with an API key of its own, returned) inserted straight into the database, with
   * direct memberships of the named groups. Tests of user creation itself go through the API.
   */
  async createUser(login: string, options: { groups?: string[]; password?: string; realName?: string; disabled?: string } = {}): Promise<{ id: number; login: string; apiKey: string }> {
    const apiKey = `key${digestSecret(login).slice(0, 37)}`;
    const now = toDbDateTime(new Date());
    const cryptpassword = await hashPassword(options.password ?? 'password-1');
    const id = await this.db.transaction(async (tx) => {
      const userId = await tx.insert('users', {
        login_name: login, email: login, realname: options.realName ?? '', cryptpassword,
        login_denied_text: options.disabled ?? '', email_enabled: 1, creation_ts: now,
      });
      await tx.insert('api_keys', { user_id: userId, key_hash: digestSecret(apiKey), description: 'test', revoked: 0, creation_ts: now });
      const regexpGroups = await tx.all<{ id: number; user_regexp: string }>("SELECT id, user_regexp FROM groups WHERE user_regexp <> ''");
      for (const group of regexpGroups) {
        if (new RegExp(group.user_regexp, 'i').test(login)) {
          await tx.insert('user_group_map', { user_id: userId, group_id: group.id, is_bless: 0, grant_type: 2 });
        }
      }
      for (const name of options.groups ?? []) {
        const group = await tx.one<{ id: number }>('SELECT id FROM groups WHERE name = ?', [name]);
        if (!group) throw new Error(`no group ${name}`);
        await tx.insert('user_group_map', { user_id: userId, group_id: group.id, is_bless: 0, grant_type: 0 });
      }
      return userId;
    });
    return { id, login, apiKey };
  }

  /** Sets installation parameters directly (tests of PUT /rest/parameters itself go through the API). */
  async setParameters(values: Record<string, string>): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const [name, value] of Object.entries(values)) await tx.update('parameters', { value }, { name });
    });
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.database.drop();
  }
}

/** Boots the real app (Fastify adapter) on a fresh database of its own, listening on a free port. */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = loadConfig({
    DATABASE_URL: database.url,
    TRACKER_ADMIN_EMAIL: ADMIN_LOGIN,
    TRACKER_ADMIN_PASSWORD: ADMIN_PASSWORD,
    TRACKER_ADMIN_API_KEY: ADMIN_API_KEY,
    TRACKER_MAIL_URL: 'off',
    ...env,
  });
  const app = await createApp(config, { logger: ['error'], openApiUi: false });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return new TestApp(app, `http://127.0.0.1:${address.port}`, database, config);
}

/** Runs `work` and answers how many SQL statements the service sent meanwhile (see queryCounter). */
export async function countQueries(work: () => Promise<unknown>): Promise<number> {
  const before = queryCounter.count;
  await work();
  return queryCounter.count - before;
}
