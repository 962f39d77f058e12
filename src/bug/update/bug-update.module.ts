import { Module } from '@nestjs/common';
import { BugModule } from '../bug.module.js';
import { ProductModule } from '../../product/product.module.js';
import { FieldModule } from '../../field/field.module.js';
import { FlagModule } from '../../flag/flag.module.js';
import { UserModule } from '../../user/user.module.js';
import { GroupModule } from '../../group/group.module.js';
import { BugUpdateController } from './bug-update.controller.js';
import { BugUpdateService } from './bug-update.service.js';
import { UpdateStateLoader } from './update-state.js';
import { FieldSteps } from './update-fields.js';
import { RelationSteps } from './update-relations.js';
import { WorkflowSteps } from './update-workflow.js';
import { CommentSteps } from './update-comments.js';
import { FlagSteps } from './update-flags.js';
import { BugUpdateRepository } from './bug-update.repository.js';

/**
 * Update Bug. A module of its own on top of BugModule (whose visibility rule, loader, change recorder and comment
 * service it uses), so that the bug core and the update evolve without editing each other's module. Its changes are
 * published through BugModule's BugEventsService (mail and webhooks listen; bug-events.ts).
 */
@Module({
  imports: [BugModule, ProductModule, FieldModule, FlagModule, UserModule, GroupModule],
  controllers: [BugUpdateController],
  providers: [BugUpdateService, BugUpdateRepository, UpdateStateLoader, FieldSteps, RelationSteps, WorkflowSteps, CommentSteps, FlagSteps],
})
export class BugUpdateModule {}
