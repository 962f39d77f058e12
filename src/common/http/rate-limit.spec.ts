import { bucketOf, nextCell } from './rate-limit.js';

describe('nextCell (GCRA)', () => {
  const rule = { perMinute: 6, burst: 3 }; // a token every 10 s, 3 at once
  const now = 1_000_000;

  it('a full bucket admits the burst, counting down, then refuses with the wait until the next token', () => {
    let tat = 0;
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const cell = nextCell(tat, now, rule);
      expect(cell.decision.allowed).toBe(true);
      remaining.push(cell.decision.remaining);
      tat = cell.tat;
    }
    expect(remaining).toEqual([2, 1, 0]);
    const refused = nextCell(tat, now, rule);
    expect(refused).toEqual({ tat, decision: { allowed: false, limit: 3, remaining: 0, resetSeconds: 30, retryAfterSeconds: 10 } });
    expect(nextCell(tat, now + 9_999, rule).decision.allowed).toBe(false);
    expect(nextCell(tat, now + 10_000, rule).decision).toMatchObject({ allowed: true, remaining: 0 });
    expect(nextCell(tat, now + 30_000, rule).decision).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 10 });
  });

  it('a burst of one admits one request per interval', () => {
    const single = { perMinute: 60, burst: 1 };
    const first = nextCell(0, now, single);
    expect(first.decision).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 1 });
    expect(nextCell(first.tat, now + 500, single).decision).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    expect(nextCell(first.tat, now + 1000, single).decision.allowed).toBe(true);
  });
});

describe('bucketOf', () => {
  const none = { restrictLogin: false };
  it('is the credential as authentication ranks them (login+password, token, API key), else the address; never the secret itself', () => {
    const login = bucketOf('write', { ...none, login: 'A@x.org', password: 'p', token: 't', apiKey: 'k' }, '10.0.0.1');
    expect(login).toMatch(/^write:login:[0-9a-f]{40}$/);
    expect(bucketOf('write', { ...none, login: 'a@X.org', password: 'other' }, '10.0.0.2')).toBe(login);
    expect(bucketOf('read', { ...none, token: 't', apiKey: 'k' }, '10.0.0.1')).toMatch(/^read:token:/);
    expect(bucketOf('read', { ...none, apiKey: 'secretkey' }, '10.0.0.1')).not.toContain('secretkey');
    expect(bucketOf('read', { ...none, login: 'only-login@x.org' }, '10.0.0.1')).toBe('read:ip:10.0.0.1');
  });
});
