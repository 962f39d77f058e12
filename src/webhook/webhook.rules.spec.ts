import { createHmac } from 'node:crypto';
import { isInternalAddress, postJson } from './webhook-http.js';
import { routingKey } from './webhook-payload.service.js';
import { signatureOf, webhookRetryDelayMs } from './webhook-delivery.service.js';

describe('webhook rules', () => {
  it.each([
    ['127.0.0.1', true], ['10.0.0.8', true], ['172.16.5.4', true], ['172.32.0.1', false], ['192.168.0.1', true],
    ['169.254.169.254', true], ['100.64.0.1', true], ['0.0.0.0', true], ['224.0.0.1', true], ['8.8.8.8', false],
    ['::1', true], ['::', true], ['fe80::1', true], ['fd00::1', true], ['::ffff:127.0.0.1', true], ['::ffff:8.8.8.8', false],
    ['2606:4700:4700::1111', false], ['not-an-address', true],
    // IPv6 forms carrying an IPv4 address, dotted or hex (issue 40)
    ['::7f00:1', true], ['::127.0.0.1', true], ['::a00:1', true], ['::a9fe:a9fe', true], ['::ffff:7f00:1', true],
    ['0:0:0:0:0:FFFF:C0A8:101', true], ['::ffff:0:7f00:1', true], ['::ffff:0:10.0.0.1', true], ['2002:7f00:1::', true],
    ['2002:c0a8:101::1', true], ['::8.8.8.8', false], ['::808:808', false], ['::ffff:808:808', false], ['2002:808:808::', false],
    ['fe80::1%eth0', true], ['1::7f00:1', false],
  ])('%s is internal: %s', (address, internal) => {
    expect(isInternalAddress(address)).toBe(internal);
  });

  it('posts nowhere to an internal address written as IPv6, checked before any connection (issue 40)', async () => {
    const options = { timeoutMs: 1000, allowPrivate: false };
    expect(await postJson('http://[::7f00:1]:9/hook', '{}', {}, options)).toEqual({ error: '::7f00:1 is an internal address' });
    expect(await postJson('http://[::ffff:127.0.0.1]:9/hook', '{}', {}, options)).toEqual({ error: '::ffff:7f00:1 is an internal address' });
  });

  it('routes events as the deployment does: target.verb, and the changed fields of a modification', () => {
    expect(routingKey('bug', 'create', {}, [{ field: 'cc' }])).toBe('bug.create');
    expect(routingKey('bug', 'modify', {}, [{ field: 'status' }, { field: 'cc' }, { field: 'status' }])).toBe('bug.modify:status,cc');
    expect(routingKey('bug', 'modify', {}, [])).toBe('bug.modify');
    expect(routingKey('comment', 'comment', {}, [])).toBe('comment.create');
    expect(routingKey('attachment', 'attachment', { attachment: { id: 1, isNew: true } }, [{ field: 'flagtypes.name' }])).toBe('attachment.create');
    expect(routingKey('attachment', 'attachment', { attachment: { id: 1, isNew: false } }, [{ field: 'is_obsolete' }])).toBe('attachment.modify:is_obsolete');
  });

  it('signs the body with HMAC-SHA256 of the secret', () => {
    expect(signatureOf('s3cret', '{"a":1}')).toBe(`sha256=${createHmac('sha256', 's3cret').update('{"a":1}').digest('hex')}`);
  });

  it('backs off exponentially from the base, at most an hour', () => {
    expect([1, 2, 3, 4].map((n) => webhookRetryDelayMs(10_000, n))).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(webhookRetryDelayMs(10_000, 30)).toBe(3600_000);
  });
});
