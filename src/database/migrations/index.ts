import { InitialSchema1763700000000 } from './1763700000000-InitialSchema.js';
import { SettingsMark1795466839342 } from './1795466839342-SettingsMark.js';
import { SearchIndexes1795468040515 } from './1795468040515-SearchIndexes.js';
import { RateLimitBuckets1795482280987 } from './1795482280987-RateLimitBuckets.js';
import { Webhooks1795653222536 } from './1795653222536-Webhooks.js';
import { BugRevision1795695313193 } from './1795695313193-BugRevision.js';
import { ClassificationFieldType1795740000000 } from './1795740000000-ClassificationFieldType.js';
import { BmoBugFields1795880655902 } from './1795880655902-BmoBugFields.js';
import { ChangeFeed1795880866889 } from './1795880866889-ChangeFeed.js';
import { WebhookBmoShape1795881491298 } from './1795881491298-WebhookBmoShape.js';

/** Every migration, in order. Listed explicitly: ES modules cannot be globbed by TypeORM. */
export const migrations = [InitialSchema1763700000000, SettingsMark1795466839342, SearchIndexes1795468040515, RateLimitBuckets1795482280987, Webhooks1795653222536, BugRevision1795695313193, ClassificationFieldType1795740000000, BmoBugFields1795880655902, ChangeFeed1795880866889, WebhookBmoShape1795881491298];
