import type { AppConfig } from '../config/app-config.js';
import type { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import type { BugVisibilityService } from '../bug/bug-visibility.service.js';
import type { BugChangeEvent } from '../bug/bug-events.js';
import type { ChangeFeedRepository } from './change-feed.repository.js';
import { ChangeFeedService } from './change-feed.service.js';

describe('ChangeFeedService.notify', () => {
  it('writes one numbered row per change, and prunes past the window (and a day) once in 500 changes', async () => {
    const added: unknown[] = [];
    const pruned: string[] = [];
    const repository = {
      add: async (_tx: Sql, rows: unknown[]) => void added.push(...rows),
      prune: async (_tx: Sql, before: string) => void pruned.push(before),
    } as unknown as ChangeFeedRepository;
    const config = { changeFeed: { retentionDays: 30, gapSeconds: 300 } } as AppConfig;
    const feed = new ChangeFeedService({} as Db, repository, {} as BugVisibilityService, config);
    const event = { action: 'modify', bugId: 7, changes: [{ field: 'status', removed: 'NEW', added: 'ASSIGNED' }], at: '2026-03-31 12:00:00' } as unknown as BugChangeEvent;
    for (let i = 0; i < 499; i++) await feed.notify({} as Sql, event);
    expect(pruned).toEqual([]);
    await feed.notify({} as Sql, event);
    expect(pruned).toEqual(['2026-02-28 12:00:00']);
    expect(added).toHaveLength(500);
    expect(added[0]).toEqual({ bugId: 7, kinds: 'update', changedAt: '2026-03-31 12:00:00' });
  });
});
