import { Module, type DynamicModule } from '@nestjs/common';
import { providingPorts } from '../common/modules/port.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BUG_ATTACHMENTS } from '../bug/bug-attachments.js';
import { BUG_ATTACHMENT_SEARCH } from '../bug-search/bug-search-sources.js';
import { AttachmentSearchRepository } from './attachment-search.repository.js';
import { AttachmentRepository } from './attachment.repository.js';
import { AttachmentService } from './attachment.service.js';
import { AttachmentViewService } from './attachment-view.service.js';
import { AttachmentController } from './attachment.controller.js';
import { ATTACHMENT_STORAGE, DatabaseAttachmentStorage } from './attachment-storage.js';
import { BugModule } from '../bug/bug.module.js';
import { BugRulesModule } from '../bug-rules/bug-rules.module.js';
import { FlagModule } from '../flag/flag.module.js';
import { ProductModule } from '../product/product.module.js';
import { UserModule } from '../user/user.module.js';
import { AttachmentData } from './entities/attachment-data.entity.js';
import { Attachment } from './entities/attachment.entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([Attachment, AttachmentData]), BugModule, BugRulesModule, FlagModule, ProductModule, UserModule],
  controllers: [AttachmentController],
  providers: [
    AttachmentRepository, AttachmentService, AttachmentViewService, AttachmentSearchRepository, DatabaseAttachmentStorage,
    // Where the contents live: the database by default; an object store is another implementation (docs/attachments.md).
    { provide: ATTACHMENT_STORAGE, useExisting: DatabaseAttachmentStorage },
  ],
  exports: [AttachmentService],
})
export class AttachmentModule {
  /**
   * The attachment module as the composition root imports it: it provides the bug module's BUG_ATTACHMENTS port
   * (Bug history hides changes of private attachments). Bug cannot import attachment (attachments hang on bugs),
   * so that one token, and nothing else of attachment, is made visible app-wide,
   * with AttachmentViewService for the modules above (webhooks read as their owners).
   */
  static forBug(): DynamicModule {
    return providingPorts(AttachmentModule, [
      { token: BUG_ATTACHMENTS, implementation: AttachmentService },
      // Search Bugs' attachment criteria (attachments.*, attach_data.thedata): bug-search's port
      { token: BUG_ATTACHMENT_SEARCH, implementation: AttachmentSearchRepository },
    ], [AttachmentViewService]);
  }
}
