import { Injectable } from '@nestjs/common';
import { FieldSelection } from '../common/fields/field-selection.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { toApiDateTime } from '../common/time/datetime.js';
import { CallerResolverService } from '../auth/store/caller-resolver.service.js';
import { BugService } from '../bug/bug.service.js';
import { mayShowChange } from '../bug/bug-history.service.js';
import { CommentViewService } from '../comment/comment-view.service.js';
import { AttachmentViewService } from '../attachment/attachment-view.service.js';
import { ParametersService } from '../params/parameters.service.js';
import { UserService } from '../user/user.service.js';
import type { Webhook } from './entities/webhook.entity.js';
import type { WebhookDelivery } from './entities/webhook-delivery.entity.js';
import type { StoredEvent } from './webhook.service.js';
import { bmoPayload, requesteeLogins, type BmoUser } from './bmo-payload.js';

const NO_PRIVATE_ATTACHMENTS: ReadonlySet<number> = new Set();

/**
 * What a delivery sends; or why it sends nothing (its owner may not read what it is about); or why it cannot be
 * rendered yet: the read did not find what the change wrote (reads go to replicas, which may lag the primary).
 */
export type Rendered = { payload: string } | { skipped: string } | { notYet: string };

/**
 * The body of a delivery, rendered for the webhook's owner with the reads every API client goes through: the bug as
 * Get Bug shows it to them, the comment as Get Comments does, the attachment as Get Attachment does (no contents),
 * and the changes as Bug History does. What the owner may not read is never in it; a delivery about something they
 * may not read at all (a hidden bug, a private comment or attachment) is skipped. A `bmo` webhook's delivery (one
 * queued with BMO's message) is shaped from the same reads into BMO's payload (bmo-payload.ts).
 */
@Injectable()
export class WebhookPayloadService {
  constructor(
    private readonly callers: CallerResolverService,
    private readonly parameters: ParametersService,
    private readonly users: UserService,
    private readonly bugs: BugService,
    private readonly comments: CommentViewService,
    private readonly attachments: AttachmentViewService,
  ) {}

  async render(webhook: Webhook, delivery: WebhookDelivery, event: StoredEvent): Promise<Rendered> {
    const people = await this.users.findByIds([webhook.ownerId, event.changerId]);
    const owner = people.get(webhook.ownerId);
    if (!owner || owner.loginDeniedText !== '') return { skipped: "the webhook's owner account is disabled" };
    const caller = await this.callers.callerFor(owner, await this.parameters.load(), { kind: 'none' });
    const now = new Date();

    let bug: Record<string, unknown>;
    try {
      const answer = await this.bugs.get({ caller, selection: FieldSelection.NONE, now }, [String(delivery.bugId)], false);
      // All of Get Bug but the owner's update token: it guards the owner's own updates and is not the receiver's.
      const { update_token: _ownersToken, ...shown } = (JSON.parse(answer.text) as { bugs: Record<string, unknown>[] }).bugs[0];
      bug = shown;
    } catch (err) {
      if (!(err instanceof TrackerError)) throw err;
      if (err.code === Errors.BUG_NOT_FOUND.code) return { notYet: `bug ${delivery.bugId} is not readable yet` };
      return { skipped: `the owner may not see bug ${delivery.bugId}` };
    }
    const comment = event.commentId === undefined ? undefined : await this.comments.seenBy(caller, delivery.bugId, event.commentId);
    if (comment === 'missing') return { notYet: `comment ${event.commentId} is not readable yet` };
    if (delivery.action === 'comment' && comment === 'hidden') return { skipped: 'the owner may not see the comment (private)' };
    if (comment !== undefined && comment !== 'hidden') bug.comment = comment;
    if (event.attachment) {
      const attachment = await this.attachments.seenBy(caller, event.attachment.id);
      if (attachment === 'missing') return { notYet: `attachment ${event.attachment.id} is not readable yet` };
      if (attachment === 'hidden') return { skipped: `the owner may not see attachment ${event.attachment.id} (private)` };
      bug.attachment = attachment;
    }

    const changes = event.changes.filter((c) => mayShowChange(caller, c, NO_PRIVATE_ATTACHMENTS));
    const changer = people.get(event.changerId);
    if (event.message) {
      const { comment: shownComment, attachment: shownAttachment, ...plainBug } = bug as Record<string, unknown> & { comment?: Record<string, unknown>; attachment?: Record<string, unknown> };
      const requestees = await this.users.findByLogins(requesteeLogins(plainBug, shownAttachment));
      const user = (record: { id: number; login: string; realName: string }): BmoUser => ({ id: record.id, login: record.login, real_name: record.realName });
      return {
        payload: JSON.stringify(bmoPayload({
          webhook, message: event.message, time: toApiDateTime(event.at)!, changes, bug: plainBug,
          user: changer ? user(changer) : { id: event.changerId, login: '', real_name: '' },
          comment: shownComment, attachment: shownAttachment,
          requestees: new Map([...requestees].map(([login, record]) => [login, user(record)])),
        })),
      };
    }
    const target = delivery.action === 'comment' ? 'comment' : delivery.action === 'attachment' ? 'attachment' : 'bug';
    return {
      payload: JSON.stringify({
        webhook_id: webhook.id,
        webhook_name: webhook.name,
        event: {
          action: delivery.action,
          time: toApiDateTime(event.at),
          user: { id: event.changerId, login: changer?.login ?? null, real_name: changer?.realName ?? '' },
          changes,
          routing_key: routingKey(target, delivery.action, event, changes),
          target,
          bug_id: delivery.bugId,
        },
        bug,
      }),
    };
  }
}

/**
 * Where consumers route an event (the deployment's format): `bug.create`, `bug.modify:status,cc`, `comment.create`,
 * `attachment.create`, `attachment.modify:is_obsolete`.
 */
export function routingKey(target: string, action: string, event: Pick<StoredEvent, 'attachment'>, changes: ReadonlyArray<{ field: string }>): string {
  const verb = action === 'create' || action === 'comment' || event.attachment?.isNew ? 'create' : 'modify';
  const fields = [...new Set(changes.map((c) => c.field))];
  return `${target}.${verb}${verb === 'modify' && fields.length ? `:${fields.join(',')}` : ''}`;
}
