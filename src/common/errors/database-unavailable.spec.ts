import { isDatabaseUnavailable } from './database-unavailable.js';

describe('isDatabaseUnavailable', () => {
  it('recognises lost and killed connections, directly or wrapped by TypeORM', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('Connection lost'), { code: 'PROTOCOL_CONNECTION_LOST' }))).toBe(true);
    expect(isDatabaseUnavailable({ message: 'Query failed', driverError: { code: 'ER_CONNECTION_KILLED', errno: 1927 } })).toBe(true);
    expect(isDatabaseUnavailable({ driverError: { errno: 2013 } })).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { cause: { code: 'ECONNREFUSED' } }))).toBe(true);
  });

  it('leaves statement errors and everything else alone', () => {
    expect(isDatabaseUnavailable({ driverError: { code: 'ER_DUP_ENTRY', errno: 1062 } })).toBe(false);
    expect(isDatabaseUnavailable({ driverError: { code: 'ER_LOCK_DEADLOCK', errno: 1213 } })).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
