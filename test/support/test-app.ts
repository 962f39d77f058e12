import fs from 'node:fs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../src/app.factory.js';
import { loadConfig, type AppConfig } from '../../src/config/app-config.js';
import { Db } from '../../src/database/db.service.js';
import { digestSecret, hashPassword } from '../../src/common/credentials.js';
import { toDbDateTime } from '../../src/common/time/datetime.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { TestClock } from './test-clock.js';
import { queryCounter } from '../../src/database/sql.js';
import { UserRepository } from '../../src/user/user.repository.js';
import { AuthRepository } from '../../src/auth/auth.repository.js';
import { GroupService } from '../../src/group/group.service.js';
import { ParametersService } from '../../src/params/parameters.service.js';
import { AuditLogEntry } from '../../src/audit/entities/audit-log-entry.entity.js';
import { SettingsMarkService } from '../../src/audit/store/settings-mark.service.js';
import type { LogLevel } from '../../src/common/logging/log.js';
import { Bug } from '../../src/bug/entities/bug.entity.js';
import { MoreThan } from 'typeorm';
import { jest } from '@jest/globals';
import { BugLoaderService } from '../../src/bug/store/bug-loader.service.js';

/**
 * E2E_BASE_URL: the suite speaks to that running instance (a container, a compose stack, a staging server) instead
 * of booting its own, black-box: everything through the API with E2E_ADMIN_API_KEY (`npm run test:e2e:remote`).
 */
export const REMOTE_BASE_URL = process.env.E2E_BASE_URL?.trim().replace(/\/+$/, '') || undefined;

export const ADMIN_LOGIN = process.env.E2E_ADMIN_LOGIN?.trim() || 'admin@example.com';
export const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD?.trim() || 'admin-password-1';
export const ADMIN_API_KEY = process.env.E2E_ADMIN_API_KEY?.trim() || 'adminkeyadminkeyadminkeyadminkey0000';

/**
 * What a remote run cannot reach (the app's container, its database, its clock, its configuration): any use fails
 * the test with a message saying it is in-process only (mark it so: test/support/in-process.ts).
 */
function inProcessOnly<T extends object>(what: string): T {
  return new Proxy({} as T, {
    get(_target, property) {
      if (property === 'then') return undefined; // not a promise
      throw new Error(`${what} is not reachable against a running instance (E2E_BASE_URL): this test is in-process only`);
    },
  });
}

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
    /** The app's clock: `t.clock.advance(seconds)` instead of sleeping. */
    readonly clock: TestClock,
    /** Whether this is a running instance spoken to over HTTP only (no app, database, clock or config here). */
    readonly isRemote = false,
  ) {}

  /**
   * The app's database, for test setup. Its writes move the settings mark or a bug's revision by construction
   * (ChangeMarkSubscriber, Bug.revision), so values the service keeps (MarkedCache, LoadedBugCache) follow data
   * written by a test as they follow its own.
   */
  get db(): Db {
    return this.app.get(Db);
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    // API paths may leave out /rest; the health and metrics endpoints and 5.0's RPC endpoints live outside it.
    const url = new URL(/^\/(rest|health|metrics|xmlrpc\.cgi|jsonrpc\.cgi)(\/|$)/.test(path) ? path : `/rest${path}`, this.baseUrl);
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
    recordRoute(method, url.pathname);
    const text = await response.text();
    let parsed: any;
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
   * Test setup shortcut: a user (with an API key of its own, returned) written through the accounts modules'
   * repositories, with its regexp memberships and direct memberships of the named groups. Unlike Create User it
   * takes any login and password and sets the disable text. Tests of user creation itself go through the API.
   */
  createUser(login: string, options: { groups?: string[]; password?: string; realName?: string; disabled?: string } = {}): Promise<{ id: number; login: string; apiKey: string }> {
    // One at a time: tests create users with Promise.all, and on MariaDB two transactions inserting memberships of
    // new users into user_group_map can deadlock on the index gap (setup is not what those tests measure).
    const created = this.userCreations.then(() => (this.isRemote ? this.createUserThroughApi(login, options) : this.insertUser(login, options)));
    this.userCreations = created.catch(() => undefined);
    return created;
  }

  private userCreations: Promise<unknown> = Promise.resolve();

  /**
   * createUser against a running instance: Create User (admin), an API key made by the user (login and password),
   * then Update User for groups and the disable text. A login an earlier run left there is reused.
   */
  private async createUserThroughApi(login: string, options: { groups?: string[]; password?: string; realName?: string; disabled?: string }): Promise<{ id: number; login: string; apiKey: string }> {
    const password = options.password ?? 'password-1';
    const admin = { key: ADMIN_API_KEY };
    const created = await this.post('/user', { email: login, full_name: options.realName ?? '', password }, admin);
    let id: number = created.body?.id;
    if (created.status !== 200) {
      const found = await this.get('/user', { ...admin, query: { names: login } });
      id = found.body?.users?.[0]?.id;
      if (!id) throw new Error(`Create User ${login} failed: ${created.status} ${created.text}`);
      await this.put(`/user/${id}`, { password, login_denied_text: '' }, admin);
    }
    const key = await this.post('/api_key', { description: 'e2e' }, { query: { Tracker_login: login, Tracker_password: password } });
    if (key.status !== 200) throw new Error(`API key for ${login} failed: ${key.status} ${key.text}`);
    const change: Record<string, unknown> = {};
    if (options.groups?.length) change.groups = { add: options.groups };
    if (options.disabled) change.login_denied_text = options.disabled;
    if (Object.keys(change).length) {
      const res = await this.put(`/user/${id}`, change, admin);
      if (res.status !== 200) throw new Error(`Update User ${login} failed: ${res.status} ${res.text}`);
    }
    return { id, login, apiKey: key.body.api_key };
  }

  private async insertUser(login: string, options: { groups?: string[]; password?: string; realName?: string; disabled?: string }): Promise<{ id: number; login: string; apiKey: string }> {
    const apiKey = `key${digestSecret(login).slice(0, 37)}`;
    const now = toDbDateTime(new Date());
    const cryptpassword = await hashPassword(options.password ?? 'password-1');
    const [users, credentials, groups] = [this.app.get(UserRepository), this.app.get(AuthRepository), this.app.get(GroupService)];
    const id = await this.db.transaction(async (tx) => {
      const userId = await users.insert(tx, {
        loginName: login, email: login, realname: options.realName ?? '', cryptpassword,
        loginDeniedText: options.disabled ?? '', emailEnabled: true, creationTs: now,
      });
      await credentials.insertApiKey(tx, { userId, keyHash: digestSecret(apiKey), description: 'test', revoked: false, creationTs: now });
      await groups.deriveRegexpGroupsOfUser(tx, userId, login);
      const direct = await groups.requireByNames(options.groups ?? [], tx);
      await groups.changeDirectGroups(tx, userId, false, { add: direct.map((group) => group.id), remove: [] });
      return userId;
    });
    return { id, login, apiKey };
  }

  /**
   * Sets installation parameters through the parameters service, audited as the first administrator (tests of
   * PUT /rest/parameters itself go through the API).
   */
  async setParameters(values: Record<string, string>): Promise<void> {
    if (this.isRemote) {
      const res = await this.put('/parameters', values, { key: ADMIN_API_KEY });
      if (res.status !== 200) throw new Error(`Update parameters failed: ${res.status} ${res.text}`);
      return;
    }
    const [parameters, groups] = [this.app.get(ParametersService), this.app.get(GroupService)];
    await this.db.transaction((tx) =>
      parameters.update(tx, values, { userId: 1, now: toDbDateTime(new Date()), isGroupName: (name) => groups.existsByName(name, tx) }),
    );
  }

  /** The audit rows of one object, oldest first, for assertions on what a write recorded. */
  auditOf(className: string, objectId: number): Promise<AuditLogEntry[]> {
    return this.db.read.repository(AuditLogEntry).find({ where: { class: className, objectId }, order: { id: 'ASC' } });
  }

  /**
   * Moves every bug's revision, so that the next request finds no bug kept (a query count from cold); callers,
   * parameters and the catalogue stay kept (they follow the settings mark: forgetKeptValues).
   */
  async forgetKeptBugs(): Promise<void> {
    await this.db.transaction((tx) => tx.repository(Bug).increment({ id: MoreThan(0) }, 'revision', 1));
  }

  /** Moves the settings mark, so that the next request finds nothing kept at all (bugs are kept under it too). */
  async forgetKeptValues(): Promise<void> {
    await this.db.transaction((tx) => this.app.get(SettingsMarkService).moveSettingsMark(tx));
  }

  async close(): Promise<void> {
    if (this.isRemote) return;
    await this.app.close();
    await this.database.drop();
  }
}

/**
 * A running instance at `baseUrl` (E2E_BASE_URL's, or a service process a test started), spoken to black-box:
 * everything through the API with the administrator's key.
 */
export function runningInstance(baseUrl: string): TestApp {
  return new TestApp(inProcessOnly('the app'), baseUrl, inProcessOnly('the database'), inProcessOnly('the configuration'), inProcessOnly('the clock'), true);
}

/**
 * Boots the real app (Fastify adapter) on a fresh database of its own, listening on a free port. With `sharing`, a
 * second instance on that app's database instead (N instances on one database; closing it leaves the database).
 */
export async function startTestApp(env: Record<string, string> = {}, options: { logLevel?: LogLevel; sharing?: TestApp } = {}): Promise<TestApp> {
  if (REMOTE_BASE_URL) {
    if (Object.keys(env).length || options.sharing) {
      throw new Error('this test configures the instances it starts (environment, a second instance): it is in-process only');
    }
    return runningInstance(REMOTE_BASE_URL);
  }
  const database = options.sharing ? { ...options.sharing.database, drop: async () => undefined } : await createTestDatabase();
  const config = loadConfig({
    DATABASE_URL: database.url,
    TRACKER_ADMIN_EMAIL: ADMIN_LOGIN,
    TRACKER_ADMIN_PASSWORD: ADMIN_PASSWORD,
    TRACKER_ADMIN_API_KEY: ADMIN_API_KEY,
    TRACKER_MAIL_URL: 'off',
    // The webhook worker's idle poll stays out of the query-counting windows; commits and retry times still wake it.
    TRACKER_WEBHOOK_POLL_MS: '3600000',
    // Every bug an update keeps as it left it is compared with the database's (AppConfig.bugCache.checkWrites).
    TRACKER_CACHE_BUGS_CHECK: process.env.TRACKER_CACHE_BUGS_CHECK ?? '1',
    // scripts/test.sh runs the suite once more with the speed mechanisms off (AppConfig.fastPaths).
    ...(process.env.TRACKER_FAST_PATHS ? { TRACKER_FAST_PATHS: process.env.TRACKER_FAST_PATHS } : {}),
    ...env,
  });
  const clock = new TestClock();
  const app = await createApp(config, { logLevel: options.logLevel ?? 'error', clock });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return new TestApp(app, `http://127.0.0.1:${address.port}`, database, config, clock);
}

/**
 * Turns off, until restored, the check of what updates keep (TRACKER_CACHE_BUGS_CHECK, which reads each kept bug
 * again): for tests that count the service's own round trips. In-process only.
 */
export function withoutKeptWriteChecks(app: TestApp): { restore(): void } {
  return jest.replaceProperty(app.app.get<BugLoaderService, { checkWrites: boolean }>(BugLoaderService), 'checkWrites', false);
}

/** Runs `work` and answers how many SQL statements the service sent meanwhile (see queryCounter). */
export async function countQueries(work: () => Promise<unknown>): Promise<number> {
  const before = queryCounter.count;
  await work();
  return queryCounter.count - before;
}

/**
 * E2E_ROUTE_LOG: every request's method and path is appended there, so that the remote run can show which of the
 * documented routes the suite reached (scripts/route-coverage.mjs).
 */
function recordRoute(method: string, pathname: string): void {
  const log = process.env.E2E_ROUTE_LOG;
  if (log) fs.appendFileSync(log, `${method} ${pathname}\n`);
}
