import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { KeptReads } from '../common/kept-reads.js';
import type { Caller } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { toApiDateTime, toDbDateTime } from '../common/time/datetime.js';
import { AppConfig } from '../config/app-config.js';
import { CommitSignals } from '../database/commit-signals.js';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import { idOf, type BugAction, type BugChangeEvent, type BugChangeListener } from '../bug/bug-events.js';
import { BugVisibilityService } from '../bug/bug-visibility.service.js';
import { ProductService } from '../product/product.service.js';
import { UserService } from '../user/user.service.js';
import type { WebhookInput } from './dto/webhook.dto.js';
import type { Webhook, WebhookFormat } from './entities/webhook.entity.js';
import type { WebhookDelivery } from './entities/webhook-delivery.entity.js';
import type { WebhookState } from './entities/webhook-state.entity.js';
import type { BmoMessage } from './bmo-payload.js';
import { internalAddressOf } from './webhook-http.js';
import { ACTION_OF, BMO_EVENT_OF, eventsInFormat, FORMAT_EVENTS, WEBHOOK_FORMATS } from './webhook-formats.js';
import { WebhookRepository, type WebhookChange } from './webhook.repository.js';

/** The commit-signal channel of the webhook outbox (CommitSignals). */
export const WEBHOOK_CHANNEL = 'webhooks';

/** A product or component filter of this name is no filter (BMO's word). */
const ANY = 'Any';

const MAX_NAME_LENGTH = 255;
/** An HTTP header name (RFC 9110 token), and the headers a delivery sets itself (never replaced by an API key header). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
const OWN_HEADERS = /^(content-type|content-length|host|user-agent|connection|transfer-encoding|x-tracker-.*)$/i;
const MAX_API_KEY_VALUE_LENGTH = 255;
const MAX_URL_LENGTH = 2000;
/** GET /rest/webhook/{id}/deliveries answers this many by default, and at most MAX_DELIVERIES_LISTED. */
const DEFAULT_DELIVERIES_LISTED = 50;
const MAX_DELIVERIES_LISTED = 500;

/** A delivery's event as it happened, stored with the delivery (WebhookDelivery.event). */
export interface StoredEvent {
  changerId: number;
  /** The change's one timestamp, DB format. */
  at: string;
  changes: ReadonlyArray<{ field: string; removed: string; added: string }>;
  /** The comment the change added (shown to the owner if they may read it). */
  commentId?: number;
  attachment?: { id: number; isNew: boolean };
  /** A `bmo` webhook's delivery: which of BMO's messages it is. */
  message?: BmoMessage;
}

/** One delivery an event makes for a webhook: the action it is logged under, and the event as stored. */
interface EventDelivery {
  action: BugAction;
  stored: StoredEvent;
}

/**
 * Webhooks (beyond Bugzilla 5.0): each user manages their own, an administrator all of them. Every bug change queues
 * one delivery per matching webhook in the change's own transaction (the outbox); WebhookDeliveryService sends them.
 */
@Injectable()
export class WebhookService implements BugChangeListener {
  private readonly kept = new KeptReads(1);

  constructor(
    private readonly db: Db,
    private readonly repository: WebhookRepository,
    private readonly products: ProductService,
    private readonly users: UserService,
    private readonly visibility: BugVisibilityService,
    private readonly config: AppConfig,
    private readonly signals: CommitSignals,
  ) {}

  async list(caller: Caller): Promise<Record<string, unknown>[]> {
    return this.present(await this.repository.list(this.db.read, isAdmin(caller) ? undefined : caller.id));
  }

  /**
   * GET /rest/webhooks/list, BMO's answer: the caller's own webhooks (an administrator's too: BMO lists by owner),
   * filters named or `Any`, and `errors` as BMO's backlog: the deliveries waiting while the webhook fails.
   */
  async listBmo(caller: Caller): Promise<Record<string, unknown>[]> {
    const webhooks = await this.repository.list(this.db.read, caller.id);
    const { filters, pending, states } = await this.surroundings(webhooks);
    return webhooks.map((w) => ({
      id: w.id,
      creator: caller.user?.login ?? '',
      name: w.name,
      url: w.url,
      event: w.events,
      product: filters(w).product ?? ANY,
      component: filters(w).component ?? ANY,
      enabled: w.enabled,
      errors: (states.get(w.id)?.consecutiveFailures ?? 0) > 0 ? (pending.get(w.id) ?? 0) : 0,
    }));
  }

  async get(caller: Caller, id: string): Promise<Record<string, unknown>> {
    const [view] = await this.present([await this.ownWebhook(caller, id)]);
    return view;
  }

  async create(caller: Caller, input: WebhookInput, now: Date): Promise<{ id: number; secret: string }> {
    for (const param of ['name', 'url', 'events'] as const) {
      if (input[param] === undefined) throw TrackerError.of(Errors.PARAM_REQUIRED, { function: 'Webhook.create', param });
    }
    const values = await this.checked(caller, input, undefined);
    const secret = randomBytes(32).toString('hex');
    const at = toDbDateTime(now);
    const id = await this.db.transaction((tx) => this.repository.insert(tx, {
      ownerId: caller.id, name: values.name!, url: values.url!, secret, format: values.format ?? 'tracker', events: values.events!,
      productId: values.productId ?? null, componentId: values.componentId ?? null, enabled: values.enabled ?? true,
      apiKeyHeader: values.apiKeyHeader ?? null, apiKeyValue: values.apiKeyValue ?? null,
      disabledReason: null, createdAt: at,
    }));
    return { id, secret };
  }

  /**
   * Changes a webhook. Enabling one clears its failure state and makes its backlog due at once (it drains in order);
   * disabling it by hand stops the queueing of new events too.
   */
  async update(caller: Caller, id: string, input: WebhookInput): Promise<Record<string, unknown>> {
    const webhook = await this.ownWebhook(caller, id);
    const values = await this.checked(caller, input, webhook);
    const change: WebhookChange = { ...values };
    // A change of format that names no events keeps the same events, said in the new format's words.
    if (values.format !== undefined && values.events === undefined) change.events = eventsInFormat(webhook.events, webhook.format, values.format);
    const enabling = values.enabled === true && !webhook.enabled;
    if (enabling || values.enabled === false) change.disabledReason = null;
    await this.db.transaction(async (tx) => {
      if (Object.keys(change).length) await this.repository.change(tx, webhook.id, change);
      if (enabling) {
        await this.repository.changeState(tx, webhook.id, { consecutiveFailures: 0 });
        await this.repository.makeBacklogDue(tx, webhook.id, Date.now());
        this.signals.afterCommitOf(tx, WEBHOOK_CHANNEL);
      }
    });
    return this.get(caller, id);
  }

  async remove(caller: Caller, id: string): Promise<{ id: number }> {
    const webhook = await this.ownWebhook(caller, id);
    await this.db.transaction((tx) => this.repository.delete(tx, webhook.id));
    return { id: webhook.id };
  }

  /**
   * A webhook's recent deliveries, newest first: what was sent, when, and how the receiver answered. Only those about
   * bugs the caller may see, by the rule the payloads follow (Get Bug's): a bug's id, the action and the time are
   * already something about it. Read a page at a time, each page's bugs checked in one statement, until `limit` are
   * shown or none is left.
   */
  async deliveries(caller: Caller, id: string, limit: unknown): Promise<Record<string, unknown>[]> {
    const webhook = await this.ownWebhook(caller, id);
    const count = limit === undefined || limit === '' ? DEFAULT_DELIVERIES_LISTED : Number(limit);
    if (!Number.isInteger(count) || count < 1) throw TrackerError.of(Errors.PARAM_MUST_BE_NUMERIC, { function: 'Webhook.deliveries', param: 'limit' });
    const wanted = Math.min(count, MAX_DELIVERIES_LISTED);
    const shown: WebhookDelivery[] = [];
    for (let before: number | undefined; ;) {
      const page = await this.repository.recentDeliveries(this.db.read, webhook.id, wanted, before);
      const visible = await this.visibility.visibleIds(caller, page.map((delivery) => delivery.bugId));
      shown.push(...page.filter((delivery) => visible.has(delivery.bugId)).slice(0, wanted - shown.length));
      if (shown.length === wanted || page.length < wanted) return shown.map(presentDelivery);
      before = page[page.length - 1].id;
    }
  }

  /**
   * Queues one delivery per webhook this event matches (per attachment, for an attachment event), in `tx`. The
   * webhooks are kept under the settings mark: while none changes, a bug change spends no statement on them.
   */
  async notify(tx: Sql, event: BugChangeEvent): Promise<void> {
    const collecting = await this.kept.through(event.settingsMark, 'collectingWebhooks', [], () => this.repository.collecting(tx));
    const filtered = (w: Webhook) => (w.productId === null || w.productId === event.productId) && (w.componentId === null || w.componentId === event.componentId);
    const tracker = collecting.filter((w) => w.format === 'tracker' && w.events.split(',').includes(event.action) && filtered(w));
    const bmo = collecting.filter((w) => w.format === 'bmo');
    if (!tracker.length && !bmo.length) return;
    const perWebhook = new Map<Webhook, EventDelivery[]>();
    if (tracker.length) {
      const stored = (await storedEvents(event)).map((s) => ({ action: event.action, stored: s }));
      for (const webhook of tracker) perWebhook.set(webhook, stored);
    }
    if (bmo.length) {
      const messages = bmoMessages(event);
      const movedFrom = bmo.some((w) => w.productId !== null) ? await this.movedFrom(event, messages) : undefined;
      for (const webhook of bmo) {
        const events = webhook.events.split(',');
        const wanted = messages.filter(({ stored }) => events.includes(BMO_EVENT_OF[stored.message!])
          && (filtered(webhook) || (stored.message === 'bug.modify' && wasIn(webhook, movedFrom))));
        if (wanted.length) perWebhook.set(webhook, wanted);
      }
      // The comment's id is asked for (its write may be held: docs/performance.md) only when a webhook wants it.
      const comment = messages.find((m) => m.stored.message === 'comment.create');
      if (comment && [...perWebhook.values()].some((deliveries) => deliveries.includes(comment))) comment.stored.commentId = await idOf(event.comment!.id);
    }
    if (!perWebhook.size) return;
    const bugId = await idOf(event.bugId);
    const now = Date.now();
    await this.repository.addDeliveries(tx, [...perWebhook].flatMap(([webhook, deliveries]) => deliveries.map(({ action, stored }) => ({
      webhookId: webhook.id, bugId, deliveryId: randomUUID(), action, event: JSON.stringify(stored),
      payload: null, state: 'pending' as const, attempts: 0, nextAttemptAt: now, createdAt: event.at,
      lastAttemptAt: null, lastStatus: null, lastError: null, finishedAt: null,
    }))));
    this.signals.afterCommitOf(tx, WEBHOOK_CHANNEL);
  }

  /**
   * Where a bug change moved the bug from, when it changed its product or component: BMO also tells a webhook of the
   * product (and component, or Any) the bug left. Read only for such a change.
   */
  private async movedFrom(event: BugChangeEvent, messages: readonly EventDelivery[]): Promise<{ productId: number; componentId: number | undefined } | undefined> {
    const modify = messages.find((m) => m.stored.message === 'bug.modify');
    const removedOf = (field: string) => modify?.stored.changes.find((c) => c.field === field)?.removed ?? '';
    const [product, component] = [removedOf('product'), removedOf('component')];
    if (!product && !component) return undefined;
    const productId = product ? (await this.products.findByName(product))?.id : event.productId;
    if (productId === undefined) return undefined;
    const componentId = component ? (await this.products.componentByName(productId, component))?.id : undefined;
    return { productId, componentId };
  }

  /** The webhook `id` if the caller owns it or is an administrator; otherwise as if it did not exist. */
  private async ownWebhook(caller: Caller, id: string): Promise<Webhook> {
    const webhook = /^\d+$/.test(id.trim()) ? await this.repository.byId(this.db.read, Number(id)) : null;
    if (!webhook || (webhook.ownerId !== caller.id && !isAdmin(caller))) throw TrackerError.of(Errors.WEBHOOK_NOT_FOUND, { id });
    return webhook;
  }

  /**
   * The input's values, checked, as columns; `current` is the webhook being changed (its product for a component).
   * A product filter must be one of the caller's accessible products: one they cannot see answers as one that does
   * not exist (106), as everywhere.
   */
  private async checked(caller: Caller, input: WebhookInput, current: Webhook | undefined): Promise<WebhookChange> {
    const values: WebhookChange = {};
    if (input.name !== undefined) {
      const name = input.name.trim();
      if (!name) throw TrackerError.of(Errors.PARAM_REQUIRED, { function: 'Webhook', param: 'name' });
      if (name.length > MAX_NAME_LENGTH) throw TrackerError.of(Errors.WEBHOOK_NAME_TOO_LONG);
      values.name = name;
    }
    if (input.url !== undefined) values.url = await this.checkedUrl(input.url.trim());
    if (input.format !== undefined) {
      const format = input.format.trim().toLowerCase() as WebhookFormat;
      if (!WEBHOOK_FORMATS.includes(format)) throw TrackerError.of(Errors.WEBHOOK_FORMAT_INVALID, { format: input.format });
      values.format = format;
    }
    if (input.events !== undefined) {
      const allowed = FORMAT_EVENTS[values.format ?? current?.format ?? 'tracker'];
      const events = [...new Set(input.events.map((e) => e.trim().toLowerCase()))];
      const unknown = events.find((e) => !allowed.includes(e));
      if (unknown !== undefined || !events.length) throw TrackerError.of(Errors.WEBHOOK_EVENTS_INVALID, { event: unknown, events: allowed.join(', ') });
      values.events = allowed.filter((e) => events.includes(e)).join(',');
    }
    if (input.product !== undefined) {
      const name = input.product.trim() === ANY ? '' : input.product.trim();
      const product = name ? await this.products.findByName(name) : undefined;
      if (name && (!product || !(await this.products.canAccess(caller, product.id)))) throw TrackerError.of(Errors.PRODUCT_ACCESS_DENIED, { product: name });
      values.productId = product?.id ?? null;
      if (values.productId !== current?.productId && input.component === undefined) values.componentId = null;
    }
    if (input.component !== undefined) {
      const name = input.component.trim() === ANY ? '' : input.component.trim();
      const productId = values.productId !== undefined ? values.productId : (current?.productId ?? null);
      if (name && productId === null) throw TrackerError.of(Errors.PARAM_REQUIRED, { function: 'Webhook', param: 'product' });
      const component = name && productId !== null ? await this.products.componentByName(productId, name) : undefined;
      if (name && !component) {
        const product = (await this.products.findByIds([productId!])).get(productId!);
        throw TrackerError.of(Errors.PRODUCT_UNKNOWN_COMPONENT, { product: product?.name, component: name });
      }
      values.componentId = component?.id ?? null;
    }
    if (input.enabled !== undefined) values.enabled = input.enabled;
    Object.assign(values, checkedApiKey(input, current));
    return values;
  }

  private async checkedUrl(text: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw TrackerError.of(Errors.WEBHOOK_URL_INVALID, { url: text });
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || text.length > MAX_URL_LENGTH) throw TrackerError.of(Errors.WEBHOOK_URL_INVALID, { url: text });
    if (!this.config.webhooks.allowPrivate) {
      const address = await internalAddressOf(url);
      if (address !== undefined) throw TrackerError.of(Errors.WEBHOOK_URL_INTERNAL, { url: text, address });
    }
    return text;
  }

  /** The public shape of webhooks, with their state: owners, filters and queue depths read in one query each. */
  private async present(webhooks: readonly Webhook[]): Promise<Record<string, unknown>[]> {
    const [owners, { filters, pending, states }] = await Promise.all([this.users.findByIds(webhooks.map((w) => w.ownerId)), this.surroundings(webhooks)]);
    return webhooks.map((w) => ({
      id: w.id,
      name: w.name,
      url: w.url,
      format: w.format,
      events: w.events.split(','),
      product: filters(w).product ?? null,
      component: filters(w).component ?? null,
      enabled: w.enabled,
      api_key_header: w.apiKeyHeader,
      owner: owners.get(w.ownerId)?.login ?? null,
      creation_time: toApiDateTime(w.createdAt),
      state: presentState(w, states.get(w.id), pending.get(w.id) ?? 0),
    }));
  }

  /** What both listings show beside the rows: the filters' names, queue depths and states, read in one query each. */
  private async surroundings(webhooks: readonly Webhook[]) {
    const ids = webhooks.map((w) => w.id);
    const [products, components, pending, states] = await Promise.all([
      this.products.findByIds(webhooks.flatMap((w) => (w.productId === null ? [] : [w.productId]))),
      this.products.componentsByIds(webhooks.flatMap((w) => (w.componentId === null ? [] : [w.componentId]))),
      this.repository.pendingCounts(this.db.read, ids),
      this.repository.states(this.db.read, ids),
    ]);
    const filters = (w: Webhook) => ({
      product: w.productId === null ? undefined : products.get(w.productId)?.name,
      component: w.componentId === null ? undefined : components.get(w.componentId)?.name,
    });
    return { filters, pending, states };
  }
}

const isAdmin = (caller: Caller) => caller.inGroup('admin');

/** The deliveries an event makes per webhook: one, or one per attachment (each with the changes of its own). */
async function storedEvents(event: BugChangeEvent): Promise<StoredEvent[]> {
  const base = { changerId: event.changerId, at: event.at };
  const plain = (changes: BugChangeEvent['changes']) => changes.map(({ field, removed, added }) => ({ field, removed, added }));
  if (!event.attachments?.length) return [{ ...base, commentId: event.comment && (await idOf(event.comment.id)), changes: plain(event.changes) }];
  return Promise.all(event.attachments.map(async ({ id, isNew, commentId }, index) => ({
    ...base,
    commentId: commentId === undefined ? undefined : await idOf(commentId),
    attachment: { id, isNew },
    // Changes of the bug itself (requestees joining cc) travel with the first attachment's delivery.
    changes: plain(event.changes.filter((c) => c.attachmentId === id || ((c.attachmentId ?? null) === null && index === 0))),
  })));
}

/**
 * The deliveries an event makes per `bmo` webhook: BMO's messages. A change makes `bug.modify` when it changed fields
 * and `comment.create` for the comment it added (BMO sends both; its id set once a webhook wants it); an attachment
 * `attachment.create` or `attachment.modify` with its own changes.
 */
function bmoMessages(event: BugChangeEvent): EventDelivery[] {
  const base = { changerId: event.changerId, at: event.at };
  const plain = (changes: BugChangeEvent['changes']) => changes.map(({ field, removed, added }) => ({ field, removed, added }));
  const of = (message: BmoMessage, stored: Omit<StoredEvent, 'changerId' | 'at' | 'message'>): EventDelivery =>
    ({ action: ACTION_OF[message], stored: { ...base, ...stored, message } });
  const commented = () => (event.comment && event.comment.text.trim() !== '' ? [of('comment.create', { changes: [] })] : []);
  switch (event.action) {
    case 'create':
      return [of('bug.create', { changes: [] })];
    case 'comment':
      return commented();
    case 'modify':
      return [...(event.changes.length ? [of('bug.modify', { changes: plain(event.changes) })] : []), ...commented()];
    case 'attachment':
      return (event.attachments ?? []).map(({ id, isNew }) => isNew
        ? of('attachment.create', { changes: [], attachment: { id, isNew } })
        : of('attachment.modify', { changes: plain(event.changes.filter((c) => c.attachmentId === id)), attachment: { id, isNew } }));
  }
}

/**
 * The API key header and value of the input, checked: both or neither (a header '' removes both); the name a token
 * that is not one of the delivery's own headers, the value one line.
 */
function checkedApiKey(input: WebhookInput, current: Webhook | undefined): Pick<WebhookChange, 'apiKeyHeader' | 'apiKeyValue'> {
  if (input.api_key_header === undefined && input.api_key_value === undefined) return {};
  const header = input.api_key_header !== undefined ? input.api_key_header.trim() : (current?.apiKeyHeader ?? '');
  const value = input.api_key_value !== undefined ? input.api_key_value.trim() : (current?.apiKeyValue ?? '');
  if (header === '' && input.api_key_header !== undefined) return { apiKeyHeader: null, apiKeyValue: null };
  const refuse = (param: string, why: string) => TrackerError.of(Errors.WEBHOOK_API_KEY_INVALID, { param, why });
  if (!HEADER_NAME.test(header)) throw refuse('api_key_header', 'a header name of letters, digits and -, 64 characters at most');
  if (OWN_HEADERS.test(header)) throw refuse('api_key_header', `${header} is a header every delivery sets itself`);
  if (!value || value.length > MAX_API_KEY_VALUE_LENGTH || [...value].some((c) => c < ' ' || c === '\u007f')) throw refuse('api_key_value', `one line of 1 to ${MAX_API_KEY_VALUE_LENGTH} characters`);
  return { apiKeyHeader: header, apiKeyValue: value };
}

/** Whether a `bmo` webhook filtered on the product (and component, or Any) a bug moved from. */
function wasIn(webhook: Webhook, movedFrom: { productId: number; componentId: number | undefined } | undefined): boolean {
  return movedFrom !== undefined && webhook.productId === movedFrom.productId
    && (webhook.componentId === null || webhook.componentId === movedFrom.componentId);
}

function presentState(webhook: Webhook, state: WebhookState | undefined, queueDepth: number): Record<string, unknown> {
  const failedAt = state?.lastFailureAt ?? null;
  return {
    status: webhook.enabled ? 'enabled' : 'disabled',
    disabled_reason: webhook.enabled ? null : (webhook.disabledReason ?? 'disabled by its owner'),
    consecutive_failures: state?.consecutiveFailures ?? 0,
    last_success_time: toApiDateTime(state?.lastSuccessAt),
    last_failure: failedAt === null ? null : { time: toApiDateTime(failedAt), status: state!.lastFailureStatus, error: state!.lastFailureError },
    queue_depth: queueDepth,
  };
}

function presentDelivery(row: WebhookDelivery): Record<string, unknown> {
  return {
    id: row.id,
    delivery_id: row.deliveryId,
    bug_id: row.bugId,
    action: row.action,
    state: row.state,
    attempts: row.attempts,
    creation_time: toApiDateTime(row.createdAt),
    last_attempt_time: toApiDateTime(row.lastAttemptAt),
    last_status: row.lastStatus,
    last_error: row.lastError,
    next_attempt_time: row.state === 'pending' ? toApiDateTime(new Date(row.nextAttemptAt)) : null,
    finished_time: toApiDateTime(row.finishedAt),
  };
}
