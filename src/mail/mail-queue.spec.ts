import { MAX_DELIVERY_ATTEMPTS, retryDelaySeconds } from './mail-queue.service.js';
import { emlFileName } from './mail-transport.js';

describe('outbox retry schedule', () => {
  it('waits 10 s after the first failure, doubling each time, never more than an hour', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map(retryDelaySeconds)).toEqual([10, 20, 40, 80, 160, 320, 640, 1280, 2560]);
    expect(retryDelaySeconds(10)).toBe(3600);
    expect(retryDelaySeconds(50)).toBe(3600);
  });

  it('gives up after 10 attempts, about an hour and a half (5110 s of waiting) after the change', () => {
    expect(MAX_DELIVERY_ATTEMPTS).toBe(10);
    const total = Array.from({ length: MAX_DELIVERY_ATTEMPTS - 1 }, (_, i) => retryDelaySeconds(i + 1)).reduce((a, b) => a + b, 0);
    expect(total).toBe(5110);
  });
});

describe('.eml file names', () => {
  it('sort by the change time and stay unique by outbox id', () => {
    const mail = { id: 42, to: 'a@example.com', subject: 's', body: 'b', headers: {}, createdAt: '2024-05-01 10:02:03' };
    expect(emlFileName(mail)).toBe('20240501-100203-42.eml');
  });
});
