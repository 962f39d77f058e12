import { ConfigError, loadConfig, withoutPassword } from './app-config.js';

describe('DATABASE_URL', () => {
  it('takes a MySQL/MariaDB server by its Unix socket (socketPath, as mysql2 names it)', () => {
    const url = 'mysql://root@localhost/tracker?socketPath=/run/mysqld/mysqld.sock';
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    expect(loadConfig({ DATABASE_URL: 'mysql://root@db/tracker', DATABASE_REPLICA_URLS: `${url},mysql://root@replica/tracker` }).databaseReplicaUrls).toEqual([url, 'mysql://root@replica/tracker']);
  });

  it('refuses an option it would not apply, and a relative socket path, naming the variable', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://root@db/tracker?ssl=true' })).toThrow(new ConfigError("DATABASE_URL takes no option 'ssl' (the one option is socketPath=/path/to/mysqld.sock)"));
    expect(() => loadConfig({ DATABASE_URL: 'mysql://root@db/tracker', DATABASE_REPLICA_URLS: 'mysql://root@replica/tracker?socketPath=mysqld.sock' })).toThrow(new ConfigError("DATABASE_REPLICA_URLS's socketPath must be an absolute path (got 'mysqld.sock')"));
  });
});

describe('replica settings', () => {
  it('default to a 2 s lag bound, a 100 ms wait and a probe each second; each can be set', () => {
    expect(loadConfig({}).replicas).toEqual({ maxLagMs: 2000, waitMs: 100, probeMs: 1000 });
    expect(loadConfig({ TRACKER_REPLICA_MAX_LAG_S: '0', TRACKER_REPLICA_WAIT_MS: '0', TRACKER_REPLICA_PROBE_MS: '200' }).replicas).toEqual({ maxLagMs: 0, waitMs: 0, probeMs: 200 });
    expect(() => loadConfig({ TRACKER_REPLICA_PROBE_MS: '10' })).toThrow(new ConfigError("TRACKER_REPLICA_PROBE_MS must be an integer between 50 and 60000 (got '10')"));
  });
});

describe('errors about URLs that carry credentials', () => {
  it.each([
    ['DATABASE_URL', 'postgres://tracker:s3cr/et@db/tracker'],
    ['TRACKER_MAIL_URL', 'smpt://mailer:s3cr/et@mail.example.com'],
    ['REDIS_URL', 'http://:s3cr/et@redis:6379'],
  ])('%s: name the URL without its password (the message reaches the log)', (name, url) => {
    expect(() => loadConfig({ [name]: url })).toThrow(/\*\*\*@/);
    expect(() => loadConfig({ [name]: url })).not.toThrow(/s3cr/);
  });
});

describe('withoutPassword (errors and the start-up line)', () => {
  it('masks the password and keeps the rest', () => {
    expect(withoutPassword('mysql://tracker:s3cret@db:3306/tracker?socketPath=/run/mysqld.sock')).toBe('mysql://tracker:***@db:3306/tracker?socketPath=/run/mysqld.sock');
    expect(withoutPassword('mysql://root@127.0.0.1:3306/tracker')).toBe('mysql://root@127.0.0.1:3306/tracker');
    expect(withoutPassword('sqlite:./data/tracker.sqlite')).toBe('sqlite:./data/tracker.sqlite');
  });
});

describe('TRACKER_FAST_PATHS', () => {
  it('is on unless told off, and takes nothing else', () => {
    expect(loadConfig({}).fastPaths).toBe(true);
    expect(loadConfig({ TRACKER_FAST_PATHS: 'on' }).fastPaths).toBe(true);
    expect(loadConfig({ TRACKER_FAST_PATHS: ' OFF ' }).fastPaths).toBe(false);
    expect(() => loadConfig({ TRACKER_FAST_PATHS: '0' })).toThrow(new ConfigError("TRACKER_FAST_PATHS must be on or off (got '0')"));
  });
});

describe('TRACKER_XMLRPC and TRACKER_JSONRPC', () => {
  it('serve each protocol unless told off, each on its own', () => {
    expect(loadConfig({}).rpc).toEqual({ xml: true, json: true });
    expect(loadConfig({ TRACKER_XMLRPC: 'off' }).rpc).toEqual({ xml: false, json: true });
    expect(loadConfig({ TRACKER_JSONRPC: 'Off' }).rpc).toEqual({ xml: true, json: false });
    expect(() => loadConfig({ TRACKER_JSONRPC: 'no' })).toThrow(new ConfigError("TRACKER_JSONRPC must be on or off (got 'no')"));
  });
});

describe('TRACKER_REQUEST_TIMEOUT_MS', () => {
  it('is two minutes unless set, from a second to an hour', () => {
    expect(loadConfig({}).requestTimeoutMs).toBe(120_000);
    expect(loadConfig({ TRACKER_REQUEST_TIMEOUT_MS: '5000' }).requestTimeoutMs).toBe(5000);
    expect(() => loadConfig({ TRACKER_REQUEST_TIMEOUT_MS: '0' })).toThrow(new ConfigError("TRACKER_REQUEST_TIMEOUT_MS must be an integer between 1000 and 3600000 (got '0')"));
  });
});

describe('admission (TRACKER_MAX_IN_FLIGHT, TRACKER_MAX_QUEUE, TRACKER_MAX_WAIT_MS)', () => {
  it('defaults to 32 in flight, 1,000 waiting, 1 s; a turn budget on SQLite only; 0 in flight turns it off', () => {
    expect(loadConfig({}).admission).toEqual({ maxInFlight: 32, maxQueue: 1000, maxWaitMs: 1000, turnBudgetMs: 2 });
    expect(loadConfig({ DATABASE_URL: 'mysql://root@db/tracker' }).admission.turnBudgetMs).toBe(0);
    expect(loadConfig({ TRACKER_MAX_IN_FLIGHT: '0', TRACKER_MAX_QUEUE: '5', TRACKER_MAX_WAIT_MS: '250' }).admission).toMatchObject({ maxInFlight: 0, maxQueue: 5, maxWaitMs: 250 });
    expect(() => loadConfig({ TRACKER_MAX_QUEUE: '0' })).toThrow(new ConfigError("TRACKER_MAX_QUEUE must be an integer between 1 and 1000000 (got '0')"));
    expect(() => loadConfig({ TRACKER_MAX_WAIT_MS: '1s' })).toThrow(ConfigError);
  });
});
