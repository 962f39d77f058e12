import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Caller } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { storedTimeMs, toDbDateTime } from '../common/time/datetime.js';
import { Clock } from '../common/time/clock.js';
import { AppConfig } from '../config/app-config.js';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import { idOf, type BugChangeEvent, type BugChangeFeed } from '../bug/bug-events.js';
import { BugVisibilityService } from '../bug/bug-visibility.service.js';
import { SITE_SECRET_PARAMETER } from '../params/parameter-definitions.js';
import { ChangeFeedRepository, type ChangeRow, type NewChange } from './change-feed.repository.js';
import { CHANGE_KINDS, kindsOf, type ChangeKind } from './change-kinds.js';
import { advance, cursorOf, positionOf, type FeedPosition, type Reader } from './feed-position.js';

/** GET /rest/changes answers this many changes by default, and at most MAX_PAGE. */
export const DEFAULT_PAGE = 100;
export const MAX_PAGE = 1000;
/** The most change numbers a cursor keeps waiting for (its size stays under a few kilobytes). */
const MAX_MISSING = 100;
/** How far back a cursor given without `since` looks for numbers still being written. */
const START_WINDOW = 1000;
/** How often a serving instance prunes the changes past the retained window. */
const PRUNE_INTERVAL_MS = 3600_000;
const DAY_SECONDS = 86_400;

/** One entry of the feed: a bug that changed (with what changed), or one that left the caller's view. */
export type FeedEntry = { id: number; kinds: ChangeKind[] } | { id: number; gone: true };

export interface FeedPage {
  changes: FeedEntry[];
  /** Where the next read starts (`since`). */
  cursor: string;
  /** Whether more changes wait past this page. */
  more: boolean;
}

/**
 * The change feed (issue 44): a row per bug change, written in the change's transaction (BUG_CHANGE_FEED), and the
 * feed read by mirrors, in commit order, through the visibility rule of Get Bug. Why the numbers can be trusted on
 * MariaDB, with two instances and read replicas: docs/mirror.md, "How the feed and the cursors work".
 */
@Injectable()
export class ChangeFeedService implements BugChangeFeed, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ChangeFeed');
  private pruneTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly repository: ChangeFeedRepository,
    private readonly visibility: BugVisibilityService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** Serving instances prune hourly, in a transaction of its own (the admin command line does not). */
  onApplicationBootstrap(): void {
    if (!this.adapterHost.httpAdapter) return;
    const prune = () => this.pruneExpired().catch((err) => this.logger.error(`Change feed pruning failed: ${err instanceof Error ? err.message : String(err)}`));
    this.pruneTimer = setInterval(() => void prune(), PRUNE_INTERVAL_MS);
    this.pruneTimer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.pruneTimer);
  }

  /**
   * Deletes the changes older than the retained window and a day: a cursor inside the window never needs one
   * (docs/mirror.md, "How the feed and the cursors work").
   */
  async pruneExpired(): Promise<void> {
    const before = this.clock.now().getTime() - (this.config.changeFeed.retentionDays + 1) * DAY_SECONDS * 1000;
    await this.db.transaction((tx) => this.repository.prune(tx, toDbDateTime(new Date(before))));
  }

  async notify(tx: Sql, event: BugChangeEvent): Promise<void> {
    await this.write(tx, [{ bugId: event.newBugId ?? await idOf(event.bugId), kinds: kindsOf(event).join(',') }], event.at);
  }

  async touched(tx: Sql, bugIds: readonly number[], at: string): Promise<void> {
    await this.write(tx, bugIds.map((bugId) => ({ bugId, kinds: 'update' })), at);
  }

  /** The changes of one write (its one timestamp `at`). */
  private async write(tx: Sql, changes: ReadonlyArray<Omit<NewChange, 'changedAt'>>, at: string): Promise<void> {
    if (changes.length) await this.repository.add(tx, changes.map((change) => ({ ...change, changedAt: at })));
  }

  /** The changes after `since` (from now on without it) that `caller` may know of, at most `limit`. */
  async read(caller: Caller, since: string | undefined, limit: number | undefined, now: Date): Promise<FeedPage> {
    const pageSize = Math.min(Math.max(limit ?? DEFAULT_PAGE, 1), MAX_PAGE);
    const secret = caller.parameters.get(SITE_SECRET_PARAMETER);
    const reader: Reader = { userId: caller.id, groupIds: caller.groupIds };
    const limits = { now: Math.floor(now.getTime() / 1000), gapSeconds: this.config.changeFeed.gapSeconds, maxMissing: MAX_MISSING };
    if (since === undefined || since === '') {
      const start = await this.start(limits);
      return { changes: [], cursor: cursorOf(start, reader, secret), more: false };
    }
    const from = positionOf(since, reader, secret);
    if (from === 'other_reader') throw TrackerError.of(Errors.CHANGE_CURSOR_RESYNC);
    if (typeof from === 'string') throw TrackerError.of(Errors.CURSOR_INVALID, { param: 'since' });
    await this.checkRetained(from, limits.now);
    const rows = await this.repository.page(this.db.read, from.high, from.missing.map(([id]) => id), pageSize);
    const { delivered, next, blocked } = advance(from, rows.map(numbered), limits);
    return { changes: await this.entries(caller, delivered), cursor: cursorOf(next, reader, secret), more: rows.length === pageSize && !blocked };
  }

  /** The position after every change written so far, still waiting for the numbers of transactions not yet committed. */
  private async start(limits: Parameters<typeof advance>[2]): Promise<FeedPosition> {
    const recent = (await this.repository.newest(this.db.read, START_WINDOW)).map(numbered).reverse();
    if (!recent.length) return { high: 0, highAt: 0, missing: [] };
    // From the oldest of the window, over the others: the holes between them are the numbers still being written.
    const [oldest, ...later] = recent;
    return advance({ high: oldest.id, highAt: oldest.at, missing: [] }, later, limits).next;
  }

  /** A position older than the window may have lost changes to pruning: then the client must resync. */
  private async checkRetained(from: FeedPosition, now: number): Promise<void> {
    const { retentionDays } = this.config.changeFeed;
    if (from.highAt >= now - retentionDays * DAY_SECONDS) return;
    const lowest = await this.repository.lowest(this.db.read);
    if (lowest !== null && lowest > from.high + 1) throw TrackerError.of(Errors.CHANGE_CURSOR_EXPIRED, { days: retentionDays });
  }

  /** One entry per bug, where its last change of the page falls: what changed if the caller may see it, else gone. */
  private async entries(caller: Caller, delivered: ReadonlyArray<ReturnType<typeof numbered>>): Promise<FeedEntry[]> {
    const byBug = new Map<number, Set<ChangeKind>>();
    for (const change of delivered) {
      const kinds = byBug.get(change.bugId) ?? new Set<ChangeKind>();
      byBug.delete(change.bugId);
      for (const kind of change.kinds) kinds.add(kind);
      byBug.set(change.bugId, kinds);
    }
    const visible = await this.visibility.visibleIds(caller, [...byBug.keys()]);
    return [...byBug].map(([id, kinds]) => (visible.has(id) ? { id, kinds: CHANGE_KINDS.filter((kind) => kinds.has(kind)) } : { id, gone: true as const }));
  }
}

function numbered(row: ChangeRow) {
  return { id: row.id, bugId: row.bugId, kinds: row.kinds.split(',').filter(Boolean) as ChangeKind[], at: Math.floor(storedTimeMs(row.changedAt) / 1000) };
}
