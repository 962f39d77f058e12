import type { AppConfig } from '../config/app-config.js';
import type { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import type { BugVisibilityService } from '../bug/bug-visibility.service.js';
import type { BugChangeEvent } from '../bug/bug-events.js';
import type { ChangeFeedRepository } from './change-feed.repository.js';
import { ChangeFeedService } from './change-feed.service.js';
import type { Clock } from '../common/time/clock.js';
import type { HttpAdapterHost } from '@nestjs/core';

describe('ChangeFeedService', () => {
  const config = { changeFeed: { retentionDays: 30, gapSeconds: 300 } } as AppConfig;
  const at = '2026-03-31 12:00:00';

  it('writes one numbered row per change, in the change\'s transaction', async () => {
    const added: unknown[] = [];
    const repository = { add: async (_tx: Sql, rows: unknown[]) => void added.push(...rows) } as unknown as ChangeFeedRepository;
    const feed = new ChangeFeedService({} as Db, repository, {} as BugVisibilityService, config, {} as Clock, {} as HttpAdapterHost);
    const event = { action: 'modify', bugId: 7, changes: [{ field: 'status', removed: 'NEW', added: 'ASSIGNED' }], at } as unknown as BugChangeEvent;
    await feed.notify({} as Sql, event);
    await feed.touched({} as Sql, [8, 9], at);
    expect(added).toEqual([
      { bugId: 7, kinds: 'update', changedAt: at },
      { bugId: 8, kinds: 'update', changedAt: at },
      { bugId: 9, kinds: 'update', changedAt: at },
    ]);
  });

  it('prunes what is older than the retained window and a day, in a transaction of its own', async () => {
    const pruned: string[] = [];
    const repository = { prune: async (_tx: Sql, before: string) => void pruned.push(before) } as unknown as ChangeFeedRepository;
    const db = { transaction: async <T>(work: (tx: Sql) => Promise<T>) => work({} as Sql) } as unknown as Db;
    const clock = { now: () => new Date('2026-03-31T12:00:00Z') };
    await new ChangeFeedService(db, repository, {} as BugVisibilityService, config, clock, {} as HttpAdapterHost).pruneExpired();
    expect(pruned).toEqual(['2026-02-28 12:00:00']);
  });
});
