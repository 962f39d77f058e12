import type { BugAction } from '../bug/bug-events.js';
import type { WebhookFormat } from './entities/webhook.entity.js';
import type { BmoMessage } from './bmo-payload.js';

export const WEBHOOK_FORMATS: readonly WebhookFormat[] = ['tracker', 'bmo'];

/** The events a webhook may name, per format, in the order they are stored and shown. */
export const FORMAT_EVENTS: Readonly<Record<WebhookFormat, readonly string[]>> = {
  tracker: ['create', 'modify', 'comment', 'attachment'],
  // BMO's preferences form, in its order.
  bmo: ['create', 'change', 'attachment', 'attachment_change', 'comment'],
};

/** The BMO event that asks for each message (BMO's Webhook connector, `should_send`). */
export const BMO_EVENT_OF: Readonly<Record<BmoMessage, string>> = {
  'bug.create': 'create',
  'bug.modify': 'change',
  'comment.create': 'comment',
  'attachment.create': 'attachment',
  'attachment.modify': 'attachment_change',
};

/** The Tracker action a BMO message is logged under (a delivery's `action`, X-Tracker-Event). */
export const ACTION_OF: Readonly<Record<BmoMessage, BugAction>> = {
  'bug.create': 'create',
  'bug.modify': 'modify',
  'comment.create': 'comment',
  'attachment.create': 'attachment',
  'attachment.modify': 'attachment',
};

/** A webhook's stored events said in another format's words (a change of format that names no events). */
export function eventsInFormat(events: string, from: WebhookFormat, to: WebhookFormat): string {
  if (from === to) return events;
  const given = new Set(events.split(','));
  const messages = Object.keys(BMO_EVENT_OF) as BmoMessage[];
  const [own, other] = to === 'bmo' ? [ACTION_OF, BMO_EVENT_OF] : [BMO_EVENT_OF, ACTION_OF];
  const said = new Set(messages.filter((message) => given.has(own[message])).map((message) => other[message]));
  return FORMAT_EVENTS[to].filter((event) => said.has(event)).join(',');
}
