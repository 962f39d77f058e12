import { Errors, TrackerError } from '../common/errors/index.js';
import { RawJson } from '../common/http/raw-json.js';
import { WebhookPayloadService } from './webhook-payload.service.js';
import type { Webhook } from './entities/webhook.entity.js';
import type { WebhookDelivery } from './entities/webhook-delivery.entity.js';
import type { StoredEvent } from './webhook.service.js';

const owner = { id: 5, login: 'owner@example.com', realName: 'Owner', loginDeniedText: '' };
const changer = { id: 1, login: 'admin@example.com', realName: 'Admin', loginDeniedText: '' };
const webhook = { id: 3, name: 'sync', ownerId: owner.id } as Webhook;
const delivery = (action: string) => ({ id: 9, bugId: 42, action }) as WebhookDelivery;
const event = (extra: Partial<StoredEvent> = {}): StoredEvent => ({
  changerId: changer.id, at: '2026-11-26 10:00:00',
  changes: [{ field: 'status', removed: 'NEW', added: 'ASSIGNED' }, { field: 'estimated_time', removed: '0', added: '5' }],
  ...extra,
});

/** The renderer over stand-ins of the reads it goes through, each answering as a test says. */
function renderer(reads: { bug?: () => unknown; comment?: unknown; attachment?: unknown }) {
  const caller = { isTimeTracker: false, isInsider: false };
  return new WebhookPayloadService(
    { callerFor: async () => caller } as never,
    { load: async () => ({}) } as never,
    { findByIds: async () => new Map([[owner.id, owner], [changer.id, changer]]), findByLogins: async () => new Map() } as never,
    { get: async () => (reads.bug ?? (() => new RawJson('{"faults":[],"bugs":[{"id":42,"update_token":"secret-token"}]}')))() } as never,
    { seenBy: async () => reads.comment } as never,
    { seenBy: async () => reads.attachment } as never,
  );
}

describe('WebhookPayloadService: what a delivery shows its owner', () => {
  it("renders the bug as Get Bug shows it, without the owner's update token, and the changes the owner may see", async () => {
    const rendered = await renderer({}).render(webhook, delivery('modify'), event());
    const body = JSON.parse((rendered as { payload: string }).payload);
    expect(body).toMatchObject({ webhook_id: 3, webhook_name: 'sync', event: { action: 'modify', target: 'bug', routing_key: 'bug.modify:status', bug_id: 42 } });
    expect(body.bug).toEqual({ id: 42 });
    expect(body.event.changes).toEqual([{ field: 'status', removed: 'NEW', added: 'ASSIGNED' }]);
  });

  it('skips a bug the owner may not see, and waits for one the read does not find yet (a lagging replica)', async () => {
    const denied = () => { throw TrackerError.of(Errors.BUG_ACCESS_DENIED, { id: 42 }); };
    const missing = () => { throw TrackerError.of(Errors.BUG_NOT_FOUND, { id: 42 }); };
    expect(await renderer({ bug: denied }).render(webhook, delivery('modify'), event())).toEqual({ skipped: 'the owner may not see bug 42' });
    expect(await renderer({ bug: missing }).render(webhook, delivery('modify'), event())).toEqual({ notYet: 'bug 42 is not readable yet' });
  });

  it('a private comment: a comment event is skipped, a modification goes without it; a comment not found yet waits', async () => {
    expect(await renderer({ comment: 'hidden' }).render(webhook, delivery('comment'), event({ commentId: 7 }))).toEqual({ skipped: 'the owner may not see the comment (private)' });
    const modified = await renderer({ comment: 'hidden' }).render(webhook, delivery('modify'), event({ commentId: 7 }));
    expect(JSON.parse((modified as { payload: string }).payload).bug.comment).toBeUndefined();
    expect(await renderer({ comment: 'missing' }).render(webhook, delivery('comment'), event({ commentId: 7 }))).toEqual({ notYet: 'comment 7 is not readable yet' });
  });

  it('a private attachment is skipped; one not found yet waits', async () => {
    const withAttachment = event({ attachment: { id: 8, isNew: true } });
    expect(await renderer({ attachment: 'hidden' }).render(webhook, delivery('attachment'), withAttachment)).toEqual({ skipped: 'the owner may not see attachment 8 (private)' });
    expect(await renderer({ attachment: 'missing' }).render(webhook, delivery('attachment'), withAttachment)).toEqual({ notYet: 'attachment 8 is not readable yet' });
  });

  it("a bmo webhook's delivery is BMO's message, with the changes the owner may see", async () => {
    const rendered = await renderer({}).render({ ...webhook, format: 'bmo' }, delivery('modify'), event({ message: 'bug.modify' }));
    const body = JSON.parse((rendered as { payload: string }).payload);
    expect(body.event).toEqual({
      action: 'modify', time: '2026-11-26T10:00:00', user: { id: 1, login: 'admin@example.com', real_name: 'Admin' },
      changes: [{ field: 'status', removed: 'NEW', added: 'ASSIGNED' }], target: 'bug', routing_key: 'bug.modify:status',
    });
    expect(body.bug).toMatchObject({ id: 42, is_private: false });
    expect(body.bug.update_token).toBeUndefined();
  });
});
