import { Clock, requestTime } from './clock.js';

class FixedClock extends Clock {
  constructor(private readonly at: Date) {
    super();
  }
  now(): Date {
    return this.at;
  }
}

describe('requestTime', () => {
  it('is the clock reading to the second (the precision of stored datetimes)', () => {
    expect(requestTime(new FixedClock(new Date('2026-03-04T05:06:07.890Z'))).toISOString()).toBe('2026-03-04T05:06:07.000Z');
  });
});
