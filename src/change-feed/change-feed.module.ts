import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { providingPorts } from '../common/modules/port.js';
import { BUG_CHANGE_FEED } from '../bug/bug-events.js';
import { BugModule } from '../bug/bug.module.js';
import { ChangeFeedController } from './change-feed.controller.js';
import { ChangeFeedRepository } from './change-feed.repository.js';
import { ChangeFeedService } from './change-feed.service.js';
import { BugChange } from './entities/bug-change.entity.js';

/**
 * The change feed (beyond Bugzilla 5.0, issue 44): the numbered bug changes (bug_changes), written through the bug
 * module's BUG_CHANGE_FEED port, and GET /rest/changes.
 */
@Module({
  imports: [TypeOrmModule.forFeature([BugChange]), BugModule],
  controllers: [ChangeFeedController],
  providers: [ChangeFeedService, ChangeFeedRepository],
})
export class ChangeFeedModule {
  /** As the composition root imports it: it provides the bug module's BUG_CHANGE_FEED port. */
  static forBug(): DynamicModule {
    return providingPorts(ChangeFeedModule, [{ token: BUG_CHANGE_FEED, implementation: ChangeFeedService }]);
  }
}
