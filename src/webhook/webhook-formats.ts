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

const TRACKER_TO_BMO: Readonly<Record<string, readonly string[]>> = {
  create: ['create'], modify: ['change'], comment: ['comment'], attachment: ['attachment', 'attachment_change'],
};
const BMO_TO_TRACKER: Readonly<Record<string, string>> = {
  create: 'create', change: 'modify', comment: 'comment', attachment: 'attachment', attachment_change: 'attachment',
};

/** A webhook's stored events said in another format's words (a change of format that names no events). */
export function eventsInFormat(events: string, from: WebhookFormat, to: WebhookFormat): string {
  if (from === to) return events;
  const given = events.split(',');
  const said = new Set(given.flatMap((event) => (to === 'bmo' ? TRACKER_TO_BMO[event] ?? [] : [BMO_TO_TRACKER[event]])));
  return FORMAT_EVENTS[to].filter((event) => said.has(event)).join(',');
}
