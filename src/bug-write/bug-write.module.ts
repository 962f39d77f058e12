import { Module } from '@nestjs/common';
import { BugModule } from '../bug/bug.module.js';
import { ProductModule } from '../product/product.module.js';
import { FieldModule } from '../field/field.module.js';
import { FlagModule } from '../flag/flag.module.js';
import { UserModule } from '../user/user.module.js';
import { GroupModule } from '../group/group.module.js';
import { BugUpdateController } from './bug-update.controller.js';
import { BugUpdateService } from './bug-update.service.js';
import { UpdateStateLoader } from './update/update-state.js';
import { FieldSteps } from './update/update-fields.js';
import { RelationSteps } from './update/update-relations.js';
import { WorkflowSteps } from './update/update-workflow.js';
import { CommentSteps } from './update/update-comments.js';
import { FlagSteps } from './update/update-flags.js';
import { BugCreateController } from './bug-create.controller.js';
import { BugCreateService } from './bug-create.service.js';
import { BugCommentChangeService } from './bug-comment-change.service.js';
import { BugRulesModule } from '../bug-rules/bug-rules.module.js';

/**
 * Writing bugs: Create Bug, Update Bug (its steps in update/), and the changes of a bug's comments the comment module
 * asks for, checked by the rules of BugRulesModule. On top of BugModule, whose store (BugStoreService) writes the bug
 * tables and whose visibility rule, loader, change recorder and events it uses; its changes are published through
 * BugEventsService (mail and webhooks listen; bug-events.ts).
 */
@Module({
  imports: [BugModule, BugRulesModule, ProductModule, FieldModule, FlagModule, UserModule, GroupModule],
  controllers: [BugCreateController, BugUpdateController],
  providers: [
    BugCreateService, BugUpdateService, BugCommentChangeService,
    UpdateStateLoader, FieldSteps, RelationSteps, WorkflowSteps, CommentSteps, FlagSteps,
  ],
  exports: [BugCommentChangeService],
})
export class BugWriteModule {}
