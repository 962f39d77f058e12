import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BugVisibilityService } from './bug-visibility.service.js';
import { ChangeRecorderService } from './change-recorder.service.js';
import { BugLoaderService } from './store/bug-loader.service.js';
import { BugService } from './bug.service.js';
import { BugStampsCompanion, BugStampsForWriteCompanion } from './store/bug-stamps.companion.js';
import { BugVisibilityCompanion } from './store/bug-visibility.companion.js';
import { BugGetAnswer } from './store/bug-get.answer.js';
import { BugHistoryService } from './bug-history.service.js';
import { BugController } from './bug.controller.js';
import { BugRepository } from './store/bug.repository.js';
import { BugUpdateRepository } from './store/bug-update.repository.js';
import { BugStoreService } from './store/bug-store.service.js';
import { BugLoaderRepository } from './store/bug-loader.repository.js';
import { BugVisibilityRepository } from './store/bug-visibility.repository.js';
import { BugHistoryRepository } from './bug-history.repository.js';
import { BugCriteriaRepository } from './bug-criteria.repository.js';
import { BUG_CRITERIA } from './bug.types.js';
import { Bug } from './entities/bug.entity.js';
import { BugActivity } from './entities/bug-activity.entity.js';
import { BugAlias } from './entities/bug-alias.entity.js';
import { BugCc } from './entities/bug-cc.entity.js';
import { BugCustomValue } from './entities/bug-custom-value.entity.js';
import { BugDependency } from './entities/bug-dependency.entity.js';
import { BugRegression } from './entities/bug-regression.entity.js';
import { BugDuplicate } from './entities/bug-duplicate.entity.js';
import { BugGroup } from './entities/bug-group.entity.js';
import { BugKeyword } from './entities/bug-keyword.entity.js';
import { BugLastVisit } from './entities/bug-last-visit.entity.js';
import { BugSeeAlso } from './entities/bug-see-also.entity.js';
import { BugTag } from './entities/bug-tag.entity.js';
import { Tag } from './entities/tag.entity.js';
import { ProductModule } from '../product/product.module.js';
import { FieldModule } from '../field/field.module.js';
import { FlagModule } from '../flag/flag.module.js';
import { GroupModule } from '../group/group.module.js';
import { UserModule } from '../user/user.module.js';
import { BugEditsService } from './store/bug-edits.service.js';
import { BugEventsService } from './bug-events.service.js';

/**
 * Bugs, stored and shown: the bug tables (entities/, owned here), Get Bug and history, and the shared pieces every
 * module that shows or changes bugs uses: the visibility rule, the page loader with its kept bugs, the presenter, the
 * change recorder, the events. Writing bugs (Create and Update Bug: src/bug-write) and Search Bugs (src/bug-search)
 * are modules of their own on top of this one; they write the bug tables through BugStoreService, never a repository.
 * The bug store (store/) is where reading and writing bugs meets the speed machinery (kept bugs, companion reads,
 * held rows, the kept Get Bug answer): the rest of the bug modules say what they read and write, and leave the how
 * to it, to src/database and to src/common (eslint.config.js, machineryBoundary).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Bug, BugActivity, BugAlias, BugCc, BugCustomValue, BugDependency, BugRegression, BugDuplicate, BugGroup, BugKeyword, BugLastVisit, BugSeeAlso, BugTag, Tag]),
    ProductModule, FieldModule, FlagModule, UserModule, GroupModule,
  ],
  controllers: [BugController],
  providers: [
    BugRepository, BugUpdateRepository, BugLoaderRepository, BugVisibilityRepository, BugHistoryRepository,
    BugVisibilityService, ChangeRecorderService, BugLoaderService, BugService, BugHistoryService, BugStoreService,
    BugEditsService, BugEventsService, BugStampsCompanion, BugStampsForWriteCompanion, BugVisibilityCompanion, BugGetAnswer,
    { provide: BUG_CRITERIA, useClass: BugCriteriaRepository },
  ],
  exports: [BugVisibilityService, BugVisibilityCompanion, BugStampsForWriteCompanion, ChangeRecorderService, BugLoaderService, BugStoreService, BugEditsService, BugEventsService, BugService, BugHistoryService, BUG_CRITERIA],
})
export class BugModule {}
