import { Module, type DynamicModule } from '@nestjs/common';
import { providingPorts } from '../common/modules/port.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BUG_ATTACHMENTS } from '../bug/bug-attachments.js';
import { AttachmentRepository } from './attachment.repository.js';
import { AttachmentService } from './attachment.service.js';
import { AttachmentData } from './entities/attachment-data.entity.js';
import { Attachment } from './entities/attachment.entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([Attachment, AttachmentData])],
  providers: [AttachmentRepository, AttachmentService],
  exports: [AttachmentService],
})
export class AttachmentModule {
  /**
   * The attachment module as the composition root imports it: it provides the bug module's BUG_ATTACHMENTS port
   * (Bug history hides changes of private attachments). Bug cannot import attachment (attachments hang on bugs),
   * so that one token, and nothing else of attachment, is made visible app-wide.
   */
  static forBug(): DynamicModule {
    return providingPorts(AttachmentModule, [{ token: BUG_ATTACHMENTS, implementation: AttachmentService }]);
  }
}
