import { Module } from '@nestjs/common';
import { BugVisibilityService } from './bug-visibility.service.js';
import { ChangeRecorderService } from './change-recorder.service.js';
import { BugLoaderService } from './bug-loader.service.js';
import { BugService } from './bug.service.js';
import { BugHistoryService } from './bug-history.service.js';
import { BugCreateService } from './bug-create.service.js';
import { BugSearchService } from './search/bug-search.service.js';
import { BugController } from './bug.controller.js';
import { CommentModule } from '../comment/comment.module.js';
import { ProductModule } from '../product/product.module.js';
import { FieldModule } from '../field/field.module.js';
import { FlagModule } from '../flag/flag.module.js';
import { GroupModule } from '../group/group.module.js';
import { UserModule } from '../user/user.module.js';

/**
 * Bugs: create, get, search, history (Update Bug is its own module, update/), with the shared pieces every module
 * that shows or changes bugs uses: the visibility rule, the page loader and the change recorder.
 */
@Module({
  imports: [CommentModule, ProductModule, FieldModule, FlagModule, UserModule, GroupModule],
  controllers: [BugController],
  providers: [BugVisibilityService, ChangeRecorderService, BugLoaderService, BugService, BugHistoryService, BugCreateService, BugSearchService],
  exports: [BugVisibilityService, ChangeRecorderService, BugLoaderService, CommentModule],
})
export class BugModule {}
